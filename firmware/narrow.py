"""The narrow card face of a table of five or six piles a row (Long Speed), where a cell is
21 pixels wide and a card's outline 20: a rank 8 x 18, a dark column and a suit 7 x 7, in
one tile grid of two 8 x 18 tiles (rank, suit) over a sheet of their own, drawn from
firmware/glyphs_narrow.py, which then leaves the heap. Table.layout makes these cells when
such a table is dealt, in the room of the big face's, which go; a standard table brings the
big face back, and this code leaves the heap. The standard game's heap never holds them.
"""
import firmware
from firmware import ui
from hardware.seats import PILES_A_ROW

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

if False:  # names for type annotations: mypy reads them, the compiler drops them
    import displayio

_TILE_W = const(8)  # the sheet's tiles: 8 x 18, one rank each
_TILE_H = const(18)
_TILES = const(18)  # 13 ranks, a blank (ui.RANK_BLANK), 4 suits, then a blank made here
_SUITS = const(14)  # the clubs' tile; then diamonds, hearts, spades, and the blank
_FACE_W = const(16)  # two tiles
_TOP = const(3)  # the face's top in a card, as the big face's


class Narrow(ui.Cell):
    """One pile with the narrow face: `rank` and `suit` are its one tile grid."""

    def __init__(self, kit: ui.Kit, sheet: "displayio.Bitmap") -> None:
        self.kit = kit
        self.rank = self.suit = kit.grid(sheet, _TILE_W, _TILE_H, 2)
        g = self.rank
        g[0] = ui.RANK_BLANK
        g[1] = _SUITS + ui.SUIT_BLANK
        self.card = -2

    def place(self, x: int, y: int, width: int, flipped: bool) -> None:
        """Position the face on a card of width x CELL_H at (x, y), centred; turned for B if
        flipped (the grid turns whole: the suit comes to its left)."""
        g = self.rank
        g.x = x + (width - _FACE_W) // 2
        g.y = y + _TOP
        g.flip_x = flipped
        g.flip_y = flipped

    def show(self, card: int) -> None:
        """Draw a card id (0..51), or a blank card (-1): its rank's tile and its suit's."""
        if card != self.card:
            self.card = card
            self.kit.changes += 1
            g = self.rank
            g[0] = card % 13 if card >= 0 else ui.RANK_BLANK
            g[1] = _SUITS + (card // 13 if card >= 0 else ui.SUIT_BLANK)


def cells(kit: ui.Kit, group: "displayio.Group") -> "list[ui.Cell]":
    """A cell for every pile of a table of the most piles a row, in group (hidden until
    Table.layout shows them), on the narrow sheet."""
    from firmware.glyphs_narrow import NARROW_BITS
    sheet = ui.sheet(NARROW_BITS, _TILE_W, _TILE_H, _TILES, 1, _TILES + 1, 1)
    firmware.forget("firmware.glyphs_narrow")
    out = []  # type: list[ui.Cell]
    for _ in range(2 * PILES_A_ROW):
        c = Narrow(kit, sheet)
        c.rank.hidden = True
        group.append(c.rank)
        out.append(c)
    return out
