"""The menus: main menu, settings, statistics and pause, driven by the buttons.

Any player's buttons work, near or far row alike, from their own seat: the first is UP,
the second DOWN, the third LEFT (previous value), the fourth RIGHT (next value, or choose
the item). MENU goes back. The app turns the page to face whoever pressed last.

Menus draws its pages and changes the settings it shows; what only the app can do (deal a
match, save, pause, quit) it asks for: key() returns an action, which the app carries out.
"""
from engine.bot import LEVELS
from firmware import settings as settings_mod
from firmware.menu import Page, HINT
from hardware.keymap import UP, DOWN, RIGHT, BACK

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from firmware.settings import Settings
    from firmware.stats import Stats
    from firmware.ui import Kit

# What key() asks the app to do.
NOTHING = 0
TWO_PLAYERS = 1  # deal a 2-player match
VS_COMPUTER = 2  # deal a match against the computer at the chosen CPU level
SETTING_CHANGED = 3  # make the settings take effect (they are saved as the page closes)
SETTINGS_OPENED = 4  # the settings page opened: a moment to tidy the nvm
SETTINGS_SAVE = 5  # save the settings: the page closed with changes, or the CPU level changed
RESUME = 6
DECLARE_DRAW = 7
QUIT_MATCH = 8
SELF_TEST = 9

MAIN = 0
SETTINGS = 1
STATS = 2
PAUSE = 3

_MAIN_ITEMS = ("2 PLAYERS", "VS COMPUTER", "CPU LEVEL", "SETTINGS", "STATISTICS",
               "SELF TEST")
_PAUSE_ITEMS = ("RESUME", "DECLARE DRAW", "QUIT MATCH")
_LEVEL = settings_mod.KEYS.index("level")


class Menus:
    """Which page is open and which item is chosen."""

    def __init__(self, kit: "Kit", settings: "Settings", stats: "Stats") -> None:
        self.settings = settings
        self.stats = stats
        self.page = Page(kit)
        self.group = self.page.group
        self.which = MAIN
        self.chosen = 0
        self.dirty_settings = False

    def open(self, which: int) -> None:
        """Show a page with its first item chosen."""
        self.which = which
        self.chosen = 0
        self.draw()

    def draw(self) -> None:
        s = self.settings
        if self.which == MAIN:
            values = ["", "", LEVELS[s.index[_LEVEL]][0], "", "", ""]
            self.page.draw("CALIFORNIA SPEED", _MAIN_ITEMS, values, self.chosen)
        elif self.which == SETTINGS:
            labels = [f[1] for f in settings_mod.FIELDS]
            values = [s.text(i) for i in range(len(labels))]
            self.page.draw("SETTINGS", labels, values, self.chosen)
        elif self.which == STATS:
            self.page.text(_stats_lines(self.stats), "STATISTICS", "MENU:BACK")
        else:
            self.page.draw("PAUSED", _PAUSE_ITEMS, None, self.chosen, HINT)

    def key(self, nav: int) -> int:
        """A navigation key (UP, DOWN, LEFT, RIGHT or BACK); returns what the app is to do."""
        w = self.which
        count = {MAIN: len(_MAIN_ITEMS), SETTINGS: len(settings_mod.FIELDS),
                 STATS: 0, PAUSE: len(_PAUSE_ITEMS)}[w]
        if nav == BACK:
            if w == SETTINGS:
                changed = self.dirty_settings
                self.dirty_settings = False
                self.open(MAIN)
                return SETTINGS_SAVE if changed else NOTHING
            if w == STATS:
                self.open(MAIN)
            return RESUME if w == PAUSE else NOTHING
        action = NOTHING
        if nav == UP or nav == DOWN:
            if count:
                self.chosen = (self.chosen + (1 if nav == DOWN else -1)) % count
        elif w == SETTINGS:
            self.settings.step(self.chosen, 1 if nav == RIGHT else -1)
            self.dirty_settings = True
            action = SETTING_CHANGED
        elif w == MAIN:
            action = self._main(nav)
            if self.which != MAIN or (action != SETTINGS_SAVE and action != NOTHING):
                return action  # another page (drawn as it opened) or another screen
        elif w == PAUSE and nav == RIGHT:
            return (RESUME, DECLARE_DRAW, QUIT_MATCH)[self.chosen]
        self.draw()
        return action

    def _main(self, nav: int) -> int:
        item = _MAIN_ITEMS[self.chosen]
        if item == "CPU LEVEL":
            self.settings.step(_LEVEL, 1 if nav == RIGHT else -1)
            return SETTINGS_SAVE
        if nav != RIGHT:
            return NOTHING
        if item == "2 PLAYERS":
            return TWO_PLAYERS
        if item == "VS COMPUTER":
            return VS_COMPUTER
        if item == "SETTINGS":
            self.open(SETTINGS)
            return SETTINGS_OPENED
        if item == "STATISTICS":
            self.open(STATS)
            return NOTHING
        return SELF_TEST


def _stats_lines(stats: "Stats") -> "tuple[str, ...]":
    """firmware/statspage.py's lines, its code in the heap only while they are made."""
    import firmware
    from firmware import statspage
    lines = statspage.lines(stats)
    firmware.forget("statspage")
    return lines
