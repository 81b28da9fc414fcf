"""Reading the glass: the text, cards and banners of a decoded 128x64 frame, found by
matching the firmware's own glyphs (firmware/glyphs.py) where the screens put them.

For tests, bug reports and the twins' checks: it reads what a player would read, so a
test need not ask the app what it meant to draw. A frame is 128 * 64 bytes of 1 (lit) and
0, row-major (VirtualSSD1306.frame(), scenes.golden()). Whatever faces B reads upside
down on the glass: turn the frame first (turned), as B sees it.
Desktop only.
"""
from tools.cards import RANK_NAMES, SUIT_LETTERS
from firmware import glyphs, glyphs_cards, glyphs_narrow

W, H = 128, 64
LINE_CHARS = 21
_ROW_A_Y, _ROW_B_Y, _CELL_H = 32, 8, 24  # firmware/table.py's rows, as A sees them
_BANNER_CHARS = 10
_WIDE = 4  # the most piles a row the big face fits; beyond, the narrow face (firmware/narrow.py)
_NARROW_W, _NARROW_H, _NARROW_TILES, _NARROW_SUITS = 8, 18, 18, 14  # its sheet's tiles

# The icons of the small font, as characters a test can write.
ICONS = {
    glyphs.ICON_PIP_OFF: "\u25cb", glyphs.ICON_PIP_ON: "\u25cf",  # a game to win, one won
    glyphs.ICON_LEFT: "\u2190", glyphs.ICON_DOWN: "\u2193", glyphs.ICON_RIGHT: "\u2192",
    glyphs.ICON_UP: "\u2191", glyphs.ICON_MUTED: "\u00f8", glyphs.ICON_DECK: "\u25af",
    glyphs.ICON_LOCK: "\u25a3", glyphs.ICON_CHECK: "\u2713", glyphs.ICON_CROSS: "\u2717",
    glyphs.ICON_SPEAKER: "\u266a", glyphs.ICON_SLOW: "\u231b",
}
UNREADABLE = "\ufffd"  # a cell whose pixels match no glyph


def turned(frame):
    """The frame turned 180 degrees: the glass as the player at the other end sees it."""
    return bytes(frame)[::-1]


def _table(bits, count, h, row_bytes, w):
    """{pixel rows of a glyph (as ints, w bits a row): glyph number}."""
    out = {}
    for t in range(count):
        rows = []
        for y in range(h):
            v = 0
            for b in range(row_bytes):
                v = v << 8 | bits[(t * h + y) * row_bytes + b]
            rows.append(v >> (8 * row_bytes - w))
        out.setdefault(tuple(rows), t)
    return out


_FONT = _table(glyphs.FONT_BITS, glyphs.FONT_COUNT, glyphs.FONT_H, 1, glyphs.FONT_W)
_RANKS = _table(glyphs_cards.RANK_BITS, 13, glyphs.RANK_H, 2, glyphs.RANK_W)
_SUITS = _table(glyphs_cards.SUIT_BITS, 4, glyphs.SUIT_H, 2, glyphs.SUIT_W)
_NARROW = _table(glyphs_narrow.NARROW_BITS, _NARROW_TILES, _NARROW_H, 1, _NARROW_W)


def _rows(frame, x, y, w, h, scale=1):
    """The pixels of a w x h box at (x, y) as ints, a row each (leftmost pixel highest);
    scale 2 reads a double-size glyph by its top-left pixel of each 2 x 2."""
    out = []
    for r in range(h):
        v = 0
        at = (y + r * scale) * W + x
        for c in range(w):
            v = v << 1 | (frame[at + c * scale] & 1)
        out.append(v)
    return tuple(out)


def _char(tile):
    code = glyphs.FONT_CHARS[tile]
    return ICONS.get(code) or bytes((code,)).decode("latin-1")


def text_at(frame, x, y, chars, scale=1):
    """The small-font text of `chars` cells from (x, y), UNREADABLE where none matches."""
    step = glyphs.FONT_W * scale
    out = []
    for i in range(chars):
        tile = _FONT.get(_rows(frame, x + i * step, y, glyphs.FONT_W, glyphs.FONT_H, scale))
        out.append(UNREADABLE if tile is None else _char(tile))
    return "".join(out)


def page(frame):
    """The eight text lines of a page (menus, settings, pause, how to play, self-test), as
    drawn for whoever it faces (turn the frame for B), trailing spaces stripped."""
    return [text_at(frame, 1, 8 * i, LINE_CHARS).rstrip() for i in range(8)]


