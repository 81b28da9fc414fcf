"""Long Speed's table: six piles a row (five too) on the 128-pixel glass, in the narrow
card face (firmware/narrow.py), read off the glass as each seat reads it."""
import sys

import pytest

from engine import Game, Rules
from handheld import A, B, BOOTED, SEEN, Hand
from twins.desktop import virtual
from twins.desktop import glass, scenes

SIX_DEALT = ["5c", "9d", "Jh", "Ks", "7c", "10h", "5d", "Kc", "3h", "8s", "4c", "10s"]


def _decks():
    from twins.desktop.play import parse_decks
    return parse_decks(scenes.SIX)


def _six(**options):
    """The matrix build (six keys a row) with fixed rules that deal six piles a row,
    scenes.SIX stacked."""
    options.setdefault("settings", {"CS_KEYS": "matrix"})
    return Hand(decks=scenes.SIX, rules=Rules(piles_per_row=6), **options)


def test_six_piles_a_row_are_dealt_and_each_seat_reads_its_row_the_right_way_up():
    h = _six()
    h.tap("A3", at=400)  # 2 PLAYERS
    assert h.screen == "play" and glass.piles_per_row(h.glass) == 6
    assert h.piles == SIX_DEALT  # B's row read off the glass turned, from B's own left
    assert h.cards(A) == h.cards(B) == 4
    assert h.heard() == ["KEY", "DEAL"]


def test_each_seat_covers_a_pile_of_six():
    h = _six()
    h.tap("A3", at=400)
    h.heard()
    h.tap("A0", at=h.now + SEEN)  # A's 5c, paired with B's 5d: covered with A's Qd
    assert h.piles[0] == "Qd" and h.heard() == ["COVER_A"]
    h.tap("B1", at=h.now + SEEN)  # B's Kc (B's second from B's left), paired with A's Ks
    assert h.piles[7] == "6c" and h.heard() == ["COVER_B"]
    assert h.piles == ["Qd"] + SIX_DEALT[1:7] + ["6c"] + SIX_DEALT[8:]
    assert h.cards(A) == h.cards(B) == 3


def test_five_piles_a_row_show_the_narrow_face_too():
    h = Hand(decks=scenes.SIX, rules=Rules(piles_per_row=5))
    h.tap("A3", at=BOOTED)
    assert glass.piles_per_row(h.glass) == 5
    assert h.piles == SIX_DEALT[:5] + SIX_DEALT[6:11]


def test_the_hints_underline_each_pile_that_can_be_covered_centred_under_its_card():
    h = _six()
    h.run_until(BOOTED)
    h.choose("SETTINGS")
    h.set("HINTS", "ON")
    h.tap("MENU")
    h.choose("2 PLAYERS")
    h.run(SEEN)
    assert glass.marks(h.glass) == [0, 3, 5, 6, 7, 11]  # the 5s, the kings, the 10s
    frame = h.glass
    for side in (frame, glass.turned(frame)):  # A's row, then B's as B sees it
        y = (32 + 22) * glass.W  # the row inside the card's bottom edge
        runs = set()
        for x, w in glass.cards_at(6) if side is frame else [(glass.W - x - w, w) for x, w
                                                             in glass.cards_at(6)]:
            lit = [i for i in range(x + 1, x + w - 1) if side[y + i]]  # (inside the outline)
            if lit:
                assert lit == list(range(lit[0], lit[-1] + 1))  # one mark, unbroken
                runs.add((lit[0] - x, x + w - 1 - lit[-1], len(lit)))
        assert runs == {(5, 5, 10)}  # 5 pixels in from the outline each side
    h.tap("A0")  # the 5c covered with the Qd; the 5d is still to be covered (pending)
    assert glass.marks(h.glass) == [3, 5, 6, 7, 11]
    h.tap("B0", at=h.now + SEEN)  # B covers the 5d with the 6c: no 5 is left
    assert h.piles[6] == "6c" and glass.marks(h.glass) == [3, 5, 7, 11]


def test_a_table_back_at_four_a_row_after_six_draws_what_a_fresh_one_does():
    """The heap holds one face: the narrow cells and their code go at four a row, the big
    ones are made again as a fresh table's, and six a row again is drawn as the first."""
    from firmware.table import Table
    from firmware.ui import Kit

    def dealt(table, hw, n):
        game = Game.from_decks(*_decks(), Rules(piles_per_row=n), 1)
        game.start(0)
        table.layout(n)
        table.sync(game, True)
        hw.display.refresh()
        return hw.oled.frame()

    hw = virtual.init(seed=1)
    table = Table(Kit())
    hw.display.root_group = table.group
    six = dealt(table, hw, 6)
    assert glass.piles(six) == SIX_DEALT
    again = dealt(table, hw, 4)
    assert "firmware.narrow" not in sys.modules
    assert dealt(table, hw, 6) == six
    again_after = dealt(table, hw, 4)
    assert again_after == again
    fresh_hw = virtual.init(seed=1)
    fresh = Table(Kit())
    fresh_hw.display.root_group = fresh.group
    assert again == dealt(fresh, fresh_hw, 4)
    assert glass.piles(again) == SIX_DEALT[:4] + SIX_DEALT[6:10]
    with pytest.raises(ValueError, match="shows at most 6 a row, not 7"):  # (seats.py's limit)
        table.layout(7)


def test_how_to_play_and_the_self_test_give_the_table_its_cells_back():
    """Both borrow the play screen's background and, while open, the room of its cells
    (for their code): the next deal of six a row is drawn as a fresh handheld's."""
    fresh = _six()
    fresh.tap("A3", at=BOOTED)  # 2 PLAYERS
    fresh.run(SEEN)
    h = _six()
    h.run_until(BOOTED)
    h.choose("HOW TO PLAY")
    assert h.screen == "howto"
    h.tap("MENU")
    h.choose("SELF TEST")
    h.run_until(screen="selftest", timeout=1500)
    h.hold("MENU", 1700)
    assert h.screen == "menu"
    h.choose("2 PLAYERS")
    h.run(SEEN)
    assert h.screen == "play" and h.piles == SIX_DEALT
    assert h.glass == fresh.glass


def test_the_standard_game_never_loads_the_narrow_face():
    """The narrow face's code comes into the heap with the first table of five or six a
    row (tests/twins/boardvm/test_board_vm.py measures what it costs there); its glyphs leave again once
    drawn into their sheet. (twins/desktop/glass.py reads with them: on the desktop they may be
    loaded before.)"""
    sys.modules.pop("firmware.narrow", None)
    h = Hand(decks=scenes.DECKS)
    h.tap("A3", at=BOOTED)
    assert glass.piles_per_row(h.glass) == 4
    assert "firmware.narrow" not in sys.modules
    h = _six()
    h.tap("A3", at=BOOTED)
    assert glass.piles_per_row(h.glass) == 6
    assert "firmware.narrow" in sys.modules and "firmware.glyphs_narrow" not in sys.modules


def test_the_main_loop_at_six_a_row_allocates_nothing_net():
    from lab import measure
    h = _six()
    h.press("A3", 400)  # RIGHT on "2 PLAYERS": into a match of six a row
    h.release("A3", 460)
    h.run_until(300)
    net, where = measure.main_loop_allocation(h.hw, h.app, 1000, True)
    assert h.screen in ("play", "result") and glass.piles_per_row(h.glass) in (0, 6)
    heard = h.heard()
    assert len([s for s in heard if s in ("COVER_A", "COVER_B", "FOUL", "COLLISION")]) > 5
    assert net <= 0 and not where, where
