# Guest script: the engine's memory figures inside a MicroPython or CircuitPython VM
# (the host puts `ROOT = ...`, the project as the VM sees it, before this text).
# Prints "FIGURE name value" lines; the host (tests and lab/bench.py) reads them.
# gc is disabled; gc.collect() only at module level (see run_suite.py).
import gc
import sys
import time

sys.path.insert(0, ROOT)  # noqa: F821 (set by the host: where the project is)
sys.path.insert(0, ROOT + "/tests/engine")  # noqa: F821
gc.disable()
gc.collect()
_m0 = gc.mem_alloc()
import engine  # noqa: E402
from engine.rng import Rng  # noqa: E402
from enginetest import random_steps  # noqa: E402
gc.collect()
print("FIGURE import_bytes", gc.mem_alloc() - _m0)

gc.collect()
_m0 = gc.mem_alloc()
_game = engine.Game(engine.Rules(), 1)
_game.start(0)
gc.collect()
print("FIGURE game_bytes", gc.mem_alloc() - _m0)

_counts = [0] * 9  # results of press/tick, by code
_phases = [0] * 6  # phases seen after each step
_T0 = (1 << 29) - 100000  # the clock wraps during the run


_rng = Rng(99)
_t = random_steps(_game, _rng, 2000, _T0, _counts, _phases)  # warm-up
_counts = [0] * 9
_phases = [0] * 6
_m0 = gc.mem_alloc()
_t = random_steps(_game, _rng, 10000, _t, _counts, _phases)
print("FIGURE steady_alloc_bytes", gc.mem_alloc() - _m0)
print("FIGURE steps", 10000)
print("COUNTS", " ".join([str(c) for c in _counts]))
print("PHASES", " ".join([str(c) for c in _phases]))

# The same with a time handicap: presses held, judged and read back.
_held = engine.Game(engine.Rules(handicap_ms=-120), 2)
_held.start(_T0)
_hc = [0] * 9
_t = random_steps(_held, _rng, 2000, _T0, _hc, [0] * 6)  # warm-up
_hc = [0] * 9
_verdicts = 0
_m0 = gc.mem_alloc()
for _ in range(50):
    _t = random_steps(_held, _rng, 200, _t, _hc, _phases)
    while _held.judged() >= 0:
        _verdicts += 1
print("FIGURE held_alloc_bytes", gc.mem_alloc() - _m0)
print("FIGURE held_verdicts", _verdicts)
print("HELDCOUNTS", " ".join([str(c) for c in _hc]))

# Naive baselines for the report: the same table as card objects in lists, and a
# coverable-pile scan that builds a list each time it looks.
class _Card:
    def __init__(self, rank, suit):
        self.rank = rank
        self.suit = suit


def _naive_table():
    cards = [_Card(c % 13, c // 13) for c in range(52)]
    decks = [cards[0:26], cards[26:52]]
    piles = [[decks[p // 4].pop(0)] for p in range(8)]
    return cards, decks, piles


def _naive_scans(piles, n):
    found = 0
    for _ in range(n):
        tops = [p[-1].rank for p in piles]
        found += len([i for i in range(8) if tops.count(tops[i]) > 1])
    return found


gc.collect()
_m0 = gc.mem_alloc()
_naive = _naive_table()
gc.collect()
print("FIGURE naive_table_bytes", gc.mem_alloc() - _m0)
_m0 = gc.mem_alloc()
_naive_scans(_naive[2], 1000)
print("FIGURE naive_scan_alloc_bytes_per_1000", gc.mem_alloc() - _m0)
_naive = None
gc.collect()

# Bots: whole bot-against-bot games through play_out (each a new match dealt in place).
from engine.bot import Bot, play_out  # noqa: E402


def _bot_rounds(g, a, b, n):
    """n games played out by bots a and b; returns the covers made."""
    covers = 0
    for _ in range(n):
        g.new_match(0)
        play_out(g, a, b)
        covers += g.covers
    return covers


_bg = engine.Game(engine.Rules(wins_needed=1, handicap_ms=150), 5)
_bg.start(0)
_ba = Bot(_bg, 0, 2, 11)
_bb = Bot(_bg, 1, 3, 12)
play_out(_bg, _ba, _bb)
_bot_rounds(_bg, _ba, _bb, 1)  # warm-up
gc.collect()
_m0 = gc.mem_alloc()
_bot_covers = _bot_rounds(_bg, _ba, _bb, 5)
print("FIGURE bot_alloc_bytes", gc.mem_alloc() - _m0)
print("FIGURE bot_games", 5)
print("FIGURE bot_covers", _bot_covers)

_us = time.ticks_us()
_presses = 0
for _seed in range(3):
    gc.collect()
    _g = engine.Game(engine.Rules(), _seed)
    _g.start(0)
    _c = [0] * 8
    random_steps(_g, Rng(_seed), 4000, 0, _c, [0] * 6)
    _presses += 4000
_us = time.ticks_diff(time.ticks_us(), _us)
print("FIGURE vm_steps_per_s", _presses * 1000000 // _us)
print("DONE")
