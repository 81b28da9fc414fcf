"""The self-test on both key builds (issue 25): every key drawn where it sits (the matrix
build's 4 rows of 6 and MENU), a stuck key named, and on the matrix build a ghost: a key
reported that a diode should have stopped.

The matrix tests run on the desktop twin of the matrix build (Hand(settings={"CS_KEYS":
"matrix"}): a 24-key KeyMatrix and MENU's own scanner, MENU its key 24).

    PYTHONPATH=. python tests/firmware/test_selftest_matrix.py --write  # its goldens, selftest_matrix*
"""
import os
import sys

import pytest

from engine.ticks import ticks_add
from firmware import lang, selftest
from firmware.keyfilter import Meaning
from handheld import BOOTED, Hand
from hardware.keymap import MATRIX_KEYMAP
from twins.desktop import scenes

_MATRIX = {"CS_KEYS": "matrix"}
MENU = len(MATRIX_KEYMAP) - 1  # the matrix build's MENU, key 24


@pytest.fixture
def matrix():
    """Makes a matrix-build Hand (keys by number, MENU = 24)."""
    def make(**options):
        h = Hand(settings=_MATRIX, **options)
        assert h.hw.keymap == MATRIX_KEYMAP and h.hw.menu_keys is not None
        return h
    return make


def _key(row, column):
    return row * 6 + column


def _ghost_scene(h):
    """MENU held at power-up opens the self-test; A FAR 6 and B NEAR 1 (rows 1 and 3,
    column 5) are held, then A FAR 2 and B NEAR 5 (column 1) reported in one scan: with a
    diode missing, one of them is the fourth corner of the rectangle."""
    h.release(MENU, at=500)
    h.press(_key(1, 5), at=1500)
    h.press(_key(3, 5), at=1600)
    h.press(_key(1, 1), at=1700)
    h.press(_key(3, 1), at=1700)
    h.run_until(2100)
    return h


_GHOST_LINES = {"en": ("GHOST KEY: SEE SERIAL", "A FAR 2 / B NEAR 5"),
                "fr": ("FANTÔME : VOIR SÉRIE", "A LOIN 2 / B PRÈS 5"),
                "pt": ("FANTASMA: VER SERIAL", "A LONGE 2 / B PERTO 5")}


def _golden_name(code):
    return "selftest_matrix" + ("" if code == "en" else "_" + code)


@pytest.mark.parametrize("code", sorted(_GHOST_LINES))
def test_the_matrix_self_test_draws_25_keys_and_names_a_ghost_and_its_rectangle(matrix, code,
                                                                              tmp_path):
    h = _ghost_scene(matrix(held=[MENU], lang=code))
    assert h.screen == "selftest"
    assert (h.text(1), h.text(7)) == _GHOST_LINES[code]
    said = [line for line in h.console if "ghost" in line]
    assert said == [
        "self-test: ghost: key 7 (%s) or key 19 (%s): a diode missing or reversed in that "
        "rectangle (rows 1 and 3, columns 1 and 5)"
        % tuple(_GHOST_LINES[code][1].split(" / "))]
    frame = h.hw.oled.frame()
    want = scenes.golden(_golden_name(code))
    if frame != want:
        h.hw.oled.to_png(str(tmp_path / "selftest.png"), scale=1)
        pytest.fail("the matrix self-test differs from tests/firmware/golden/%s.png (actual in %s; "
                    "python tests/firmware/test_selftest_matrix.py --write):\n%s"
                    % (_golden_name(code), tmp_path, scenes.frame_diff(frame, want)))


def test_presses_of_one_scan_that_make_no_rectangle_are_no_ghost(matrix):
    h = matrix(held=[MENU])
    h.release(MENU, at=500)
    h.press(_key(1, 5), at=1500)
    h.press(_key(3, 5), at=1600)
    h.press(_key(1, 1), at=1700)
    h.press(_key(2, 1), at=1700)  # row 2: no rectangle with rows 1 and 3
    h.run_until(2100)
    assert h.text(1).startswith("I2C") and h.text(7) == "B FAR 5 DOWN"
    h.release(_key(2, 1), at=2200)
    h.release(_key(1, 1), at=2200)
    h.press(_key(3, 1), at=2300)  # the rectangle's fourth corner, a scan of its own
    h.run_until(2500)
    assert h.text(7) == "B NEAR 5 DOWN" and not [ln for ln in h.console if "ghost" in ln]


