"""The chip twin: CircuitPython's Pico image on rp2040js (chip.py, js/), the flash and the
UF2s it boots (flash.py) and the page (web.py); its measurements are lab/chipbench.py's."""
