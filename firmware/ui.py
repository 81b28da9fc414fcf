"""Drawing kit on displayio: glyph sheets, text lines, card cells and boxes.

Everything is built once; afterwards the screen changes only by setting tile indices,
which allocates nothing and marks only the changed tiles dirty, so a refresh sends only
those pixels over the bus.
"""
import displayio

import firmware
from firmware import glyphs

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

W = const(128)
H = const(64)
CELL_H = const(24)
LINE_CHARS = const(21)
RANK_BLANK = const(13)  # rank sheet tiles: 13 ranks, then a blank
SUIT_BLANK = const(4)  # suit sheet tiles: 4 suits, blank
_FONT_COLS = const(16)


def codes(text: bytes | str) -> bytes:
    """text as one byte a character, its code (Latin-1, '?' beyond), read from its UTF-8
    bytes: indexing a str makes a one-character str, which on the board is an interned
    name, in the heap for good (and a new block of names can find no room mid-game)."""
    if type(text) is not str:
        return text  # type: ignore[return-value]  # (bytes already)
    data = text.encode()
    n = len(data)
    if n == len(text):  # all ASCII
        return data
    out = bytearray(len(text))
    i = j = 0
    while i < n:
        b = data[i]
        if b < 0x80:
            i += 1
        elif b < 0xE0:  # two bytes: U+0080..U+07FF
            b = (b & 0x1F) << 6 | data[i + 1] & 0x3F
            i += 2
        else:  # three or four bytes: beyond the font
            i += 3 if b < 0xF0 else 4
            b = 63
        out[j] = b if b < 256 else 63  # (63: '?')
        j += 1
    return bytes(out)


