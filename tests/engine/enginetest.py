"""Helpers for the engine suite; plain Python so the suite also runs in MicroPython."""
from engine import Game, Rules
from tools.cards import parse_card, rank, suit

_R = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def cards(text):
    """Card ids from text like '5c 10d Kh', top card first."""
    return [parse_card(t) for t in text.split()]


def short(card):
    """'5c', '10d': the ascii name of a card, '-' for none."""
    if card < 0:
        return "-"
    return _R[rank(card)] + "cdhs"[suit(card)]


def stacked(deck_a, deck_b, now=0, seed=0, **rules):
    """A game dealt from stacked decks written as text, top card first."""
    g = Game.from_decks(cards(deck_a), cards(deck_b), Rules(**rules), seed)
    g.start(now)
    return g


def tops(g):
    """The top cards as text: A's row, then B's row, each from its owner's left."""
    n = g.piles // 2
    a = " ".join([short(g.top(p)) for p in range(n)])
    b = " ".join([short(g.top(p)) for p in range(n, 2 * n)])
    return a + " | " + b


def deck(g, player):
    """A player's deck as text, top card first."""
    return " ".join([short(c) for c in g.deck_cards(player)])


def cover_set(g):
    """The coverable piles, as a list of pile numbers."""
    return [p for p in range(g.piles) if g.coverable(p)]


def state(g):
    """Everything a player or a tool can observe of a game, for comparisons."""
    return (g.phase, g.game_result, g.match_winner, g.wins, g.coverable_mask,
            tuple([g.pile_cards(p) for p in range(g.piles)]),
            g.deck_cards(0), g.deck_cards(1),
            tuple([g.pending(p) for p in range(g.piles)]),
            tuple([g.changed_at(p) for p in range(g.piles)]),
            g.covers, g.fouls, g.stalls, g.dead_deals, g.games)


def raises(exc, fn, *args, **kwargs):
    """Call fn and return the exception of type exc that it raised; fail if none."""
    try:
        fn(*args, **kwargs)
    except exc as e:
        return e
    raise AssertionError("%s not raised" % exc.__name__)


def all_cards(g):
    """Every card on the table and in the decks, sorted."""
    out = list(g.deck_cards(0)) + list(g.deck_cards(1))
    for p in range(g.piles):
        out += list(g.pile_cards(p))
    return sorted(out)


def random_steps(g, r, n, t, counts, phases):
    """n random presses and ticks from Rng r, allocation-free; returns the last time.

    About 40% of steps press a coverable pile, 30% a random one, 30% tick. Results are
    counted in counts[result], phases seen in phases[phase]. Ends of games and matches
    start the next one, so a long run crosses every transition.
    """
    piles = g.piles
    for _ in range(n):
        t = (t + r.below(40)) & 0x1FFFFFFF
        k = r.below(10)
        if k < 7:
            pile = r.below(piles)
            if k < 4:
                for p in range(piles):
                    if g.coverable(p):
                        pile = p
                        break
            counts[g.press(r.below(2), pile, t)] += 1
        else:
            counts[g.tick(t)] += 1
        phase = g.phase
        phases[phase] += 1
        if phase == 4:
            counts[g.next_game(t)] += 1
        elif phase == 5:
            g.new_match(t)
    return t
