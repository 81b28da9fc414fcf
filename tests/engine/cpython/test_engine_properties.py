"""Property tests: random press/tick streams, including invalid input, against the engine."""
from hypothesis import event, given, settings, strategies as st, HealthCheck

import engine
from engine import Game, Rules, INVALID, TICKS_PERIOD
from tools.record import Recorder, replay

from enginetest import state, all_cards  # tests/engine (tests/conftest.py)

rules_st = st.builds(
    Rules,
    piles_per_row=st.integers(3, 6),
    match_by=st.sampled_from([engine.RANK, engine.SUIT, engine.RANK_OR_SUIT]),
    doubles=st.booleans(),
    wins_needed=st.integers(1, 5),
    foul_lockout_ms=st.sampled_from([0, 50, 400]),
    collision_ms=st.sampled_from([0, 20, 150]),
    tie_window_ms=st.sampled_from([0, 10, 200]),
    stall_ms=st.sampled_from([0, 30, 1000]),
    dead_deal_limit=st.integers(1, 12),
    deadlock=st.sampled_from([engine.DEADLOCK_DRAW, engine.DEADLOCK_FEWER]),
    handicap=st.sampled_from([0, 4, -8]),
    handicap_ms=st.sampled_from([0, 0, 40, -150, 500, -500]),  # presses HELD, either seat
)

bad_value = st.sampled_from([-1, 2, 99, None, "1", 1.0, True, TICKS_PERIOD, -(2 ** 40)])
smart_st = st.tuples(st.just("smart"), st.integers(0, 1), st.just(0), st.integers(0, 400))
step_st = st.one_of(
    # (kind, player, pile, dt): dt may be negative (a late event) or push past the wrap.
    st.tuples(st.just("press"), st.integers(0, 1), st.integers(0, 11), st.integers(-20, 400)),
    smart_st, smart_st, smart_st, smart_st,
    st.tuples(st.just("tick"), st.just(0), st.just(0), st.integers(0, 3000)),
    # the clock going back by any amount, or jumping far on (any clock is taken)
    st.tuples(st.sampled_from(["press", "tick"]), st.integers(0, 1), st.integers(0, 11),
              st.integers(-TICKS_PERIOD + 1, TICKS_PERIOD - 1)),
    st.tuples(st.just("tick"), st.just(0), st.just(0), st.integers(1 << 24, 1 << 27)),
    st.tuples(st.just("bad"), bad_value, bad_value, bad_value),
    st.tuples(st.just("next"), st.just(0), st.just(0), st.integers(0, 100)),
)
start_st = st.one_of(st.integers(0, 1000), st.integers(TICKS_PERIOD - 5000, TICKS_PERIOD - 1))


def _run(rules, seed, t, steps, recorder=False):
    """Apply the steps; return (game, results, record bytes or None), checking invariants."""
    g = Game(rules, seed)
    target = Recorder(g, capacity=64 * 1024) if recorder else g
    results = [target.start(t)]
    for kind, player, pile, dt in steps:
        if kind == "bad":
            before = state(g)
            r = target.press(player, pile, dt)
            if r == INVALID:
                assert state(g) == before
            results.append(r)
            continue
        t = (t + dt) % TICKS_PERIOD
        if kind == "press":
            results.append(target.press(player, pile, t))
        elif kind == "smart":
            for p in range(g.piles):
                if g.coverable(p):
                    pile = p
            results.append(target.press(player, pile, t))
        elif kind == "tick":
            results.append(target.tick(t))
        elif kind == "next":
            results.append(target.next_game(t) if g.phase != engine.MATCH_OVER
                           else target.new_match(t))
        _check(g)
    return g, results, (target.data() if recorder else None)


def _check(g):
    assert all_cards(g) == list(range(52))
    assert 0 <= g.phase <= engine.MATCH_OVER
    for p in range(g.piles):
        assert len(g.pile_cards(p)) >= 1
    for value in vars(g).values():
        items = value if isinstance(value, (list, bytearray, bytes)) else [value]
        for v in items:
            if isinstance(v, int):
                assert -(2 ** 30) <= v < 2 ** 30, "long int on the board: %r" % v


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_st, st.integers(0, 2 ** 30 - 1), start_st, st.lists(step_st, min_size=50, max_size=600))
def test_random_streams_keep_52_distinct_cards_and_never_raise(rules, seed, t, steps):
    g, results, _ = _run(rules, seed, t, steps)
    event("covers: %s" % ("0" if not g.covers else "1-9" if g.covers < 10 else "10+"))
    event("games dealt: %s" % min(g.games, 3))


@settings(max_examples=60, deadline=None)
@given(rules_st, st.integers(0, 2 ** 30 - 1), start_st, st.lists(step_st, min_size=50, max_size=600))
def test_same_seed_and_inputs_give_the_same_game(rules, seed, t, steps):
    g1, r1, _ = _run(rules, seed, t, steps)
    g2, r2, _ = _run(rules, seed, t, steps)
    assert r1 == r2 and state(g1) == state(g2)


@settings(max_examples=60, deadline=None)
@given(rules_st, st.integers(0, 2 ** 30 - 1), start_st, st.lists(step_st, min_size=50, max_size=600))
def test_record_then_replay_gives_the_same_state(rules, seed, t, steps):
    g, _, data = _run(rules, seed, t, steps, recorder=True)
    assert state(replay(data)) == state(g)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 30 - 1), st.lists(st.integers(0, 11), max_size=40))
def test_stacked_deals_follow_the_decks(seed, order):
    # Any split of a shuffled deck into two stacked decks deals exactly those cards.
    from engine.rng import Rng
    cards = list(range(52))
    r = Rng(seed)
    for i in range(51, 0, -1):
        j = r.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    cut = 5 + seed % 42
    g = Game.from_decks(cards[:cut], cards[cut:], Rules(), seed)
    g.start(0)
    assert [g.top(p) for p in range(4)] == cards[:4]
    assert [g.top(p) for p in range(4, 8)] == cards[cut:cut + 4]
    assert list(g.deck_cards(0)) == cards[4:cut]
