"""Stand-in for CircuitPython's keypad module: Event, EventQueue, Keys and KeyMatrix.

The scanning is the key-scanner model's (twins/models/scanner.py, beside the stand-ins in
the VM: the schedule, the debounce, the event ring; Event and EventQueue are its own).
What the stand-ins add is the board's: the pins, claimed while scanned, and the bench
(vmbench.py) whose clock and contacts the scans read. A closed button pulls its pin low.
There is no background task in the VM: every read of a queue first runs every scanner's
scans due by now, in time order; an empty read of the queue of the scanner made last (the
one the main loop reads last: MENU's on the matrix build) ends a main-loop pass.
KeyMatrix is in KeyMatrix.py (over twins/models/keymatrix.py), loaded on first use.
"""
import vmbench as _bench
import scanner as _scanner

Event = _scanner.Event
EventQueue = _scanner.EventQueue


class Keys(_scanner.Scanner):
    """Individual buttons on pins, scanned in the background."""

    _bench = _bench  # (class attributes: the firmware's heap holds a Keys' own, as the board's)
    _origin = property(lambda self: _bench.BOOT_TICKS - _bench.boot_wall)  # ticks_ms at wall 0

    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64,
                 debounce_threshold=1):
        if not 0 < interval <= 100:
            raise ValueError("interval must be 0.001-100")
        if not 1 <= max_events <= 1024:
            raise ValueError("max_events must be 1-1024")
        if not 1 <= debounce_threshold <= 127:
            raise ValueError("debounce_threshold must be 1-127")
        self._when = bool(value_when_pressed)
        self._pull = pull
        taken = []
        try:
            for p in pins:
                _bench.claim(p)
                taken.append(p._number)
        except BaseException:
            for n in taken:
                _bench.release(n)
            raise
        self._pins = bytes(taken)
        self._begin(len(taken), interval, max_events, debounce_threshold)
        self._scan_until(_bench.wall)  # the board scans a new scanner at once

    def deinit(self):
        """Stop scanning and free the pins."""
        if self._events is not None:
            for n in self._pins:
                _bench.release(n)
            super().deinit()

    def _down(self, i):
        closed = _bench.contact[self._pins[i]]
        level = 0 if closed else (1 if self._pull and not self._when else 0)
        return level == self._when

    def _drained(self):
        _bench.check_fault()
        if self is _bench.scanners[-1]:  # the main loop drained the queue it reads last
            _bench.pass_end()


def __getattr__(name):
    # KeyMatrix is in KeyMatrix.py (as the board's is in shared-module/keypad/KeyMatrix.c),
    # loaded when it is first asked for: its names are interned in the VM only on the
    # matrix build (on the board they are in flash). The VM's interned names are nearly
    # full (see the soak's names test): the direct build's must stay what they were.
    if name == "KeyMatrix":
        from KeyMatrix import KeyMatrix
        return KeyMatrix
    raise AttributeError(name)
