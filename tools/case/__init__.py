"""make case: a printable case for the handheld's board, from hardware/pcb/placement.json.

Two shells screwed together round the board (ISO 7045 M2.5 x 25 pan-head screws from the
back, their heads in counterbores, through the four mounting holes into the top's bosses):
the top, with a hole over each switch for its printed cap, the OLED's window over the glass
(open 45 degrees outward, so that both players see all of it), a slot in the side for the
power switch's lever extension and an opening for the Pico's USB socket; the bottom, the
tray under the board and its batteries, with the battery door that slides into a dovetail
in its floor through a notch in its side, which the door's own piece of wall fills. The caps
and the lever extension are printed apart. Every part prints without supports.
Writes dist/case/california-speed-{top,bottom,door,caps,lever}.stl, every part where it sits
on the assembled handheld (mm; x to the right, y up from A's edge, z up from the board's
back): .venv/bin/python -m tools.case [--placement FILE] [--out DIR] [--picture PNG]
A table no case can be built from (a part off the board, switches on each other, a board
no 220 mm printer bed takes) is refused in a line; the parts are written whole, or none is.
The package: figures.py (each figure and its source), table.py (the placement table read
and checked), parts.py (the solids), output.py (the command and its files).
"""
