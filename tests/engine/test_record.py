"""The game record: timed inputs in, the same game out."""
from engine import Game, Rules, A, B, GAME_OVER, MATCH_OVER
from tools.record import Recorder, replay, parse
from engine.rng import Rng
from enginetest import state, cards, raises


def _play(rec, steps, seed):
    r = Rng(seed)
    t = 5
    rec.start(t)
    for _ in range(steps):
        t += r.below(90)
        g = rec.game
        pile = r.below(g.piles)
        if r.below(3):
            for p in range(g.piles):
                if g.coverable(p):
                    pile = p
                    break
        rec.press(r.below(2), pile, t)
        if r.below(4) == 0:
            rec.tick(t)
        if g.phase == GAME_OVER:
            rec.next_game(t + 500)
        elif g.phase == MATCH_OVER:
            rec.new_match(t + 500)
    return t


def test_a_record_replays_the_same_game():
    for seed in (1, 2, 3):
        g = Game(Rules(), seed=seed * 17)
        rec = Recorder(g, capacity=8192)
        _play(rec, 600, seed)
        assert not rec.full
        assert state(replay(rec.data())) == state(g)


def test_a_record_of_stacked_decks_replays():
    g = Game.from_decks(cards("5c 9d Jh 2s 7c 8c"), cards("5d Kc 3h 8s 4c 6c"), Rules(), 9)
    rec = Recorder(g)
    rec.start(0)
    rec.press(A, 0, 1000)
    rec.press(B, 4, 1000)
    assert state(replay(rec.data())) == state(g)


def test_a_record_is_compact():
    g = Game(Rules(), seed=4)
    rec = Recorder(g, capacity=8192)
    _play(rec, 500, 4)
    assert len(rec.data()) < 30 + 3 * 640


def test_a_full_record_stops_cleanly_and_says_so():
    g = Game(Rules(), seed=4)
    rec = Recorder(g, capacity=64)
    _play(rec, 200, 4)
    assert rec.full and len(rec.data()) <= 64
    rules, seed, stacked, events = parse(rec.data())
    assert seed == 4 and rules == Rules() and stacked is None and len(events) > 5


def test_the_recorder_must_start_before_the_game():
    g = Game(Rules(), seed=4)
    g.start(0)
    assert str(raises(ValueError, Recorder, g)).startswith("game")


def test_a_record_replays_a_jump_of_half_the_clock_after_an_idle_tick():
    # The tick at 481 changes nothing, so it is not recorded; the game's time is that of
    # its last change, so the press 2**28 ms later means the same thing on replay.
    for stall_ms in (0, 1000):
        g = Game(Rules(piles_per_row=3, stall_ms=stall_ms), 0)
        rec = Recorder(g)
        rec.start(0)
        rec.tick(481)
        rec.press(A, 0, 1 << 28)
        rec.tick((1 << 28) + 5000)
        assert state(replay(rec.data())) == state(g)
