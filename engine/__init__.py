"""California Speed engine: the rules as pure logic (no I/O, no clock, no hardware).

    from engine import Game, Rules, A, B
    g = Game(Rules(), seed=7); g.start(now); g.press(A, pile, now); g.tick(now)

Runs unchanged on CPython, MicroPython and CircuitPython; docs/RULES.md has the rules.
Card names and parsing (tools/cards.py) and the match record (tools/record.py) are
desktop helpers, beside the tools that use them.
"""
from .rules import (Rules, A, B, DRAW, RANK, SUIT, RANK_OR_SUIT,
                    DEADLOCK_DRAW, DEADLOCK_FEWER)
from .game import (Game, READY, PLAY, STALL, FINISH, GAME_OVER, MATCH_OVER,
                   IGNORED, COVERED, FOUL, COLLISION, LOCKED, INVALID, DEALT, ENDED, HELD)
from .ticks import TICKS_PERIOD
