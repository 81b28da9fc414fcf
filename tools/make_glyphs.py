"""Builds firmware/glyphs.py and firmware/glyphs_narrow.py (the narrow card face of Long
Speed's table) from the ASCII art in tools/glyph_art.py (CPython, desktop only).

    .venv/bin/python tools/make_glyphs.py                   write both modules
    .venv/bin/python tools/make_glyphs.py --check           exit 1 if either module is stale
    .venv/bin/python tools/make_glyphs.py --preview X.png   draw every glyph, enlarged, on one
                                                            PNG sheet (writes no module)

(`python -m tools.make_glyphs ...` works the same.) The art is validated first: a glyph
with a row of the wrong width, the wrong number of rows, a character other than '#' and
'.', a missing or extra glyph, a clashing icon code or a duplicate of another glyph stops
the build with an ArtError that names the glyph (and the row).
"""
import argparse
import os
import string
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:  # run as a script (tools/make_glyphs.py) rather than -m tools.make_glyphs
    sys.path.insert(0, ROOT)

from tools import glyph_art  # noqa: E402
from tools.files import replacing, write_atomic  # noqa: E402
OUT_REL = "firmware/glyphs.py"
OUT_PATH = os.path.join(ROOT, "firmware", "glyphs.py")
NARROW_REL = "firmware/glyphs_narrow.py"
NARROW_PATH = os.path.join(ROOT, "firmware", "glyphs_narrow.py")
CARDS_REL = "firmware/glyphs_cards.py"
CARDS_PATH = os.path.join(ROOT, "firmware", "glyphs_cards.py")
NARROW_TILE_W, NARROW_TILE_H = 8, 18  # the narrow sheet's tiles: a rank fills one
NARROW_BLANK = 13  # the narrow sheet's blank tile, between the ranks and the suits

FONT_W, FONT_H = 6, 8  # the cell; glyphs are drawn SMALL_W x SMALL_H in its top-left
FIRST_CODE, LAST_CODE = 32, 255  # FONT_INDEX covers these codes (ASCII and Latin-1)
ICON_LAST = 127  # icons take the place of ASCII codes
PUNCTUATION = ".,:;!?-+/()<>=*#%'\"_"
# The accented capitals that French and Portuguese need (firmware/lang_fr.py, lang_pt.py).
ACCENTED = "ÀÂÇÉÈÊËÎÏÔÙÛÜÁÃÍÓÕÚ"
TEXT_CHARS = " " + string.ascii_uppercase + string.digits + PUNCTUATION + ACCENTED
LATIN1_CAPITALS = [chr(c) for c in range(0xC0, 0xDF) if c != 0xD7]  # À..Þ without ×
RANK_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_ORDER = ("clubs", "diamonds", "hearts", "spades")


class ArtError(ValueError):
    """Malformed glyph art; the message names the glyph (and the row)."""


# ----------------------------------------------------------------------------- validation

def parse_glyph(label, art, width, height):
    """The rows of one glyph as ints (bit width-1 = leftmost pixel); ArtError if malformed.

    label names the glyph in messages ("rank '10'"); art is its ASCII art: rows of '#'
    (lit) and '.' (dark), one per line; surrounding blank lines and indentation are ignored.
    """
    if not isinstance(art, str):
        raise ArtError("%s: the art must be a string of rows, not %s" % (label, type(art).__name__))
    rows = [line.strip() for line in art.strip().split("\n")] if art.strip() else []
    if len(rows) != height:
        raise ArtError("%s: %d rows, expected %d" % (label, len(rows), height))
    out = []
    for n, row in enumerate(rows, 1):
        for col, ch in enumerate(row, 1):
            if ch not in "#.":
                raise ArtError("%s: row %d of %d, column %d: %r is not '#' or '.' (row %r)"
                               % (label, n, height, col, ch, row))
        if len(row) != width:
            raise ArtError("%s: row %d of %d is %d pixels wide, expected %d (row %r)"
                           % (label, n, height, len(row), width, row))
        bits = 0
        for ch in row:
            bits = (bits << 1) | (ch == "#")
        out.append(bits)
    return out


def _char_label(ch):
    return "small %r" % ch


def _check_keys(label, got, want):
    missing = [k for k in want if k not in got]
    extra = [k for k in got if k not in want]
    if missing or extra:
        raise ArtError("%s: missing %s, unexpected %s" % (label, missing or "nothing",
                                                           extra or "nothing"))


