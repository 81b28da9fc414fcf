"""The time handicap (docs/RULES.md, 10): the stronger seat's presses are HELD and judged
handicap_ms later, as if made then, but TOO LATE if their pile changed in between."""
from engine import (Game, Rules, A, B, COVERED, FOUL, COLLISION, LOCKED, IGNORED, HELD,
                    INVALID, DEALT, PLAY, STALL, FINISH, GAME_OVER, MATCH_OVER, DRAW,
                    TICKS_PERIOD)
from tools.record import Recorder, replay
from enginetest import stacked, tops, deck, state, raises, all_cards

T = 1000
DECK_A = "5c 9d Jh 2s 7c 8c"  # A's row 5c 9d Jh 2s; the 5s (piles 0 and 4) match
DECK_B = "5d Kc 3h 8s 4c 6c"


def verdicts(g):
    """What judged() hands over: (result, player, pile, reaction ms), oldest first."""
    out = []
    v = g.judged()
    while v >= 0:
        out.append((v >> 24, (v >> 20) & 15, (v >> 16) & 15, v & 0xFFFF))
        v = g.judged()
    return out


def test_without_a_handicap_the_first_press_wins_the_pile():
    g = stacked(DECK_A, DECK_B)
    assert g.press(A, 0, T) == COVERED
    assert g.press(B, 0, T + 100) == COLLISION  # (the pile changed 100 ms ago: too late)


def test_a_delayed_cover_loses_the_pile_to_a_later_undelayed_one():
    g = stacked(DECK_A, DECK_B, handicap_ms=200)
    assert g.press(A, 0, T) == HELD
    assert tops(g).startswith("5c") and verdicts(g) == []
    assert g.press(B, 0, T + 150) == COVERED  # B's 4c lands first
    g.tick(T + 200)
    assert verdicts(g) == [(COLLISION, A, 0, 0)]  # TOO LATE: A saw the 5c
    assert tops(g) == "4c 9d Jh 2s | 5d Kc 3h 8s"
    assert deck(g, A) == "7c 8c" and deck(g, B) == "6c"


def test_a_delayed_cover_lands_when_its_time_is_up():
    g = stacked(DECK_A, DECK_B, handicap_ms=200)
    assert g.press(A, 0, T) == HELD
    assert g.next_timer() == T + 200
    assert g.tick(T + 199) == IGNORED
    assert tops(g).startswith("5c") and verdicts(g) == []
    assert g.tick(T + 200) == HELD  # (a held press was judged: judged() has it)
    assert verdicts(g) == [(COVERED, A, 0, T)]  # reaction: from the deal to the press
    assert tops(g) == "7c 9d Jh 2s | 5d Kc 3h 8s" and g.changed_at(0) == T + 200
    assert g.pending(4) and g.next_timer() == -1


def test_a_held_press_is_judged_before_a_later_call_whatever_it_is():
    g = stacked(DECK_A, DECK_B, handicap_ms=200)
    g.press(A, 0, T)
    assert g.press(B, 4, T + 500) == COVERED  # A's cover (T + 200) first, then B's
    assert verdicts(g) == [(COVERED, A, 0, T)]
    assert tops(g) == "7c 9d Jh 2s | 4c Kc 3h 8s"


def test_the_other_seats_press_at_the_due_time_tosses_a_coin_as_at_the_same_instant():
    seen = set()
    for seed in range(40):
        g = stacked(DECK_A, DECK_B, seed=seed, handicap_ms=200)
        g.press(A, 0, T)
        r = g.press(B, 0, T + 200)
        v = verdicts(g)
        if r == COVERED:  # B won the toss: A's card goes back, and A hears TOO LATE
            assert v == [(COLLISION, A, 0, T)] and deck(g, A) == "7c 8c"  # (its reaction kept)
            assert tops(g).startswith("4c")
        else:
            assert r == COLLISION and v == [(COVERED, A, 0, T)] and deck(g, A) == "8c"
        seen.add(r)
    assert seen == {COVERED, COLLISION}


def test_a_delayed_last_card_ties_with_one_played_inside_the_tie_window():
    g = stacked("5c 9d Jh 2s 7c", "5d Kc 3h 8s 4c", handicap_ms=200)
    assert g.press(A, 0, T) == HELD  # A's last card, pressed first
    assert g.press(B, 4, T + 195) == COVERED  # B's last card: B finishes at T + 195
    assert g.phase == FINISH
    g.tick(T + 200)  # A's lands 5 ms later, inside the 10 ms window
    assert verdicts(g) == [(COVERED, A, 0, T)]
    assert g.phase == MATCH_OVER or g.phase == GAME_OVER
    assert g.game_result == DRAW


def test_a_delayed_last_card_that_lands_after_the_window_is_too_late_for_the_game():
    g = stacked("5c 9d Jh 2s 7c", "5d Kc 3h 8s 4c", handicap_ms=200, wins_needed=1)
    g.press(A, 0, T)
    g.press(B, 4, T + 100)  # B's last card: B wins at T + 111, before A's lands
    g.tick(T + 300)
    assert g.phase == MATCH_OVER and g.game_result == B and g.ended_at == T + 100
    assert verdicts(g) == [(IGNORED, A, 0, T)]
    assert deck(g, A) == "7c"


