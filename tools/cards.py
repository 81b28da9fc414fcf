"""Cards are ints 0..51: suit = card // 13 (clubs, diamonds, hearts, spades), rank = card % 13."""

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_NAMES = ("\u2663", "\u2666", "\u2665", "\u2660")  # clubs, diamonds, hearts, spades
SUIT_LETTERS = "cdhs"


def rank(card: int) -> int:
    """0 = A, 1 = 2, ..., 9 = 10, 10 = J, 11 = Q, 12 = K."""
    return card % 13


def suit(card: int) -> int:
    """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card // 13


def card_name(card: object) -> str:
    """'10\u2666', 'A\u2663'; '?' for anything that is not a card id."""
    if type(card) is not int or card < 0 or card > 51:
        return "?"
    return RANK_NAMES[card % 13] + SUIT_NAMES[card // 13]


def parse_card(text: str) -> int:
    """The card id for '10d', 'Ah', 'tc' or '10\u2666'; ValueError for anything else."""
    t = text.strip()
    r = t[:-1].upper().replace("T", "10")
    s = SUIT_LETTERS.find(t[-1:].lower()) if t[-1:] not in SUIT_NAMES else SUIT_NAMES.index(t[-1])
    if r not in RANK_NAMES or s < 0:
        raise ValueError("card: %r is not a card (like 10d, Ah or Ks)" % (text,))
    return s * 13 + RANK_NAMES.index(r)
