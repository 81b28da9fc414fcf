"""docs/RULES.md section 6: collisions, the same-instant coin toss, fouls and lockout, the wrap."""
from engine import (Game, Rules, A, B, COVERED, FOUL, COLLISION, LOCKED, IGNORED, STALL,
                    TICKS_PERIOD)
from enginetest import stacked, tops, deck, state

T = 1000
DECK_A = "5c 9d Jh 2s 7c 8c"
DECK_B = "5d Kc 3h 8s 4c 6c"


def test_a_press_just_after_a_deal_is_a_collision():
    g = stacked(DECK_A, DECK_B)
    assert g.press(A, 0, 149) == COLLISION
    assert deck(g, A) == "7c 8c"
    assert g.press(A, 0, 150) == COVERED


def test_a_press_on_a_top_card_younger_than_collision_ms_is_a_collision():
    g = stacked(DECK_A, DECK_B, collision_ms=200)
    g.press(A, 0, T)
    assert g.press(B, 0, T + 199) == COLLISION
    assert g.fouls == 0  # no penalty
    assert g.press(B, 0, T + 200) == FOUL


def _same_instant(seed):
    g = stacked(DECK_A, DECK_B, seed=seed)
    first = g.press(A, 0, T)
    second = g.press(B, 0, T)
    return g, first, second


def test_same_instant_same_pile_is_decided_by_a_coin_toss():
    outcomes = []
    for seed in range(40):
        g, first, second = _same_instant(seed)
        assert first == COVERED
        if second == COVERED:  # B won the toss: A's card goes back on A's deck
            assert tops(g) == "4c 9d Jh 2s | 5d Kc 3h 8s"
            assert deck(g, A) == "7c 8c" and deck(g, B) == "6c"
            assert g.pending(4) and g.covers == 1
        else:
            assert second == COLLISION
            assert tops(g) == "7c 9d Jh 2s | 5d Kc 3h 8s"
            assert deck(g, A) == "8c" and deck(g, B) == "4c 6c"
        outcomes.append(second)
    assert COVERED in outcomes and COLLISION in outcomes


def test_the_coin_toss_is_the_same_for_the_same_seed():
    for seed in range(10):
        a = _same_instant(seed)
        b = _same_instant(seed)
        assert a[2] == b[2] and state(a[0]) == state(b[0])


def test_same_instant_on_different_piles_both_cover():
    g = stacked(DECK_A, DECK_B)
    assert g.press(A, 0, T) == COVERED
    assert g.press(B, 4, T) == COVERED


def test_a_foul_plays_nothing_and_locks_the_offender_out():
    g = stacked(DECK_A, DECK_B)
    assert g.press(A, 1, T) == FOUL
    assert deck(g, A) == "7c 8c" and tops(g) == "5c 9d Jh 2s | 5d Kc 3h 8s"
    assert g.press(A, 0, T + 399) == LOCKED
    assert g.locked(A, T + 399) and not g.locked(B, T + 399)
    assert g.press(A, 0, T + 400) == COVERED
    assert g.fouls == 1


def test_the_lockout_touches_only_the_offender():
    g = stacked(DECK_A, DECK_B)
    g.press(A, 1, T)
    assert g.press(B, 0, T + 1) == COVERED


def test_a_zero_lockout_disables_locking():
    g = stacked(DECK_A, DECK_B, foul_lockout_ms=0)
    assert g.press(A, 1, T) == FOUL
    assert g.press(A, 0, T + 1) == COVERED


def test_presses_while_play_is_stopped_are_ignored():
    g = stacked(DECK_A, DECK_B)
    g.press(A, 0, T)
    g.press(B, 4, T + 100)
    assert g.phase == STALL
    before = state(g)
    assert g.press(A, 2, T + 200) == IGNORED
    assert state(g) == before


def _script(g, t0):
    """A fixed sequence of inputs starting at t0; returns the results."""
    out = [g.start(t0)]
    t = t0
    for step in range(300):
        t = (t + 37 + step % 5) % TICKS_PERIOD
        for p in range(g.piles):
            if g.coverable(p):
                out.append(g.press(step % 2, p, t))
                break
        else:
            out.append(g.press(step % 2, step % g.piles, t))
        out.append(g.tick(t))
    return out


def test_a_game_that_spans_the_ticks_wrap_plays_the_same():
    g = Game(Rules(), seed=5)
    h = Game(Rules(), seed=5)
    assert _script(g, 0) == _script(h, TICKS_PERIOD - 3000)
    assert g.deck_cards(A) == h.deck_cards(A) and tops(g) == tops(h)
    assert g.phase == h.phase and g.covers == h.covers and g.covers > 20


def test_the_table_version_moves_with_every_change_of_a_top_card():
    g = stacked(DECK_A, DECK_B)
    v = g.version
    assert g.last_change == 0
    g.press(A, 1, T)  # a foul changes nothing on the table
    assert g.version == v
    g.press(B, 0, T)
    assert g.version == v + 1 and g.last_change == T


def test_next_timer_says_when_the_stall_or_finish_ends():
    g = stacked(DECK_A, DECK_B)
    assert g.next_timer() == -1
    g.press(A, 0, T)
    g.press(B, 4, T + 100)
    assert g.phase == STALL and g.next_timer() == T + 100 + 1000


def test_a_clock_that_goes_back_counts_as_no_time_passed():
    # B empties their deck "500 ms before" A did: no time passed, so both finished at
    # once, inside the tie window: a draw (and no crash, whatever the clock says).
    from engine import DRAW, GAME_OVER
    from enginetest import all_cards
    g = stacked("5c 9d Jh 2s 7c", "5d Kc 3h 8s 4c")
    assert g.press(A, 0, T) == COVERED
    assert g.press(B, 4, T - 500) == COVERED
    assert g.phase == GAME_OVER and g.game_result == DRAW
    cards = all_cards(g)
    assert len(cards) == len(set(cards)) == 10  # the stacked cards, each once


def test_a_clock_that_goes_far_back_changes_nothing_but_the_time():
    g = stacked(DECK_A, DECK_B)
    before = g.changed_at(0)
    assert g.tick((T - (1 << 28) + 5) % TICKS_PERIOD) == IGNORED  # 74 hours back
    assert g.press(A, 0, (T - (1 << 28) + 200) % TICKS_PERIOD) == COVERED
    assert g.changed_at(0) != before and deck(g, A) == "8c"


def test_a_game_left_alone_for_days_plays_on():
    # Ticks go on (the main loop) while nobody presses for 1.5 * 2**28 ms (112 hours):
    # a press then covers; it is not taken as pressed just after the last change.
    g = stacked(DECK_A, DECK_B)
    t = T
    for _ in range(24):
        t = (t + (1 << 24)) % TICKS_PERIOD
        assert g.tick(t) == IGNORED
    assert g.press(A, 0, t) == COVERED
    assert g.press(B, 1, t) == FOUL and g.locked(B, t) and not g.locked(B, (t + 400) % TICKS_PERIOD)
