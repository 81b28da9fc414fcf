"""HOW TO PLAY: pages that teach the game, each a picture of four cards over four lines of
text. The picture is drawn from the play screen's own glyph sheets into its background
bitmap (borrowed: every match draws it afresh), and the text goes on the menu page's
lower lines, so the pages build almost nothing. The text of each language is in
firmware/howto_en.py (howto_fr.py, howto_pt.py), and like this module it is in the heap
only while the pages are open. UP and LEFT turn back a page, DOWN and RIGHT on; MENU goes
back to the menu.
"""
import firmware
from firmware import glyphs, lang
from firmware.ui import W, CELL_H, outline, underline
from hardware.keymap import UP, LEFT, BACK

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

if False:  # names for type annotations: mypy reads them, the compiler drops them
    import displayio

    from hardware.contract import Shell
    from firmware.keyfilter import Meaning
    from firmware.menu import Page
    from firmware.ui import Kit

# What a screen asks the app to do, as firmware/__init__.py numbers it.
_A_NOTHING = const(0)
_A_MENU_PAGE = const(15)
# What a key's meaning is (Meaning.what), as firmware/keyfilter.py numbers it.
_M_PRESS = const(1)

_CELLS = 4
_CELL_W = W // _CELLS
_TOP = 3  # the card glyphs' top in a cell, as firmware/ui.py Cell places them
_LINES = 3  # the page's first lines give their room to the picture


def _card(rank: int, suit: int) -> int:
    """A card id (tools/cards.py): rank 0 (A) .. 12 (K), suit 0 clubs, 1 diamonds,
    2 hearts, 3 spades."""
    return suit * 13 + rank


# Each page's picture: a row of four piles (-1: an empty cell) and the piles underlined,
# as the play screen's training hints underline them. howto_en.PAGES says what each shows.
PICTURES = (
    ((_card(4, 0), _card(8, 1), _card(10, 2), _card(1, 3)), 0),  # a row dealt
    ((_card(4, 0), _card(8, 1), _card(4, 2), _card(12, 3)), 0b0101),  # two 5s: a pair
    ((_card(10, 1), _card(8, 1), _card(4, 2), _card(12, 3)), 0b0100),  # one 5 covered
    ((_card(1, 0), _card(8, 1), _card(5, 2), _card(12, 3)), 0),  # no pair: a stall
    ((-1, -1, -1, -1), 0),  # the rows collected, to be dealt again
    ((_card(6, 3), _card(2, 0), _card(11, 1), _card(9, 2)), 0),  # no pair: a press is a foul
    ((_card(6, 0), _card(2, 2), _card(6, 1), _card(0, 3)), 0b0101),  # two 7s: a race for them
)


def open(app: "Shell") -> "HowTo":
    """HOW TO PLAY for the app, on its menu page, drawing on the play screen's background
    (the app has lent it the cells' room: firmware/app.py)."""
    return HowTo(app.kit, app.table.bg, app.menus.page, app.settings.language())


class HowTo:
    """The pages, shown on the menu page; key() turns them, close() gives the page back."""

    on_sleep = _A_NOTHING

    def __init__(self, kit: "Kit", picture: "displayio.Bitmap", page: "Page",
                 code: str) -> None:
        """picture: a W x 64 bitmap to draw on; page: the menu page, whose group is shown."""
        self.kit = kit
        self.picture = picture
        self.view = page
        self.group = page.group  # (the menu page's, which stays on the glass)
        self.grid = kit.grid(picture, W, 32)  # the bitmap's top half, behind the text
        page.group.insert(0, self.grid)
        for i in range(_LINES):
            page.lines[i].grid.hidden = True
        __import__("firmware.howto_" + code)
        import sys
        self.words = sys.modules["firmware.howto_" + code]
        self.page = 0
        self.draw()

    def enter(self, app: "Shell") -> None:
        """(Drawn as it was made, on the menu page already on the glass.)"""

    def leave(self, app: "Shell") -> None:
        self.close()

    def close(self) -> None:
        """The menu page as it was (the caller draws its menu again); the pages' code and
        words leave the heap."""
        view = self.view
        view.group.remove(self.grid)
        for i in range(_LINES):
            view.lines[i].grid.hidden = False
        self.kit.changes += 1
        firmware.forget("firmware.howto")
        firmware.forget(self.words.__name__)

    def draw(self) -> None:
        """Draw the open page: its picture, its words, and the page number."""
        cards, marks = PICTURES[self.page]
        pic = self.picture
        pic.fill(0)
        for i in range(_CELLS):
            x = i * _CELL_W
            outline(pic, x + 1, 0, _CELL_W - 2, CELL_H)
            self._card(cards[i], x + (_CELL_W - glyphs.RANK_W - 1 - glyphs.SUIT_W) // 2)
            underline(pic, x, CELL_H - 2, _CELL_W, (marks >> i) & 1)  # as a hint does
        text = self.words.PAGES[self.page]
        lines = self.view.lines
        for i in range(4):
            lines[_LINES + i].show(text[i])
        lines[_LINES + 4].center("%s%s %d/%d  %s" % (
            chr(glyphs.ICON_UP), chr(glyphs.ICON_DOWN), self.page + 1, len(PICTURES),
            lang.words.BACK))
        self.kit.changes += 1

    def _card(self, card: int, x: int) -> None:
        """Copy a card's rank and suit glyphs from the kit's sheets to the picture at x."""
        if card < 0:
            return
        kit = self.kit
        self._copy(kit.ranks, card % 13 * glyphs.RANK_W, glyphs.RANK_W, glyphs.RANK_H,
                   x)
        self._copy(kit.suits, card // 13 * glyphs.SUIT_W, glyphs.SUIT_W, glyphs.SUIT_H,
                   x + glyphs.RANK_W + 1)

    def _copy(self, sheet: "displayio.Bitmap", sx: int, w: int, h: int, x: int) -> None:
        sw = sheet.width
        pic = self.picture
        for y in range(h):
            src = y * sw + sx
            dst = (_TOP + y) * W + x
            for i in range(w):
                if sheet[src + i]:
                    pic[dst + i] = 1

    def key(self, m: "Meaning", t: int) -> int:
        """A key's move turns a page; MENU (BACK) asks for the menu page it came from."""
        nav = m.nav
        if m.what != _M_PRESS:
            return _A_NOTHING
        if nav == BACK:
            return _A_MENU_PAGE
        if nav >= 0:
            step = -1 if nav == UP or nav == LEFT else 1
            self.page = (self.page + step) % len(PICTURES)
            self.draw()
        return _A_NOTHING

    rest_ms = 60000  # after advance(): its pages wait for keys (firmware/app.py)

    def advance(self, now: int) -> int:
        """The pages wait for keys."""
        return _A_NOTHING
