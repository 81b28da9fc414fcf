"""The matrix build (Long Speed's keys) on the virtual handheld: 24 pile keys on a 4 x 6
keypad.KeyMatrix and MENU on its own pin (settings.toml CS_KEYS = "matrix"), the keys
named as on the box (A0-A5, Af0-Af5, B0-B5, Bf0-Bf5, MENU), seen through the glass."""
import pytest

from engine import Rules
from handheld import A, B, BOOTED, PAUSE_HOLD, SEEN, Hand
from hardware.keymap import MATRIX_KEYMAP
from twins.desktop.keypad import VirtualKeyMatrix, VirtualKeys
from twins.desktop import scenes

MATRIX = {"CS_KEYS": "matrix"}


def _hand(**options):
    h = Hand(settings=MATRIX, **options)
    h.run_until(BOOTED)
    return h


def test_the_matrix_build_scans_a_4_x_6_matrix_and_menu_on_its_own_pin():
    h = _hand()
    assert h.hw.keymap == MATRIX_KEYMAP
    assert isinstance(h.hw.keys, VirtualKeyMatrix) and h.hw.keys.key_count == 24
    assert isinstance(h.hw.menu_keys, VirtualKeys) and h.hw.menu_keys.key_count == 1
    assert h.key("MENU") == 24 and h.key("A5") == 5 and h.key("B0") == 23
    with pytest.raises(ValueError):
        Hand().key("A5")  # the direct build has 4 keys a row


def test_the_menus_answer_both_seats_keys_and_menu():
    h = _hand()
    assert h.screen == "menu" and h.arrowed()[0] == "2 PLAYERS"
    h.tap("A1")  # A's DOWN
    assert h.faces == A and h.arrowed()[0] == "VS COMPUTER"
    h.tap("Bf1")  # B's far row is B's arrows too: DOWN, and the page turns to B
    assert h.faces == B and h.arrowed() == ("CPU LEVEL", "QUICK")
    h.tap("B3")  # RIGHT: the next level
    assert h.arrowed() == ("CPU LEVEL", "SHARP")
    h.tap("B2")  # LEFT
    assert h.arrowed() == ("CPU LEVEL", "QUICK")
    h.tap("A4")  # a row's 5th and 6th keys are no arrows
    h.tap("Bf5")
    assert h.faces == B and h.arrowed() == ("CPU LEVEL", "QUICK")
    h.tap("B1")
    h.tap("B3")  # SETTINGS
    assert h.screen == "settings"
    h.tap("MENU")  # MENU, on its own pin: back
    assert h.screen == "menu" and h.arrowed()[0] == "SETTINGS"
    h.tap("Af0")  # A's UP
    assert h.faces == A and h.arrowed()[0] == "CPU LEVEL"


def test_a_four_pile_match_covers_the_piles_each_seats_keys_say():
    # scenes.DECKS: A's pile 0 (5c) and B's pile 4 (5d) match; A's next card 7c, B's 4c
    h = _hand(decks=scenes.DECKS, rules=Rules())
    h.choose("2 PLAYERS")
    h.run(SEEN)
    assert h.screen == "play" and h.piles == ["5c", "9d", "Jh", "2s", "5d", "Kc", "3h", "8s"]
    h.heard()
    h.tap("A1")  # six keys under four cells: the 2nd and 5th sit between two, and press nothing
    h.tap("Bf4")
    assert h.heard() == [] and h.piles[0] == "5c"
    h.tap("A0")  # A's own leftmost pile, pile 0
    assert h.piles[0] == "7c" and h.heard() == ["COVER_A"]
    h.tap("B0", at=h.now + SEEN)  # B's own leftmost pile, pile 4
    assert h.piles[4] == "4c" and h.heard()[:1] == ["COVER_B"]  # (then no pair: a stall)
    assert h.cards(A) == h.cards(B)


def test_bs_far_key_covers_as_pile_and_as_far_key_covers_bs():
    h = _hand(decks=scenes.DECKS, rules=Rules())
    h.choose("2 PLAYERS")
    h.run(SEEN)
    h.heard()
    h.tap("Bf5")  # B's far row from B's left: its 6th key is A's pile 0 (the screen's left)
    assert h.piles[0] == "4c" and h.heard() == ["COVER_B"]
    h.tap("Af5", at=h.now + SEEN)  # A's far row from A's left: its 6th key is B's pile 4
    assert h.piles[4] == "7c" and h.heard()[:1] == ["COVER_A"]  # (then a stall)


def test_holding_menu_on_its_own_pin_pauses_the_match():
    h = _hand(decks=scenes.DECKS, rules=Rules())
    h.choose("2 PLAYERS")
    h.run(SEEN)
    h.hold("MENU", PAUSE_HOLD)
    assert h.screen == "pause"
    h.choose("RESUME")
    assert h.screen == "play" and h.piles[0] == "5c"


def test_menu_held_at_power_up_opens_the_self_test_on_the_matrix_build_too():
    h = Hand(settings=MATRIX, held=["MENU"])
    h.run_until(2000)
    assert h.screen == "selftest"


# Six piles a row: A's 2c (pile 0) and B's 2d (pile 6) match, and A's 9h (pile 5) and B's
# 9s (pile 11); A's next card Kd, B's 3d.
SIX = "2c 3c 4c 5c 6c 9h Kd Qd / 2d Js Qs As 8d 9s 3d 4d"


def test_a_six_pile_match_covers_the_outer_piles_with_the_outer_keys():
    h = _hand(decks=SIX, rules=Rules(piles_per_row=6))
    h.choose("2 PLAYERS")
    h.run(SEEN)
    assert h.screen == "play" and h.cards(A) == h.cards(B) == 2
    h.heard()
    h.tap("A5")  # A's own rightmost pile, pile 5 (9h)
    assert h.heard() == ["COVER_A"] and h.cards(A) == 1
    h.tap("B0", at=h.now + SEEN)  # B's own leftmost pile, pile 6 (2d)
    assert h.heard() == ["COVER_B"] and h.cards(B) == 1


def test_each_key_map_means_what_keymap_py_says():
    """The two maps are literals; here is the rule they were written from."""
    from hardware.keymap import KEYMAP, ROLE_MENU, is_far, place_of, player_of
    for key in range(16):  # direct: A near, A far, B near, B far; 4 places each
        role = KEYMAP[key]
        assert (player_of(role), is_far(role), place_of(role)) == (
            key >> 3, bool(key >> 2 & 1), key & 3), key
    for row in range(4):  # matrix: A near, A far, B far, B near; columns from A's left
        for col in range(6):
            role = MATRIX_KEYMAP[row * 6 + col]
            assert (player_of(role), is_far(role), place_of(role)) == (
                row >> 1, row in (1, 2), 5 - col if row > 1 else col), (row, col)
    assert KEYMAP[-1] == MATRIX_KEYMAP[-1] == ROLE_MENU
    assert (len(KEYMAP), len(MATRIX_KEYMAP)) == (17, 25)
