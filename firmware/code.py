"""California Speed: CircuitPython runs this file at power-on (copied to CIRCUITPY/code.py)."""
import hardware.pico
from firmware.runner import run

run(hardware.pico)
