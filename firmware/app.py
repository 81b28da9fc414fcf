"""The handheld app: the main loop and the screen on show (docs/ENGINEERING.md, "How the
repository is laid out"). A pass turns the scanner's events into meanings (firmware/keyfilter.py) for the
screen on show, whose key() and advance() return actions that the app carries out."""
import gc

import firmware
from engine.ticks import ticks_add, ticks_diff
from firmware import lang, sound
from firmware.keyfilter import KeyFilter
from firmware.match import Match, Result
import firmware.menus
from firmware.menus import Menus
from firmware.store import Saves
from firmware.settings import Settings
from firmware.stats import Stats
from firmware.table import Table
from firmware.ui import Kit
from hardware.seats import FACING

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from engine import Rules
    from firmware.keyfilter import Meaning
    from hardware.contract import Screen, Target

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
_A_PAUSE = const(11)
_A_ENDED = const(12)
_A_PLAY = const(13)
_A_TO_MENU = const(14)
_A_MENU_PAGE = const(15)
# What a key's meaning is (Meaning.what), as firmware/keyfilter.py numbers it.
_M_PRESS = const(1)
_M_TEST = const(6)
_M_WAKE = const(7)
_DEEP_SLEEP_AFTER_MS = const(600000)  # screen off this long: deep sleep, if the board can
# A pass sleeps at the end (hw.idle) this long at most, less when something is due sooner:
# the keypad scans on meanwhile but cannot wake it, so a press waits up to this much longer
# for the glass. Each nap costs the chip its last part-millisecond spun awake (time.sleep
# ends between two ticks), so fewer, longer naps cost less (docs/BENCH.md).
_NAP_MS = const(4)  # in play, and on screens whose work this file does not know
_NAP_MENU_MS = const(8)  # the menu pages, when nothing is due sooner: a press waits at most
# this much longer (the desktop twin's passes are 4 ms: a nap of 8 is two of them)
_NAP_ASLEEP_MS = const(100)  # with the screen off: a press only wakes it
_REST_MS = const(1000)  # a screen with nothing due still advances this often
_NEVER = const(0x0FFFFFFF)  # SLEEP off: no ticks_diff reaches it

# Code imported when it is wanted and let go after: each is imported once as the app starts,
# so that its names (which stay in the heap for good) do not arrive in the middle of play.
_NOW_AND_THEN = ("engine.bot", "firmware.selftest", "firmware.howto", "firmware.statspage")


