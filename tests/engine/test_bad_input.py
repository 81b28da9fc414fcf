"""Bad input: INVALID from press/tick, ValueError naming the field from constructors."""
from engine import Game, Rules, A, B, INVALID, TICKS_PERIOD
from tools.record import replay
from enginetest import stacked, state, raises, cards

T = 1000


def test_presses_naming_no_player_pile_or_time_are_invalid_and_change_nothing():
    g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c")
    before = state(g)
    bad = [(2, 0, T), (-1, 0, T), (True, 0, T), (None, 0, T), (A, 8, T), (A, -1, T),
           (A, "0", T), (A, 0, -1), (A, 0, TICKS_PERIOD), (A, 0, 1.5), (A, 0, None),
           (B, 0.0, T)]
    for player, pile, now in bad:
        assert g.press(player, pile, now) == INVALID
    assert state(g) == before


def test_ticks_with_a_time_that_is_not_a_ticks_value_are_invalid():
    g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c")
    before = state(g)
    for now in (-5, TICKS_PERIOD, "1", 2.0, None):
        assert g.tick(now) == INVALID
        assert g.start(now) == INVALID and g.next_game(now) == INVALID
    assert state(g) == before


def test_bad_rules_name_the_field():
    bad = [("piles_per_row", 2), ("piles_per_row", 7), ("match_by", 3), ("doubles", 1),
           ("wins_needed", 0), ("wins_needed", 6), ("foul_lockout_ms", -1),
           ("collision_ms", 60001), ("tie_window_ms", "10"), ("stall_ms", 1.0),
           ("dead_deal_limit", 0), ("deadlock", 2), ("piles_per_row", True),
           ("handicap", 9), ("handicap", -10), ("handicap", 3)]
    for field, value in bad:
        kwargs = {field: value}
        e = raises(ValueError, Rules, **kwargs)
        assert str(e).startswith(field), str(e)


def test_bad_seed_or_rules_name_the_field():
    assert str(raises(ValueError, Game, Rules(), -1)).startswith("seed")
    assert str(raises(ValueError, Game, Rules(), 1 << 30)).startswith("seed")
    assert str(raises(ValueError, Game, "rules", 1)).startswith("rules")


def test_bad_stacked_decks_name_the_deck():
    ok = cards("5d Kc 3h 8s 4c")
    assert str(raises(ValueError, Game.from_decks, cards("5c 9d Jh 2s"), ok)).startswith("deck_a")
    assert str(raises(ValueError, Game.from_decks, ok, [0, 1, 2, 3, 52])).startswith("deck_b")
    assert str(raises(ValueError, Game.from_decks, cards("5c 9d Jh 2s 5d"), ok)).startswith("deck_b")
    assert str(raises(ValueError, Game.from_decks, [0, 1, 2, 2, 4], ok)).startswith("deck_a")
    assert str(raises(ValueError, Game.from_decks, 5, ok)).startswith("deck_a")
    assert str(raises(ValueError, Game.from_decks, [0, 1, 2, "3", 4], ok)).startswith("deck_a")


def test_reading_a_pile_or_player_that_does_not_exist_is_harmless():
    g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c")
    assert g.top(8) == -1 and g.top("x") == -1 and g.pile_cards(-1) == b""
    assert g.deck_size(2) == 0 and g.deck_cards(7) == b""
    assert not g.coverable(99) and not g.pending(-3) and not g.locked(5, T)


def test_a_corrupt_record_raises_value_error():
    for data in (b"", b"XXXX", b"CSr1\x04", b"CSr1" + bytes(30) + b"\x99"):
        e = raises(ValueError, replay, data)
        assert str(e).startswith("record") or str(e).startswith("piles_per_row"), str(e)