def info(frame, player):
    """A player's info line along their own edge (0 A, 1 B), read as they read it."""
    if player == 1:
        frame = turned(frame)
    return text_at(frame, 1, H - glyphs.FONT_H, LINE_CHARS).rstrip()


def _outlined(frame, x, y, w):
    """True when a card outline's top edge runs along row y from x + 2 to x + w - 3."""
    at = y * W
    return all(frame[at + i] for i in range(x + 2, x + w - 2)) and not frame[at + x]


def piles_per_row(frame):
    """How many piles a row the table shows (3 to 6), from the card outlines of A's
    row; 0 when no table is on the glass."""
    for n in (4, 3, 5, 6):
        w = W // n
        left = (W - w * n) // 2
        if all(_outlined(frame, left + i * w, _ROW_A_Y, w) for i in range(n)):
            return n
    return 0


def _card(frame, x, w, narrow):
    """The card whose outline spans x..x+w-1 in A's row, as '5c' or '10h'; '' for an empty
    card, UNREADABLE for pixels that are no card. narrow: the narrow face (rank and suit
    are tiles of one sheet, side by side)."""
    y = _ROW_A_Y + 3
    if narrow:
        left = x + (w - 2 * _NARROW_W) // 2
        rank = _NARROW.get(_rows(frame, left, y, _NARROW_W, _NARROW_H), -1)
        suit = _NARROW.get(_rows(frame, left + _NARROW_W, y, _NARROW_W, _NARROW_H), -1)
        suit = suit - _NARROW_SUITS if suit >= _NARROW_SUITS else None
        rank = rank if 0 <= rank < 13 else None
        face_w = 2 * _NARROW_W
    else:
        left = x + (w - glyphs.RANK_W - 1 - glyphs.SUIT_W) // 2
        rank = _RANKS.get(_rows(frame, left, y, glyphs.RANK_W, glyphs.RANK_H))
        suit = _SUITS.get(_rows(frame, left + glyphs.RANK_W + 1, y, glyphs.SUIT_W,
                                glyphs.SUIT_H))
        face_w = glyphs.RANK_W + 1 + glyphs.SUIT_W
    if rank is None or suit is None:
        blank = not any(_rows(frame, left, y, face_w, glyphs.RANK_H))
        return "" if blank else UNREADABLE
    return RANK_NAMES[rank] + SUIT_LETTERS[suit]


def cards_at(n):
    """[(x, w)] of each card's outline on the glass in a table of n piles a row, from the
    screen's left, as firmware/table.py draws them: a cell W // n wide, the outline of even
    width from its second column (2 pixels between cards, 1 at 6 a row)."""
    w = W // n
    left = (W - w * n) // 2
    return [(left + i * w + 1, (w - 1) & ~1) for i in range(n)]


def piles(frame):
    """The top card of every pile in the engine's pile order (A's row from A's left, then
    B's from B's left), as '5c', '10h'; [] when no table is on the glass."""
    n = piles_per_row(frame)
    if not n:
        return []
    b_side = turned(frame)  # B's row, turned, lies where A's does (mirrored: B's left first)
    narrow = n > _WIDE
    return ([_card(frame, x, w, narrow) for x, w in cards_at(n)]
            + [_card(b_side, W - x - w, w, narrow) for x, w in reversed(cards_at(n))])


def marks(frame):
    """The piles a training hint underlines, in the engine's pile order: a mark is the row
    just inside a card's bottom edge as its player sees it, lit under the card's middle."""
    n = piles_per_row(frame)
    if not n:
        return []
    y = (_ROW_A_Y + _CELL_H - 2) * W
    b_side = turned(frame)
    return ([i for i, (x, w) in enumerate(cards_at(n)) if frame[y + x + w // 2]]
            + [n + i for i, (x, w) in enumerate(reversed(cards_at(n)))
               if b_side[y + W - x - w + w // 2]])


def banner(frame, player):
    """The double-size text of the banner across a player's row, or None if there is
    none (firmware/ui.py Banner: a double outline, the text centred in 10 cells)."""
    if player == 1:
        frame = turned(frame)
    y = _ROW_A_Y
    if not (all(frame[y * W + x] for x in range(1, W - 1))
            and all(frame[(y + 2) * W + x] for x in range(3, W - 3))):
        return None
    x = (W - _BANNER_CHARS * glyphs.FONT_W * 2) // 2
    top = y + (_CELL_H - glyphs.FONT_H * 2) // 2
    return text_at(frame, x, top, _BANNER_CHARS, 2).strip()
