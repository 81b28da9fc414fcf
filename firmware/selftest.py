"""Self-test for builders: a test pattern, a buzzer sweep, then every key drawn where it sits
on the box (filled while pressed): the direct build's 17 or the matrix build's 25, with the
firmware, free memory and I2C facts.

It names a key the key filter found stuck (down at power-up, or for seconds: KEY HELD), and
on the matrix build a ghost: a key reported that a diode should have stopped. Which of two
presses of one scan is the ghost the firmware cannot know; it can know that they are one:
with two keys already held they make the four corners of a rectangle of the matrix (two rows
by two columns), and a diode in it is missing or reversed. The glass names both, the console
the rectangle.

Opened by holding MENU at power-up or from the main menu; holding MENU (_M_LONG) leaves it.
"""
import gc
import sys

import displayio

import firmware
from engine.ticks import ticks_add, ticks_diff
from firmware import lang, sound
from firmware.keyfilter import describe
from firmware.ui import W, H, LINE_CHARS, TextLine, outline
from hardware.keymap import BACK, KEYMAP, is_far, key_bit, nav_of, place_of, player_of, role_of
from hardware.seats import KEYS_A_ROW, build_of, column

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from hardware.contract import Shell
    from firmware.keyfilter import KeyFilter, Meaning
    from firmware.ui import Kit
    from hardware.contract import Target

# What a screen asks the app to do, as firmware/__init__.py numbers it.
_A_NOTHING = const(0)
_A_TO_MENU = const(14)
# What a key's meaning is (Meaning.what), as firmware/keyfilter.py numbers it.
_M_PRESS = const(1)
_M_RELEASE = const(2)
_M_BOUNCE = const(3)
_M_LONG = const(5)
_M_NOTE = const(8)

_BOX_W = const(12)  # (constants: a module name the board keeps costs an interned name)
_BOX_H = const(6)
_GAP = const(4)
# Rows of boxes from the top of the box (B's end) to the bottom (A's end).
_ROW_Y = {"B near": 17, "B far": 25, "A far": 39, "A near": 47}
_PATTERN_MS = const(1200)
_ROWS = const(4)  # the matrix build's: key number = row x _COLUMNS + column
_COLUMNS = const(6)
_SLASH = const(10)  # the key line's column between a ghost's two keys
_CELLS_CHARS = const(18)  # the cells' line: from the left edge to MENU's box


def key_box(key: int, keymap: bytes = KEYMAP, n: int = KEYS_A_ROW[0]) -> tuple[int, int]:
    """(x, y) of a key's box in the picture, n keys a row: where the button sits on the
    handheld."""
    role = role_of(key, keymap)
    if nav_of(role) == BACK:  # MENU, on the side
        return W - _BOX_W - 2, 32
    player = player_of(role)
    row = ("B far" if is_far(role) else "B near") if player else \
        ("A far" if is_far(role) else "A near")
    i = column(player, place_of(role), n)
    return (W - n * _BOX_W - (n - 1) * _GAP) // 2 + i * (_BOX_W + _GAP), _ROW_Y[row]


def rectangle(held: int, j: int, k: int) -> "tuple[int, int, int, int] | None":
    """The matrix's rectangle whose corners are keys j and k and two other keys held
    (held: a bit per key down, j and k among them): (row, row, column, column), or None."""
    rj, cj = j // _COLUMNS, j % _COLUMNS
    for r in range(_ROWS):
        for c in range(_COLUMNS):
            a = k // _COLUMNS  # its other row: k's, or any if k is in j's row
            a = r if a == rj else a
            b = k % _COLUMNS  # its other column: the same
            b = c if b == cj else b
            if a != rj and b != cj and held >> (rj * _COLUMNS + b) & held >> (
                    a * _COLUMNS + cj) & held >> (a * _COLUMNS + b) & 1:
                return min(a, rj), max(a, rj), min(b, cj), max(b, cj)
    return None


