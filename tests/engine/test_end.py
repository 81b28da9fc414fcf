"""docs/RULES.md section 7: winning, simultaneous finish, deadlock and the match."""
from engine import (Game, Rules, A, B, DRAW, PLAY, FINISH, GAME_OVER, MATCH_OVER, COVERED,
                    FOUL, IGNORED, ENDED, DEALT, DEADLOCK_FEWER, STALL)
from enginetest import stacked, all_cards, state

T = 1000
ONE_LEFT_A = "5c 9d Jh 2s 7c"
ONE_LEFT_B = "5d Kc 3h 8s 4c"


def test_placing_the_last_card_by_a_legal_cover_wins_after_the_tie_window():
    g = stacked(ONE_LEFT_A, "5d Kc 3h 8s 4c 6c")
    assert g.press(A, 0, T) == COVERED
    assert g.phase == FINISH and g.deck_size(A) == 0
    assert g.tick(T + 10) == IGNORED and g.phase == FINISH
    assert g.tick(T + 11) == ENDED
    assert g.phase == GAME_OVER and g.game_result == A and g.wins == (1, 0)
    assert g.ended_at == T


def test_the_winner_need_not_collect_their_row():
    g = stacked(ONE_LEFT_A, "5d Kc 3h 8s 4c 6c")
    g.press(A, 0, T)
    g.tick(T + 100)
    assert len(g.pile_cards(0)) == 2


def test_both_finishing_within_the_tie_window_is_a_draw():
    g = stacked(ONE_LEFT_A, ONE_LEFT_B)
    g.press(A, 0, T)
    assert g.press(B, 4, T + 10) == COVERED
    assert g.phase == GAME_OVER and g.game_result == DRAW and g.wins == (0, 0)


def test_a_finish_just_after_the_tie_window_loses():
    g = stacked(ONE_LEFT_A, ONE_LEFT_B)
    g.press(A, 0, T)
    assert g.press(B, 4, T + 11) == IGNORED
    assert g.game_result == A and g.deck_size(B) == 1


def test_an_illegal_press_never_finishes():
    g = stacked(ONE_LEFT_A, ONE_LEFT_B)
    assert g.press(A, 1, T) == FOUL
    assert g.deck_size(A) == 1 and g.phase == PLAY


def test_the_finisher_has_nothing_left_to_press():
    g = stacked(ONE_LEFT_A, "5d Kc 3h 8s 4c 6c")
    g.press(A, 0, T)
    assert g.press(A, 4, T + 5) == IGNORED


def _deadlocked(deck_b, **rules):
    g = stacked("Ac 2c 3c 4c 5c", deck_b, **rules)
    g.tick(10 * 1000 - 1)
    assert g.phase == STALL and g.dead_deals == 9
    assert g.tick(10 * 1000) == ENDED
    return g


def test_ten_dead_deals_in_a_row_end_the_game_in_a_draw():
    g = _deadlocked("6c 7c 8c 9c 10c Jc")
    assert g.phase == GAME_OVER and g.game_result == DRAW and g.dead_deals == 10
    assert g.deadlocked


def test_deadlock_fewer_variant_gives_the_game_to_fewer_cards():
    g = _deadlocked("6c 7c 8c 9c 10c Jc", deadlock=DEADLOCK_FEWER)
    assert g.game_result == A and g.wins == (1, 0)


def test_deadlock_fewer_variant_with_equal_counts_is_a_draw():
    g = _deadlocked("6c 7c 8c 9c 10c", deadlock=DEADLOCK_FEWER)
    assert g.game_result == DRAW


def test_dead_deal_limit_is_a_rule():
    g = stacked("Ac 2c 3c 4c 5c", "6c 7c 8c 9c 10c", dead_deal_limit=3)
    assert g.tick(3000) == ENDED and g.dead_deals == 3


