"""The menus: main menu, settings, statistics and pause, driven by the buttons.

Any player's buttons work, near or far row alike, from their own seat: the first is UP,
the second DOWN, the third LEFT (previous value), the fourth RIGHT (next value, or choose
the item). MENU goes back. The page turns to face whoever pressed last.
"""
from engine.bot import LEVELS
from firmware import settings as settings_mod
from firmware.menu import Page, HINT
from hardware.keymap import UP, DOWN, LEFT, RIGHT, BACK

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from firmware.app import App
    from firmware.stats import Stats


MAIN = 0
SETTINGS = 1
STATS = 2
PAUSE = 3

_MAIN_ITEMS = ("2 PLAYERS", "VS COMPUTER", "CPU LEVEL", "SETTINGS", "STATISTICS",
               "SELF TEST")
_PAUSE_ITEMS = ("RESUME", "DECLARE DRAW", "QUIT MATCH")
_LEVEL = settings_mod.KEYS.index("level")


class Menus:
    """Which page is open, which item is chosen; actions go to the app."""

    def __init__(self, app: "App") -> None:
        self.app = app
        self.page = Page(app.kit)
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
        s = self.app.settings
        if self.which == MAIN:
            values = ["", "", LEVELS[s.index[_LEVEL]][0], "", "", ""]
            self.page.draw("CALIFORNIA SPEED", _MAIN_ITEMS, values, self.chosen)
        elif self.which == SETTINGS:
            labels = [f[1] for f in settings_mod.FIELDS]
            values = [s.text(i) for i in range(len(labels))]
            self.page.draw("SETTINGS", labels, values, self.chosen)
        elif self.which == STATS:
            self.page.text(_stats_lines(self.app.stats), "STATISTICS", "MENU:BACK")
        else:
            self.page.draw("PAUSED", _PAUSE_ITEMS, None, self.chosen, HINT)

    def key(self, nav: int) -> None:
        """A navigation key: UP, DOWN, LEFT, RIGHT or BACK."""
        app = self.app
        w = self.which
        count = {MAIN: len(_MAIN_ITEMS), SETTINGS: len(settings_mod.FIELDS),
                 STATS: 0, PAUSE: len(_PAUSE_ITEMS)}[w]
        if nav == BACK:
            if w == SETTINGS:
                app.settings_done(self.dirty_settings)
                self.dirty_settings = False
                self.open(MAIN)
            elif w == STATS:
                self.open(MAIN)
            elif w == PAUSE:
                app.resume()
            return
        if nav == UP or nav == DOWN:
            if count:
                self.chosen = (self.chosen + (1 if nav == DOWN else -1)) % count
        elif w == SETTINGS:
            app.settings.step(self.chosen, 1 if nav == RIGHT else -1)
            self.dirty_settings = True
            app.apply_settings()
        elif w == MAIN:
            self._main(nav)
            if self.which != MAIN or app.state != app.MENU:
                return
        elif w == PAUSE and nav == RIGHT:
            (app.resume, app.declare_draw, app.quit_match)[self.chosen]()
            return
        self.draw()

    def _main(self, nav: int) -> None:
        app = self.app
        item = _MAIN_ITEMS[self.chosen]
        if item == "CPU LEVEL":
            app.settings.step(_LEVEL, 1 if nav == RIGHT else -1)
            app.settings_done(True)
        elif nav != RIGHT:
            return
        elif item == "2 PLAYERS":
            app.start_match(-1)
        elif item == "VS COMPUTER":
            app.start_match(app.settings.index[_LEVEL])
        elif item == "SETTINGS":
            app.tidy()
            self.open(SETTINGS)
        elif item == "STATISTICS":
            self.open(STATS)
        elif item == "SELF TEST":
            app.open_selftest()


def _stats_lines(stats: "Stats") -> "tuple[str, ...]":
    """firmware/statspage.py's lines, its code in the heap only while they are made."""
    import firmware
    from firmware import statspage
    lines = statspage.lines(stats)
    firmware.forget("statspage")
    return lines
