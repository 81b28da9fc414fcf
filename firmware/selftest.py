"""Self-test for builders: a test pattern, a buzzer sweep, then every key drawn where it sits
on the box (filled while pressed), with the firmware, free memory and I2C facts.

Opened by holding MENU at power-up or from the main menu; holding MENU leaves it.
"""
import gc
import sys

import displayio

from engine.ticks import ticks_add, ticks_diff
from firmware import lang, sound
from firmware.ui import W, H, LINE_CHARS, TextLine, outline
from hardware.keymap import KEY_COUNT, ROLE_MENU, is_far, place_of, player_of, role_of

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from firmware.ui import Kit
    from hardware.contract import Target

_BOX_W = 12
_BOX_H = 6
_GAP = 4
_LEFT = (W - 4 * _BOX_W - 3 * _GAP) // 2
# Rows of boxes from the top of the box (B's end) to the bottom (A's end).
_ROW_Y = {"B near": 17, "B far": 25, "A far": 39, "A near": 47}
_PATTERN_MS = 1200


def key_box(key: int) -> tuple[int, int]:
    """(x, y) of a key's box in the picture: where the button sits on the handheld."""
    role = role_of(key)
    if role > 15:  # MENU, on the side
        return W - _BOX_W - 2, 32
    i = place_of(role)
    row = ("B far" if is_far(role) else "B near") if player_of(role) else \
        ("A far" if is_far(role) else "A near")
    if player_of(role):  # B sits across the table: B's left is the screen's right
        i = 3 - i
    return _LEFT + i * (_BOX_W + _GAP), _ROW_Y[row]


def describe(key: int) -> str:
    """'A NEAR 1', 'B FAR 4', 'MENU' or 'KEY 20' (1-based from the player's left), in
    the chosen language."""
    role = role_of(key)
    w = lang.words
    if role == ROLE_MENU:
        return "MENU"
    if role > 15:
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

    def key(self, key: int, pressed: bool) -> None:
        """A key changed: fill or clear its box and name it."""
        if 0 <= key < KEY_COUNT:
            self.down[key] = pressed
            if not self.pattern:
                self._fill(key)
        w = lang.words
        self.lines[2].center(describe(key) + " " + (w.DOWN if pressed else w.UP))
        self.kit.changes += 1

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

    def advance(self, now: int) -> None:
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