def test_the_match_goes_to_wins_needed_and_reshuffles_all_52_cards():
    g = stacked(ONE_LEFT_A, "5d Kc 3h 8s 4c 6c")
    g.press(A, 0, T)
    g.tick(T + 100)
    assert g.phase == GAME_OVER and g.match_winner == -1
    assert g.next_game(T + 200) == DEALT
    assert g.games == 2 and all_cards(g) == list(range(52))
    assert g.deck_size(A) == 22 and g.game_result == -1 and g.wins == (1, 0)


def test_winning_the_last_needed_game_ends_the_match():
    g = stacked(ONE_LEFT_A, "5d Kc 3h 8s 4c 6c", wins_needed=1)
    g.press(A, 0, T)
    g.tick(T + 100)
    assert g.phase == MATCH_OVER and g.match_winner == A


def test_next_game_outside_game_over_changes_nothing():
    g = stacked(ONE_LEFT_A, "5d Kc 3h 8s 4c 6c", wins_needed=1)
    before = state(g)
    assert g.next_game(T) == IGNORED and state(g) == before
    g.press(A, 0, T)
    g.tick(T + 100)
    before = state(g)
    assert g.next_game(T + 200) == IGNORED and state(g) == before


def test_a_game_won_by_a_last_card_is_not_a_deadlock():
    g = stacked(ONE_LEFT_A, "5d Kc 3h 8s 4c 6c")
    g.press(A, 0, T)
    g.tick(T + 100)
    assert not g.deadlocked


def test_a_drawn_game_counts_for_nobody():
    g = stacked(ONE_LEFT_A, ONE_LEFT_B, wins_needed=1)
    g.press(A, 0, T)
    g.press(B, 4, T)
    assert g.phase == GAME_OVER and g.match_winner == -1 and g.wins == (0, 0)


def test_new_match_forgets_the_score():
    g = stacked(ONE_LEFT_A, "5d Kc 3h 8s 4c 6c", wins_needed=1)
    g.press(A, 0, T)
    g.tick(T + 100)
    assert g.new_match(T + 200) == DEALT
    assert g.wins == (0, 0) and g.match_winner == -1 and g.games == 1
    assert all_cards(g) == list(range(52))


def test_whole_matches_end_with_a_winner():
    for seed in range(3):
        g = Game(Rules(foul_lockout_ms=0), seed=seed)
        g.start(0)
        t = 0
        while g.phase != MATCH_OVER and t < 10000000:
            t += 200
            for p in range(g.piles):
                if g.coverable(p):
                    g.press((t // 200) % 2, p, t)
                    break
            g.tick(t)
            if g.phase == GAME_OVER:
                g.next_game(t)
        assert g.phase == MATCH_OVER and g.match_winner in (A, B)
        assert max(g.wins) == 2


def test_players_may_agree_on_a_draw():
    g = stacked(ONE_LEFT_A, ONE_LEFT_B)
    assert g.declare_draw(T) == ENDED
    assert g.phase == GAME_OVER and g.game_result == DRAW and g.wins == (0, 0)
    assert g.declare_draw(T + 1) == IGNORED


def test_a_draw_declared_after_a_finish_came_due_leaves_the_win():
    """The handheld pauses without advancing the game: a draw declared from the pause page
    must not undo a last card placed just before it."""
    g = stacked(ONE_LEFT_A, "5d Kc 3h 8s 4c 6c")
    g.press(A, 0, T)
    assert g.declare_draw(T + 11) == ENDED
    assert g.game_result == A and g.wins == (1, 0) and g.ended_at == T
    g = stacked(ONE_LEFT_A, "5d Kc 3h 8s 4c 6c")
    g.press(A, 0, T)
    assert g.declare_draw(T + 10) == ENDED and g.game_result == DRAW  # within the window


def test_a_draw_cannot_be_declared_before_the_deal():
    g = Game(Rules(), 1)
    assert g.declare_draw(0) == IGNORED and g.phase == 0
