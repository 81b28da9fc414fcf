"""The menus: main menu, settings, statistics and pause, driven by the buttons (HOW TO
PLAY's pages are firmware/howto.py, on the same page).

Any player's buttons work, near or far row alike, from their own seat: the first is UP,
the second DOWN, the third LEFT (previous value), the fourth RIGHT (next value, or choose
the item). MENU goes back. The app turns the page to face whoever pressed last.

Menus draws its pages and changes the settings it shows; what only the app can do (deal a
match, save, pause, quit) it asks for: key() returns an action (firmware/__init__.py),
which the app carries out.
"""
from firmware import lang
from firmware.menu import ROWS, Page, hint
from firmware.ui import LINE_CHARS
from hardware.keymap import UP, DOWN, RIGHT, BACK

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from hardware.contract import Shell, Target  # noqa: F401
    from firmware.keyfilter import Meaning
    from firmware.settings import Settings
    from firmware.stats import Stats
    from firmware.ui import Kit

# What a screen asks the app to do, as firmware/__init__.py numbers it.
_A_NOTHING = const(0)
_A_TWO_PLAYERS = const(1)
_A_VS_COMPUTER = const(2)
_A_SETTING_CHANGED = const(3)
_A_SETTINGS_OPENED = const(4)
_A_SETTINGS_SAVE = const(5)
_A_RESUME = const(6)
_A_DECLARE_DRAW = const(7)
_A_QUIT_MATCH = const(8)
_A_SELF_TEST = const(9)
_A_HOW_TO_PLAY = const(10)
# What a key's meaning is (Meaning.what), as firmware/keyfilter.py numbers it.
_M_PRESS = const(1)

MAIN = 0
SETTINGS = 1
STATS = 2
PAUSE = 3

# The main menu's items, in the order of MAIN in firmware/lang_en.py. (Constants: a name
# the board keeps costs a place among its interned names, which are few.)
_TWO = const(0)
_VS = const(1)
_LEVEL_ITEM = const(2)
_SETTINGS_ITEM = const(3)
_STATS_ITEM = const(4)
_HOW_ITEM = const(5)
_SELF_TEST_ITEM = const(6)
_LEVEL = const(6)  # firmware/settings.py KEYS.index("level")


