"""keypad.KeyMatrix's stand-in, in a file of its own as the board's is in C
(shared-module/keypad/KeyMatrix.c), so that the VM interns its names only when a board
scans a matrix: keypad.py loads it when keypad.KeyMatrix is first asked for (the board
VM's boot script, before it counts the heap, on the matrix build).

The scanning and the numbering are the models' (twins/models/keymatrix.py over
scanner.py): keys on a matrix of row and column pins, a diode each (no ghosts), scanned a
row at a time; key number = row * len(column_pins) + column. What this adds is the
board's: the pins, claimed while scanned, and the bench's contacts: a key is closed while
the bench's matrix contact between its row's and its column's GPIO is (vmbench.py: a key
script's `<ms> <row gpio>.<column gpio> 1|0`). Like keypad.Keys, it is no subclass of it.
"""
import vmbench as _bench


# (the model's class, twins/models/keymatrix.py, by its module: an alias would be one more
# name interned in the VM)
class KeyMatrix(__import__("keymatrix").KeyMatrix):
    """Keys on a diode matrix of row and column pins, scanned in the background."""

    _bench = _bench  # (class attributes: the firmware's heap holds a KeyMatrix's own)
    _origin = property(lambda self: _bench.BOOT_TICKS - _bench.boot_wall)  # ticks_ms at wall 0

    def __init__(self, row_pins, column_pins, *, columns_to_anodes=True, interval=0.020,
                 max_events=64, debounce_threshold=1):
        self._check_pins(row_pins, column_pins, interval, max_events)
        if not 1 <= debounce_threshold <= 127:
            raise ValueError("debounce_threshold must be 1-127")
        taken = []
        try:
            for p in list(row_pins) + list(column_pins):
                _bench.claim(p)
                taken.append(p._number)
        except BaseException:
            for n in taken:
                _bench.release(n)
            raise
        self._pins = bytes(taken)
        self._columns = len(column_pins)
        self._begin(len(row_pins) * self._columns, interval, max_events, debounce_threshold)
        self._scan_until(_bench.wall)  # the board scans a new scanner at once

    def deinit(self):
        """Stop scanning and free the pins."""
        if self._events is not None:
            for n in self._pins:
                _bench.release(n)
            super().deinit()

    def _down(self, i):
        pins, columns = self._pins, self._columns
        row_pin = pins[i // columns]
        column_pin = pins[len(pins) - columns + i % columns]
        return _bench.contact[_bench.PIN_COUNT * (1 + row_pin) + column_pin] == 1

    def _drained(self):
        _bench.check_fault()
        if self is _bench.scanners[-1]:  # the main loop drained the queue it reads last
            _bench.pass_end()
