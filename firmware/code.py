"""California Speed: CircuitPython runs this file at power-on (copied to CIRCUITPY/code.py)."""
import hardware.pico
from firmware.app import run

run(hardware.pico)
