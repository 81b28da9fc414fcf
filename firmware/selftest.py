"""Self-test for builders: a test pattern, a buzzer sweep, then every key drawn where it sits
on the box (filled while pressed), with the firmware, free memory and I2C facts.

Opened by holding MENU at power-up or from the main menu; holding MENU (_LONG) leaves it.
"""
import gc
import sys

import displayio

from engine.ticks import ticks_add, ticks_diff
from firmware import lang, sound
from firmware.ui import W, H, LINE_CHARS, TextLine, outline
from hardware.keymap import (BACK, KEY_COUNT, ROLE_NONE, is_far, nav_of, place_of,
                             player_of, role_of)
from hardware.seats import KEYS_A_ROW, column

_ROW_KEYS = KEYS_A_ROW[0]

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from firmware.keyfilter import Meaning
    from firmware.ui import Kit
    from hardware.contract import Target

# What a screen asks the app to do, as firmware/__init__.py numbers it.
_NOTHING = const(0)
_TO_MENU = const(14)
# What a key's meaning is (Meaning.what), as firmware/keyfilter.py numbers it.
_PRESS = const(1)
_RELEASE = const(2)
_BOUNCE = const(3)
_LONG = const(5)

_BOX_W = 12
_BOX_H = 6
_GAP = 4
_LEFT = (W - _ROW_KEYS * _BOX_W - (_ROW_KEYS - 1) * _GAP) // 2
# Rows of boxes from the top of the box (B's end) to the bottom (A's end).
_ROW_Y = {"B near": 17, "B far": 25, "A far": 39, "A near": 47}
_PATTERN_MS = 1200


def key_box(key: int) -> tuple[int, int]:
    """(x, y) of a key's box in the picture: where the button sits on the handheld."""
    role = role_of(key)
    if nav_of(role) == BACK:  # MENU, on the side
        return W - _BOX_W - 2, 32
    player = player_of(role)
    row = ("B far" if is_far(role) else "B near") if player else \
        ("A far" if is_far(role) else "A near")
    i = column(player, place_of(role), _ROW_KEYS)
    return _LEFT + i * (_BOX_W + _GAP), _ROW_Y[row]


def describe(key: int) -> str:
    """'A NEAR 1', 'B FAR 4', 'MENU' or 'KEY 20' (1-based from the player's left), in
    the chosen language."""
    role = role_of(key)
    w = lang.words
    if nav_of(role) == BACK:
        return "MENU"
    if role == ROLE_NONE:
        return w.KEY % key
    return "%s %s %d" % ("AB"[player_of(role)], w.FAR if is_far(role) else w.NEAR,
                         place_of(role) + 1)


class SelfTest:
    """The self-test screen."""

    def __init__(self, kit: "Kit", picture: displayio.Bitmap) -> None:
        """picture: a W x H bitmap to draw on, borrowed (the play screen's background:
        every match draws that afresh), so opening the self-test needs no 1 KB block."""
        self.kit = kit
        self.group = displayio.Group()
        self.picture = picture  # the test pattern first, then the keys
        self.group.append(kit.grid(self.picture, W, H))
        self.lines = (TextLine(kit, LINE_CHARS, 1, 0), TextLine(kit, LINE_CHARS, 1, 8),
                      TextLine(kit, LINE_CHARS, 1, 56))
        for line in self.lines:
            self.group.append(line.grid)
        self.pattern = False  # the test pattern is showing
        self.pattern_until = 0
        self.down = bytearray(KEY_COUNT)

    def enter(self, now: int, hw: "Target", snd: sound.Sound) -> None:
        """Start: the test pattern and the buzzer sweep first, then the key picture."""
        picture = self.picture  # (by linear index: an (x, y) index is a tuple of garbage)
        for y in range(H):
            for x in range(W):
                picture[y * W + x] = (x // 4 + y // 4) % 2
        mem = gc.mem_free() // 1024 if hasattr(gc, "mem_free") else -1
        impl = sys.implementation
        version = ".".join([str(v) for v in impl.version[:3]])
        info = hw.info
        w = lang.words
        self.lines[0].center(w.SELFTEST)
        self.lines[1].center(w.SELFTEST_INFO % (
            info.get("CS_I2C_ADDRESS", 0x3C), info.get("CS_I2C_HZ", 0) // 1000,
            "%dK" % mem if mem >= 0 else "?"))
        from firmware.version import VERSION  # (the drive's: the build's tag or commit)
        self.lines[2].center("%s  %s %s" % (VERSION, "CP" if impl.name == "circuitpython"
                                            else impl.name.upper(), version))
        self._show_lines(False)
        self.pattern = True
        self.pattern_until = ticks_add(now, _PATTERN_MS)
        snd.play(sound.SWEEP, now)
        self.kit.changes += 1

    def key(self, m: "Meaning", t: int) -> int:
        """A key changed: fill or clear its box and name it (a bounce is the key still
        down); MENU held long asks for the main menu."""
        what = m.what
        if what == _LONG:
            return _TO_MENU
        if what != _PRESS and what != _BOUNCE and what != _RELEASE:
            return _NOTHING
        key, pressed = m.key, what != _RELEASE
        if 0 <= key < KEY_COUNT:
            self.down[key] = pressed
            if not self.pattern:
                self._fill(key)
        w = lang.words
        self.lines[2].center(describe(key) + " " + (w.DOWN if pressed else w.UP))
        self.kit.changes += 1
        return _NOTHING

    def _fill(self, key: int) -> None:
        x, y = key_box(key)
        v = 1 if self.down[key] else 0
        for dy in range(1, _BOX_H - 1):
            at = (y + dy) * W + x
            for i in range(at + 1, at + _BOX_W - 1):
                self.picture[i] = v

    def _show_lines(self, on: bool) -> None:
        for line in self.lines:
            line.grid.hidden = not on

    def advance(self, now: int) -> int:
        """Replace the test pattern with the keys' picture when its time is up."""
        if self.pattern and ticks_diff(now, self.pattern_until) >= 0:
            self.pattern = False
            self.picture.fill(0)
            for key in range(KEY_COUNT):
                x, y = key_box(key)
                outline(self.picture, x, y, _BOX_W, _BOX_H)
                self._fill(key)
            self._show_lines(True)
            self.kit.changes += 1
        return _NOTHING
