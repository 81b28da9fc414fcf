"""Stand-in for CircuitPython's terminalio: FONT, the board's built-in font (fontio.py)."""
import fontio

FONT = fontio.BuiltinFont()
