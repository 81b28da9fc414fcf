"""docs/RULES.md sections 1-3: cards, layout, shuffle and deal."""
from engine import Game, Rules, A, B, PLAY, READY
from tools.cards import card_name, rank, suit, parse_card
from enginetest import stacked, tops, deck, cover_set, all_cards, state, cards


def test_card_ids_rank_and_suit():
    assert rank(0) == 0 and suit(0) == 0
    assert rank(22) == 9 and suit(22) == 1
    assert card_name(22) == "10\u2666"
    assert card_name(13 * 3 + 12) == "K\u2660"
    assert parse_card("10d") == 22 and parse_card("Tc") == 9 and parse_card("A\u2663") == 0
    assert card_name(52) == "?" and card_name(-1) == "?"


def test_nothing_dealt_before_start():
    g = Game(Rules(), seed=3)
    assert g.phase == READY
    assert g.top(0) == -1 and g.deck_size(A) == 0


def test_shuffle_gives_each_player_26_and_deals_n_piles_each():
    g = Game(Rules(), seed=11)
    g.start(0)
    assert g.piles == 8
    assert g.deck_size(A) == 22 and g.deck_size(B) == 22
    assert all_cards(g) == list(range(52))


def test_deal_lays_each_players_top_cards_from_their_own_left():
    g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c")
    assert tops(g) == "5c 9d Jh 2s | 5d Kc 3h 8s"
    assert g.top(4) == parse_card("5d")  # B's first card on B's own pile 0 (pile N)
    assert deck(g, A) == "7c 8c" and deck(g, B) == "4c 6c"
    assert g.phase == PLAY


def test_piles_are_dealt_as_single_face_up_cards():
    g = stacked("5c 9d Jh 2s 7c", "5d Kc 3h 8s 4c")
    for p in range(8):
        assert len(g.pile_cards(p)) == 1


def test_same_seed_same_deal_and_known_deal_on_every_interpreter():
    g = Game(Rules(), seed=7)
    g.start(0)
    h = Game(Rules(), seed=7)
    h.start(0)
    assert g.deck_cards(A) == h.deck_cards(A) and tops(g) == tops(h)
    # Pinned: the same deal must come out of CPython, MicroPython and CircuitPython.
    assert tops(g) == "10h 7d 5h 3s | 8c Jd 9s 6d"
    assert deck(g, A).startswith("4c 3d 4h 8s 6h 2h")
    assert deck(g, B).startswith("Kc Qd 5c 5s Js 3c")


def test_different_seeds_deal_differently():
    seen = []
    for seed in range(5):
        g = Game(Rules(), seed=seed)
        g.start(0)
        seen.append(g.deck_cards(A))
    assert len(set(seen)) == 5


def test_coverable_is_a_match_of_equal_ranks_across_rows():
    g = stacked("5c 9d Jh 2s 7c", "5d Kc 3h 8s 4c")
    assert cover_set(g) == [0, 4]


def test_three_equal_ranks_make_three_coverable_piles():
    g = stacked("5c 5h Jh 2s 7c", "5d Kc 3h 8s 4c")
    assert cover_set(g) == [0, 1, 4]


def test_a_reset_game_is_a_new_game_in_the_same_buffers():
    from engine import RANK_OR_SUIT
    g = Game(Rules(), seed=7)
    g.start(0)
    for t in range(100, 3000, 50):
        for p in range(g.piles):
            if g.coverable(p):
                g.press(t % 2, p, t)
        g.tick(t)
    buffers = (g._piles, g._decks, g._keys)
    for rules, seed in ((Rules(piles_per_row=3, match_by=RANK_OR_SUIT, handicap=-4), 99),
                        (Rules(), 7)):
        g.reset(rules, seed)
        fresh = Game(rules, seed)
        assert g.phase == READY and state(g) == state(fresh) and g.rules is rules
        g.start(5)
        fresh.start(5)
        assert state(g) == state(fresh) and g._keys == fresh._keys
        assert (g._piles, g._decks, g._keys) == buffers
        assert all(a is b for a, b in zip((g._piles, g._decks, g._keys), buffers))


def test_a_reset_game_stacked_deals_as_a_game_from_the_same_decks():
    a, b = cards("5c 9d Jh 2s 7c 8c"), cards("5d Kc 3h 8s 4c 6c")
    g = Game(Rules(), seed=3)
    g.start(0)
    g.reset(Rules(piles_per_row=4), 5)
    g.stack(a, b)
    fresh = Game.from_decks(a, b, Rules(piles_per_row=4), 5)
    g.start(10)
    fresh.start(10)
    assert state(g) == state(fresh) and g.deck_cards(A) == fresh.deck_cards(A)
    g.reset(Rules(piles_per_row=4), 5)  # a reset forgets the stacked decks
    g.start(10)
    assert g.deck_cards(A) != fresh.deck_cards(A)
