"""keypad.KeyMatrix's stand-in, in a file of its own as the board's is in C
(shared-module/keypad/KeyMatrix.c), so that the VM interns its names only when a board
scans a matrix: keypad.py loads it when keypad.KeyMatrix is first asked for (the board
VM's boot script, before it counts the heap, on the matrix build).

Keys on a matrix of row and column pins, a diode each (no ghosts), scanned a row at a
time, every column of the row read; key number = row * len(column_pins) + column. A key is
closed while the bench's matrix contact between its row's and its column's GPIO is
(vmbench.py: a key script's `<ms> <row gpio>.<column gpio> 1|0`). The arguments are
checked as shared-bindings/keypad/KeyMatrix.c checks them.
"""
import vmbench as _bench
from keypad import Keys as _Keys


class KeyMatrix:
    """Keys on a diode matrix of row and column pins, scanned in the background."""

    # What every scanner does, written once in keypad.py (shared-module/keypad/__init__.c)
    deinit = _Keys.deinit
    __enter__ = _Keys.__enter__
    __exit__ = _Keys.__exit__
    reset = _Keys.reset
    key_count = _Keys.key_count
    events = _Keys.events
    _begin = _Keys._begin
    _check = _Keys._check
    _scan_until = _Keys._scan_until
    _scan = _Keys._scan

    def __init__(self, row_pins, column_pins, *, columns_to_anodes=True, interval=0.020,
                 max_events=64, debounce_threshold=1):
        for pins, what in ((row_pins, "row_pins"), (column_pins, "column_pins")):
            numbers = [p._number for p in pins]
            if len(set(numbers)) != len(numbers):
                raise TypeError(what + " contains duplicate pins")
        for p in row_pins:
            if p in column_pins:
                raise TypeError("row_pins and column_pins contain duplicate pins")
        if interval < 0:
            raise ValueError("interval must be >= 0")
        if max_events < 1:
            raise ValueError("max_events must be >= 1")
        self._columns = len(column_pins)
        self._begin(list(row_pins) + list(column_pins), len(row_pins) * self._columns,
                    interval, max_events, debounce_threshold)

    def key_number_to_row_column(self, key_number):
        """(row, column) of a key number."""
        self._check()
        # (the board's check takes key_count itself too: mp_arg_validate_int_range)
        if not 0 <= key_number <= len(self._count):
            raise ValueError("key_number must be 0-%d" % len(self._count))
        return (key_number // self._columns, key_number % self._columns)

    def row_column_to_key_number(self, row, column):
        """row * len(column_pins) + column."""
        self._check()
        rows = len(self._count) // self._columns
        if not 0 <= row <= rows:  # (inclusive of the count, as the board's check)
            raise ValueError("row must be 0-%d" % rows)
        if not 0 <= column <= self._columns:
            raise ValueError("column must be 0-%d" % self._columns)
        return row * self._columns + column

    def _down(self, i):
        pins, columns = self._pins, self._columns
        row_pin = pins[i // columns]
        column_pin = pins[len(pins) - columns + i % columns]
        return _bench.contact[_bench.PIN_COUNT * (1 + row_pin) + column_pin] == 1
