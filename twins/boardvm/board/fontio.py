"""Stand-in for CircuitPython's fontio: BuiltinFont (the board's terminalio.FONT) and Glyph.

The board keeps its built-in font in flash: printable ASCII (32..126), each a 6 x 12 tile
in one row of a Bitmap. The bench has it in terminalio_font.bin beside this module,
written by twins/boardvm/boardvm.py from the pinned Blinka's copy of the same Terminus font
(ter-u12n) the CircuitPython build uses, already in displayio.Bitmap's row layout.
"""
from collections import namedtuple as _namedtuple

import displayio

_FIRST = 32  # ' ', the first tile
_LAST = 126  # '~', the last


# One glyph: its bitmap, its tile there, its size and how it sits on the line (a named
# tuple, as the board's C code makes it).
Glyph = _namedtuple("Glyph", ("bitmap", "tile_index", "width", "height", "dx", "dy", "shift_x",
                             "shift_y"))


class BuiltinFont:
    """A font built into CircuitPython (creation is the board's, at build time)."""

    def __init__(self):
        with open(__file__.rsplit("/", 1)[0] + "/terminalio_font.bin", "rb") as f:
            w, h = f.read(2)
            self._w = w
            self._h = h
            self._bitmap = displayio.Bitmap(w * (_LAST - _FIRST + 1), h, 2)
            if f.readinto(self._bitmap._data) != len(self._bitmap._data):
                raise ValueError("terminalio_font.bin is short")

    @property
    def bitmap(self):
        return self._bitmap

    def get_bounding_box(self):
        """(width, height) of every glyph."""
        return (self._w, self._h)

    def get_glyph(self, codepoint):
        """The Glyph of a code point, or None when the font has none."""
        if not _FIRST <= codepoint <= _LAST:
            return None
        return Glyph(self._bitmap, codepoint - _FIRST, self._w, self._h, 0, 0, self._w, 0)
