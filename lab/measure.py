"""Measurements of the app on the virtual handheld, shared by the tests and make bench."""
import os
import random
import tracemalloc

from tools.boardcode import ROOT as root


def _lists(app):
    """{id: len} of the lists in the app's state."""
    return {id(v): len(v) for o in _state(app) for v in vars(o).values() if isinstance(v, list)}


def _state(app):
    return (app, app.filter, app.filter.meaning, app.match, app.result, app.table, app.sound,
            app.stats, app.match.game, app.match.game._rng)


def _slot_ints(app, fixed):
    """The ints held in fixed slots: attributes, and lists that kept their object and
    length through the window (preallocated, not grown)."""
    found = {}
    for obj in _state(app):
        for value in vars(obj).values():
            if isinstance(value, list):
                items = value if fixed.get(id(value)) == len(value) else []
            else:
                items = [value]
            for v in items:
                if type(v) is int:
                    found[id(v)] = v
    return list(found.values())


def main_loop_allocation(hw, app, passes, keys):
    """Bytes still allocated by firmware/ and engine/ code after `passes` main-loop passes,
    less the boxed ints sitting in fixed state slots, with the traces left unexplained.

    CPython boxes every int above 256: a slot that held a small cached int before the
    window and a computed time after it shows as +32 bytes, though nothing grew (on the
    board those are immediate small ints). Each such int is found by its allocation
    traceback and accounted for; anything else retained is a real allocation. Traces
    whose stack runs through the virtual hardware (which calls engine.ticks for its own
    bookkeeping) belong to the twin, not to the app.
    """
    ours = [tracemalloc.Filter(True, os.path.join(root, d, "*")) for d in ("firmware", "engine")]
    ours.append(tracemalloc.Filter(False, os.path.join(root, "twins", "*"),
                                   all_frames=True))
    tracemalloc.start(25)
    try:
        for i in range(passes):  # warm-up
            app.step()
        before = tracemalloc.take_snapshot().filter_traces(ours)
        fixed = _lists(app)
        for i in range(passes):
            if keys and i % 7 == 0:
                hw.buttons.tap((i // 7) % 16, hw.clock.now, 20)
            app.step()
        after = tracemalloc.take_snapshot().filter_traces(ours)
        in_slots = {}
        for v in _slot_ints(app, fixed):
            tb = tracemalloc.get_object_traceback(v)
            if tb is not None:
                frame = tb[-1] if tb[-1].filename.startswith(root) else tb[0]
                key = (frame.filename, frame.lineno)
                in_slots[key] = in_slots.get(key, 0) + 1
    finally:
        tracemalloc.stop()
    net, unexplained = 0, []
    for d in after.compare_to(before, "lineno"):
        frame = d.traceback[0]
        slots = min(max(d.count_diff, 0), in_slots.get((frame.filename, frame.lineno), 0))
        rest = d.size_diff - slots * 32
        net += rest
        if rest > 0:
            unexplained.append(str(d))
    return net, unexplained


def key_latency(interval_ms, presses=200, seed=3):
    """(mean, max) ms from a button's contact closing to the main-loop pass that hands the
    press to the engine, in a match, with the scanner at interval_ms."""
    from engine import Rules
    from firmware.app import App
    from twins.desktop import virtual
    hw = virtual.init(seed=1, settings={"CS_KEY_INTERVAL_MS": interval_ms})
    app = App(hw, Rules(foul_lockout_ms=0))
    app.start_match(-1)
    from hardware.keymap import DEBOUNCE_SCANS
    hold = interval_ms * (DEBOUNCE_SCANS + 1) + 20  # long enough to pass the debounce
    r = random.Random(seed)
    latencies = []
    t = hw.elapsed + 500
    for _ in range(presses):
        t += r.randint(120, 400) + hold
        hw.buttons.tap(r.choice((0, 1, 2, 3, 8, 9, 10, 11)), hw.ms(t), hold)
        while hw.elapsed < t + 1000:
            start = hw.elapsed
            before = app.filter.presses
            app.step()
            if app.filter.presses > before:
                latencies.append(start - t)
                break
        else:
            raise RuntimeError("a %d ms press at %d ms was never handled" % (hold, t))
    return sum(latencies) / len(latencies), max(latencies)