def _check_distinct(glyphs, allow_blank=()):
    """ArtError if two glyphs of one set are identical, or one is blank (except allow_blank)."""
    seen: dict = {}
    for label, rows in glyphs:
        if not any(rows) and label not in allow_blank:
            raise ArtError("%s: the glyph is blank" % label)
        key = tuple(rows)
        if key in seen:
            raise ArtError("%s: identical to %s" % (label, seen[key]))
        seen[key] = label


class Glyphs:
    """The validated glyph set, ready to write.

    font: [(code, label, [FONT_H row bytes])] in tile order (tile 0 = space)
    index: [tile] for codes FIRST_CODE..LAST_CODE
    icons: [(name, code)]; ranks / suits: [(label, [rows])]; back: [rows] or None;
    narrow_ranks / narrow_suits: [(label, [rows])], the narrow card face
    """

    def __init__(self, font, index, placeholder, icons, ranks, suits, back,
                 narrow_ranks=(), narrow_suits=()):
        self.font, self.index, self.placeholder = font, index, placeholder
        self.icons, self.ranks, self.suits, self.back = icons, ranks, suits, back
        self.narrow_ranks, self.narrow_suits = narrow_ranks, narrow_suits


def build(art=None):
    """Validate the art (default tools/glyph_art.py; any object with its names) -> Glyphs."""
    if art is None:
        art = glyph_art
    sw, sh = art.SMALL_W, art.SMALL_H
    if sw > FONT_W - 1 or sh > FONT_H - 1:
        raise ArtError("SMALL_W x SMALL_H must leave a dark column and row in the %dx%d cell"
                       % (FONT_W, FONT_H))
    if (art.RANK_W, art.RANK_H) != (16, 18) or (art.SUIT_W, art.SUIT_H) != (9, 9):
        raise ArtError("rank glyphs are 16x18 and suit glyphs 9x9 (2 bytes a row)")

    small = art.SMALL
    missing = [c for c in TEXT_CHARS if c not in small]
    if missing:
        raise ArtError("SMALL: no glyph for %s" % ", ".join(repr(c) for c in missing))
    chars = list(TEXT_CHARS) + [c for c in small if c not in TEXT_CHARS]
    for ch in chars:
        if not (isinstance(ch, str) and len(ch) == 1 and
                (FIRST_CODE <= ord(ch) <= ICON_LAST or ch in LATIN1_CAPITALS)):
            raise ArtError("SMALL: key %r is not one printable ASCII character or Latin-1 "
                           "capital" % (ch,))
        if ch in string.ascii_lowercase:
            raise ArtError("SMALL: %r is lower case; only upper case is drawn "
                           "(lower case shows the upper-case tile)" % ch)
    if art.PLACEHOLDER not in small:
        raise ArtError("PLACEHOLDER %r has no SMALL glyph" % (art.PLACEHOLDER,))

    _check_keys("ICONS (vs ICON_CODES)", list(art.ICONS), list(art.ICON_CODES))
    icons = []
    used = {ord(c): _char_label(c) for c in chars}
    for name, code in art.ICON_CODES.items():
        label = "icon %s" % name
        if not (isinstance(name, str) and name.isidentifier() and name == name.upper()):
            raise ArtError("%s: icon names are upper-case identifiers" % label)
        if not (isinstance(code, int) and FIRST_CODE <= code <= ICON_LAST):
            raise ArtError("%s: code %r is not in %d..%d" % (label, code, FIRST_CODE, ICON_LAST))
        if chr(code) in string.ascii_lowercase:
            raise ArtError("%s: code %d is lower case, which shows upper case" % (label, code))
        if code in used:
            raise ArtError("%s: code %d is already taken by %s" % (label, code, used[code]))
        used[code] = label
        icons.append((name, code))

    pad = 8 - sw  # bit 7 = leftmost pixel
    font = []
    for ch in chars:
        rows = parse_glyph(_char_label(ch), small[ch], sw, sh)
        font.append((ord(ch), _char_label(ch), [r << pad for r in rows] + [0] * (FONT_H - sh)))
    for name, code in icons:
        rows = parse_glyph("icon %s" % name, art.ICONS[name], sw, sh)
        font.append((code, "icon %s" % name, [r << pad for r in rows] + [0] * (FONT_H - sh)))
    _check_distinct([(label, rows) for _, label, rows in font], allow_blank=(_char_label(" "),))

    tile_of = {code: i for i, (code, _, _) in enumerate(font)}
    placeholder = tile_of[ord(art.PLACEHOLDER)]
    index = []
    for code in range(FIRST_CODE, LAST_CODE + 1):
        ch = chr(code)
        if ch in string.ascii_lowercase or chr(code - 32) in LATIN1_CAPITALS:
            code = ord(ch.upper())  # (a-z and à-þ show their capitals)
        index.append(tile_of.get(code, placeholder))

    _check_keys("RANKS", list(art.RANKS), RANK_ORDER)
    ranks = [("rank %r" % r, parse_glyph("rank %r" % r, art.RANKS[r], art.RANK_W, art.RANK_H))
             for r in RANK_ORDER]
    _check_distinct(ranks)
    _check_keys("SUITS", list(art.SUITS), SUIT_ORDER)
    suits = [("suit %s" % s, parse_glyph("suit %s" % s, art.SUITS[s], art.SUIT_W, art.SUIT_H))
             for s in SUIT_ORDER]
    _check_distinct(suits)
    back = getattr(art, "BACK", None)
    if back is not None:
        back = parse_glyph("back", back, art.RANK_W, art.RANK_H)
        _check_distinct(ranks + [("back", back)])
    narrow_ranks, narrow_suits = _narrow(art)
    return Glyphs(font, index, placeholder, icons, ranks, suits, back, narrow_ranks,
                  narrow_suits)


