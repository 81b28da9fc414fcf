"""The matrix build's key scanners (Long Speed), imported only on that build, so the
direct build's heap holds none of this code (and its names are ones the board has
interned already): the 24 pile keys on a keypad.KeyMatrix (a diode per key, anodes on the
columns, so a row is driven low and the columns read through pull-ups), and MENU on a
keypad.Keys of its own (deep sleep wakes on a pin alarm on it)."""
import board
import keypad

from hardware.keymap import DEBOUNCE_SCANS

if False:  # names for type annotations: mypy reads them, the compiler drops them
    import microcontroller
    from microcontroller import Pin


def pins(values: dict) -> "tuple[list[microcontroller.Pin], list[microcontroller.Pin], Pin]":
    """The row pins (A near, A far, B far, B near), the column pins and MENU's pin, from
    the settings' values (hardware/config.py)."""
    rows = [getattr(board, n) for n in values["CS_MATRIX_ROWS"].split(",")]
    columns = [getattr(board, n) for n in values["CS_MATRIX_COLUMNS"].split(",")]
    return rows, columns, getattr(board, values["CS_MENU"])


def keys(key_pins: "tuple | list", interval: float) -> "tuple[keypad.KeyMatrix, keypad.Keys]":
    """The matrix's scanner and MENU's, from pins()."""
    return (keypad.KeyMatrix(key_pins[0], key_pins[1], columns_to_anodes=True,
                             interval=interval, max_events=64,
                             debounce_threshold=DEBOUNCE_SCANS),
            keypad.Keys((key_pins[2],), value_when_pressed=False, pull=True, interval=interval,
                        max_events=8, debounce_threshold=DEBOUNCE_SCANS))
