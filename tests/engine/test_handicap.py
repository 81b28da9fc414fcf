"""The handicap (docs/RULES.md, 10): the stronger seat is dealt more cards."""
from engine import Game, Rules, A, B, GAME_OVER, MATCH_OVER
from tools.record import Recorder, replay, parse
from enginetest import all_cards, state, raises, cards, stacked


def _dealt(handicap, seed=5, piles=4):
    g = Game(Rules(piles_per_row=piles, handicap=handicap), seed=seed)
    g.start(0)
    return g


def test_a_handicap_deals_the_stronger_seat_more_cards_and_keeps_all_52():
    for h in (-8, -6, -4, -2, 0, 2, 4, 6, 8):
        g = _dealt(h)
        a = g.deck_size(A) + 4
        b = g.deck_size(B) + 4
        assert (a, b) == (26 + h // 2, 26 - h // 2), (h, a, b)
        assert a - b == h
        assert all_cards(g) == list(range(52))


def _shuffled(g):
    """The 52 cards as they were shuffled: A's share (its piles, then its deck), then B's."""
    out = []
    for player in (A, B):
        out += [g.top(p) for p in range(player * 4, player * 4 + 4)]
        out += list(g.deck_cards(player))
    return out


def test_a_handicap_keeps_the_same_shuffle_and_moves_only_the_split():
    even = _dealt(0)
    more = _dealt(8)  # A+8: A is dealt 30, B 22
    assert _shuffled(more) == _shuffled(even)
    assert more.deck_size(A) == 26 and more.deck_size(B) == 18


def test_every_game_of_a_match_is_dealt_with_the_handicap():
    g = Game(Rules(handicap=-4, wins_needed=5), seed=3)
    g.start(0)
    assert (g.deck_size(A), g.deck_size(B)) == (20, 24)  # B+4: 24 to 28, 4 piles each
    g.declare_draw(1000)
    assert g.phase == GAME_OVER
    g.next_game(2000)
    assert (g.deck_size(A), g.deck_size(B)) == (20, 24)


def test_even_the_smallest_share_is_more_than_a_deal():
    g = _dealt(-8, piles=6)  # A is dealt 22 cards: 6 piles and 16 in hand
    assert g.deck_size(A) == 16 and g.piles == 12


def test_stacked_decks_are_dealt_as_given_whatever_the_handicap():
    g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c", handicap=8)
    assert g.deck_size(A) == 2 and g.deck_size(B) == 1


def test_a_handicap_that_is_odd_or_over_8_is_refused():
    for h in (1, -3, 10, -10, 7):
        e = raises(ValueError, Rules, handicap=h)
        assert str(e).startswith("handicap"), str(e)


def test_a_handicapped_match_replays_exactly_from_its_record():
    for h in (6, -8):
        g = Game(Rules(handicap=h), seed=21)
        rec = Recorder(g, capacity=8192)
        t = 0
        rec.start(t)
        while g.phase != MATCH_OVER and t < 600000:
            t += 37
            for p in range(g.piles):
                if g.coverable(p):
                    rec.press((p + t) % 2, p, t)
                    break
            rec.tick(t)
            if g.phase == GAME_OVER:
                rec.next_game(t + 500)
        assert g.phase == MATCH_OVER
        rules, _, _, _ = parse(rec.data())
        assert rules.handicap == h
        again = replay(rec.data())
        assert again.rules == g.rules and state(again) == state(g)


def test_an_agreed_draw_is_in_the_record():
    g = Game(Rules(), seed=8)
    rec = Recorder(g)
    rec.start(0)
    rec.declare_draw(700)
    assert g.phase == GAME_OVER
    again = replay(rec.data())
    assert state(again) == state(g) and again.game_result == g.game_result


def test_a_record_from_before_the_handicap_still_replays():
    g = Game.from_decks(cards("5c 9d Jh 2s 7c 8c"), cards("5d Kc 3h 8s 4c 6c"), Rules(), 9)
    rec = Recorder(g)
    rec.start(0)
    rec.press(A, 0, 1000)
    rec.press(B, 4, 1000)
    new = rec.data()
    assert new[:4] == b"CSr3"
    old = b"CSr1" + new[4:19] + new[22:]  # the 10 fields (15 bytes), no handicaps
    assert state(replay(old)) == state(g)
    assert parse(old)[0].handicap == 0 and parse(old)[0].handicap_ms == 0
    older = b"CSr2" + new[4:20] + new[22:]  # 11 fields: a handicap, no handicap_ms
    assert state(replay(older)) == state(g)
    assert parse(older)[0].handicap_ms == 0