def _narrow(art):
    """The narrow face's ranks and suits, validated: ([(label, rows)], [(label, rows)])."""
    if (art.NARROW_W, art.NARROW_H) != (NARROW_TILE_W, NARROW_TILE_H) or \
            (art.NARROW_SUIT_W, art.NARROW_SUIT_H) != (7, 7):
        raise ArtError("narrow ranks are %dx%d and narrow suits 7x7 (a tile of the narrow "
                       "sheet each)" % (NARROW_TILE_W, NARROW_TILE_H))
    _check_keys("NARROW_RANKS", list(art.NARROW_RANKS), RANK_ORDER)
    ranks = [("narrow rank %r" % r, parse_glyph("narrow rank %r" % r, art.NARROW_RANKS[r],
                                                art.NARROW_W, art.NARROW_H))
             for r in RANK_ORDER]
    _check_distinct(ranks)
    _check_keys("NARROW_SUITS", list(art.NARROW_SUITS), SUIT_ORDER)
    suits = [("narrow suit %s" % s, parse_glyph("narrow suit %s" % s, art.NARROW_SUITS[s],
                                                art.NARROW_SUIT_W, art.NARROW_SUIT_H))
             for s in SUIT_ORDER]
    _check_distinct(suits)
    return ranks, suits


def narrow_tiles(g):
    """The narrow sheet's tiles, NARROW_TILE_H row bytes each (bit 7 = leftmost pixel): the
    13 ranks, a blank, then the 4 suits in their tiles' top right (column 0 dark)."""
    tiles = [rows for _, rows in g.narrow_ranks] + [[0] * NARROW_TILE_H]
    for _, rows in g.narrow_suits:
        tiles.append(rows + [0] * (NARROW_TILE_H - len(rows)))  # (7 bits: column 0 dark)
    return tiles


# ----------------------------------------------------------------------------- the module

def _hex(data):
    return 'b"' + "".join("\\x%02x" % b for b in data) + '"'


def _chars_literal(codes):
    out = []
    for c in codes:
        out.append(chr(c) if 32 <= c < 127 and chr(c) not in '"\\' else "\\x%02x" % c)
    return 'b"' + "".join(out) + '"'


def _rows16(rows, width):
    """Rows of width bits -> 2 bytes each, big-endian, bit 15 = leftmost pixel."""
    shifted = [r << (16 - width) for r in rows]
    return bytes(b for r in shifted for b in (r >> 8, r & 0xFF))


def _tile_comment(code, label):
    if label.startswith("icon"):
        return "ICON_%s (%d)" % (label.split()[1], code)
    return "%s (%d)" % (ascii(chr(code)), code)


