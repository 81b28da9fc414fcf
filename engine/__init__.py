"""California Speed engine: the rules as pure logic (no I/O, no clock, no hardware).

    from engine import Game, Rules, A, B
    g = Game(Rules(), seed=7); g.start(now); g.press(A, pile, now); g.tick(now)

Runs unchanged on CPython, MicroPython and CircuitPython; docs/RULES.md has the rules.
The card helpers (rank, suit, card_name, parse_card: engine/cards.py) and the match
record (engine/record.py) are desktop tools: they are imported only when asked for, and
deploy leaves them off the board.
"""
from .rules import (Rules, A, B, DRAW, RANK, SUIT, RANK_OR_SUIT,
                    DEADLOCK_DRAW, DEADLOCK_FEWER)
from .game import (Game, READY, PLAY, STALL, FINISH, GAME_OVER, MATCH_OVER,
                   IGNORED, COVERED, FOUL, COLLISION, LOCKED, INVALID, DEALT, ENDED, HELD)
from .ticks import TICKS_PERIOD

if False:  # for mypy: the names __getattr__ gives (the compiler drops this block)
    from .cards import rank, suit, card_name, parse_card  # noqa: F401


def __getattr__(name: str) -> object:
    """engine.rank, suit, card_name and parse_card, from engine/cards.py on first use."""
    if name in ("rank", "suit", "card_name", "parse_card"):
        from .cards import rank, suit, card_name, parse_card
        return {"rank": rank, "suit": suit, "card_name": card_name,
                "parse_card": parse_card}[name]
    raise AttributeError("module 'engine' has no attribute %r" % (name,))