class Menus:
    """Which page is open and which item is chosen."""

    on_sleep = _A_NOTHING

    def __init__(self, kit: "Kit", settings: "Settings", stats: "Stats") -> None:
        self.settings = settings
        self.stats = stats
        self.page = Page(kit)
        self.group = self.page.group
        self.which = MAIN
        self.chosen = 0
        self.main_item = 0  # the main menu's item chosen when it was left
        self.dirty_settings = False
        self.hw = None  # type: Target | None  # (enter() gives it: the title reads its cells)

    def enter(self, app: "Shell") -> None:
        """On the glass, facing as it was (the app turns it where it should): the play
        screen's cells come back if a screen borrowed their room (table.face(-1) makes
        them after a collection, once that screen's objects are gone)."""
        self.hw = app.hw
        app.show(self, -1)
        app.table.face(-1)

    def leave(self, app: "Shell") -> None:
        """(The pages stay built.)"""

    def open(self, which: int) -> None:
        """Show a page: the main menu with the item it was left on chosen, any other page
        with its first."""
        if self.which == MAIN:
            self.main_item = self.chosen
        elif self.which == SETTINGS:
            lang.forget_fields()  # (the page's words go with it)
        self.which = which
        self.chosen = self.main_item if which == MAIN else 0
        self.draw()

    def draw(self) -> None:
        """Draw the open page, in the chosen language."""
        s, w = self.settings, lang.words
        if self.which == MAIN:
            values = ["", "", s.text(_LEVEL), "", "", "", ""]
            self.page.draw(w.TITLE, w.MAIN, values, self.chosen, hint(w.BACK))
            left = self.hw.cells() if self.hw else -1
            if left >= 0:  # on batteries: the charge left at the title's end (not on USB)
                title = self.page.lines[0]
                title.center(w.TITLE, 0, LINE_CHARS - 4)
                title.number(LINE_CHARS - 4, left, 3)  # (no format string: one name less)
                title.put(LINE_CHARS - 1, b"%")
        elif self.which == SETTINGS:
            n = len(lang.fields())  # (a line each; handicap_ms is on HANDICAP's)
            self.page.draw(w.MAIN[_SETTINGS_ITEM], [s.label(i) for i in range(n)],
                           [s.text(i) for i in range(n)], self.chosen, hint(w.BACK))
        elif self.which == STATS:
            self.page.draw(w.MAIN[_STATS_ITEM], w.STATS, _stats_values(self.stats), -1,
                           hint(w.BACK), self.chosen)  # (chosen: the first line shown)
        else:
            self.page.draw(w.PAUSED, w.PAUSE, None, self.chosen, hint(w.BACK))

    def _count(self) -> int:
        """How many items the open page has."""
        w = self.which
        if w == SETTINGS:
            return len(lang.fields())
        words = lang.words
        if w == STATS:  # UP and DOWN scroll it: a position for each first line shown
            return len(words.STATS) - ROWS + 1
        return len(words.MAIN if w == MAIN else words.PAUSE)

    def key(self, m: "Meaning", t: int) -> int:
        """A key's meaning: its move (UP, DOWN, LEFT, RIGHT or BACK) on the open page;
        returns what the app is to do. A key with no move (a row's 5th and 6th keys on the
        matrix build) does nothing."""
        nav = m.nav
        if m.what != _M_PRESS or nav < 0:
            return _A_NOTHING
        w = self.which
        if nav == BACK:
            if w == SETTINGS:
                changed = self.dirty_settings
                self.dirty_settings = False
                self.open(MAIN)
                return _A_SETTINGS_SAVE if changed else _A_NOTHING
            if w == STATS:
                self.open(MAIN)
            return _A_RESUME if w == PAUSE else _A_NOTHING
        action = _A_NOTHING
        if nav == UP or nav == DOWN:
            self.chosen = (self.chosen + (1 if nav == DOWN else -1)) % self._count()
        elif w == SETTINGS:
            self.settings.step(self.chosen, 1 if nav == RIGHT else -1)
            self.dirty_settings = True
            action = _A_SETTING_CHANGED
        elif w == MAIN:
            action = self._main(nav)
            if self.which != MAIN or (action != _A_SETTINGS_SAVE and action != _A_NOTHING):
                return action  # another page (drawn as it opened) or another screen
        elif w == PAUSE and nav == RIGHT:
            return (_A_RESUME, _A_DECLARE_DRAW, _A_QUIT_MATCH)[self.chosen]
        self.draw()
        return action

    rest_ms = 60000  # after advance(): its pages wait for keys (firmware/app.py)

    def advance(self, now: int) -> int:
        """The pages wait for keys."""
        return _A_NOTHING

    def _main(self, nav: int) -> int:
        item = self.chosen
        if item == _LEVEL_ITEM:
            self.settings.step(_LEVEL, 1 if nav == RIGHT else -1)
            return _A_SETTINGS_SAVE
        if nav != RIGHT:
            return _A_NOTHING
        if item == _TWO:
            return _A_TWO_PLAYERS
        if item == _VS:
            return _A_VS_COMPUTER
        if item == _SETTINGS_ITEM:
            self.open(SETTINGS)
            return _A_SETTINGS_OPENED
        if item == _STATS_ITEM:
            self.open(STATS)
            return _A_NOTHING
        return _A_HOW_TO_PLAY if item == _HOW_ITEM else _A_SELF_TEST


def _stats_values(stats: "Stats") -> "list[str]":
    """firmware/statspage.py's values, its code in the heap only while they are made."""
    import firmware
    from firmware import statspage
    values = statspage.values(stats)
    firmware.forget("firmware.statspage")
    return values