def test_the_matrix_self_test_opens_from_the_menu_and_menu_held_leaves(matrix):
    h = matrix()
    h.run_until(BOOTED)
    h.choose("SELF TEST")
    h.run_until(screen="selftest", timeout=1500)  # after the test pattern
    h.tap(_key(3, 0), hold=100)  # B's near row, column 0 (the glass's left): B NEAR 6
    assert h.text(7) == "B NEAR 6 UP"
    h.hold(MENU, 1700)
    assert h.screen == "menu"


# ---- a stuck key, on the direct build ----

def test_a_key_held_at_power_up_with_menu_is_drawn_and_named_stuck():
    h = Hand(held=["A1", "MENU"])  # A NEAR 2 shorted, say, and MENU for the self-test
    h.run_until(2000)
    assert h.screen == "selftest" and h.text(7) == "A NEAR 2 KEY HELD"
    assert any("key 1 (A NEAR 2) was down at power-up" in ln for ln in h.console)
    x, y = selftest.key_box(1)
    assert h.glass[(y + 2) * 128 + x + 2] == 1  # its box filled
    h.release("A1")
    h.run(200)
    assert h.text(7) == "A NEAR 2 UP" and h.glass[(y + 2) * 128 + x + 2] == 0


def test_a_key_down_for_seconds_in_the_self_test_is_named_stuck():
    h = Hand(held=["MENU"])
    h.release("MENU", at=500)
    h.press("Bf2", at=1500)
    h.run_until(2000)
    assert h.text(7) == "B FAR 3 DOWN"
    h.run_until(4700)
    assert h.text(7) == "B FAR 3 KEY HELD"


# ---- the rule, without a scanner ----

def test_a_rectangle_is_two_presses_and_two_keys_held_at_its_corners():
    def down(*keys):
        return sum(1 << _key(*rc) for rc in keys)
    rectangle = selftest.rectangle
    held = down((0, 2), (3, 4), (0, 4), (3, 2))
    assert rectangle(held, _key(0, 4), _key(3, 2)) == (0, 3, 2, 4)  # opposite corners
    held = down((2, 0), (2, 5), (1, 5), (1, 0))
    assert rectangle(held, _key(1, 5), _key(1, 0)) == (1, 2, 0, 5)  # one row
    held = down((0, 3), (3, 3), (3, 1), (0, 1))
    assert rectangle(held, _key(3, 1), _key(0, 1)) == (0, 3, 1, 3)  # one column
    held = down((2, 0), (1, 5), (1, 0), (0, 4))
    assert rectangle(held, _key(1, 5), _key(1, 0)) is None  # one corner held, not two
    held = down((0, 3), (3, 3), (2, 1), (0, 1))
    assert rectangle(held, _key(2, 1), _key(0, 1)) is None  # rows 0 and 2; 3 is held


class _Filter:
    """What the self-test reads of the key filter."""
    keymap = MATRIX_KEYMAP
    held = stuck = 0


def test_the_self_test_built_with_the_matrix_key_map_names_a_ghost_from_meanings():
    h = Hand(settings=_MATRIX)  # (its glass and kit)
    test = selftest.SelfTest(h.app.kit, h.app.table.bg, h.hw, _Filter())
    now = h.hw.ticks_ms()
    test.begin(now, h.app.sound)
    test.advance(ticks_add(now, 2000))  # the pattern's time is up: the keys' picture
    m = Meaning()
    m.what = 1  # a press
    for key, t in ((_key(0, 0), 100), (_key(2, 3), 110), (_key(0, 3), 120), (_key(2, 0), 120)):
        m.key = key
        test.key(m, t)
    h.hw.display.root_group = test.group
    h.hw.display.refresh()
    assert (h.text(1), h.text(7)) == (lang.words.GHOST, "A NEAR 4 / B FAR 6")  # keys 3, 12
    assert h.console[-1].startswith("self-test: ghost: key 3 (A NEAR 4) or key 12 (B FAR 6)")


def _write_goldens():
    for code in sorted(_GHOST_LINES):
        h = _ghost_scene(Hand(settings=_MATRIX, held=[MENU], lang=code))
        path = os.path.join(scenes.GOLDEN, _golden_name(code) + ".png")
        h.hw.oled.to_png(path, scale=1)
        print(path, file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    _write_goldens()
