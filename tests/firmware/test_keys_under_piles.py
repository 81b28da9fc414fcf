"""Every key sits under the pile it presses: on both builds, at every pile count each allows,
a row's keys press the piles in the order the glass draws them, the key at each end the
pile at that end, and no pile is more than one key away from where its cell sits."""
import pytest

from engine import Rules
from handheld import A, SEEN, Hand
from hardware.keymap import KEYMAP, MATRIX_KEYMAP, is_far, pile_of, place_of, player_of
from hardware.seats import KEYS_A_ROW, PILE_CHOICES, column
from twins.desktop import glass

BUILDS = {"direct": (KEYMAP, KEYS_A_ROW[0], PILE_CHOICES[0]),
          "matrix": (MATRIX_KEYMAP, KEYS_A_ROW[1], PILE_CHOICES[1])}
CASES = [(build, n) for build, (_, _, counts) in BUILDS.items() for n in counts]


def _rows(keymap, keys):
    """{(player, far): [role of each key from the screen's left]}: a row of buttons as it
    lies along the glass (B's rows run from B's left, the screen's right)."""
    rows = {}
    for role in keymap:
        if role <= 0x1F:
            rows.setdefault((player_of(role), is_far(role)), {})[
                column(player_of(role), place_of(role), keys)] = role
    return {row: [roles[i] for i in range(keys)] for row, roles in rows.items()}


@pytest.mark.parametrize("build, n", CASES, ids=["%s-%d" % c for c in CASES])
def test_a_rows_keys_press_the_piles_drawn_over_them(build, n):
    keymap, keys, _ = BUILDS[build]
    cells = [x + w / 2 for x, w in glass.cards_at(n)]  # each cell's centre, screen's left first
    pitch = glass.W / keys
    for (player, far), roles in _rows(keymap, keys).items():
        owner = 1 - player if far else player
        where = []  # (the key's centre along the glass, the cell it presses or None)
        for i, role in enumerate(roles):
            pile = pile_of(role, n, keys)
            col = None if pile < 0 else column(owner, pile - owner * n, n)
            assert pile < 0 or owner * n <= pile < owner * n + n, (role, pile)
            where.append(((i + 0.5) * pitch, col))
        pressed = [col for _, col in where if col is not None]
        assert pressed == sorted(pressed), (build, n, player, far, where)  # the glass's order
        assert where[0][1] == 0 and where[-1][1] == n - 1, where  # the ends press the ends
        for col, centre in enumerate(cells):
            near = [abs(x - centre) for x, c in where if c == col]
            assert near and min(near) <= pitch, (build, n, col, where)  # within a key of it


def test_on_the_matrix_build_with_four_piles_the_outer_keys_press_the_outer_piles():
    """Six keys under four cells: A5, at the row's right end, covers A's rightmost pile; A1,
    on the line between the first two cells, presses nothing (no sound, no foul)."""
    rules = Rules(piles_per_row=4)
    h = Hand(decks="5c 9d Jh 5s 7c 8c / 5d Kc 3h 8s 4c 6c", rules=rules,
             settings={"CS_KEYS": "matrix"})
    h.tap("A3", at=400)  # RIGHT on 2 PLAYERS
    h.run_until(h.now + SEEN)
    assert h.screen == "play" and h.piles[:4] == ["5c", "9d", "Jh", "5s"]
    h.heard()
    h.tap("A1")
    assert h.heard() == [] and h.message(A) == ""
    h.tap("A5")
    assert h.piles[3] == "7c" and h.heard() == ["COVER_A"]
