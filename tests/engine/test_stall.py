"""docs/RULES.md section 5: no match, collect, redeal, dead deals."""
from engine import A, B, STALL, PLAY, COLLISION, DEALT, IGNORED
from enginetest import stacked, tops, deck

T = 1000


def _stalled():
    g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c")
    g.press(A, 0, T)
    g.press(B, 4, T + 100)
    return g


def test_play_stops_when_no_pile_is_coverable():
    g = _stalled()
    assert tops(g) == "7c 9d Jh 2s | 4c Kc 3h 8s"
    assert g.phase == STALL


def test_collect_and_redeal_wait_for_stall_ms():
    g = _stalled()
    assert g.tick(T + 100 + 999) == IGNORED and g.phase == STALL
    assert g.tick(T + 100 + 1000) == DEALT


def test_each_player_collects_their_own_row_left_pile_first_bottom_up_under_the_deck():
    g = _stalled()
    g.tick(T + 1100)
    # A: deck 8c, then 5c 7c (pile 0, bottom up), 9d, Jh, 2s; the top N are dealt again.
    assert tops(g) == "8c 5c 7c 9d | 6c 5d 4c Kc"
    assert deck(g, A) == "Jh 2s" and deck(g, B) == "3h 8s"
    assert g.phase == PLAY


def test_the_redeal_is_a_fresh_deal_with_its_collision_window():
    g = _stalled()
    g.tick(T + 1100)
    assert g.changed_at(0) == T + 1100
    assert g.press(A, 1, T + 1100 + 50) == COLLISION
    assert not g.pending(4)


def test_the_redeal_happens_at_its_due_time_even_when_noticed_late():
    g = _stalled()
    g.tick(T + 5000)
    assert g.changed_at(3) == T + 1100


def test_a_dead_deal_stops_play_again_and_the_cycle_repeats():
    g = stacked("Ac 2c 3c 4c 5c", "6c 7c 8c 9c 10c")
    assert g.phase == STALL  # the first deal is dead too
    assert g.tick(1000) == DEALT
    assert tops(g) == "5c Ac 2c 3c | 10c 6c 7c 8c"
    assert g.phase == STALL and g.dead_deals == 1
    g.tick(2000)
    assert g.dead_deals == 2


def test_a_stall_never_makes_the_player_with_fewer_cards_the_winner():
    g = stacked("Ac 2c 3c 4c 5c", "6c 7c 8c 9c 10c Jc")
    g.tick(5000)
    assert g.phase == STALL and g.game_result == -1
