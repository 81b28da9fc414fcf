"""How often the table waits on a pending pile alone: a pair half covered, its other pile
the only one that can be covered, nothing else matching. A new player who does not know
the pending rule sees a table with no pair and waits; HINTS marks that pile.

    .venv/bin/python -m lab.pending [--games 200] [--level 0]

Two computer players of one level play games with the standard rules; the figure is the
share of games in which the situation comes up, and how often, and how often it lasts a
second or more (the computer follows up its own pairs at once; a person may not).
"""
import sys

from engine import GAME_OVER, PLAY, Game, Rules
from engine.bot import LEVELS, Bot
from tools.cli import Parser, bounded

_STEP_MS = 10  # the clock's step: finer than any reaction the levels have
_LIMIT_MS = 3600000  # a game still going after an hour is left


def pending_alone(games, level, seed=0):
    """(games in which a pending pile was alone coverable, times it came up, times it
    lasted 1 s or more) over games of two bots at level."""
    met = times = long = 0
    for n in range(games):
        g = Game(Rules(), seed=seed + n)
        g.start(0)
        bots = (Bot(g, 0, level, 2 * (seed + n) + 1), Bot(g, 1, level, 2 * (seed + n) + 2))
        now, since, seen = 0, -1, 0
        while g.phase < GAME_OVER and now < _LIMIT_MS:
            for bot in bots:
                bot.update(now)
            mask = g.coverable_mask
            if g.phase == PLAY and mask and mask == g.pending_mask:
                if since < 0:
                    since = now
                    seen += 1
                if now - since == 1000:
                    long += 1
            else:
                since = -1
            now += _STEP_MS
            g.tick(now)
        met += seen > 0
        times += seen
    return met, times, long


def main(argv=None):
    ap = Parser(prog="python -m lab.pending", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=bounded(1, 100000), default=200,
                    help="games played (default 200)")
    ap.add_argument("--level", type=bounded(0, len(LEVELS) - 1), default=0,
                    help="both players' level, 0 ROOKIE .. %d (default 0)" % (len(LEVELS) - 1))
    args = ap.parse_args(argv)
    met, times, long = pending_alone(args.games, args.level)
    print("%s against %s, %d games: a pending pile alone coverable in %d games (%.0f%%), "
          "%.1f times a game; lasting 1 s or more %d times"
          % (LEVELS[args.level][0], LEVELS[args.level][0], args.games, met,
             100.0 * met / args.games, times / args.games, long))
    return 0


if __name__ == "__main__":
    sys.exit(main())
