"""The key filter: each event of the scanner decoded once, into what it means.

The scanner (keypad's C code, in the background) debounces the contacts and timestamps
every event. Here each event becomes one Meaning, filled in place (nothing is allocated),
and the rules for keys that misbehave live here and nowhere else:
- a key pressed again within _BOUNCE_MS of its release is the same press, its contact
  bouncing: _M_BOUNCE (only the self-test draws it);
- a key reported in the first _BOOT_MS after start-up was down at power-up: MENU opens the
  self-test (_M_TEST) unless its press woke the board; any key is ignored until released;
- a key other than MENU down for _HELD_MS is stuck: ignored until released;
- MENU down for _PAUSE_HOLD_MS is _M_HOLD, for _EXIT_HOLD_MS _M_LONG, once each a press;
- while the handheld sleeps, a press is _M_WAKE and nothing else.
After the filter every screen sees meanings, never key numbers or role bytes. The computer
player's presses are meanings too (firmware/match.py), but never pass through here: these
rules are for contacts.
"""
from engine.ticks import ticks_add, ticks_diff
from firmware import lang
from hardware.keymap import (BACK, KEY_COUNT, ROLE_MENU, ROLE_NONE, is_far, key_bit, menu_key,
                             nav_of, pile_of, place_of, player_of, role_of)
from hardware.seats import KEYS_A_ROW, PILE_CHOICES

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from collections.abc import Callable

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

# What a meaning is (Meaning.what). Private constants, folded by the compiler: each name the
# board keeps costs a place among its interned names, which are few. The screens that read
# one define it again with the same value (tests/build/test_code_layout.py checks that they agree).
_M_PRESS = const(1)  # a key went down: a pile button (player >= 0) or MENU (player -1)
_M_RELEASE = const(2)  # a key came up
_M_BOUNCE = const(3)  # a key down again within _BOUNCE_MS of its release: the same press
_M_HOLD = const(4)  # MENU down for _PAUSE_HOLD_MS
_M_LONG = const(5)  # MENU down for _EXIT_HOLD_MS
_M_TEST = const(6)  # MENU down at power-up: the self-test
_M_WAKE = const(7)  # a press while the handheld sleeps
_M_NOTE = const(8)  # no key: only the note (the queue overflowed, a key stuck or unknown)

_BOUNCE_MS = const(20)  # a key pressed again this soon after its release is bouncing
_BOOT_MS = const(300)  # keys reported this soon after start-up were held at power-up
_HELD_MS = const(3000)  # a key down this long is reported as stuck
_PAUSE_HOLD_MS = const(600)  # MENU held this long: _M_HOLD (in play: pause)
_EXIT_HOLD_MS = const(1500)  # MENU held this long: _M_LONG (in the self-test: leave it)


def describe(key: int, keymap: bytes) -> str:
    """'A NEAR 1', 'B FAR 4', 'MENU' or 'KEY 20' (1-based from the player's left), in
    the chosen language: how the console and the self-test name a key."""
    role = role_of(key, keymap)
    w = lang.words
    if nav_of(role) == BACK:
        return "MENU"
    if role == ROLE_NONE:
        return w.KEY % key
    return "%s %s %d" % ("AB"[player_of(role)], w.FAR if is_far(role) else w.NEAR,
                         place_of(role) + 1)


class Meaning:
    """What a key event means, filled in place by the filter (or by the computer player)."""

    def __init__(self) -> None:
        self.what = 0
        self.key = -1  # the key's number; -1 for the computer player's press
        self.player = -1  # whose pile button (0 A, 1 B); -1 for MENU
        self.pile = -1  # the engine pile it presses in a row of KeyFilter.n; -1: none
        self.nav = -1  # in the menus: UP, DOWN, LEFT, RIGHT by its place; BACK for MENU
        self.note = None  # type: str | None  # a short note for both players, or None

    def fill(self, key: int, role: int, n: int, keys: int) -> bool:
        """What a key with this role is, in a row of n piles over keys buttons; True for
        MENU."""
        nav = nav_of(role)
        menu = nav == BACK  # MENU, as the key map decodes it
        self.key = key
        self.player = -1 if menu else player_of(role)
        self.pile = pile_of(role, n, keys)
        self.nav = nav
        return menu


