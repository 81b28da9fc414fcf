"""California Speed engine: the rules as pure logic (no I/O, no clock, no hardware).

    from engine import Game, Rules, A, B
    g = Game(Rules(), seed=7); g.start(now); g.press(A, pile, now); g.tick(now)

Runs unchanged on CPython, MicroPython and CircuitPython; see DESIGN.md for the API.
"""
from .rules import (Rules, A, B, DRAW, RANK, SUIT, RANK_OR_SUIT,
                    DEADLOCK_DRAW, DEADLOCK_FEWER)
from .game import (Game, READY, PLAY, STALL, FINISH, GAME_OVER, MATCH_OVER,
                   IGNORED, COVERED, FOUL, COLLISION, LOCKED, INVALID, DEALT, ENDED)
from .cards import rank, suit, card_name, parse_card
from .ticks import TICKS_PERIOD
