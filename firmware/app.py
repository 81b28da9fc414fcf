"""The handheld app: title, match, results; the main loop that drives them.

Each pass of the main loop drains every pending key event (one reused Event), feeds
presses to the engine in the scanner's timestamp order, ticks the engine, redraws only
what changed and refreshes the display only when a tile changed. Talks to the hardware
contract (hw: display, keys, keymap, buzzer, nvm, ticks_ms, idle, console) and the engine.
"""
import gc

import displayio

import engine
from engine import Game, Rules
from engine.ticks import ticks_diff
from firmware import glyphs, sound
from firmware.table import Table
from firmware.ui import Kit, Banner, TextLine, LINE_CHARS
from hardware.keymap import KEY_COUNT, ROLE_MENU, ROLE_NONE, role_of, pile_of, player_of

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

TITLE = const(0)
PLAY = const(1)
RESULT = const(2)

_HELD_MS = const(3000)  # a key down this long is reported as stuck
_RESULT_GUARD_MS = const(1000)  # presses right after a game ends do not start the next

_NO_MATCH = b"NO MATCH"
_LOCKED = bytes((glyphs.ICON_LOCK,)) + b" LOCKED"
_FOUL = b"FOUL"
_TOO_LATE = b"TOO LATE"
_KEYS_LOST = b"KEYS LOST"
_UNKNOWN = b"KEY ?"
_STUCK = b"KEY HELD"
_YOU_WIN = b"YOU WIN!"
_YOU_LOSE = b"YOU LOSE"
_DRAW = b"DRAW"
_MATCH_WON = b"MATCH WON!"
_MATCH_LOST = b"MATCH LOST"
_NEXT = b"ANY KEY: NEXT"
_NEW = b"ANY KEY: PLAY"


class Title:
    """The title screen, readable from both seats."""

    def __init__(self, kit):
        self.group = displayio.Group()
        self.banners = (Banner(kit, 32, False), Banner(kit, 8, True))
        self.lines = (TextLine(kit, LINE_CHARS, 1, 56), TextLine(kit, LINE_CHARS, 1, 0, True))
        for b in self.banners:
            self.group.append(b.group)
            b.show(b"SPEED")
        for line in self.lines:
            self.group.append(line.grid)
            line.center(b"CALIFORNIA: ANY KEY")