class KeyFilter:
    """Turns the scanner's (key, pressed, timestamp) into meanings."""

    def __init__(self, keymap: bytes, now: int, woke: bool,
                 console: "Callable[[str], None]") -> None:
        self.keymap = keymap
        self.menu_key = menu_key(keymap)
        self.meaning = Meaning()
        self.n = PILE_CHOICES[0][0]  # piles a row of the match being played (Meaning.pile)
        self.woke = woke  # the board woke from deep sleep: MENU's press was the waking one
        self.console = console
        self.started = now
        self.booting = True  # until _BOOT_MS after start: presses are keys held at power-up
        self.asleep = False  # set by the app while the screen is off
        self.last_input = now
        self.held = 0  # bit per key number: down now
        self.look_at = now  # while keys are held: when time can next make something of them
        self.down_at = [0] * len(keymap)
        self.up_at = [0] * len(keymap)
        self.settling = 0  # bit per key number: released, and a press now would be a bounce
        self.stuck = 0  # bit per key number: held too long or since power-up; ignored
        self.menu_used = 0  # MENU's press: 0 nothing said yet, 1 _M_HOLD said, 2 both (or none)
        self.presses = 0  # presses handled (for the tools and the bench)
        self.bounces = 0
        self.unknown = 0
        self.overflows = 0

    def feed(self, key: int, pressed: bool, t: int) -> bool:
        """One event of the scanner; True when it means something (in self.meaning)."""
        m = self.meaning
        m.note = None
        role = role_of(key, self.keymap)
        if role == ROLE_NONE:
            if pressed:
                self.unknown += 1
                m.what = _M_NOTE
                m.note = lang.words.KEY_UNKNOWN
            return pressed
        menu = m.fill(key, role, self.n, KEYS_A_ROW[len(self.keymap) > KEY_COUNT])
        bit = key_bit(key)
        if not pressed:
            self.held &= ~bit
            self.settling |= bit
            self.up_at[key] = t
            if menu:
                self.menu_used = 0
            m.note = "" if self.stuck & bit else None  # a stuck key's note goes
            self.stuck &= ~bit
            m.what = _M_RELEASE
            return True
        self.held |= bit
        if self.settling & bit:
            self.settling &= ~bit
            if ticks_diff(t, self.up_at[key]) < _BOUNCE_MS:  # the same press, still held
                self.bounces += 1
                m.what = _M_BOUNCE
                return True
        self.down_at[key] = self.look_at = t  # (update() looks at once)
        self.presses += 1
        self.last_input = t
        if self.booting:  # a key down at power-up
            if menu and not self.woke:  # MENU: the self-test
                self.menu_used = 2
                self.booting = False
                m.what = _M_TEST
                return True
            # The press that woke the board, or another key: ignored until released.
            self.stuck |= bit
            if not menu:
                self.console("key %d (%s) was down at power-up; ignored until released"
                             % (key, describe(key, self.keymap)))
            return False
        if self.stuck & bit:
            return False
        m.what = _M_WAKE if self.asleep else _M_PRESS
        self.asleep = False
        return True

    def lost(self) -> Meaning:
        """Events were lost (the queue overflowed): forget which keys are down, as their
        releases may be gone."""
        self.overflows += 1
        self.held = 0
        self.stuck = 0
        m = self.meaning
        m.what = _M_NOTE
        m.note = lang.words.KEYS_LOST
        return m

    def update(self, now: int) -> bool:
        """What time alone makes of the keys held down; True while there is a meaning (call
        it again until it says False). Between looks (look_at) it says False at once."""
        if self.booting and ticks_diff(now, self.started) >= _BOOT_MS:
            self.booting = False  # once: a clock that wraps cannot open the window again
        if not self.held or ticks_diff(now, self.look_at) < 0:
            return False
        m = self.meaning
        menu_key = self.menu_key  # (the last key of either build's map)
        menu = key_bit(menu_key)
        held = self.held & ~self.stuck & ~menu  # MENU is held on purpose
        wait = _HELD_MS  # until the next meaning time alone can make
        if held:
            for key in range(menu_key):
                bit = 1 << key  # (key_bit's, inline: this loop runs while a key is held)
                if held & bit:
                    left = _HELD_MS - ticks_diff(now, self.down_at[key])
                    if left <= 0:
                        self.stuck |= bit
                        m.what = _M_NOTE
                        m.note = lang.words.KEY_HELD
                        return True
                    wait = min(wait, left)
        if self.held & menu and self.menu_used < 2:
            left = (_EXIT_HOLD_MS if self.menu_used else _PAUSE_HOLD_MS) - \
                ticks_diff(now, self.down_at[menu_key])
            if left <= 0:
                m.what = _M_LONG if self.menu_used else _M_HOLD
                m.note = None
                m.fill(menu_key, ROLE_MENU, 0, 0)
                self.menu_used += 1
                return True
            wait = min(wait, left)
        self.look_at = ticks_add(now, wait)
        return False