# The first lines of every generated module, and the const() of the board's subset.
_HEADER = (
    "# GENERATED by tools/make_glyphs.py from the ASCII art in tools/glyph_art.py.",
    "# Do not edit: change the art, then run  .venv/bin/python tools/make_glyphs.py",
    "# (--check tells whether this file is current; --preview PATH.png draws every glyph).",
)
_CONST = (
    "try:",
    "    from micropython import const",
    "except ImportError:",
    "    const = lambda expr: expr  # noqa: E731  (desktop fallback)",
)


def render(g):
    """The text of firmware/glyphs.py for a Glyphs."""
    font_count = len(g.font)
    L: list = []
    w = L.append
    L.extend(_HEADER)
    w('"""Bitmaps for the 128x64 OLED: the text font and the icons; the sizes of the card glyphs.')
    w("")
    w("Every row is packed most significant bit first: bit 7 of a byte (bit 15 of a 2-byte")
    w("row) is the leftmost pixel, and a set bit is a lit pixel.")
    w("")
    w("FONT_BITS    FONT_COUNT tiles x FONT_H bytes (a 5x7 glyph in a 6x8 cell; the last")
    w("             column and row are dark). FONT_CHARS[t] is the code drawn by tile t;")
    w("             tile 0 is space. FONT_INDEX[code - 32] is the tile for codes 32..255")
    w("             (ASCII, then Latin-1, as in ord() of a str): a-z show A-Z, and the")
    w("             accented small letters their capitals; codes that are not drawn show")
    w("             FONT_PLACEHOLDER ('?').")
    w("             font_tile(code) does that look-up for any int.")
    w("RANK_W, ...  the sizes of the card glyphs, whose bits are in firmware/glyphs_cards.py")
    w("             (read once, when the sheets are drawn: see that module).")
    w("ICON_*       the codes that show the icons: text = bytes((ICON_DECK,)) + b\"23\".")
    w('"""')
    L.extend(_CONST)
    w("")
    w("FONT_W = const(%d)" % FONT_W)
    w("FONT_H = const(%d)" % FONT_H)
    w("FONT_COUNT = const(%d)" % font_count)
    w("FONT_PLACEHOLDER = const(%d)  # the tile of '?', shown for codes that are not drawn"
      % g.placeholder)
    w("RANK_W = const(16)")
    w("RANK_H = const(18)")
    w("SUIT_W = const(9)")
    w("SUIT_H = const(9)")
    w("")
    for name, code in sorted(g.icons, key=lambda ic: ic[1]):
        w("ICON_%s = const(%d)%s" % (name, code, "  # %r" % chr(code) if code < 127 else "  # DEL"))
    w("")
    w("_FIRST = const(%d)" % FIRST_CODE)
    w("_END = const(%d)" % (LAST_CODE + 1))
    w("")
    w("FONT_CHARS = %s" % _chars_literal([code for code, _, _ in g.font]))
    w("")
    w("FONT_INDEX = (")
    for start in range(0, len(g.index), 16):
        lo = FIRST_CODE + start
        w("    %s  # %d..%d" % (_hex(g.index[start:start + 16]), lo, lo + 15))
    w(")")
    w("")
    w("FONT_BITS = (")
    for t, (code, label, rows) in enumerate(g.font):
        w("    %s  # %d %s" % (_hex(rows), t, _tile_comment(code, label)))
    w(")")
    w("")
    w("")
    w("def font_tile(code: int) -> int:")
    w('    """The FONT_BITS tile for a character code; FONT_PLACEHOLDER if it is not drawn."""')
    w("    if _FIRST <= code < _END:")
    w("        return FONT_INDEX[code - _FIRST]")
    w("    return FONT_PLACEHOLDER")
    return "\n".join(L) + "\n"


