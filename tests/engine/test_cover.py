"""docs/RULES.md section 4: covering, pending piles and renewed piles."""
from engine import A, B, COVERED, FOUL, COLLISION, STALL, PLAY
from enginetest import stacked, tops, deck, cover_set

T = 1000  # well after the deal's collision window


def test_cover_places_the_top_of_the_players_own_deck_whatever_its_rank():
    g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c")
    assert g.press(A, 0, T) == COVERED
    assert tops(g) == "7c 9d Jh 2s | 5d Kc 3h 8s"
    assert deck(g, A) == "8c" and deck(g, B) == "4c 6c"
    assert g.covers == 1


def test_either_player_may_cover_a_pile_in_either_row():
    g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c")
    assert g.press(B, 0, T) == COVERED  # B covers in A's row
    assert tops(g) == "4c 9d Jh 2s | 5d Kc 3h 8s"
    assert g.press(A, 4, T + 10) == COVERED  # A finishes the match in B's row
    assert tops(g) == "4c 9d Jh 2s | 7c Kc 3h 8s"


def test_covering_a_pile_makes_the_piles_that_matched_it_pending():
    g = stacked("5c 5h Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c")
    g.press(A, 0, T)
    assert [p for p in range(8) if g.pending(p)] == [1, 4]
    assert cover_set(g) == [1, 4]


def test_a_pending_pile_stays_coverable_when_nothing_matches_it():
    g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c")
    g.press(A, 0, T)
    assert g.pending(4) and g.coverable(4)
    assert g.press(B, 4, T + 500) == COVERED


def test_a_renewed_pile_is_not_pending_and_fouls_unless_it_matches():
    g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c")
    g.press(A, 0, T)
    assert not g.pending(0) and not g.coverable(0)
    assert g.press(B, 0, T + 200) == FOUL


def test_a_renewed_pile_is_coverable_again_when_its_new_card_matches():
    g = stacked("5c 9d Jh 2s 9c 8c", "5d Kc 3h 8s 4c 6c")
    g.press(A, 0, T)
    assert cover_set(g) == [0, 1, 4]
    assert not g.pending(0) and not g.pending(1)


def test_both_players_share_a_match_one_card_each():
    g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c")
    assert g.press(A, 4, T) == COVERED
    assert g.press(B, 0, T + 40) == COVERED
    assert deck(g, A) == "8c" and deck(g, B) == "6c"


def test_one_card_per_pile_the_later_press_meets_a_new_card():
    g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c")
    assert g.press(A, 0, T) == COVERED
    assert g.press(B, 0, T + 30) == COLLISION
    assert deck(g, B) == "4c 6c"


def test_covering_the_last_match_stops_play():
    g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c")
    g.press(A, 0, T)
    assert g.phase == PLAY
    g.press(B, 4, T + 100)
    assert g.phase == STALL and g.stalls == 1
