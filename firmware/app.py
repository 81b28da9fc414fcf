"""The handheld app: menus, matches, pause, self-test, sleep; the main loop that drives them.

Each pass of the main loop drains every pending key event (one reused Event), feeds
presses to the engine in the scanner's timestamp order, advances the screens, refreshes
the display only when a tile changed, and feeds the watchdog. Talks only to the hardware
contract (hw: display, keys, keymap, buzzer, nvm, ticks_ms, idle, feed, console, ...) and
the engine. firmware/runner.py runs it, and starts it again after an unexpected error.
"""
import gc

import engine
from engine.ticks import ticks_diff
import firmware
from firmware import lang, sound
from firmware.match import Match
from firmware import menus as menus_mod
from firmware.menus import Menus
from firmware.settings import Settings, SETTINGS_KIND
from firmware.stats import Stats, STATS_KIND
from firmware.store import Log
from firmware.table import Table
from firmware.ui import Kit
from hardware.keymap import (KEY_COUNT, MENU_KEY, ROLE_MENU, ROLE_NONE, key_bit, nav_of,
                             player_of, role_of)

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

if False:  # names for type annotations: mypy reads them, the compiler drops them
    import types

    import displayio
    from engine import Rules
    from firmware.howto import HowTo
    from firmware.selftest import SelfTest
    from hardware.contract import Target

_HELD_MS = const(3000)  # a key down this long is reported as stuck
_RESULT_GUARD_MS = const(1000)  # presses right after a game ends do not deal the next
_PAUSE_HOLD_MS = const(600)  # hold MENU this long to pause (or press it twice quickly)
_DOUBLE_MS = const(500)
_EXIT_HOLD_MS = const(1500)  # hold MENU this long to leave the self-test
_SETTLED = const(2)  # the steps of a result's quiet work: save, then collect and tidy
_BOUNCE_MS = const(20)  # a key pressed again this soon after its release is bouncing
_BOOT_MS = const(300)  # keys reported this soon after start-up were held at power-up
_DEEP_SLEEP_AFTER_MS = const(600000)  # screen off this long: deep sleep, if the board can
# nvm bytes kept free for what a game or a visit to the settings can save before the next
# tidy: a new block of each tally (8 + 32 x 3) or a statistics record (49)
_RESERVE = const(208)

# What a save can raise: the board's nvm says RuntimeError ("Unable to write to nvm."), a
# desktop's file OSError (a folder made read-only, a full disk).
_NVM_ERRORS = (OSError, RuntimeError)

# Code imported when it is wanted and let go after: each is imported once as the app starts,
# so that its names (which stay in the heap for good) do not arrive in the middle of play.
_NOW_AND_THEN = ("engine.bot", "firmware.selftest", "firmware.howto", "firmware.statspage")


