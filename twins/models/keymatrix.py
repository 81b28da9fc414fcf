"""CircuitPython's key matrix (shared-module/keypad/KeyMatrix.c) over the key scanner
(scanner.py): key number = row * len(column_pins) + column, and the numbering's range
checks as the board's (shared-bindings/keypad/KeyMatrix.c). The board drives one row at a
time and reads every column of it; columns_to_anodes says which way the diodes point, so
which lines it drives and which it pulls, not which key a contact is: with a diode a key,
each key reads its own contact either way. For the desktop twin's VirtualKeyMatrix and
the board VM's KeyMatrix stand-in, which give the pins and the contacts.

A file of its own, as the board's is in C, so that the board VM interns its names only
when a board scans a matrix. Board subset.
"""
if "." in __name__:  # CPython: twins.models.keymatrix
    from .scanner import Scanner
else:  # the board VM: the models are top-level modules beside the stand-ins
    from scanner import Scanner


class KeyMatrix(Scanner):
    """keypad.KeyMatrix's scanner: a subclass sets _columns before _begin (of rows *
    columns keys) and reads key i at row i // _columns, column i % _columns."""

    def _check_pins(self, row_pins, column_pins, interval, max_events):
        """The board's checks of its arguments, in its order: no pin twice, an interval
        of 0 or more, one event or more."""
        for pins, what in ((row_pins, "row_pins"), (column_pins, "column_pins")):
            for i in range(len(pins)):
                if pins[i] in pins[i + 1:]:
                    raise TypeError(what + " contains duplicate pins")
        for p in row_pins:
            if p in column_pins:
                raise TypeError("row_pins and column_pins contain duplicate pins")
        if interval < 0:
            raise ValueError("interval must be >= 0")
        if max_events < 1:
            raise ValueError("max_events must be >= 1")

    def key_number_to_row_column(self, key_number):
        """(row, column) of a key number."""
        self._check()
        # (the board's range check takes the key count itself too: mp_arg_validate_int_range)
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
