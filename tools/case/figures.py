"""The figures the case is built from, each with where it comes from: the parts' heights over
the board, the OLED module's published drawing, the switch under the caps, the screws, the
power switch's lever, and what a printer can print without supports."""
from tools.pcb import NAME, OLED_GLASS, PICO_L, PICO_W  # noqa: F401 (the case's inputs)

PCB_T = 1.6    # the board's thickness (KiCad's default, what the fab makes)
PICO_T = 1.0   # the Pico's own board (RP-008307-DS 2.1)

# The SSD1306 0.96 in module, as its makers publish it. The panel every such module carries:
# Univision's UG-2864HSWEG01 datasheet (Adafruit hosts it), 1.2 "Mechanical Data". The module
# round it: the published model of the common 4-pin module, JMD0.96A-2 (27.4 x 28 mm).
OLED = {
    "active": (21.744, 10.864),     # UG-2864HSWEG01: active area, 128 x 64 pixels at 0.17 mm
    "rows": 64,
    "panel": (26.70, 19.26, 1.45),  # UG-2864HSWEG01: the glass panel, its thickness
    "header": 2.5,                  # JMD0.96A-2: its pin header's plastic, on our board
    "board": 1.2,                   # JMD0.96A-2: the module's own board
    "tape": 0.1,                    # JMD0.96A-2: the panel's tape on that board
    "below_pins": 11.0,             # JMD0.96A-2: the active area's centre below the pins,
}                                   # centred on the four of them
GLASS_H = OLED["header"] + OLED["board"] + OLED["tape"] + OLED["panel"][2]  # 5.25 mm

# Each part's height over the face of the board it is on (mm), by its reference's letters.
# The plate over the front is set by the tallest part under it, the floor by the back's.
HEIGHTS = {
    "SW": 5.0,      # the switch hardware/bom.csv names (SWITCH): its actuator's top
    "D": 2.5,       # 1N4148 lying flat: DO-35 body 2.0 across (JEDEC DO-204AH), stand-off
    "DS": 3.0,      # 1N5817 lying flat: DO-41 body 2.7 across (JEDEC DO-204AL) on its leads
    "R": 3.0,       # resistor lying flat: DIN 0207 body 2.5 across (its KiCad footprint's name)
    "LS": 6.5,      # TDK PS1240P02BT piezo: 12.2 across, 6.5 high (its KiCad footprint's name)
    "SWP": 4.7,     # C&K OS102011MA1QN1, right angle: KiCad's 3D model of it (C&K's drawing)
    "U": 4.0,       # Raspberry Pi Pico soldered flat: its board and its micro-USB socket
    "J": GLASS_H,   # the OLED module on its own header, to the top of its glass (OLED)
    "BT": 13.0,     # Keystone 2479 3 x AAA holder with its cells: AAA 10.5 across (IEC
                    # R03) on the holder's floor and pins, rounded up
    "H": 0.0,       # mounting hole
}
AAA = 10.5  # a cell's diameter (IEC R03)
# A 1N5817 standing up is 8.5 mm: the case is built for it lying flat, which needs a
# footprint at least this long (KiCad's flat DO-41s are 10.3 mm or more, standing 8.2 or less).
DS_FLAT = 9.0

# The switch the caps are made for, by part number (hardware/bom.csv): C&K's PTS645 datasheet,
# "actuator height to PCB", 50 = 5.0 mm, through-hole; its stem 3.5 across.
SWITCH = "C&K PTS645SM50-2 LFS"
SW_BODY = 6.0         # its body is 6 x 6 mm

# ISO 7045 pan-head screws, M2.5 x 25 (hardware/bom.csv): the head 5.0 across and 1.75 high
# (the standard's maxima); from the back, through the board, into the top's bosses.
SCREW_L = 25.0
HEAD = (5.0, 1.75)
COUNTERBORE = (5.6, 2.0)  # 0.3 mm round the head, 0.25 under it
SCREW_R = 1.45            # ISO 273 medium clearance for M2.5
PILOT_R = 1.05            # M2.5 self-tapping into the top's bosses
TIP_SKIN = 1.0            # the top's plate left over a screw's tip

# The power switch's lever (KiCad's 3D model of SW_Slide_SPDT_Angled_CK_OS102011MA1Q, from
# pad 1): 2 mm wide at x 0..2, out of the body at y 2.2 to its tip at 6.2, 1.6..3.6 mm over
# the board; it slides 2 mm to x 2..4.
LEVER = ((0.0, 2.0), (2.2, 6.2), (1.6, 3.6))
LEVER_TRAVEL = 2.0

# The Pico's micro-USB socket (tools/pcb/footprints.py pico_footprint draws it): 8 wide,
# 1.3 mm past the Pico's end, about 2.6 high on top of it. The opening: a plug's moulding
# (about 11 x 7.5 mm) with room round it.
USB_H = 2.6
PLUG = (12.0, 8.5)

# What prints without supports (docs/BUILD.md, "Printing the case"): no face that looks down
# more than 45 degrees from vertical, but on the bed; a flat ceiling no wider than BRIDGE
# across is bridged (a 0.4 mm nozzle spans 6 mm of PLA without a visible sag: the screw
# heads' counterbores).
OVERHANG = 45.0
BRIDGE = 6.0
