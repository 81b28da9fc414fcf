"""docs/RULES.md section 8: the variants."""
from engine import Game, Rules, A, B, SUIT, RANK_OR_SUIT, PLAY, STALL, COVERED
from enginetest import stacked, cover_set, tops

T = 1000


def test_quick_and_long_speed_deal_n_piles_per_row():
    for n in (3, 4, 5, 6):
        g = Game(Rules(piles_per_row=n), seed=1)
        g.start(0)
        assert g.piles == 2 * n
        assert g.deck_size(A) == 26 - n and g.deck_size(B) == 26 - n
        assert g.top(2 * n) == -1


def test_quick_speed_rows_are_numbered_from_their_owners_left():
    g = stacked("5c 9d Jh 7c", "5h Ks 3s 4c", piles_per_row=3)
    assert tops(g) == "5c 9d Jh | 5h Ks 3s"


def test_match_by_suit():
    g = stacked("5c 9d Jh 7c", "5h Ks 3s 4c", piles_per_row=3, match_by=SUIT)
    assert cover_set(g) == [2, 3, 4, 5]


def test_match_by_rank_is_the_default():
    g = stacked("5c 9d Jh 7c", "5h Ks 3s 4c", piles_per_row=3)
    assert cover_set(g) == [0, 3]


def test_match_by_rank_or_suit():
    g = stacked("5c 9d Jh 7c", "5h Ks 3s 4c", piles_per_row=3, match_by=RANK_OR_SUIT)
    assert cover_set(g) == [0, 2, 3, 4, 5]


def _double_on_pile_0(doubles):
    g = stacked("5c 9d Jh 2s 5h 8c", "5d Kc 3h 8s 7h 6c", doubles=doubles)
    assert g.press(B, 4, T) == COVERED  # pile 0 (5c) becomes pending
    assert g.press(A, 0, T + 200) == COVERED  # 5h on 5c: a double
    return g


def test_doubles_make_a_pile_with_two_equal_ranks_on_top_coverable():
    g = _double_on_pile_0(True)
    assert g.phase == PLAY and cover_set(g) == [0]


def test_without_doubles_the_same_pile_is_dead():
    g = _double_on_pile_0(False)
    assert g.phase == STALL and cover_set(g) == []


def test_wins_needed_sets_the_match_length():
    g = stacked("5c 9d Jh 2s 7c", "5d Kc 3h 8s 4c 6c", wins_needed=1)
    g.press(A, 0, T)
    g.tick(T + 100)
    assert g.match_winner == A
