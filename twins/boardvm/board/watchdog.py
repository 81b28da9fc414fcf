"""Stand-in for CircuitPython's watchdog module on an RP2040 (only RESET mode, <= 8.388 s).

The module exports WatchDogMode and WatchDogTimeout; the one WatchDogTimer, whose type
the module does not name on the board, is microcontroller.watchdog.
It has feed(), timeout and mode and nothing else: setting mode to None stops it. The
bench resets the chip when it starves.
"""
import vmbench as _bench


class WatchDogTimeout(Exception):
    """Raised in RAISE mode when the watchdog starves (not supported on the RP2040)."""


class WatchDogMode:
    """RAISE or RESET."""

    def __init__(self):
        raise TypeError("cannot create 'WatchDogMode' instances")

    def __repr__(self):
        return "watchdog.WatchDogMode.%s" % self._name


# (no helper to make one: each name a module brings is interned in the VM)
WatchDogMode.RAISE = object.__new__(WatchDogMode)
WatchDogMode.RAISE._name = "RAISE"
WatchDogMode.RESET = object.__new__(WatchDogMode)
WatchDogMode.RESET._name = "RESET"


class WatchDogTimer:
    """The chip's watchdog (microcontroller.watchdog)."""

    def __init__(self):
        raise TypeError("cannot create 'WatchDogTimer' instances")

    def feed(self):
        """Start the countdown again (nothing happens while mode is None)."""
        if _bench.wd_mode:
            _bench.feed()

    @property
    def timeout(self):
        return _bench.wd_timeout_ms / 1000

    @timeout.setter
    def timeout(self, value):
        value = float(value)
        if int(value) < 0:
            raise ValueError("timeout must be >= 0")
        if int(value) > 8:
            raise ValueError("timeout must be <= 8")
        _bench.wd_timeout_ms = int(min(value, 8.388) * 1000)  # (the RP2040's longest)
        if _bench.wd_mode:  # the RP2040 port enables it again: the countdown restarts
            _bench.feed()

    @property
    def mode(self):
        return WatchDogMode.RESET if _bench.wd_mode else None

    @mode.setter
    def mode(self, value):
        if value is None:
            _bench.wd_mode = 0
        elif value is WatchDogMode.RESET:
            _bench.wd_mode = 1
            _bench.feed()
        elif value is WatchDogMode.RAISE:
            raise NotImplementedError()
        else:
            raise TypeError("mode must be of type WatchDogMode, not %s" % type(value).__name__)