class App:
    """One handheld: builds its screens once, then step() runs one main-loop pass."""

    MENU = 0
    PLAY = 1
    RESULT = 2
    PAUSED = 3
    SELFTEST = 4
    SLEEP = 5
    HOWTO = 6

    def __init__(self, hw: "Target", rules: "Rules | None" = None, seed: int | None = None,
                 decks: "tuple[list[int], list[int]] | None" = None,
                 language: str | None = None) -> None:
        self.hw = hw
        self.display = hw.display
        self.keys = hw.keys
        self.keymap = hw.keymap
        self.event = hw.Event()
        for name in _NOW_AND_THEN:  # their names are interned now, in a heap still in one
            __import__(name)  # piece, not the first time each is wanted
            firmware.forget(name)
        gc.collect()  # a quiet point: what the imports left goes
        # What lives as long as the app first, packed together; then the nvm is read,
        # and what only reading it needs goes, leaving its room in one piece.
        self.kit = Kit()
        self.sound = sound.Sound(hw.buzzer)
        self.settings = Settings(hw.info.get("CS_LANGUAGE", "en"))
        self.stats = Stats()
        self.table = Table(self.kit)
        self.match = Match(self.table, self.sound, self.stats)
        self.log = Log(hw.nvm, hw.feed, self._fold)
        self.unsaved = 0  # bit per kind: its last save failed, the next one writes it whole
        from firmware import restore
        restore.restore(self)
        firmware.forget("firmware.restore")
        firmware.forget("firmware.storeload")  # the loading code leaves the heap
        self.tidy()  # at boot, when nobody is about to switch off
        if language is not None:  # a language given by the command line is chosen
            self.settings.choose("language", lang.CODES.index(language))
        self.fixed_rules = rules  # rules given by a test or the command line win
        self.rules = rules or self.settings.rules()
        self.seed = seed
        self.decks = decks
        # (the menus stay built: taking them down for play and up again for each pause left
        # the heap in pieces, which cost more than they take)
        self.menus = Menus(self.kit, self.settings, self.stats)
        self.selftest = None  # type: SelfTest | None  # imported and built when opened, let go when left
        self.howto = None  # type: HowTo | None  # the same: HOW TO PLAY's pages
        self.state = self.MENU
        self.before_sleep = self.MENU
        self.deep_tried = False
        self.passes = 0
        self.presses = 0  # key presses handled (for tests and the bench)
        self.held = 0  # bit per key number: down now
        self.down_at = [0] * KEY_COUNT
        self.up_at = [0] * KEY_COUNT
        self.settling = 0  # bit per key number: released, and a press now would be a bounce
        self.bounces = 0  # presses taken as the contact bouncing (for tests and the self-test)
        self.stuck = 0  # bit per key number: held too long or since power-up; ignored
        self.unknown = 0
        self.overflows = 0
        self.menu_at = -1  # when MENU was last pressed (double press pauses)
        self.settled = _SETTLED  # steps of a result's quiet work done (_settle)
        self.menu_used = False  # this MENU hold already acted
        now = hw.ticks_ms()
        self.started = now
        self.booting = True  # until _BOOT_MS after start: presses are keys held at power-up
        self.last_input = now
        self.rotation = -1
        lang.use(self.settings.language())  # (another is chosen by starting afresh: restart)
        self.restarting = False
        self.apply_settings()
        self.keys.reset()  # keys held at power-up report as pressed: MENU opens the self-test
        self._menu()
        hw.console("ready: " + _free())

    # ---- the main loop ----

    def run(self) -> None:
        """Run until the hardware says stop (never, on the board), or the app restarts."""
        while not self.hw.stop_requested() and not self.restarting:
            self.step()

    def restart(self) -> None:
        """Start afresh, as after power-up: on the board code.py runs again in a fresh heap
        (hw.restart() does not return); elsewhere run() returns and a new App is made."""
        self.restarting = True
        self.hw.restart()

    def step(self) -> None:
        """One main-loop pass."""
        now = self.hw.ticks_ms()
        ev = self.event
        events = self.keys.events
        while events.get_into(ev):
            self._key(ev.key_number, ev.pressed, ev.timestamp)
        if events.overflowed:
            events.clear()
            self._overflow(now)
        self._advance(now)
        self.sound.update(now)
        if self.kit.changes:
            self.kit.changes = 0
            self.display.refresh()
        self.passes += 1
        self.hw.feed()
        self.hw.idle()

    # ---- input ----

    def _key(self, key: int, pressed: bool, t: int) -> None:
        role = role_of(key, self.keymap)
        if role == ROLE_NONE:
            if pressed:
                self.unknown += 1
                self._notice(lang.words.KEY_UNKNOWN, t)
            return
        bit = key_bit(key)
        if not pressed:
            self.held &= ~bit
            self.settling |= bit
            self.up_at[key] = t
            if key == MENU_KEY:
                self.menu_used = False
            if self.stuck & bit:
                self.stuck &= ~bit
                self._notice("", t)
            if self.selftest is not None and self.state == self.SELFTEST:
                self.selftest.key(key, False)
            return
        self.held |= bit
        if self.settling & bit:
            self.settling &= ~bit
            if ticks_diff(t, self.up_at[key]) < _BOUNCE_MS:  # the same press, still held
                self.bounces += 1
                if self.selftest is not None and self.state == self.SELFTEST:
                    self.selftest.key(key, True)
                return
        self.down_at[key] = t
        self.presses += 1
        self.last_input = t
        state = self.state
        if self.booting and state == self.MENU:
            if role == ROLE_MENU and not self.hw.info.get("woke"):  # MENU held at power-up
                self.menu_used = True
                self.open_selftest()
            elif role == ROLE_MENU:  # the press that woke the board from deep sleep
                self.stuck |= bit
            else:  # another key held at power-up: ignore it until it is released
                self.stuck |= bit
                self.hw.console("key %d (%s) was down at power-up; ignored until released"
                                % (key, _selftest().describe(key)))
            return
        if self.stuck & bit:
            return
        if state == self.SLEEP:
            self._wake(t)
        elif state == self.PLAY:
            if role != ROLE_MENU:
                self.match.press(role, t)
            elif self.menu_at >= 0 and ticks_diff(t, self.menu_at) < _DOUBLE_MS:
                self.pause()
            self.menu_at = t if role == ROLE_MENU else self.menu_at
        elif state == self.RESULT:
            if ticks_diff(t, self.match.ended_at) >= _RESULT_GUARD_MS:
                self._after_result(t)
        elif self.selftest is not None and state == self.SELFTEST:
            self.selftest.key(key, True)
        else:  # a menu page, or HOW TO PLAY's
            player = -1 if role == ROLE_MENU else player_of(role)
            if player >= 0:
                self._face(player)
            self.sound.play(sound.KEY, t)
            if self.howto is not None and state == self.HOWTO:
                if not self.howto.key(nav_of(role)):
                    self.close_howto()
            else:
                self._act(self.menus.key(nav_of(role)))

    def _act(self, action: int) -> None:
        """Carry out what a menu page asked for."""
        if action == menus_mod.TWO_PLAYERS:
            self.start_match(-1)
        elif action == menus_mod.VS_COMPUTER:
            self.start_match(self.settings.value("level"))
        elif action == menus_mod.SETTING_CHANGED:
            self.apply_settings()
        elif action == menus_mod.SETTINGS_OPENED:
            self.tidy()
        elif action == menus_mod.SETTINGS_SAVE:
            self.settings_done(True)
            if self.settings.language() != lang.code:
                # A language is loaded into a fresh heap: switching one for another in a
                # heap in use leaves it in pieces. The handheld restarts in the new one.
                self.restart()
        elif action == menus_mod.RESUME:
            self.resume()
        elif action == menus_mod.DECLARE_DRAW:
            self.declare_draw()
        elif action == menus_mod.QUIT_MATCH:
            self.quit_match()
        elif action == menus_mod.SELF_TEST:
            self.open_selftest()
        elif action == menus_mod.HOW_TO_PLAY:
            self.open_howto()

    def _overflow(self, now: int) -> None:
        """Events were lost: forget which keys are down (their releases may be gone)."""
        self.overflows += 1
        self.held = 0
        self.stuck = 0
        self._notice(lang.words.KEYS_LOST, now)

    def _notice(self, text: str, now: int) -> None:
        """A short note for both players about the keys themselves."""
        if self.state == self.PLAY or self.state == self.RESULT:
            self.match.notice(text, now)

    def _check_held(self, now: int) -> None:
        menu = key_bit(MENU_KEY)
        held = self.held & ~self.stuck & ~menu  # MENU is held on purpose
        if held:
            for key in range(KEY_COUNT):
                bit = key_bit(key)
                if held & bit and ticks_diff(now, self.down_at[key]) >= _HELD_MS:
                    self.stuck |= bit
                    self._notice(lang.words.KEY_HELD, now)
        if self.held & menu and not self.menu_used:
            down = ticks_diff(now, self.down_at[MENU_KEY])
            if self.state == self.PLAY and down >= _PAUSE_HOLD_MS:
                self.menu_used = True
                self.pause()
            elif self.state == self.SELFTEST and down >= _EXIT_HOLD_MS:
                self.menu_used = True
                self.state = self.MENU
                self.selftest = None  # its code and objects go back to the heap
                firmware.forget("firmware.selftest")
                self._menu()

    # ---- states ----

    def _advance(self, now: int) -> None:
        if self.booting and ticks_diff(now, self.started) >= _BOOT_MS:
            self.booting = False  # once: a clock that wraps cannot open the window again
        if self.held:
            self._check_held(now)
        state = self.state
        if state == self.PLAY:
            if self.match.advance(now):
                self._ended()
            else:
                self._maybe_sleep(now)
        elif self.selftest is not None and state == self.SELFTEST:
            self.selftest.advance(now)
        elif state == self.SLEEP:
            if not self.deep_tried and \
                    ticks_diff(now, self.last_input) >= self._sleep_ms() + _DEEP_SLEEP_AFTER_MS:
                self.deep_tried = True  # a board that can returns only by starting afresh
                self.hw.deep_sleep()
                self.keys = self.hw.keys  # made anew when the board could not sleep
        else:
            self._maybe_sleep(now)
        if state == self.RESULT and self.match.rest(now) and self.settled < _SETTLED:
            self._settle()  # the result is all on the screen, and this pass drew nothing

    def start_match(self, level: int) -> None:
        """From the main menu: two players (level -1) or A against the computer."""
        self.tidy()
        seed = self._seed()
        self.hw.console("match: seed %d (make play --seed %d deals it again), %s"
                        % (seed, seed, _free()))
        now = self.hw.ticks_ms()
        self.match.begin(self.rules, seed, now, level, self.decks)
        self.decks = None  # stacked decks are for the first match only
        self._show(self.table.group, 0)
        self.state = self.PLAY
        self.menu_at = -1

    def _ended(self) -> None:
        """A game has just ended: its result is on the way to the screen."""
        self.state = self.RESULT
        self.settled = 0

    def _settle(self) -> None:
        """The next step of the quiet work a result allows, once it is on the screen (which
        then stays as it is for a while), each in a pass of its own: save the statistics
        (and an AUTO HANDICAP that moved), then collect the heap and tidy the nvm."""
        if self.settled == 0:
            self.save_stats()
            g = self.match.game
            if g.phase == engine.MATCH_OVER and self.settings.match_won(g.match_winner):
                self.settings_done(True)  # AUTO HANDICAP moved: saved, and the next match
                self._take_rules()  # is dealt with it
        else:
            gc.collect()
            self.tidy()
        self.settled += 1

    def _after_result(self, now: int) -> None:
        while self.settled < _SETTLED:  # (a key before the quiet work was done)
            self._settle()
        if self.match.next_game(now):
            self.state = self.PLAY
        else:
            self.state = self.MENU
            self.match.end()
            self._menu()

    def pause(self) -> None:
        """Open the pause page (facing A). The game is not advanced while it is up: a timer
        that comes due meanwhile (a redeal, the end of a finish) fires as play resumes."""
        self.state = self.PAUSED
        self.match.pause()
        self._menu(True)

    def resume(self) -> None:
        """Back to the game."""
        self.match.resume()
        self.state = self.PLAY
        self.menu_at = -1
        self._show(self.table.group, 0)

    def declare_draw(self) -> None:
        """From the pause page: the players agree the game is a draw."""
        self.resume()
        now = self.hw.ticks_ms()
        self.match.declare_draw(now)
        self._ended()

    def quit_match(self) -> None:
        """From the pause page: back to the main menu."""
        self.state = self.MENU
        self.match.end()
        self._menu()

    def open_selftest(self) -> None:
        """The self-test screen."""
        self.state = self.SELFTEST
        if self.selftest is None:
            self.selftest = _selftest().SelfTest(self.kit, self.table.bg)
        self._show(self.selftest.group, 0)
        self.selftest.enter(self.hw.ticks_ms(), self.hw, self.sound)

    def open_howto(self) -> None:
        """HOW TO PLAY's pages on the menu page, facing whoever chose it."""
        gc.collect()  # room to load its code
        from firmware import howto
        self.howto = howto.HowTo(self.kit, self.table.bg, self.menus.page,
                                 self.settings.language())
        self.state = self.HOWTO

    def close_howto(self) -> None:
        """Back to the main menu as it was; the pages' code and words leave the heap."""
        if self.howto is not None:
            self.howto.close()
        self.howto = None
        firmware.forget("firmware.howto")
        firmware.forget("firmware.howto_" + self.settings.language())
        self.state = self.MENU
        self.menus.draw()

    def _maybe_sleep(self, now: int) -> None:
        ms = self._sleep_ms()
        if ms and ticks_diff(now, self.last_input) >= ms:
            if self.state == self.PLAY:
                self.pause()
            self.before_sleep = self.state
            self.state = self.SLEEP
            self.sound.stop()
            self.display.sleep()

    def _wake(self, now: int) -> None:
        self.deep_tried = False
        self.display.wake()
        self.state = self.before_sleep
        self.kit.changes += 1

    def _sleep_ms(self) -> int:
        return self.settings.value("sleep") * 60000

    # ---- settings and statistics ----

    def _fold(self, kind: int) -> bytes:
        return (self.settings if kind == SETTINGS_KIND else self.stats).base()

    def tidy(self) -> None:
        """A moment nobody is about to switch off: compact the nvm if it is nearly full,
        so that no save does it."""
        try:
            self.log.tidy(_RESERVE)
        except _NVM_ERRORS as e:
            self._not_saved(0, e)

    def _not_saved(self, kind: int, error: Exception) -> None:
        """The nvm refused a write: say so on the console and play on. The values stay
        in memory, and the next save of their kind writes them whole; the log is read
        again, since what reached the nvm is what counts."""
        self.unsaved |= 1 << kind
        self.hw.console("nvm: not saved (%r); kept until the next save" % (error,))
        try:
            self.log.load()
        except _NVM_ERRORS:
            pass
        firmware.forget("firmware.storeload")

    def apply_settings(self) -> None:
        """Make the settings take effect (the rules from the next match on)."""
        s = self.settings
        self.sound.muted = not s.value("sound")
        if self.sound.muted:
            self.sound.stop()
        self.display.brightness = s.value("contrast") / 255
        self.match.hints = bool(s.value("hints"))
        self._take_rules()
        self._face(0)

    def _take_rules(self) -> None:
        """The next match is dealt with the settings' rules (unless rules were given)."""
        if self.fixed_rules is None:
            self.rules = self.settings.rules()

    def settings_done(self, changed: bool) -> None:
        """Leaving the settings page: save them if they changed."""
        log, s = self.log, self.settings
        if not changed:
            return
        try:
            if log.get(SETTINGS_KIND) is None or self.unsaved & 1 << SETTINGS_KIND:
                log.put(SETTINGS_KIND, s.base())  # the tally's base: every setting
            for e in s.changes():
                log.add(SETTINGS_KIND, e)
            self.unsaved &= ~(1 << SETTINGS_KIND)
        except _NVM_ERRORS as e:
            self._not_saved(SETTINGS_KIND, e)

    def save_stats(self) -> None:
        """At the end of a game: save the statistics (an entry, or a new base when the game
        set a record)."""
        self.hw.console("game over: " + _free())
        stats, log = self.stats, self.log
        try:
            if log.get(STATS_KIND) is None or stats.new_record or self.unsaved & 1 << STATS_KIND:
                log.put(STATS_KIND, stats.base())  # the tally's (new) base
            else:
                log.add(STATS_KIND, stats.entry())
            self.unsaved &= ~(1 << STATS_KIND)
        except _NVM_ERRORS as e:
            self._not_saved(STATS_KIND, e)

    # ---- display ----

    def _face(self, player: int) -> None:
        """Turn the display to face a player (0 A, 1 B), minding the flip setting."""
        rotation = 180 if (player == 1) != bool(self.settings.value("flip")) else 0
        if rotation != self.rotation:
            self.rotation = rotation
            self.display.rotation = rotation
            self.kit.changes += 1

    def _menu(self, paused: bool = False) -> None:
        """Show the main menu, or the pause page (facing A)."""
        self._show(self.menus.group, 0)
        self.menus.open(menus_mod.PAUSE if paused else menus_mod.MAIN)

    def _show(self, group: "displayio.Group", player: int) -> None:
        """Put a screen on the glass, facing a player (0 A, 1 B; -1: as it faces now)."""
        if self.display.root_group is not group:  # (a group on show cannot be shown again)
            self.display.root_group = group
        if player >= 0:
            self._face(player)
        self.kit.changes += 1

    def _seed(self) -> int:
        return self.seed if self.seed is not None else self.hw.random_seed()


def _free() -> str:
    """How much heap is free: gc.mem_free() on the board; CPython has no such count."""
    if hasattr(gc, "mem_free"):
        return "%d bytes free" % gc.mem_free()
    return "free memory not measured here"


def _selftest() -> "types.ModuleType":
    """firmware.selftest, imported when it is wanted: builders open it, players rarely."""
    gc.collect()  # room to load it (to compile it, when the board has it as .py)
    import firmware.selftest
    return firmware.selftest