def render_cards(g):
    """The text of firmware/glyphs_cards.py for a Glyphs: the card glyphs' bits."""
    L = []
    w = L.append
    L.extend(_HEADER)
    w('"""The bits of the big card glyphs (their sizes are in firmware/glyphs.py).')
    w("")
    w("RANK_BITS    13 ranks (A 2 3 4 5 6 7 8 9 10 J Q K) x RANK_H rows x 2 bytes, big-endian.")
    w("SUIT_BITS    4 suits (clubs diamonds hearts spades) x SUIT_H rows x 2 bytes, big-endian.")
    if g.back is not None:
        w("BACK_BITS    a face-down card, laid out like one rank glyph (for the desktop's")
        w("             previews: the handheld never shows a card face down).")
    w("")
    w("firmware/ui.py's Kit draws the rank and suit sheets from these once, then lets this")
    w("module go: the board's heap never holds these bytes while a game is played.")
    w('"""')
    L.extend(_CONST)
    w("")
    w("RANK_STRIDE = const(%d)  # bytes per rank glyph" % (18 * 2))
    w("SUIT_STRIDE = const(%d)  # bytes per suit glyph" % (9 * 2))
    w("")
    w("RANK_BITS = (")
    for (label, rows) in g.ranks:
        data = _rows16(rows, 16)
        w("    # %s" % label.split(" ", 1)[1].strip("'"))
        w("    %s" % _hex(data[:18]))
        w("    %s" % _hex(data[18:]))
    w(")")
    w("")
    w("SUIT_BITS = (")
    for (label, rows) in g.suits:
        w("    %s  # %s" % (_hex(_rows16(rows, 9)), label.split(" ", 1)[1]))
    w(")")
    if g.back is not None:
        w("")
        data = _rows16(g.back, 16)
        w("BACK_BITS = (")
        w("    %s" % _hex(data[:18]))
        w("    %s" % _hex(data[18:]))
        w(")")
    return "\n".join(L) + "\n"


def render_narrow(g):
    """The text of firmware/glyphs_narrow.py for a Glyphs."""
    L = [
        *_HEADER,
        '"""The narrow card face of a table of five or six piles a row (Long Speed): one sheet.',
        "",
        "NARROW_BITS  18 tiles of %d x %d pixels, a byte a row (bit 7 is the leftmost pixel,"
        % (NARROW_TILE_W, NARROW_TILE_H),
        "             a set bit a lit one): the 13 ranks (A 2 3 4 5 6 7 8 9 10 J Q K), a",
        "             blank tile, then the 4 suits (clubs diamonds hearts spades), each 7 x 7",
        "             at its tile's top, right of a dark column (the gap after the rank).",
        "",
        "firmware/narrow.py draws the sheet the first time such a table is dealt, then lets",
        "this module go: the standard game never holds it.",
        '"""',
        "",
        "NARROW_BITS = (",
    ]
    labels = ([label.split(" ", 2)[2] for label, _ in g.narrow_ranks] + ["blank"]
              + [label.split(" ", 2)[2] for label, _ in g.narrow_suits])
    for t, (rows, label) in enumerate(zip(narrow_tiles(g), labels)):
        L.append("    %s  # %d %s" % (_hex(rows), t, label.strip("'")))
    L.append(")")
    return "\n".join(L) + "\n"


def generate(art=None):
    """The text firmware/glyphs.py should have (from tools/glyph_art.py unless art is given)."""
    return render(build(art))


def generate_cards(art=None):
    """The text firmware/glyphs_cards.py should have."""
    return render_cards(build(art))


def generate_narrow(art=None):
    """The text firmware/glyphs_narrow.py should have."""
    return render_narrow(build(art))


def check(path=None, art=None, narrow_path=None, cards_path=None):
    """(True, '') if the files at path (default firmware/glyphs.py), narrow_path (default
    firmware/glyphs_narrow.py) and cards_path (firmware/glyphs_cards.py) are what the
    generator writes, else (False, why)."""
    g = build(art)
    for rel, at, want in ((OUT_REL, OUT_PATH if path is None else path, render(g)),
                          (CARDS_REL, CARDS_PATH if cards_path is None else cards_path,
                           render_cards(g)),
                          (NARROW_REL, NARROW_PATH if narrow_path is None else narrow_path,
                           render_narrow(g))):
        try:
            with open(at, encoding="utf-8") as f:
                got = f.read()
        except OSError as e:
            return False, "%s cannot be read (%s); run tools/make_glyphs.py" % (rel, e.strerror)
        if got != want:
            return False, ("%s is not what tools/make_glyphs.py generates from "
                           "tools/glyph_art.py (edited by hand, or the art changed); run "
                           "tools/make_glyphs.py" % rel)
    return True, ""


# ----------------------------------------------------------------------------- the preview

def load_module(text):
    """Execute generated module text on CPython -> its namespace (a dict)."""
    ns = {"__name__": "glyphs_preview"}
    exec(compile(text, OUT_REL, "exec"), ns)
    return ns