class App:
    """One handheld: builds its screens once, then step() runs one main-loop pass."""

    def __init__(self, hw, rules=None, seed=None, decks=None):
        self.hw = hw
        self.display = hw.display
        self.keys = hw.keys
        self.keymap = hw.keymap
        self.event = hw.Event()
        self.kit = Kit()
        self.table = Table(self.kit)
        self.title = Title(self.kit)
        self.sound = sound.Sound(hw.buzzer)
        self.rules = rules or Rules()
        self.seed = seed
        if decks is None:
            self.game = Game(self.rules, self._seed())
        else:  # stacked decks for the first game (tests, screenshots, bug reports)
            self.game = Game.from_decks(decks[0], decks[1], self.rules, self._seed())
        self.state = TITLE
        self.phase = -1  # the engine phase last shown
        self.ended_at = 0
        self.passes = 0
        self.presses = 0  # key presses handled (for tests and the bench)
        self.held = 0  # bit per key number: down now
        self.down_at = [0] * KEY_COUNT
        self.stuck = 0  # bit per key number: reported as held too long
        self.unknown = 0  # key presses with no mapping
        self.overflows = 0
        self._show(self.title.group)

    # ---- the main loop ----

    def run(self):
        """Run forever (the board) or until the hardware says stop (the desktop)."""
        while not self.hw.stop_requested():
            self.step()

    def step(self):
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
        self.hw.idle()

    # ---- input ----

    def _key(self, key, pressed, t):
        role = role_of(key, self.keymap)
        if role == ROLE_NONE:
            if pressed:
                self.unknown += 1
                self._notice(_UNKNOWN, t)
            return
        bit = 1 << key
        if not pressed:
            self.held &= ~bit
            if self.stuck & bit:
                self.stuck &= ~bit
                self._notice(b"", t)
            return
        self.held |= bit
        self.down_at[key] = t
        self.presses += 1
        state = self.state
        if state == TITLE:
            self._new_match(t)
        elif state == PLAY:
            if role != ROLE_MENU:
                self._press(role, t)
        elif state == RESULT:
            if ticks_diff(t, self.ended_at) >= _RESULT_GUARD_MS:
                self._after_result(t)

    def _press(self, role, t):
        g = self.game
        pile = pile_of(role, g.rules.piles_per_row)
        if pile < 0:
            return
        player = player_of(role)
        r = g.press(player, pile, t)
        if r == engine.COVERED:
            self.sound.play(sound.COVER_A if player == 0 else sound.COVER_B, t)
        elif r == engine.FOUL:
            self.sound.play(sound.FOUL, t)
            lockout = g.rules.foul_lockout_ms
            self.table.say(player, _LOCKED if lockout else _FOUL, t, lockout or 400)
        elif r == engine.COLLISION:
            self.sound.play(sound.COLLISION, t)
            self.table.say(player, _TOO_LATE, t, 500)

    def _overflow(self, now):
        """Events were lost: forget which keys are down (their releases may be gone)."""
        self.overflows += 1
        self.held = 0
        self.stuck = 0
        self._notice(_KEYS_LOST, now)

    def _notice(self, text, now):
        """A short note for both players about the keys themselves."""
        if self.state == PLAY:
            self.table.say_both(text, now, 1500)

    def _check_held(self, now):
        held = self.held & ~self.stuck
        key = 0
        while held:
            if held & 1 and ticks_diff(now, self.down_at[key]) >= _HELD_MS:
                self.stuck |= 1 << key
                self._notice(_STUCK, now)
            held >>= 1
            key += 1

    # ---- the match ----

    def _seed(self):
        return self.seed if self.seed is not None else self.hw.random_seed()

    def _new_match(self, now):
        gc.collect()  # a quiet point: between matches
        if self.game.rules is not self.rules:
            self.game = Game(self.rules, self._seed())
        self.table.layout(self.rules.piles_per_row)
        self._show(self.table.group)
        if self.game.phase == engine.READY:
            self.game.start(now)
        else:
            self.game.new_match(now)
        self.state = PLAY
        self.phase = -1
        self.sound.play(sound.DEAL, now)

    def _after_result(self, now):
        g = self.game
        for b in self.table.banners:
            b.hide()
        if g.phase == engine.GAME_OVER:
            gc.collect()  # a quiet point: between games
            g.next_game(now)
            self.state = PLAY
            self.phase = -1
            self.sound.play(sound.DEAL, now)
        else:
            self.state = TITLE
            self._show(self.title.group)

    def _advance(self, now):
        if self.held:
            self._check_held(now)
        if self.state != PLAY:
            return
        g = self.game
        g.tick(now)
        t = self.table
        t.sync(g)
        t.expire(now)
        phase = g.phase
        if phase == self.phase:
            return
        was = self.phase
        self.phase = phase
        if phase == engine.STALL:
            t.say_both(_NO_MATCH, now, -1)
            self.sound.play(sound.STALL, now)
        elif phase == engine.PLAY and was == engine.STALL:
            t.quiet(0)
            t.quiet(1)
            self.sound.play(sound.DEAL, now)
        elif phase == engine.GAME_OVER or phase == engine.MATCH_OVER:
            self._show_result(g, now)

    def _show_result(self, g, now):
        self.state = RESULT
        self.ended_at = now
        match = g.phase == engine.MATCH_OVER
        for p in range(2):
            if g.game_result == engine.DRAW:
                text = _DRAW
            elif g.game_result == p:
                text = _MATCH_WON if match else _YOU_WIN
            else:
                text = _MATCH_LOST if match else _YOU_LOSE
            self.table.banners[p].show(text)
            self.table.say(p, _NEW if match else _NEXT, now, -1)
        self.sound.play(sound.DRAW if g.game_result == engine.DRAW else sound.WIN, now)

    def _show(self, group):
        self.display.root_group = group
        self.kit.changes += 1


def run(target):
    """Start the handheld on a hardware target module (hardware.pico or hardware.virtual)."""
    hw = target.init()
    App(hw).run()