def open(app: "Shell") -> "SelfTest":
    """The self-test for the app, drawing on the play screen's background (the app has
    lent it the cells' room: firmware/app.py)."""
    return SelfTest(app.kit, app.table.bg, app.hw, app.filter)


class SelfTest:
    """The self-test screen."""

    on_sleep = -1  # it stays on: a builder may be reading it

    def __init__(self, kit: "Kit", picture: displayio.Bitmap, hw: "Target",
                 keys: "KeyFilter") -> None:
        """picture: a W x H bitmap to draw on, borrowed (the play screen's background:
        every match draws that afresh), so opening the self-test needs no 1 KB block.
        keys: the key filter, for the board's key map and the keys down or stuck."""
        self.kit = kit
        self.hw = hw
        self.keys = keys
        self.keymap = keys.keymap
        self.group = displayio.Group()
        self.picture = picture  # the test pattern first, then the keys
        self.group.append(kit.grid(self.picture, W, H))
        self.lines = (TextLine(kit, LINE_CHARS, 1, 0), TextLine(kit, LINE_CHARS, 1, 8),
                      TextLine(kit, LINE_CHARS, 1, 56))  # type: tuple[TextLine, ...]
        for line in self.lines:
            self.group.append(line.grid)
        self.pattern = False  # the test pattern is showing
        self.pattern_until = 0
        self.n = KEYS_A_ROW[build_of(hw.info.get("CS_KEYS"))]  # keys a row
        self.down = 0  # bit per key number: drawn pressed
        self.stuck = 0  # bit per key number: named stuck
        self.timestamp = 0  # the scan of the last press, and the presses it reported
        self.pressed = 0

    def enter(self, app: "Shell") -> None:
        """On the glass, facing A: the test pattern and the sweep first (begin)."""
        app.show(self, 0)
        self.begin(app.hw.ticks_ms(), app.sound)

    def leave(self, app: "Shell") -> None:
        """Its code leaves the heap (its objects go with the app's last reference)."""
        firmware.forget("firmware.selftest")

    def begin(self, now: int, snd: sound.Sound) -> None:
        """Start: the test pattern and the buzzer sweep first, then the key picture."""
        picture = self.picture  # (by linear index: an (x, y) index is a tuple of garbage)
        for y in range(H):
            for x in range(W):
                picture[y * W + x] = (x // 4 + y // 4) % 2
        mem = gc.mem_free() // 1024 if hasattr(gc, "mem_free") else -1
        impl = sys.implementation
        version = ".".join([str(v) for v in impl.version[:3]])
        info = self.hw.info
        self.down = self.keys.held  # (a key down at power-up is held, and stuck)
        w = lang.words
        self.lines[0].center(w.SELFTEST)
        self.lines[1].center(w.SELFTEST_INFO % (
            info.get("CS_I2C_ADDRESS", 0x3C), info.get("CS_I2C_HZ", 0) // 1000,
            "%dK" % mem if mem >= 0 else "?"))
        from firmware.version import VERSION  # (the drive's: the build's tag or commit)
        self.lines[2].center("%s  %s %s" % (VERSION, "CP" if impl.name == "circuitpython"
                                            else impl.name.upper(), version))
        left = self.hw.cells()
        if left >= 0:  # on batteries: the charge left, between the rows of keys
            cells = TextLine(self.kit, _CELLS_CHARS, 1, 31)
            cells.put(cells.put(1, w.CELLS) + 1, b"   %")
            cells.number(len(w.CELLS) + 2, left, 3)
            self.group.append(cells.grid)
            self.lines += (cells,)
        self._name_stuck()
        self._show_lines(False)
        self.pattern = True
        self.pattern_until = ticks_add(now, _PATTERN_MS)
        snd.play(sound.SWEEP, now)
        self.kit.changes += 1

    def key(self, m: "Meaning", t: int) -> int:
        """A key changed: fill or clear its box and name it (a bounce is the key still
        down; a stuck key is named so; a ghost names both keys it may be); MENU held long
        asks for the main menu."""
        what = m.what
        if what == _M_LONG:
            return _A_TO_MENU
        if what == _M_NOTE and m.note == lang.words.KEY_HELD:
            self._name_stuck()
        if what != _M_PRESS and what != _M_BOUNCE and what != _M_RELEASE:
            return _A_NOTHING
        key, pressed = m.key, what != _M_RELEASE
        if not 0 <= key < len(self.keymap):
            return _A_NOTHING
        bit = key_bit(key)
        if pressed:
            self.down |= bit
        else:
            self.down &= ~bit
            self.stuck &= ~bit
        if not self.pattern:
            self._fill(key)
        if not (what == _M_PRESS and self.n == _COLUMNS and key < _ROWS * _COLUMNS
                and self._ghost(key, t)):
            w = lang.words
            self.lines[2].center(describe(key, self.keymap) + " " + (w.DOWN if pressed
                                                                     else w.UP))
        self.kit.changes += 1
        return _A_NOTHING

    def _ghost(self, k: int, t: int) -> bool:
        """A press of the matrix at scan t: if it and another press of the same scan make
        a rectangle with two keys held, one of the two is a ghost: the info line says so,
        the key line names both, the console says where; True then."""
        same = self.pressed if t == self.timestamp else 0
        self.timestamp = t
        self.pressed = same | key_bit(k)
        same &= self.down  # (still down)
        box, j = None, 0
        while same:
            if same & 1:
                box = rectangle(self.down, j, k)
                if box is not None:
                    break
            same >>= 1
            j += 1
        if box is None:
            return False
        j, k = min(j, k), max(j, k)
        a, b = describe(j, self.keymap), describe(k, self.keymap)
        self.hw.console("self-test: ghost: key %d (%s) or key %d (%s): a diode missing or "
                        "reversed in that rectangle (rows %d and %d, columns %d and %d)"
                        % (j, a, k, b, box[0], box[1], box[2], box[3]))
        self.lines[1].center(lang.words.GHOST)
        line = self.lines[2]  # "A FAR 2 / B NEAR 5", about the slash
        line.fill(0, LINE_CHARS)
        line.put(_SLASH - 1 - len(a), a)
        line.fill(_SLASH, _SLASH + 1, 47)  # "/"
        line.put(_SLASH + 2, b)
        return True

    def _name_stuck(self) -> None:
        """Name a key the filter found stuck (down at power-up, or for seconds) that the
        glass has not named yet."""
        new = self.keys.stuck & ~self.stuck
        if not new:
            return
        self.stuck |= new
        key = 0
        while not new >> key & 1:
            key += 1
        self.lines[2].center(describe(key, self.keymap) + " " + lang.words.KEY_HELD)
        self.kit.changes += 1

    def _fill(self, key: int) -> None:
        x, y = key_box(key, self.keymap, self.n)
        v = self.down >> key & 1
        for dy in range(1, _BOX_H - 1):
            at = (y + dy) * W + x
            for i in range(at + 1, at + _BOX_W - 1):
                self.picture[i] = v

    def _show_lines(self, on: bool) -> None:
        for line in self.lines:
            line.grid.hidden = not on

    rest_ms = -1  # it advances every pass (firmware/app.py): the test pattern's time

    def advance(self, now: int) -> int:
        """Replace the test pattern with the keys' picture when its time is up."""
        if self.pattern and ticks_diff(now, self.pattern_until) >= 0:
            self.pattern = False
            self.picture.fill(0)
            for key in range(len(self.keymap)):
                x, y = key_box(key, self.keymap, self.n)
                outline(self.picture, x, y, _BOX_W, _BOX_H)
                self._fill(key)
            self._show_lines(True)
            self.kit.changes += 1
        return _A_NOTHING