class Canvas:
    """A 1-bit canvas drawn from the generated bytes (so the preview checks the encoding)."""

    def __init__(self, ns, w, h):
        self.g, self.w, self.h = ns, w, h
        self.px = [[0] * w for _ in range(h)]

    def set(self, x, y, on=1):
        if 0 <= x < self.w and 0 <= y < self.h:
            self.px[y][x] = on

    def rows(self, x, y, data, width, nbytes):
        for r in range(len(data) // nbytes):
            bits = int.from_bytes(data[r * nbytes:(r + 1) * nbytes], "big")
            top = nbytes * 8 - 1
            for c in range(width):
                if bits >> (top - c) & 1:
                    self.set(x + c, y + r)

    def tile(self, x, y, t):
        h = self.g["FONT_H"]
        self.rows(x, y, self.g["FONT_BITS"][t * h:(t + 1) * h], self.g["FONT_W"], 1)

    def text(self, x, y, s):
        codes = s.encode("latin-1") if isinstance(s, str) else s
        for code in codes:
            self.tile(x, y, self.g["font_tile"](code))
            x += self.g["FONT_W"]
        return x

    def rank(self, x, y, r):
        n = self.g["RANK_STRIDE"]
        self.rows(x, y, self.g["RANK_BITS"][r * n:(r + 1) * n], 16, 2)

    def suit(self, x, y, s):
        n = self.g["SUIT_STRIDE"]
        self.rows(x, y, self.g["SUIT_BITS"][s * n:(s + 1) * n], 9, 2)

    def back(self, x, y):
        self.rows(x, y, self.g["BACK_BITS"], 16, 2)

    def narrow(self, x, y, t):
        """Tile t of the narrow sheet (the generated firmware/glyphs_narrow.py's NARROW_BITS,
        in the namespace as NARROW_BITS)."""
        n = NARROW_TILE_H
        self.rows(x, y, self.g["NARROW_BITS"][t * n:(t + 1) * n], NARROW_TILE_W, 1)

    def box(self, x0, y0, x1, y1):
        for x in range(x0, x1 + 1):
            self.set(x, y0)
            self.set(x, y1)
        for y in range(y0, y1 + 1):
            self.set(x0, y)
            self.set(x1, y)

    def blit(self, other, x, y, turn=False):
        for r in range(other.h):
            for c in range(other.w):
                v = other.px[other.h - 1 - r][other.w - 1 - c] if turn else other.px[r][c]
                if v:
                    self.set(x + c, y + r)


def _mock_screen(ns, piles, cards_b, cards_a, top_text, bottom_text):
    """The 128x64 play screen: B's text and row turned 180 degrees on top, A's below."""
    screen = Canvas(ns, 128, 64)
    cell_w = 128 // piles
    for half, cards, text in ((0, cards_b, top_text), (1, cards_a, bottom_text)):
        c = Canvas(ns, 128, 32)  # a player's half as that player sees it: row, then text
        for i, card in enumerate(cards):
            x = i * cell_w + (cell_w - 32) // 2
            c.box(x + 1, 1, x + 30, 22)
            if card is None:
                c.back(x + 8, 3)
            else:
                rank, suit = card
                c.rank(x + 3, 3, rank)
                c.suit(x + 20, 3, suit)
        c.text(0, 24, text)
        screen.blit(c, 0, 32 * half, turn=(half == 0))
    return screen


def _mock_six(ns, cards_b, cards_a, top_text, bottom_text):
    """The play screen at six piles a row, laid out as firmware/table.py lays it out: cells
    21 pixels wide from x = 1, an outline 20 wide (1 pixel between cards), the narrow face
    (8 + 1 + 7 pixels) centred in it; B's half turned."""
    screen = Canvas(ns, 128, 64)
    for half, cards, text in ((0, cards_b, top_text), (1, cards_a, bottom_text)):
        c = Canvas(ns, 128, 32)
        for i, card in enumerate(cards):
            x = 21 * i + half  # (the row is 1 pixel right of centre: B, turned, sees it left)
            c.box(x + 1, 0, x + 20, 23)
            rank, suit = card
            c.narrow(x + 3, 3, rank)
            c.narrow(x + 11, 3, NARROW_BLANK + 1 + suit)
        c.text(0, 24, text)
        screen.blit(c, 0, 32 * half, turn=(half == 0))
    return screen


def preview(path, text=None):
    """Draw every glyph (x4, on a pixel grid), labelled, plus mock play screens, to a PNG."""
    from PIL import Image, ImageDraw

    g = build()
    ns = load_module(text if text is not None else render(g))
    ns["NARROW_BITS"] = load_module(render_narrow(g))["NARROW_BITS"]
    cards = load_module(render_cards(g))
    ns.update((k, v) for k, v in cards.items() if k.endswith(("_BITS", "_STRIDE")))
    on, off, grid, ink, bg = (255, 255, 255), (24, 24, 24), (70, 70, 70), (120, 200, 255), (0, 0, 0)
    oled_on = (150, 220, 255)
    S = 4  # pixels per glyph pixel
    items = []  # (section, [(label, canvas)])

    def glyph_canvas(w, h, draw):
        c = Canvas(ns, w, h)
        draw(c)
        return c

    font_items, icon_items = [], []
    for t, (code, label, _) in enumerate(g.font):
        c = glyph_canvas(6, 8, lambda c, t=t: c.tile(0, 0, t))
        if label.startswith("icon"):
            icon_items.append(("%s %d" % (label.split(" ", 1)[1], code), c))
        else:
            font_items.append(("%s %d" % (chr(code), code), c))
    items.append(("SMALL FONT: 5X7 IN A 6X8 CELL, X4 (LABEL: CHAR, CODE)", font_items, 12))
    items.append(("ICONS IN THE SMALL FONT, X4 (LABEL: ICON_NAME, CODE)", icon_items, 8))
    rank_items = [(RANK_ORDER[i], glyph_canvas(16, 18, lambda c, i=i: c.rank(0, 0, i)))
                  for i in range(13)]
    items.append(("RANKS: 16X18, X4", rank_items, 7))
    other = [(s.upper(), glyph_canvas(9, 9, lambda c, i=i: c.suit(0, 0, i)))
             for i, s in enumerate(SUIT_ORDER)]
    if "BACK_BITS" in ns:
        other.append(("BACK", glyph_canvas(16, 18, lambda c: c.back(0, 0))))
    items.append(("SUITS: 9X9 AND CARD BACK 16X18, X4", other, 7))
    narrow = [(RANK_ORDER[i], glyph_canvas(8, 18, lambda c, i=i: c.narrow(0, 0, i)))
              for i in range(13)]
    items.append(("NARROW RANKS (5 OR 6 PILES A ROW): 8X18, X4", narrow, 13))
    narrow = [(s.upper(), glyph_canvas(7, 7, lambda c, i=i: c.narrow(-1, 0, NARROW_BLANK + 1 + i)))
              for i, s in enumerate(SUIT_ORDER)]
    items.append(("NARROW SUITS: 7X7, X4", narrow, 7))

    label_scale = 2
    pad = 16

    def label_canvas(s):
        c = Canvas(ns, 6 * len(s), 8)
        c.text(0, 0, s)
        return c

    # Layout pass: compute positions, then draw.
    sheet_w = 12 * (16 * S + 40) + 2 * pad
    y = pad
    plan = []
    for title, entries, per_row in items:
        plan.append(("title", pad, y, label_canvas(title)))
        y += 8 * label_scale + 10
        cell_w = (sheet_w - 2 * pad) // per_row
        max_h = max(c.h for _, c in entries) * S
        for i, (lab, c) in enumerate(entries):
            col, row = i % per_row, i // per_row
            if col == 0 and row:
                y += max_h + 8 * label_scale + 18
            x = pad + col * cell_w
            plan.append(("glyph", x, y, c))
            plan.append(("label", x, y + max_h + 4, label_canvas(lab)))
        y += max_h + 8 * label_scale + 30
    mocks = [
        ("PLAY SCREEN MOCK-UP, 4 PILES, X4 (B'S HALF TURNED)",
         _mock_screen(ns, 4, [(12, 3), (9, 1), None, (0, 0)], [(9, 2), (11, 3), (5, 0), (7, 1)],
                      "\x7b23 \x40\x24\x24 LOCKED \x7c", "\x7b19 \x40\x40\x24 NO MATCH \x7e")),
        ("3 PILES, X4",
         _mock_screen(ns, 3, [(1, 2), (2, 3), (3, 0)], [(4, 1), (6, 2), (8, 3)],
                      "YOU WIN! \x7d \x7f", "\x5e PLAY  \x5b 3 PILES \x5d \x60")),
        ("6 PILES (LONG SPEED), X4",
         _mock_six(ns, [(12, 3), (9, 1), (0, 2), (7, 0), (10, 1), (4, 3)],
                   [(9, 2), (11, 3), (5, 0), (7, 1), (1, 2), (3, 0)],
                   "\x7b14 \x40\x24\x24 LOCKED \x7c", "\x7b12 \x40\x40\x24 NO MATCH \x7e")),
    ]
    for title, screen in mocks:
        plan.append(("title", pad, y, label_canvas(title)))
        y += 8 * label_scale + 10
        plan.append(("oled", pad, y, screen))
        plan.append(("oled1", pad + 128 * S + 40, y, screen))
        y += 64 * S + 30
    sheet_h = y + pad

    img = Image.new("RGB", (sheet_w, sheet_h), bg)
    d = ImageDraw.Draw(img)
    for kind, x, y, c in plan:
        if kind in ("title", "label"):
            for r in range(c.h):
                for col in range(c.w):
                    if c.px[r][col]:
                        d.rectangle([x + col * label_scale, y + r * label_scale,
                                     x + (col + 1) * label_scale - 1,
                                     y + (r + 1) * label_scale - 1], fill=ink)
        elif kind == "glyph":
            d.rectangle([x, y, x + c.w * S, y + c.h * S], fill=grid)
            for r in range(c.h):
                for col in range(c.w):
                    d.rectangle([x + col * S + 1, y + r * S + 1, x + (col + 1) * S - 1,
                                 y + (r + 1) * S - 1], fill=on if c.px[r][col] else off)
        elif kind == "oled":  # x4, with the dark gaps between an OLED's pixels
            d.rectangle([x - 2, y - 2, x + c.w * S + 1, y + c.h * S + 1], outline=grid)
            for r in range(c.h):
                for col in range(c.w):
                    if c.px[r][col]:
                        d.rectangle([x + col * S, y + r * S, x + col * S + S - 2,
                                     y + r * S + S - 2], fill=oled_on)
        elif kind == "oled1":  # actual size, and x2 below it
            for scale, dy in ((1, 0), (2, 64 + 20)):
                d.rectangle([x - 2, y + dy - 2, x + c.w * scale + 1, y + dy + c.h * scale + 1],
                            outline=grid)
                for r in range(c.h):
                    for col in range(c.w):
                        if c.px[r][col]:
                            d.rectangle([x + col * scale, y + dy + r * scale,
                                         x + (col + 1) * scale - 1, y + dy + (r + 1) * scale - 1],
                                        fill=oled_on)
    with replacing(path) as temp:
        img.save(temp, "PNG")
    return img.size


# ----------------------------------------------------------------------------- main

def main(argv=None):
    p = argparse.ArgumentParser(description="Generate firmware/glyphs.py from tools/glyph_art.py.")
    p.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 if %s is not what would be generated" % OUT_REL)
    p.add_argument("--preview", metavar="PATH.png",
                   help="draw every glyph (as it would be generated), enlarged, on one PNG "
                        "sheet instead of writing %s" % OUT_REL)
    a = p.parse_args(argv)
    try:
        g = build()
    except ArtError as e:
        print("make_glyphs: bad art: %s" % e, file=sys.stderr)
        return 2
    text = render(g)
    if a.check:
        ok, why = check()
        if not ok:
            print("make_glyphs: %s" % why, file=sys.stderr)
            return 1
        print("%s, %s and %s are up to date" % (OUT_REL, CARDS_REL, NARROW_REL))
    elif not a.preview:
        for rel, path, out in ((OUT_REL, OUT_PATH, text), (CARDS_REL, CARDS_PATH, render_cards(g)),
                               (NARROW_REL, NARROW_PATH, render_narrow(g))):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            write_atomic(path, out.encode("utf-8"), mode=0o644)
            print("wrote %s (%d bytes)" % (rel, len(out)))
    if a.preview:
        w, h = preview(a.preview, text)
        print("preview: %s (%dx%d)" % (a.preview, w, h))
    return 0


if __name__ == "__main__":
    sys.exit(main())