def sheet(bits: bytes, w: int, h: int, count: int, row_bytes: int, cols: int,
          extra: int = 0) -> displayio.Bitmap:
    """A 2-colour Bitmap holding count glyphs (+ extra blank tiles) in a grid of cols."""
    tiles = count + extra
    rows = (tiles + cols - 1) // cols
    bw = w * cols
    bmp = displayio.Bitmap(bw, h * rows, 2)
    top = 8 * row_bytes - 1
    for t in range(count):
        # Pixels by linear index: an (x, y) index is a tuple, garbage that fragments the heap.
        corner = (t // cols) * h * bw + (t % cols) * w
        base = t * h * row_bytes
        for y in range(h):
            v = 0
            for b in range(row_bytes):
                v = (v << 8) | bits[base + y * row_bytes + b]
            if v:
                at = corner + y * bw
                for x in range(w):
                    if (v >> (top - x)) & 1:
                        bmp[at + x] = 1
    return bmp


class Kit:
    """The glyph sheets and the palette, built once at start-up."""

    def __init__(self) -> None:
        self.changes = 0  # bumped by every drawing change; the main loop refreshes when > 0
        self.palette = displayio.Palette(2)
        self.palette[0] = 0x000000
        self.palette[1] = 0xFFFFFF
        n_font = len(glyphs.FONT_CHARS)
        self.font = sheet(glyphs.FONT_BITS, glyphs.FONT_W, glyphs.FONT_H, n_font, 1,
                          _FONT_COLS)
        from firmware.glyphs_cards import RANK_BITS, SUIT_BITS  # read once, then let go
        self.ranks = sheet(RANK_BITS, glyphs.RANK_W, glyphs.RANK_H, 13, 2, 14, 1)
        self.suits = sheet(SUIT_BITS, glyphs.SUIT_W, glyphs.SUIT_H, 4, 2, 5, 1)
        firmware.forget("firmware.glyphs_cards")

    def grid(self, sheet: displayio.Bitmap, tw: int, th: int, width: int = 1, x: int = 0,
             y: int = 0, flipped: bool = False) -> displayio.TileGrid:
        """A TileGrid over a sheet; flipped turns it 180 degrees (for player B)."""
        g = displayio.TileGrid(sheet, pixel_shader=self.palette, width=width,
                               height=1, tile_width=tw, tile_height=th, x=x, y=y)
        if flipped:
            g.flip_x = True
            g.flip_y = True
        return g


class TextLine:
    """A line of small-font characters; writing changes only tiles whose glyph differs."""

    def __init__(self, kit: Kit, chars: int, x: int, y: int, flipped: bool = False) -> None:
        self.kit = kit
        self.grid = kit.grid(kit.font, glyphs.FONT_W, glyphs.FONT_H, chars, x, y, flipped)
        self.chars = chars

    def put(self, col: int, text: bytes | str) -> int:
        """Write bytes or a str at col; returns the column after it."""
        grid = self.grid
        text = codes(text)
        for i in range(len(text)):
            if col >= self.chars:
                break
            t = glyphs.font_tile(text[i])
            if grid[col] != t:
                grid[col] = t
                self.kit.changes += 1
            col += 1
        return col

    def fill(self, col: int, end: int, code: int = 32) -> None:
        """Set columns col..end-1 to one character (space by default)."""
        t = glyphs.font_tile(code)
        grid = self.grid
        for i in range(col, min(end, self.chars)):
            if grid[i] != t:
                grid[i] = t
                self.kit.changes += 1

    def show(self, text: bytes | str) -> None:
        """Replace the whole line with text, left-aligned."""
        self.fill(self.put(0, text), self.chars)

    def center(self, text: bytes | str, col: int = 0, width: int = -1) -> None:
        """Write text centred in columns col..col+width-1 (the whole line by default)."""
        if width < 0:
            width = self.chars - col
        pad = (width - len(text)) // 2
        if pad < 0:
            pad = 0
        self.fill(col, col + pad)
        self.fill(self.put(col + pad, text), col + width)

    def number(self, col: int, value: int, digits: int) -> None:
        """Right-aligned decimal number in `digits` columns, without allocating."""
        grid = self.grid
        for i in range(digits - 1, -1, -1):
            if value or i == digits - 1:
                t = glyphs.font_tile(48 + value % 10)
                value //= 10
            else:
                t = glyphs.font_tile(32)
            if grid[col + i] != t:
                grid[col + i] = t
                self.kit.changes += 1


class Cell:
    """One pile on screen: a big rank glyph and a suit symbol, inside an outline."""

    def __init__(self, kit: Kit) -> None:
        self.kit = kit
        self.rank = kit.grid(kit.ranks, glyphs.RANK_W, glyphs.RANK_H)
        self.suit = kit.grid(kit.suits, glyphs.SUIT_W, glyphs.SUIT_H)
        self.rank[0] = RANK_BLANK
        self.suit[0] = SUIT_BLANK
        self.card = -2  # what is drawn: a card id, -1 blank

    def place(self, x: int, y: int, width: int, flipped: bool) -> None:
        """Position the glyphs on a card (its outline) of width x CELL_H at (x, y), centred,
        turned for B if flipped."""
        content = glyphs.RANK_W + 1 + glyphs.SUIT_W
        left = (width - content) // 2
        top = 3
        rank_x, suit_x = left, left + glyphs.RANK_W + 1
        rank_y, suit_y = top, top
        if flipped:  # rotate the cell's content 180 degrees about the cell's centre
            rank_x = width - rank_x - glyphs.RANK_W
            suit_x = width - suit_x - glyphs.SUIT_W
            rank_y = CELL_H - rank_y - glyphs.RANK_H
            suit_y = CELL_H - suit_y - glyphs.SUIT_H
        for g, gx, gy in ((self.rank, rank_x, rank_y), (self.suit, suit_x, suit_y)):
            g.x = x + gx
            g.y = y + gy
            g.flip_x = flipped
            g.flip_y = flipped

    def show(self, card: int) -> None:
        """Draw a card id (0..51), or a blank cell (-1)."""
        if card == self.card:
            return
        self.card = card
        self.kit.changes += 1
        if card >= 0:
            self.rank[0] = card % 13
            self.suit[0] = card // 13
        else:
            self.rank[0] = RANK_BLANK
            self.suit[0] = SUIT_BLANK


def outline(bmp: displayio.Bitmap, x0: int, y0: int, w: int, h: int, value: int = 1) -> None:
    """A 1-px rectangle with cut corners (a card outline) on a Bitmap."""
    bw = bmp.width
    top = y0 * bw
    bottom = (y0 + h - 1) * bw
    for x in range(x0 + 1, x0 + w - 1):
        bmp[top + x] = value
        bmp[bottom + x] = value
    for y in range(y0 + 1, y0 + h - 1):
        bmp[y * bw + x0] = value
        bmp[y * bw + x0 + w - 1] = value


def underline(bmp: displayio.Bitmap, x: int, y: int, w: int, value: int) -> int:
    """The mark under a card in a cell of width w at (x, y): row y, inset 6 pixels each
    side (a training hint). Returns how many pixels changed."""
    at = y * bmp.width + x
    changed = 0
    for i in range(at + 6, at + w - 6):
        if bmp[i] != value:
            bmp[i] = value
            changed += 1
    return changed


class Banner:
    """A box with one line of double-size text across a player's row, facing that player.

    Its pixels are drawn into its own bitmap, and two TileGrids show its left and right
    halves. On the chip a whole row (128 x 24) is a 30 ms refresh, so the banner comes and
    goes one half a pass: show() and hide() only say what is wanted, and step(), called
    once a pass, takes one step towards it. A hidden banner is out of the parent group
    rather than .hidden: CircuitPython's displayio keeps a hidden TileGrid's area from a
    full-screen refresh and sends it again at the next refresh."""

    def __init__(self, kit: Kit, parent: "displayio.Group", y: int, flipped: bool,
                 chars: int = 10) -> None:
        self.kit = kit
        self.parent = parent
        self.chars = chars
        self.bitmap = displayio.Bitmap(W, CELL_H, 2)
        outline(self.bitmap, 0, 0, W, CELL_H)
        outline(self.bitmap, 2, 2, W - 4, CELL_H - 4)
        half = W // 2
        self.halves = (kit.grid(self.bitmap, half, CELL_H, 1, 0, y, flipped),
                       kit.grid(self.bitmap, half, CELL_H, 1, half, y, flipped))
        if flipped:  # turned 180 degrees: the screen's left half shows the bitmap's right
            self.halves[0][0] = 1
        else:
            self.halves[1][0] = 1
        self.want = None  # type: bytes | str | None  # the text to show; None: hidden
        self.drawn = ""  # type: bytes | str  # the text drawn in the bitmap
        self.shown = 0  # halves in the parent group

    def show(self, text: bytes | str) -> None:
        """Ask for the banner with text centred (step() brings it)."""
        self.want = text

    def hide(self) -> None:
        """Ask for the banner to go (step() takes it away)."""
        self.want = None

    def clear(self) -> None:
        """Take the banner away at once (for a screen drawn anew)."""
        self.want = None
        while self.shown:
            self.shown -= 1
            self.parent.remove(self.halves[self.shown])

    def step(self) -> bool:
        """One step towards what is wanted: a half in or out, or the text drawn; True when
        the banner is as wanted."""
        want = self.want
        if self.shown and (want is None or want != self.drawn):
            self.shown -= 1
            self.parent.remove(self.halves[self.shown])
            self.kit.changes += 1
            return want is None and not self.shown
        if want is None:
            return True
        if want != self.drawn:  # the old text goes in one pass, the new in the next
            if self.drawn:
                self._text(self.drawn, 0)
                self.drawn = ""
            else:
                self._text(want, 1)
                self.drawn = want
            return False
        if self.shown == 2:
            return True
        self.parent.append(self.halves[self.shown])
        self.shown += 1
        self.kit.changes += 1
        return self.shown == 2

    def _text(self, text: bytes | str, value: int) -> None:
        """Draw text at double size, centred in the box, in colour value (0 erases it)."""
        bmp = self.bitmap
        bits = glyphs.FONT_BITS
        text = codes(text)
        n = min(len(text), self.chars)
        x = (W - self.chars * glyphs.FONT_W * 2) // 2 + (self.chars - n) // 2 * glyphs.FONT_W * 2
        top = (CELL_H - glyphs.FONT_H * 2) // 2
        for i in range(n):  # (pixels by linear index: an (x, y) tuple is an allocation)
            base = glyphs.font_tile(text[i]) * glyphs.FONT_H
            for row in range(glyphs.FONT_H):
                v = bits[base + row]
                at = (top + 2 * row) * W + x
                while v:
                    if v & 0x80:
                        bmp[at] = value
                        bmp[at + 1] = value
                        bmp[at + W] = value
                        bmp[at + W + 1] = value
                    v = (v << 1) & 0xFF
                    at += 2
            x += glyphs.FONT_W * 2
