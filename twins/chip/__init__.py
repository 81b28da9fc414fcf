"""The chip twin: CircuitPython's Pico image on rp2040js (chip.py, js/), the memory's power
cuts (chipnvm.py) and the page (web.py)."""
