"""make bench: the project's measured figures, each next to its target.

Memory and size figures are deterministic counters (MicroPython VM heap, mpy-cross
sizes); speeds are wall-clock and only reported, never asserted.
"""
import argparse
import os
import sys
import time

from tools import mpvm, mpy

ROOT = mpvm.ROOT
sys.path.insert(0, os.path.join(ROOT, "tests", "engine"))


def engine_vm_figures():
    """Heap and allocation figures of the engine inside the MicroPython VM."""
    r = mpvm.run_file("tests/vm/engine_probe.py")
    if not (r.ok and r.lines("DONE")):
        raise RuntimeError("the VM probe failed: %s" % (r.error or r.output[-500:]))
    return {k: int(v) for k, v in r.lines("FIGURE")}


def cpython_steps_per_s(steps=60000):
    """Random presses and ticks per second through the engine on CPython."""
    from engine import Game, Rules
    from engine.rng import Rng
    from enginetest import random_steps
    g = Game(Rules(), 1)
    g.start(0)
    t0 = time.perf_counter()
    random_steps(g, Rng(2), steps, 0, [0] * 8, [0] * 6)
    return int(steps / (time.perf_counter() - t0))


def engine_section():
    vm = engine_vm_figures()
    sizes = mpy.sizes(("engine",))
    total = sum(sizes.values())
    rows = [
        ("Game after start(), heap (VM)", "%d B" % vm["game_bytes"], "<= 4096 B"),
        ("allocated over 10,000 presses/ticks (VM, gc off)",
         "%d B" % vm["steady_alloc_bytes"], "0 B"),
        ("engine import, heap (VM, from .py)", "%d B" % vm["import_bytes"], "report"),
        ("engine .mpy total", "%d B" % total, "<= 12288 B"),
        ("presses+ticks per second, CPython", "{:,}".format(cpython_steps_per_s()), "report"),
        ("presses+ticks per second, MicroPython VM", "{:,}".format(vm["vm_steps_per_s"]),
         "report"),
    ]
    detail = ", ".join("%s %d" % (os.path.basename(k), v) for k, v in sorted(sizes.items()))
    return ("Engine", rows, "mpy sizes: " + detail, ("figure", "measured", "target"))


# (what changed, scene, time of the key press or timer in that scene)
DISPLAY_EVENTS = (
    ("cover (pile + deck counter)", "cover", 700),
    ("foul (lockout message)", "foul", 700),
    ("collision (too late message)", "collision", 750),
    ("stall (no match message, both lines)", "stall", 900),
    ("collect and redeal (both rows)", "redeal", 1900),
    ("game over (both banners)", "game_over", 700),
    ("screen switch (full frame)", "deal", 400),
)


def display_section():
    """I2C bytes per kind of screen change, from the scenes, next to a full-frame refresh."""
    from tools import scenes
    full = scenes.event_span("deal", 400)
    rows = []
    for label, scene, ms in DISPLAY_EVENTS:
        span = scenes.event_span(scene, ms)
        times = " / ".join("%.2f" % (span.seconds(hz) * 1000) for hz in (100000, 400000, 1000000))
        rows.append((label, "%d B" % span.bytes_sent, times, "%d B" % full.bytes_sent))
    return ("Display bus (SSD1306 over I2C)", rows,
            "Measured on the virtual handheld: the real displayio and SSD1306 driver, bytes "
            "counted on the virtual bus (address bytes included). Bus time: 9 clocks a byte "
            "plus START/STOP. Naive baseline: a full-frame refresh per change, as a "
            "framebuffer driver sends. Target for a cover: <= 160 B.",
            ("change", "bytes", "bus ms at 100k / 400k / 1M", "full-frame baseline"))


SECTIONS = (engine_section, display_section)


def render(sections):
    out = ["# California Speed: measured figures", "",
           "Made by `make bench` (`python -m tools.bench`) on %s." % time.strftime("%Y-%m-%d"),
           "Memory and sizes are exact counters; speeds vary with the machine.", ""]
    for title, rows, note, header in sections:
        out += ["## " + title, "", "| " + " | ".join(header) + " |",
                "|" + "---|" * len(header)]
        out += ["| " + " | ".join(row) + " |" for row in rows]
        if note:
            out += ["", note]
        out.append("")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="make bench", description=__doc__.splitlines()[0])
    ap.add_argument("--write", metavar="FILE", help="also write the report to FILE")
    args = ap.parse_args(argv)
    done = []
    for i, section in enumerate(SECTIONS):
        print("[%d/%d] measuring %s..." % (i + 1, len(SECTIONS), section.__name__),
              file=sys.stderr)
        done.append(section())
    text = render(done)
    print(text)
    if args.write:
        with open(args.write, "w") as f:
            f.write(text + "\n")
        print("wrote " + args.write, file=sys.stderr)


if __name__ == "__main__":
    main()
