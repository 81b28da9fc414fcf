"""Stand-in for CircuitPython's board module on a Raspberry Pi Pico: its pin names.

The board keeps its names in flash. Here every name a module defines stays interned in the
VM (the soak has few to spare: vmbench.names()), so the names are looked up when asked for
(the module's __getattr__), and a name the firmware asks for is interned by its asking.
"""
from microcontroller import _PINS

# Every name and what it is: a GPIO number, else the text (in one str, long enough not
# to be interned).
_NAMES = (" GP0=0 GP1=1 GP2=2 GP3=3 GP4=4 GP5=5 GP6=6 GP7=7 GP8=8 GP9=9 GP10=10 GP11=11"
          " GP12=12 GP13=13 GP14=14 GP15=15 GP16=16 GP17=17 GP18=18 GP19=19 GP20=20"
          " GP21=21 GP22=22 GP23=23 SMPS_MODE=23 GP24=24 VBUS_SENSE=24 GP25=25 LED=25"
          " GP26=26 GP26_A0=26 A0=26 GP27=27 GP27_A1=27 A1=27 GP28=28 GP28_A2=28 A2=28"
          " A3=29 VOLTAGE_MONITOR=29 board_id=raspberry_pi_pico ")


def __getattr__(name):
    start = _NAMES.find(" " + name + "=")
    if start < 0 or "=" in name:
        raise AttributeError(name)
    start += len(name) + 2
    value = _NAMES[start:_NAMES.find(" ", start)]
    return _PINS[int(value)] if value.isdigit() else value
