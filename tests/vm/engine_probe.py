# Guest script: the engine's memory figures inside the MicroPython VM.
# Prints "FIGURE name value" lines; the host (tests and tools/bench.py) reads them.
# gc is disabled; gc.collect() only at module level (see run_suite.py).
import gc
import sys
import time

sys.path.insert(0, "/input")
sys.path.insert(0, "/input/tests/engine")
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

_counts = [0] * 8  # results of press/tick, by code
_phases = [0] * 6  # phases seen after each step
_T0 = (1 << 29) - 100000  # the clock wraps during the run


_rng = Rng(99)
_t = random_steps(_game, _rng, 2000, _T0, _counts, _phases)  # warm-up
_counts = [0] * 8
_phases = [0] * 6
_m0 = gc.mem_alloc()
_t = random_steps(_game, _rng, 10000, _t, _counts, _phases)
print("FIGURE steady_alloc_bytes", gc.mem_alloc() - _m0)
print("FIGURE steps", 10000)
print("COUNTS", " ".join([str(c) for c in _counts]))
print("PHASES", " ".join([str(c) for c in _phases]))

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