def test_a_press_held_across_the_end_of_a_game_comes_to_nothing_in_the_next():
    g = stacked(DECK_A, DECK_B, handicap_ms=300)
    other = stacked(DECK_A, DECK_B, handicap_ms=300)
    g.press(A, 0, T)
    for game in (g, other):
        assert game.declare_draw(T + 50) == 7 and game.phase == GAME_OVER
        assert game.next_game(T + 100) == DEALT  # before A's press is due
    assert verdicts(g) == []  # it went with its table: no verdict comes of it
    g.tick(T + 400)
    assert verdicts(g) == []
    other.tick(T + 400)
    assert state(g) == state(other)  # the new game as if A had never pressed


def test_a_delayed_foul_locks_out_from_the_players_own_press():
    g = stacked(DECK_A, DECK_B, handicap_ms=200)
    assert g.press(A, 1, T) == HELD  # 9d: nothing to match, a foul
    g.tick(T + 200)
    assert verdicts(g) == [(FOUL, A, 1, T)] and g.fouls == 1
    assert g.press(A, 0, T + 350) == HELD  # lands at T + 550, inside the lockout
    assert g.press(A, 0, T + 400) == HELD  # lands at T + 600, 400 ms after the foul
    g.tick(T + 600)
    assert [v[0] for v in verdicts(g)] == [LOCKED, COVERED]
    assert deck(g, A) == "8c"


def test_a_delayed_press_on_a_pile_collected_meanwhile_is_too_late():
    g = stacked("5c 9d Jh 2s 7c 8c 9c 10c", "5d Kc 3h 8s 4c 6c 8d Qh",
                stall_ms=100, handicap_ms=300)
    cards = all_cards(g)
    assert g.press(B, 4, T) == COVERED  # 4c on the 5d: the 5c is pending
    assert g.press(A, 1, T + 15) == HELD  # on the 9d, due at T + 315
    assert g.press(B, 0, T + 20) == COVERED  # 6c on the 5c: nothing matches
    assert g.phase == STALL
    g.tick(T + 120)  # collected and dealt again: 8c on pile 1 now matches B's 8d
    assert g.phase == PLAY and tops(g) == "7c 8c 9c 10c | 8d Qh 5d 4c"
    assert g.coverable(1)
    g.tick(T + 315)
    assert verdicts(g) == [(COLLISION, A, 1, 0)]  # A pressed the 9d, not this 8c
    assert tops(g) == "7c 8c 9c 10c | 8d Qh 5d 4c" and all_cards(g) == cards


def test_a_negative_handicap_holds_b_and_not_a():
    g = stacked(DECK_A, DECK_B, handicap_ms=-150)
    assert g.press(B, 4, T) == HELD
    assert g.press(A, 0, T + 100) == COVERED
    g.tick(T + 150)
    assert verdicts(g) == [(COVERED, B, 4, T)]  # 4 is still the 5d: B's cover lands
    assert tops(g) == "7c 9d Jh 2s | 4c Kc 3h 8s"


def test_presses_outside_play_are_ignored_and_not_held():
    g = Game(Rules(handicap_ms=100), seed=3)
    assert g.press(A, 0, T) == IGNORED  # not dealt yet
    g = stacked(DECK_A, DECK_B, handicap_ms=100)
    g.declare_draw(T)
    assert g.press(A, 0, T + 10) == IGNORED and verdicts(g) == []


def test_a_ninth_press_while_eight_are_held_is_ignored():
    g = stacked(DECK_A, DECK_B, handicap_ms=500)
    for i in range(8):
        assert g.press(A, 1 + i % 3, T + i) == HELD
    assert g.press(A, 0, T + 9) == IGNORED  # (the ninth: nothing is kept of it)
    g.tick(T + 600)
    assert len(verdicts(g)) == 8
    assert g.press(A, 0, T + 1100) == HELD  # room again


def test_a_reader_more_than_16_behind_loses_the_oldest_verdicts():
    g = stacked(DECK_A, DECK_B, handicap_ms=100, foul_lockout_ms=0)
    t = T
    for i in range(20):
        assert g.press(A, 1, t) == HELD
        t += 150
        g.tick(t)
    got = verdicts(g)
    assert len(got) == 16 and got[0][3] == 4 * 150 + T  # (the first four are gone)
    assert [v[0] for v in got] == [FOUL] * 16


def test_held_presses_land_right_across_the_clock_wrap():
    start = TICKS_PERIOD - 100
    g = stacked(DECK_A, DECK_B, now=start - 1000, handicap_ms=200)
    assert g.press(A, 0, start) == HELD
    assert g.next_timer() == (start + 200) % TICKS_PERIOD == 100
    g.tick(99)
    assert verdicts(g) == []
    g.tick(100)
    assert verdicts(g) == [(COVERED, A, 0, 1000)] and g.changed_at(0) == 100