class App:
    """One handheld: builds its screens once, then step() runs one main-loop pass."""

    def __init__(self, hw: "Target", rules: "Rules | None" = None, seed: int | None = None,
                 decks: "tuple[list[int], list[int]] | None" = None,
                 language: str | None = None) -> None:
        self.hw = hw
        self.display = hw.display
        self.event = hw.Event()
        self.kit = Kit()  # (first: the card bits it reads and lets go join the room below)
        # Their names are interned now, in a heap still in one piece, not the first time
        # each is wanted.
        for name in _NOW_AND_THEN:
            __import__(name)
            firmware.forget(name)
        gc.collect()  # a quiet point: what the imports left goes
        # What lives as long as the app first, packed together; then the nvm is read (Saves),
        # and what only reading it needs goes, leaving its room in one piece. The table then
        # takes the face of the saved PILES (the heap holds one face: making the other at the
        # first deal would need room in a heap already in pieces).
        self.sound = sound.Sound(hw.buzzer)
        self.settings = Settings(hw.info.get("CS_LANGUAGE", "en"), hw.info.get("CS_KEYS"))
        self.stats = Stats()
        self.table = Table(self.kit)
        self.match = Match(self.table, self.sound, self.stats)
        self.saves = Saves(hw, self.settings, self.stats)
        self.table.face((rules or self.settings.rules()).piles_per_row)
        if language is not None:  # a language given by the command line is chosen
            self.settings.choose("language", lang.CODES.index(language))
        self.fixed_rules, self.seed, self.decks = rules, seed, decks  # from a test or make play
        # (the menus stay built: taking them down for play and up again for each pause left
        # the heap in pieces, which cost more than they take)
        self.menus = Menus(self.kit, self.settings, self.stats)
        self.result = Result(self.match, self.saves, self.settings, hw.console)
        self.screen = self.menus  # type: Screen
        self.deep_tried = False
        self.passes = 0
        # Passes rest (skip advance) till rest_until; sleep_ms: SLEEP (apply_settings).
        self.resting, self.rest_until, self.sleep_ms = False, 0, _NEVER
        self.filter = KeyFilter(hw.keymap, hw.ticks_ms(), bool(hw.info.get("woke")),
                                hw.console)
        self.rotation = -1
        lang.use(self.settings.language())  # (another is chosen by starting afresh: restart)
        self.restarting = False
        self.apply_settings()
        # Keys held at power-up report as pressed: MENU's press is the self-test.
        for scanner, _ in hw.scanners:
            scanner.reset()
        self._act(_A_TO_MENU)
        hw.console("ready: " + firmware.free())

    def run(self) -> None:
        """Run until the hardware says stop (never, on the board), or the app restarts."""
        while not self.hw.stop_requested() and not self.restarting:
            self.step()

    def step(self) -> None:
        """One main-loop pass: the keys' meanings, then time, to the screen on show."""
        hw = self.hw
        keys = self.filter  # (one name a line: a tuple of four is built on the heap)
        ev = self.event
        now = hw.ticks_ms()
        for scanner, first in hw.scanners:  # (the matrix build's MENU on a scanner of its own)
            events = scanner.events
            while events.get_into(ev):
                if keys.feed(first + ev.key_number, ev.pressed, ev.timestamp):
                    self._key(keys.meaning, ev.timestamp)
            if events.overflowed:
                events.clear()
                self._key(keys.lost(), now)
        # A call only when it can say something: a pass in play is short.
        while (keys.held or keys.booting) and keys.update(now):
            self._key(keys.meaning, now)
        left = ticks_diff(self.rest_until, now) if self.resting else 0  # ms it rests on
        if keys.asleep:
            self._maybe_sleep(now)  # (the deep sleep's moment)
        elif left <= 0:
            left = self._advance(now)
        sound = self.sound
        if sound.active:
            sound.update(now)
        drew = self.kit.changes
        if drew:
            self.kit.changes = 0
            self.display.refresh()
        self.passes += 1
        hw.feed()
        if keys.asleep:
            hw.idle(_NAP_ASLEEP_MS)
        elif drew:  # a pass draws one thing: the next may be waiting, so no nap
            hw.idle(0)
        else:  # till the first thing due (timed from the pass's start: it drew nothing)
            if keys.booting or keys.held:
                left = min(left, _NAP_MS if keys.booting else ticks_diff(keys.look_at, now))
            if sound.active:
                left = min(left, ticks_diff(sound.until, now))
            hw.idle(_NAP_MENU_MS if left >= _NAP_MENU_MS and self.screen is self.menus
                    else max(0, min(left, _NAP_MS)))

    def _advance(self, now: int) -> int:
        """Time to the screen on show and to SLEEP; the ms till either has work (rest_ms,
        its own say; -1, like the self-test's, advances every pass)."""
        screen = self.screen
        action = screen.advance(now)
        if action != _A_NOTHING:
            self._act(action)
        self._maybe_sleep(now)
        rest = screen.rest_ms if self.screen is screen else -1
        self.resting = rest >= 0
        if not self.resting:
            return _NAP_MS
        rest = max(0, min(rest, _REST_MS,
                          self.sleep_ms - ticks_diff(now, self.filter.last_input)))
        self.rest_until = ticks_add(now, rest)
        return rest

    def _key(self, m: "Meaning", t: int) -> None:
        """A meaning to the screen on show (the menu pages click and turn to the presser)."""
        self.resting = False
        what = m.what
        if what == _M_WAKE:
            self.deep_tried = False
            self.display.wake()
            self.kit.changes += 1
        elif what == _M_TEST:
            self._act(_A_SELF_TEST)
        elif not self.filter.asleep:
            screen = self.screen
            if what == _M_PRESS and screen.group is self.menus.group:  # a menu page
                if m.player >= 0:
                    self._face(m.player)
                self.sound.play(sound.KEY, t)
            self._act(screen.key(m, t))

    def _act(self, action: int) -> None:
        """Carry out what a screen asked for."""
        if action == _A_NOTHING:
            return
        match, menus, now = self.match, self.menus, self.hw.ticks_ms()
        if action == _A_TWO_PLAYERS or action == _A_VS_COMPUTER:
            self.start_match(-1 if action == _A_TWO_PLAYERS else self.settings.value("level"))
        elif action == _A_SETTING_CHANGED:
            self.apply_settings()
        elif action == _A_SETTINGS_OPENED:
            self.saves.tidy()
        elif action == _A_SETTINGS_SAVE:
            self.saves.settings_done(True)
            if self.settings.language() != lang.code:
                # A new language loads into a fresh heap: code.py runs again on the board.
                self.restarting = True
                self.hw.restart()
        elif action == _A_RESUME or action == _A_DECLARE_DRAW:
            match.resume()
            self._go(match)
            if action == _A_DECLARE_DRAW:  # the players agree the game is a draw
                match.declare_draw(now)
                self._act(_A_ENDED)
        elif action == _A_PLAY:  # the next game, on the same glass
            self._go(match)
        elif action == _A_ENDED:
            self._go(self.result)
        elif action == _A_PAUSE:  # (a timer that comes due in the pause fires on resume)
            match.pause()
            self._go(menus)
            self._face(0)
            menus.open(firmware.menus.PAUSE)
        elif action == _A_SELF_TEST or action == _A_HOW_TO_PLAY:  # (HOW TO PLAY: on the
            # menu page, facing whoever chose it.) Their code is in the heap only while they
            # are open: the play screen's cells lend it their room (table.face(-1) makes
            # them again when the menus are back), then the module's open(app) makes it.
            self.table.lend()
            gc.collect()  # (room to load it; to compile it, from a .py)
            name = "firmware.selftest" if action == _A_SELF_TEST else "firmware.howto"
            self._go(__import__(name, None, None, ("open",)).open(self))
        elif action == _A_MENU_PAGE:  # back from HOW TO PLAY, facing as it was
            self._go(menus)
            menus.open(firmware.menus.MAIN)
        else:  # _A_QUIT_MATCH, _A_TO_MENU: the main menu, facing A
            if action == _A_QUIT_MATCH:
                match.end()
            self._go(menus)
            self._face(0)
            menus.open(firmware.menus.MAIN)

    def _go(self, screen: "Screen") -> None:
        """Close the screen on show and open another: each does its own start and end."""
        old = self.screen
        self.screen = screen
        self.resting = False
        if old is not screen:
            old.leave(self)
        del old  # (its objects can go before the next screen takes room)
        screen.enter(self)

    def _maybe_sleep(self, now: int) -> None:
        """Nobody has pressed a key for the SLEEP setting's minutes: pause a match, screen
        off; ten minutes more, deep sleep if the board can. The self-test stays on."""
        keys = self.filter
        idle = ticks_diff(now, keys.last_input)
        if keys.asleep:
            if not self.deep_tried and idle >= self.sleep_ms + _DEEP_SLEEP_AFTER_MS:
                self.deep_tried = True  # a board that can returns only by starting afresh
                self.hw.deep_sleep()
        elif idle >= self.sleep_ms and self.screen.on_sleep >= 0:  # (the self-test stays on)
            self._act(self.screen.on_sleep)  # (a match pauses)
            keys.asleep = True
            self.sound.stop()
            self.display.sleep()

    def start_match(self, level: int) -> None:
        """From the main menu: two players (level -1) or A against the computer."""
        self.saves.tidy()
        seed = self.seed if self.seed is not None else self.hw.random_seed()
        self.hw.console("match: seed %d (make play --seed %d%s deals it again), %s"
                        % (seed, seed, " with the same --decks" if self.decks else "",
                           firmware.free()))
        rules = self.fixed_rules or self.settings.rules()
        self.filter.n = rules.piles_per_row
        self.match.begin(rules, seed, self.hw.ticks_ms(), level, self.decks)
        self.decks = None  # stacked decks are for the first match only
        self._go(self.match)

    def apply_settings(self) -> None:
        """Make the settings take effect (the rules from the next match on)."""
        s = self.settings
        self.sleep_ms = s.value("sleep") * 60000 or _NEVER
        self.sound.muted = not s.value("sound")
        if self.sound.muted:
            self.sound.stop()
        self.display.brightness = s.value("contrast") / 255
        self.match.hints = bool(s.value("hints"))
        self._face(0)

    def _face(self, player: int) -> None:
        """Turn the display to face a player (0 A, 1 B), minding the flip setting."""
        rotation = FACING[1 if (player == 1) != bool(self.settings.value("flip")) else 0]
        if rotation != self.rotation:
            self.rotation = rotation
            self.display.rotation = rotation
            self.kit.changes += 1

    def show(self, screen: "Screen", player: int) -> None:
        """Put a screen's group on the glass, facing a player (0 A, 1 B; -1 as it faces):
        for its enter() (_go has made it the screen on show)."""
        group = screen.group
        if self.display.root_group is not group:  # (a group on show cannot be shown again)
            self.display.root_group = group
        if player >= 0:
            self._face(player)
        self.kit.changes += 1
