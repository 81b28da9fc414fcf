"""Stand-in for CircuitPython's microcontroller module (Pico): Pin, cpu, nvm, watchdog, reset."""
import nvm as _nvm
import vmbench as _bench
import watchdog as _watchdog


class Pin:
    """A GPIO of the chip. Only `board` has them; Pin() itself is refused, as on the board."""

    def __init__(self):
        raise TypeError("cannot create 'Pin' instances")

    def __hash__(self):
        return self._number

    def __repr__(self):
        return "board.GP%d" % self._number


_PINS = tuple([object.__new__(Pin) for _ in range(_bench.PIN_COUNT)])
for _ in range(_bench.PIN_COUNT):  # (no helper to make one: each name is interned in the VM)
    _PINS[_]._number = _


def reset():
    """Reset the chip at once (code.py starts afresh)."""
    _bench.reset("microcontroller.reset()")


class Processor:
    """microcontroller.cpu: its clock, settable as on the RP2040 (the VM runs as fast)."""

    def __init__(self):
        self.frequency = 125000000


cpu = Processor()
nvm = object.__new__(_nvm.ByteArray)
watchdog = object.__new__(_watchdog.WatchDogTimer)