def test_a_clock_that_goes_back_takes_the_held_presses_with_it():
    g = stacked(DECK_A, DECK_B, handicap_ms=200)
    g.press(A, 0, T)
    g.tick(T - 700)  # the clock went back 700 ms: no time passed
    assert g.next_timer() == T - 500
    g.tick(T - 500)
    assert [v[0] for v in verdicts(g)] == [COVERED]


def test_handicap_ms_outside_500_or_not_an_int_is_refused():
    for bad in (501, -501, 1.5, "100", None, True):
        e = raises(ValueError, Rules, handicap_ms=bad)
        assert str(e).startswith("handicap_ms"), str(e)
    assert Rules(handicap_ms=-500).handicap_ms == -500
    assert Rules(handicap_ms=500, handicap=8).values()[-2:] == (8, 500)


def test_a_match_with_a_time_handicap_replays_exactly_from_its_record():
    for ms in (180, -320):
        g = Game(Rules(handicap_ms=ms, handicap=2, wins_needed=2), seed=44)
        rec = Recorder(g, capacity=16384)
        t = T
        rec.start(t)
        held = 0
        while g.phase != MATCH_OVER and t < 900000:
            t += 23
            for p in range(g.piles):
                if g.coverable(p) or (t // 23) % 17 == 0:
                    held += rec.press((p + t // 23) % 2, p, t) == HELD
                    break
            rec.tick(t)
            if g.phase == GAME_OVER:
                rec.next_game(t + 700)
                t += 700
        assert g.phase == MATCH_OVER and held > 20 and not rec.full
        again = replay(rec.data())
        assert again.rules == g.rules and state(again) == state(g)


def test_bad_presses_are_invalid_and_never_held():
    g = stacked(DECK_A, DECK_B, handicap_ms=200)
    for player, pile, now in ((2, 0, T), (A, 8, T), (A, -1, T), (A, 0, -5), (A, 0, 1.0)):
        assert g.press(player, pile, now) == INVALID
    assert g.next_timer() == -1


# A press that lost a race by 50 ms: the other seat covered that pile at T, this press was
# made at T + 50, before anyone could have seen the new card. The collision window counts
# from when the press was made, held or not (docs/RULES.md, 6): TOO LATE, never a foul.
RACE_A = "5c 9d Jh 2s 7c 8c"  # A's row 5c 9d Jh 2s
RACE_B = "5d 9c 3h 8s 4c 9h 6c"  # B's row 5d 9c 3h 8s: the 5s and the 9s match


def test_a_press_that_lost_a_race_by_50_ms_is_too_late_without_a_handicap():
    g = stacked(RACE_A, RACE_B)
    assert g.press(B, 0, T) == COVERED  # B's 4c on A's 5c; the 9s still match
    assert g.press(A, 0, T + 50) == COLLISION  # TOO LATE, no lockout
    assert g.fouls == 0 and not g.locked(A, T + 50) and deck(g, A) == "7c 8c"


def test_a_held_press_that_lost_a_race_by_50_ms_is_too_late_not_a_foul():
    g = stacked(RACE_A, RACE_B, handicap_ms=200)
    assert g.press(B, 0, T) == COVERED  # the 4c A never saw: no match for it
    assert g.press(A, 0, T + 50) == HELD  # judged at T + 250, 250 ms after the change
    g.tick(T + 250)
    assert verdicts(g) == [(COLLISION, A, 0, 50)]
    assert g.fouls == 0 and not g.locked(A, T + 250) and deck(g, A) == "7c 8c"


def test_a_held_press_that_lost_a_race_does_not_cover_the_card_it_never_saw():
    g = stacked(RACE_A, "5d 9c 3h 8s 5h 6c", handicap_ms=200)
    assert g.press(B, 1, T) == COVERED  # B's 5h on the 9d: it matches the 5s
    assert g.press(A, 1, T + 50) == HELD  # A pressed for the 9d it saw
    g.tick(T + 250)
    assert verdicts(g) == [(COLLISION, A, 1, 50)]  # not a cover on the 5h
    assert tops(g) == "5c 5h Jh 2s | 5d 9c 3h 8s" and deck(g, A) == "7c 8c"


def test_a_held_press_on_b_that_lost_a_race_by_50_ms_is_too_late():
    g = stacked(RACE_B, RACE_A, handicap_ms=-200)  # B holds now; the decks change seats
    assert g.press(A, 4, T) == COVERED  # A's 4c on B's 5c
    assert g.press(B, 4, T + 50) == HELD
    g.tick(T + 250)
    assert verdicts(g) == [(COLLISION, B, 4, 50)]
    assert g.fouls == 0 and not g.locked(B, T + 250) and deck(g, B) == "7c 8c"


def test_a_held_press_made_collision_ms_after_the_change_is_judged():
    g = stacked(RACE_A, RACE_B, handicap_ms=200)
    assert g.press(B, 0, T) == COVERED  # the 4c
    assert g.press(A, 0, T + 150) == HELD  # made exactly 150 ms after: a foul, as unheld
    g.tick(T + 350)
    assert verdicts(g) == [(FOUL, A, 0, 150)] and g.locked(A, T + 700)
