"""make chip's measurements of the chip twin (twins/chip/chip.py): press to glass, main-loop
passes, where the CPU goes, the clock to run at, the core awake and asleep, the cycles a
second against an older commit's, and make chip's command line, which adds --figures,
--power and --work to the chip twin's own flags and hands a script's run to it.

    make chip ARGS="--figures"                # press to glass over a match, at 400 kHz
    make chip ARGS="--keys matrix --figures"  # the same on the matrix build
    make chip ARGS="--power"                  # the core awake, the deep sleep, the batteries
    make chip ARGS="--work"                   # cycles a second: f400226 and this tree
    make chip ARGS="--script docs/screenshot.keys --png chip.png"   # a run (twins/chip/chip.py)

make bench's chip sections read the same figures (lab/bench.py).
"""
import bisect
import os
import sys

from hardware import pinmap
from lab import battery
from lab.chipnvm import counted, nvm_commands
from twins.chip import chip
from twins.chip.flash import saved_settings
from twins.desktop.scripted import desktop_run, match_script
from tools.cli import fail


def awake(run, start_ms, end_ms=None):
    """The share of the time from start_ms to end_ms after t0 (feed to feed) that the core
    was awake, running instructions, rather than waiting for an interrupt."""
    a = bisect.bisect_left(run.feeds, run.t0 + start_ms * 1e6)
    b = (len(run.feeds) if end_ms is None
         else bisect.bisect_right(run.feeds, run.t0 + end_ms * 1e6)) - 1
    if b <= a:
        raise ValueError("no main-loop passes between %s and %s ms" % (start_ms, end_ms))
    span = run.feeds[b] - run.feeds[a]
    return 1 - (run.asleep_at_feed[b] - run.asleep_at_feed[a]) / span


def speed(run):
    """Simulated seconds per wall second over the whole run (boot included)."""
    return run.end / 1e6 / max(1, run.wall_ms)


def elf_functions(path):
    """[(start, end, name)] of the function symbols of an ARM ELF32 file, sorted."""
    import struct
    with open(path, "rb") as f:
        elf = f.read()
    if elf[:4] != b"\x7fELF" or elf[4] != 1:
        raise ValueError("%s is not a 32-bit ELF file" % path)
    shoff, = struct.unpack_from("<I", elf, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x2E)
    sections = [struct.unpack_from("<IIIIIIIIII", elf, shoff + i * shentsize)
                for i in range(shnum)]
    out = []
    for sec in sections:
        if sec[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sec[6]]
        for at in range(sec[4], sec[4] + sec[5], 16):
            name, value, size, info = struct.unpack_from("<IIIB", elf, at)
            if info & 15 == 2:  # STT_FUNC
                end = elf.index(b"\0", strtab[4] + name)
                out.append((value & ~1, (value & ~1) + size,
                            elf[strtab[4] + name:end].decode("ascii", "replace")))
    out.sort()
    for i, (start, end, name) in enumerate(out):  # (assembly's, sizeless: to the next one)
        if end == start:
            out[i] = (start, out[i + 1][0] if i + 1 < len(out) else start + 256, name)
    return out


# Where a pass spends the CPU: by function name, first match wins.
_WHERE = (("asleep (waiting for an interrupt)", ("<asleep>",)),
          ("time.sleep: its wake at each tick, and the last part-tick spun",
           ("mp_hal_delay_ms", "port_get_raw_ticks", "time_us_64", "mp_hal_is_interrupted",
            "background_callback", "port_background", "port_interrupt_after",
            "port_idle_until", "hardware_alarm", "divmod_", "div_s64", "div_u64",
            "aeabi_uldivmod", "aeabi_ldivmod")),
          ("USB serial to the computer", ("tud_", "tu_", "dcd_", "usbd_", "cdcd_", "rp2usb_",
                                          "bufctrl_", "handle_hw_buff", "usb_")),
          ("I2C: waiting on the bus", ("i2c_", "busio_i2c", "check_single_timeout",
                                       "busy_wait")),
          ("displayio: drawing dirty areas", ("displayio", "busdisplay", "tilegrid", "bitmap",
                                              "palette", "area", "colorconverter",
                                              "displaycore", "fill_area", "refresh")),
          ("keypad scan", ("keypad", "keys_")),
          ("Python: the firmware's bytecode and runtime", ("mp_", "gc_", "fun_", "mpz_",
                                                           "qstr", "vstr", "m_", "py_",
                                                           "aeabi_", "bytecode", "map_")))


def cpu_functions(hist, functions, top=15):
    """[(share, function name)] of a PC histogram's awake cycles, the largest first."""
    starts = [f[0] for f in functions]
    totals = {}
    for pc, cycles in hist.items():
        if pc < 0:
            continue
        i = bisect.bisect_right(starts, pc) - 1
        name = functions[i][2] if i >= 0 and pc < functions[i][1] else "?"
        totals[name] = totals.get(name, 0) + cycles
    whole = sum(totals.values()) or 1
    return sorted(((n / whole, name) for name, n in totals.items()), reverse=True)[:top]


def cpu_split(hist, functions):
    """{what: share} of a PC histogram, by the _WHERE groups (the rest is "other")."""
    starts = [f[0] for f in functions]
    totals = {}
    for pc, cycles in hist.items():
        name = "<asleep>"
        if pc >= 0:
            i = bisect.bisect_right(starts, pc) - 1
            name = functions[i][2] if i >= 0 and pc < functions[i][1] else "?"
        what = "other (supervisor, USB, keypad scan, ...)"
        for label, stems in _WHERE:
            if any(stem in name for stem in stems):
                what = label
                break
        totals[what] = totals.get(what, 0) + cycles
    whole = sum(totals.values()) or 1
    return {what: n / whole for what, n in totals.items()}


def press_to_glass(run, presses, boxes):
    """For each press (ms after t0) and the box (x0, y0, x1, y1) of the pile it covers: ns
    from the GPIO edge to the last I2C byte of the first refresh after it that changes the
    pixels in that box (the pass that shows the cover)."""
    feeds = run.feeds
    out = []
    for ms, (x0, y0, x1, y1) in zip(presses, boxes):
        edge = min((t for t, _, down in run.keys if down and t >= run.t0 + ms * 1e6 - 1e3),
                   default=None)
        if edge is None:
            continue
        oled = run.oled_at((edge - run.t0) / 1e6)

        def box():
            f = oled.frame()
            return [f[y * run.width + x0:y * run.width + x1] for y in range(y0, y1)]
        before = box()
        writes = [w for w in run.i2c if w[0] >= edge and w[3] and w[2] == run.address]
        i = 0
        while i < len(writes):
            j = bisect.bisect_right(feeds, writes[i][0])
            end_of_pass = feeds[j] if j < len(feeds) else float("inf")
            last = None
            while i < len(writes) and writes[i][0] < end_of_pass:
                oled.write(writes[i][4])
                last = writes[i][1]
                i += 1
            if box() != before:
                out.append(last - edge)
                break
    return out


def spread(values):
    """{n, mean, median, p95, max} of values ({} for none)."""
    v = sorted(values)
    if not v:
        return {}
    return {"n": len(v), "mean": sum(v) / len(v), "median": v[len(v) // 2],
            "p95": v[min(len(v) - 1, int(len(v) * 0.95))], "max": v[-1]}


def pass_times(run, start_ms):
    """Main-loop passes (watchdog feed to feed, ns) in the menu before start_ms and in play
    after it, those that sent I2C bytes apart."""
    feeds = [t for t in run.feeds if t >= run.t0]
    writes = [t for t, _, _, _, _ in run.i2c]
    groups = {"menu, idle": [], "play, idle": [], "play, refreshing": []}
    start = run.t0 + start_ms * 1e6
    for a, b in zip(feeds, feeds[1:]):
        sent = bisect.bisect_left(writes, b) > bisect.bisect_left(writes, a)
        if b < start:
            if not sent:
                groups["menu, idle"].append(b - a)
        elif a > start + 1500e6:  # after the deal
            groups["play, refreshing" if sent else "play, idle"].append(b - a)
    return {k: spread(v) for k, v in groups.items()}


def figures(covers=50, frequencies=(400000, 1000000), progress=print, keys="direct",
            usb=True):
    """The chip figures of docs/BENCH.md: boot, heap, passes, press to glass, CPU split.

    The match is played with no USB host (a handheld on batteries) at each I2C clock, and
    once more at the first with the USB console connected (unless usb is False), for its
    heap lines and to see what serving the computer costs. keys: the build ("matrix": the
    same presses by the diode matrix; the glass compared with the desktop's direct build,
    which plays the same 4 piles a row)."""
    elf = (chip.toolchain()[0] or "")[:-4] + ".elf"
    functions = elf_functions(elf) if os.path.isfile(elf) else None
    build = {} if keys == "direct" else {"CS_KEYS": keys}
    progress("  chip: boot and the seed of the first deal")
    boot = chip.run("400 A3 tap 80\n", after_ms=600, settings=build or None)
    seed = chip.seed_of(boot)
    free = {}
    script, checks, counts = match_script(seed, covers=covers, limit_ms=180000)
    out = {"boot_ms": boot.t0 / 1e6, "free": free, "seed": seed, "counts": counts, "runs": {},
           "keys": keys}
    for hz, usb in [(hz, False) for hz in frequencies] + [(frequencies[0], True)] * usb:
        progress("  chip: a match of %d covers at %d Hz, %s, the %s build" % (
            counts["covered"], hz, "USB console connected" if usb else "no USB host", keys))
        r = chip.run(script, settings=dict(build, CS_I2C_HZ=hz), after_ms=800, usb=usb,
                profile=functions is not None)
        for _, line in (boot.console + r.console if usb else ()):
            for key, stem in (("after boot", "ready: "), ("at a match's start", "match: "),
                              ("after a game", "game over: ")):
                if line.startswith(stem) and "bytes free" in line:
                    free[key] = min(free.get(key, 1 << 30), int(line.split()[-3]))
        frames, desktop_bytes = desktop_run(script, seed, checks, hz)
        entry = {"press_to_glass": spread(press_to_glass(r, counts["cover_at"],
                                                                counts["cover_box"])),
                 "passes": pass_times(r, 400),
                 "bytes": sum(len(x[4]) + 1 for x in r.i2c if x[0] >= r.t0 and x[3]),
                 "desktop_bytes": desktop_bytes,
                 "glass": sum(r.oled_at(ms).frame() == want for ms, want in
                              zip(checks, frames)),
                 "checks": len(checks)}
        if functions is not None:
            entry["cpu"] = {kind: cpu_split(h, functions) for kind, h in r.pcs.items()}
        entry["stats_saves"] = counted(nvm_commands(r))
        out["runs"][(hz, usb)] = entry
    return out


WORK_BASELINE = "f400226"  # the last commit before issue 49 cut the work a pass
WORK_MENU_MS = 8000  # the menu left alone (the first second not counted)
WORK_COVERS = 20  # a match: the profile of a pass in play and of a cover's


def cycles_per_second(run, start_ms, end_ms=None):
    """Cycles the core executed per simulated second from start_ms to end_ms after t0 (feed
    to feed): its awake share at the clock it ran (deterministic for a scripted run)."""
    return awake(run, start_ms, end_ms) * run.cpu_hz(run.t0 + start_ms * 1e6)


SPUN_TICK = 15.5 / 32768  # s: a sleep's last part-tick, on average (below)


def spun_per_second(run, sleeps, start_ms, end_ms):
    """An estimate of the cycles a simulated second spent spinning out the last part-tick
    of each sleep: CircuitPython 10's mp_hal_delay_ms waits for interrupts in whole 1/1024 s
    ticks and spins the rest (0 to 31 subticks of 1/32768 s, 15.5 on average, as a sleep
    ends at any phase of the tick), one sleep an idle pass (a drawing pass does not nap)."""
    return sleeps / ((end_ms - start_ms) / 1e3) * SPUN_TICK * run.cpu_hz(run.t0 + start_ms * 1e6)


def pass_cycles(run, start_ms, end_ms=None):
    """{"idle": [cycles], "drawing": [cycles]}: what each main-loop pass from start_ms to
    end_ms after t0 executed (its awake time at the clock), those that sent I2C bytes apart."""
    writes = [w[0] for w in run.i2c]
    hz = run.cpu_hz(run.t0 + start_ms * 1e6)
    end = float("inf") if end_ms is None else run.t0 + end_ms * 1e6
    out = {"idle": [], "drawing": []}
    feeds, z = run.feeds, run.asleep_at_feed
    for i in range(1, len(feeds)):
        if feeds[i - 1] < run.t0 + start_ms * 1e6 or feeds[i] > end:
            continue
        sent = bisect.bisect_left(writes, feeds[i]) > bisect.bisect_left(writes, feeds[i - 1])
        ns = feeds[i] - feeds[i - 1] - (z[i] - z[i - 1])
        out["drawing" if sent else "idle"].append(ns * hz / 1e9)
    return out


def work(uf2, seed=None, covers=WORK_COVERS, progress=print):
    """The work a second of one UF2 (the direct build, 400 kHz, no USB host): cycles per
    simulated second in the menu left alone, in a 2-player match of `covers` covers (from
    the deal to the last cover) and with the screen off (SLEEP 1 minute); the cycles of an
    idle pass and of a drawing one in each; where the menu's and the match's passes spend
    theirs (cpu_split, by pass kind); passes a second; press to glass."""
    elf = (chip.toolchain()[0] or "")[:-4] + ".elf"
    functions = elf_functions(elf) if os.path.isfile(elf) else None
    seed = seed if seed is not None else chip.seed_of(chip.run("400 A3 tap 80\n",
                                                               after_ms=600, uf2=uf2))
    script, _, counts = match_script(seed, covers=covers, limit_ms=180000)
    out = {"seed": seed, "covers": counts["covered"]}

    def summary(run, a, b, profiled):
        passes = pass_cycles(run, a, b)
        n = len(passes["idle"]) + len(passes["drawing"])
        f = {"cycles": cycles_per_second(run, a, b), "passes": n / ((b - a) / 1e3),
             "spun": spun_per_second(run, len(passes["idle"]), a, b),
             "idle pass": spread(passes["idle"]), "drawing pass": spread(passes["drawing"])}
        if profiled and functions is not None:
            f["cpu"] = {kind: cpu_split(h, functions) for kind, h in run.pcs.items() if h}
            f["functions"] = {kind: cpu_functions(h, functions)
                              for kind, h in run.pcs.items() if h}
        return f
    progress("  chip: the menu left alone for %d s" % (WORK_MENU_MS // 1000))
    menu = chip.run("", after_ms=WORK_MENU_MS, usb=False, uf2=uf2, profile=True)
    out["menu"] = summary(menu, 1000, WORK_MENU_MS - 100, True)
    progress("  chip: a match of %d covers" % counts["covered"])
    play = chip.run(script, after_ms=800, usb=False, uf2=uf2, profile=True)
    out["play"] = summary(play, 400 + 1500, counts["cover_at"][-1], True)
    out["play"]["press_to_glass"] = spread(press_to_glass(play, counts["cover_at"],
                                                          counts["cover_box"]))
    progress("  chip: the screen off after a minute, then %d s more"
             % (WORK_MENU_MS // 1000 - 1))
    off = chip.run("", after_ms=POWER_OFF_AFTER_MS + WORK_MENU_MS, usb=False, uf2=uf2,
                   nvm=saved_settings(sleep=3))
    out["screen off"] = summary(off, POWER_OFF_AFTER_MS + 1000,
                                POWER_OFF_AFTER_MS + WORK_MENU_MS - 100, False)
    return out


def committed_uf2(commit, dest, progress=print):
    """The UF2 of an older commit, built in a temporary git worktree by its own tools (as
    build_uf2 does for this tree), at dest/COMMIT.uf2; simpair.NotMeasured if it cannot be."""
    import shutil
    import subprocess
    from lab import simpair
    probe = ("import sys; sys.path.insert(0, sys.argv[1])\n"
             "try:\n    from twins.chip.flash import build_uf2\n"
             "except ImportError:  # (before twins/chip/flash.py)\n"
             "    from twins.chip.chip import build_uf2\n"
             "print(build_uf2(sys.argv[2]))")
    with simpair.Worktree(commit) as tree:
        progress("  chip: the UF2 of %s, built in a temporary worktree" % commit)
        p = subprocess.run([sys.executable, "-I", "-B", "-c", probe, tree, dest], cwd=tree,
                           capture_output=True, text=True)
        if p.returncode != 0:
            said = (p.stderr or p.stdout).strip().splitlines() or ["exit %d" % p.returncode]
            raise simpair.NotMeasured("the UF2 of %s is not built: %s" % (commit, said[-1]))
        path = os.path.join(dest, commit + ".uf2")
        shutil.move(p.stdout.strip().splitlines()[-1], path)
    return path


def work_pair(commit=WORK_BASELINE, covers=WORK_COVERS, progress=print):
    """work() of an older commit's UF2 and of this tree's, in one run: {"commit", "old",
    "now"}; the same scripted match (the seed of this tree's first deal) for both."""
    import tempfile
    from twins.chip.flash import build_uf2
    with tempfile.TemporaryDirectory() as tmp:
        old_uf2 = committed_uf2(commit, tmp, progress)
        os.mkdir(os.path.join(tmp, "now"))
        new_uf2 = build_uf2(os.path.join(tmp, "now"))
        seed = chip.seed_of(chip.run("400 A3 tap 80\n", after_ms=600, uf2=new_uf2))
        out = {"commit": commit}
        for name, uf2 in (("old", old_uf2), ("now", new_uf2)):
            progress("  chip: %s" % (commit if name == "old" else "this tree"))
            out[name] = work(uf2, seed, covers, progress)
    return out


WORK_GROUPS = ("Python: the firmware's bytecode and runtime",
               "time.sleep: its wake at each tick, and the last part-tick spun",
               "displayio: drawing dirty areas",
               "I2C: waiting on the bus", "keypad scan", "USB serial to the computer",
               "other (supervisor, USB, keypad scan, ...)")


def work_rows(pair):
    """work_pair()'s figures as rows: (figure, old, now, target)."""
    old, now = pair["old"], pair["now"]
    rows = []
    for what in ("play", "menu", "screen off"):
        a, b = old[what]["cycles"], now[what]["cycles"]
        rows.append(("cycles a simulated second, %s" % what, "{:,.0f}".format(a),
                     "{:,.0f} ({:.0%})".format(b, b / a), "<= half: {:,.0f}".format(a / 2)))
    for what in ("play", "menu", "screen off"):
        if "spun" in old[what] and "spun" in now[what]:
            rows.append(("of which the last part-tick of each sleep spun awake, %s (an "
                         "estimate: 0.47 ms a sleep)" % what,)
                        + tuple("{:,.0f} ({:.0%})".format(f[what]["spun"],
                                                          f[what]["spun"] / f[what]["cycles"])
                                for f in (old, now))
                        + ("the floor: CircuitPython's time.sleep",))
    for what in ("play", "menu", "screen off"):
        rows.append(("main-loop passes a second, %s" % what, "%.0f" % old[what]["passes"],
                     "%.0f" % now[what]["passes"], "report"))
        for kind in ("idle pass", "drawing pass"):
            if old[what][kind] or now[what][kind]:
                rows.append(("cycles of a%s %s, %s: median / max" % (
                    "n" if kind[0] == "i" else "", kind, what),)
                    + tuple("{:,.0f} / {:,.0f}".format(f[kind]["median"], f[kind]["max"])
                            if f[kind] else "-" for f in (old[what], now[what]))
                    + ("report",))
    p2g = [f["play"]["press_to_glass"] for f in (old, now)]
    rows.append(("press to glass, mean / 95th pct / worst (%d covers)" % now["covers"],)
                 + tuple("%.1f / %.1f / %.1f ms" % (p["mean"] / 1e6, p["p95"] / 1e6,
                                                    p["max"] / 1e6) for p in p2g)
                 + ("p95 <= 10 ms",))
    for what, kind, label in (("menu", "other", "a pass in the menu"),
                              ("play", "other", "an idle pass in play"),
                              ("play", "refresh", "a cover's pass")):
        splits = [f[what].get("cpu", {}).get(kind, {}) for f in (old, now)]
        for group in WORK_GROUPS:
            if any(s.get(group, 0) >= 0.005 for s in splits):
                rows.append(("awake cycles in %s: %s" % (label, group.split(":")[0]),)
                            + tuple("%.0f%%" % (100 * s.get(group, 0)
                                                / max(1e-9, 1 - s.get(_ASLEEP, 0)))
                                    for s in splits) + ("report",))
    return rows


_ASLEEP = "asleep (waiting for an interrupt)"


def calls_per_pass(seed=564724698, covers=WORK_COVERS):
    """The firmware's calls a main-loop pass, counted on the desktop twin (CPython runs the
    board's code; a count does not depend on the machine): {kind: (passes, {function: calls a
    pass})} for the kinds "menu, idle", "play, idle" and "play, drawing" (a pass that
    refreshes), over match_script's match. Functions are the firmware's, the engine's and
    the hardware layer's Python, and the builtins and displayio calls they make."""
    from firmware.app import App
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ours = tuple(os.path.join(here, d) + os.sep for d in ("firmware", "engine", "hardware"))
    kinds = {}
    step = App.step

    def counted(app):
        calls, drew = {}, []
        refresh = app.display.refresh

        def seen(frame, event, arg):
            if event == "call" and frame.f_code.co_filename.startswith(ours) and \
                    frame.f_back.f_code.co_filename.startswith(ours):  # (not the twin's)
                name = "%s.%s" % (os.path.basename(frame.f_code.co_filename)[:-3],
                                  frame.f_code.co_qualname)
            elif event == "c_call" and frame.f_code.co_filename.startswith(ours):
                name = getattr(arg, "__qualname__", str(arg))
            else:
                return
            calls[name] = calls.get(name, 0) + 1
        app.display.refresh = lambda *a: (drew.append(1), refresh(*a))[1]
        in_menu = app.screen is app.menus
        sys.setprofile(seen)
        try:
            step(app)
        finally:
            sys.setprofile(None)
            del app.display.refresh
        kind = "menu, idle" if in_menu and not drew else (
            "menu, drawing" if in_menu else "play, drawing" if drew else "play, idle")
        n, total = kinds.get(kind, (0, {}))
        for name, k in calls.items():
            total[name] = total.get(name, 0) + k
        kinds[kind] = (n + 1, total)
    App.step = counted
    try:
        match_script(seed, covers=covers, limit_ms=180000)
    finally:
        App.step = step
    return {kind: (n, {name: k / n for name, k in total.items()})
            for kind, (n, total) in kinds.items()}


def print_work(commit=WORK_BASELINE):
    """make chip ARGS=--work: work_pair() printed as a table."""
    pair = work_pair(commit, progress=lambda line: print(line, file=sys.stderr))
    rows = [("figure", commit, "this tree", "target")] + work_rows(pair)
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    return 0


POWER_MENU_MS, POWER_OFF_AFTER_MS = 10000, 60000  # the menu left alone; SLEEP at 1 minute
CLOCKS_MHZ = tuple(sorted(next(s[4] for s in pinmap.SETTINGS if s[0] == "CS_CPU_MHZ"),
                          reverse=True))  # settings.toml's CS_CPU_MHZ choices, fastest first


def clocks(mhz=CLOCKS_MHZ, covers=50, hz=400000, progress=print):
    """The direct build's match of `covers` covers by GPIO at I2C hz with no USB host, once
    at each CPU clock (settings.toml's CS_CPU_MHZ): {MHz: {"press_to_glass": its spread(), "longest"
    pass in play (ns), "awake" in play, "hz": the clock the chip ran, "glass": checkpoints
    equal to the desktop twin's, "checks"}}."""
    seed = chip.seed_of(chip.run("400 A3 tap 80\n", after_ms=600))
    script, checks, counts = match_script(seed, covers=covers, limit_ms=180000)
    frames = desktop_run(script, seed, checks, hz)[0]
    out = {}
    for m in mhz:
        progress("  chip: a match of %d covers at %d MHz, I2C at %d kHz, no USB host"
                 % (counts["covered"], m, hz // 1000))
        r = chip.run(script, settings={"CS_CPU_MHZ": m, "CS_I2C_HZ": hz}, usb=False, after_ms=800)
        passes = pass_times(r, 400)
        out[m] = {"press_to_glass": spread(press_to_glass(r, counts["cover_at"],
                                                          counts["cover_box"])),
                  "longest": max(passes[k].get("max", 0) for k in ("play, idle",
                                                                   "play, refreshing")),
                  "awake": awake(r, 400 + 1500, counts["cover_at"][-1]), "hz": r.cpu_hz(),
                  "glass": sum(r.oled_at(ms).frame() == want for ms, want in zip(checks, frames)),
                  "checks": len(checks)}
    return out


def chosen_clock(measured, limit_ns=16e6):
    """The lowest clock of clocks()' figures whose press to glass p95 is within limit_ns
    and whose glass is the desktop twin's at every checkpoint; None if none is."""
    good = [m for m, f in measured.items() if f["press_to_glass"]["p95"] <= limit_ns
            and f["glass"] == f["checks"]]
    return min(good) if good else None


def deep_sleep_ms():
    """How long after the screen goes off the firmware sleeps DORMANT (firmware/app.py)."""
    from firmware import app
    return app._DEEP_SLEEP_AFTER_MS


def power(covers=20, progress=print):
    """How much of the time the core is awake (not waiting for an interrupt), and at which
    clock, on the direct build at 400 kHz with no USB host: in the menu left alone, in a
    2-player match by GPIO, and with the screen off (SLEEP set to 1 minute) until the deep
    sleep ten minutes later; then MENU wakes it. With each run's simulated seconds per wall
    second, press to glass in the match, and the deep sleep's figures: when the crystal
    stopped (s after the screen went off), clk_sys as it stopped, MENU's press to the
    wake's first frame (ms), and whether that frame was the menu as it was."""
    progress("  chip: boot and the seed of the first deal")
    seed = chip.seed_of(chip.run("400 A3 tap 80\n", after_ms=600))
    out = {"seed": seed}
    progress("  chip: the menu, left alone for %d s" % (POWER_MENU_MS // 1000))
    menu = chip.run("", after_ms=POWER_MENU_MS, usb=False)
    out["menu"] = {"awake": awake(menu, 1000), "speed": speed(menu), "hz": menu.cpu_hz()}
    script, _, counts = match_script(seed, covers=covers, limit_ms=180000)
    progress("  chip: a match of %d covers" % counts["covered"])
    play = chip.run(script, after_ms=800, usb=False)
    lit = [battery.lit_percent(play.oled_at(ms).frame()) for ms in counts["cover_at"]]
    out["play"] = {"awake": awake(play, 400 + 1500, counts["cover_at"][-1]),
                   "lit": sum(lit) / len(lit), "hz": play.cpu_hz(),
                   "speed": speed(play), "covers": counts["covered"],
                   "press_to_glass": spread(press_to_glass(play, counts["cover_at"],
                                                           counts["cover_box"]))}
    dark = POWER_OFF_AFTER_MS + deep_sleep_ms()
    progress("  chip: nobody presses a key for %d s (the screen goes off at %d s, the deep "
             "sleep %d s later), then MENU" % ((dark + 30000) // 1000, POWER_OFF_AFTER_MS
                                               // 1000, deep_sleep_ms() // 1000))
    off = chip.run("%d MENU down\n" % (dark + 30000), after_ms=2000, usb=False,
              nvm=saved_settings(sleep=3))
    out["screen off"] = {"awake": awake(off, POWER_OFF_AFTER_MS + 2000, dark - 1000),
                         "speed": speed(off), "hz": off.cpu_hz(off.t0 + dark * 1e6 - 1e9)}
    if off.reset is None:
        raise RuntimeError("the chip did not sleep and wake: " + off.why)
    progress("  chip: the boot after the wake")
    wake = chip.run("300 MENU up\n", after_reset=off, usb=False, after_ms=4000)  # (boot: 2.6 s)
    out["dormant"] = {"after_off_s": (off.dormant[0] - off.t0) / 1e9 - POWER_OFF_AFTER_MS / 1e3,
                      "hz": off.cpu_hz(off.dormant[0] + 1),
                      "wake_ms": (wake.t0 + off.reset["t"] - off.dormant[1]) / 1e6,
                      "menu": wake.oled_at(400).frame() == off.oled_at(1000).frame()}
    return out


def print_power():
    """make chip ARGS=--power: power() printed."""
    f = power(progress=lambda line: print(line, file=sys.stderr))
    ms = {k: v / 1e6 for k, v in f["play"]["press_to_glass"].items() if k != "n"}
    print("the direct build, I2C at 400 kHz, no USB host (chip twin: rp2040js)")
    for what in ("menu", "play", "screen off"):
        print("%-12s awake %5.1f %% of the time at %.0f MHz; %.2f simulated s per wall s"
              % (what, 100 * f[what]["awake"], f[what]["hz"] / 1e6, f[what]["speed"]))
    d = f["dormant"]
    print("deep sleep   DORMANT %.1f s after the screen went off (clk_sys %.0f MHz as it "
          "stopped); MENU to the %s in %.0f ms" % (d["after_off_s"], d["hz"] / 1e6,
                                                    "menu as it was" if d["menu"] else
                                                    "first frame (not the menu as it was)",
                                                    d["wake_ms"]))
    print("press to glass mean %.1f ms, 95th percentile %.1f ms, worst %.1f ms (%d covers)"
          % (ms["mean"], ms["p95"], ms["max"], f["play"]["press_to_glass"]["n"]))
    mhz = f["play"]["hz"] / 1e6
    print("3 AAA cells: about %.0f hours of play (%.0f %% of the glass lit), %.0f days "
          "asleep (published currents, lab/battery.py)"
          % (battery.hours(f["play"]["awake"], f["play"]["lit"], mhz), f["play"]["lit"],
             battery.standby_days()))
    return 0


def print_figures(keys, hz=400000):
    """make chip --figures: figures() of one build at one I2C clock, no USB host, printed."""
    f = figures(frequencies=(hz,), progress=lambda line: print(line, file=sys.stderr),
                keys=keys, usb=False)
    entry = f["runs"][(hz, False)]
    ms = {k: v / 1e6 for k, v in entry["press_to_glass"].items() if k != "n"}
    play = entry["passes"]["play, idle"]
    print("the %s build, seed %d: a 2-player match of %d covers by GPIO, I2C at %d kHz, no "
          "USB host" % (keys, f["seed"], f["counts"]["covered"], hz // 1000))
    print("press to glass                mean %.1f ms, 95th percentile %.1f ms, worst %.1f ms "
          "(%d covers)" % (ms["mean"], ms["p95"], ms["max"], entry["press_to_glass"]["n"]))
    print("main-loop pass in play, idle  median %.2f ms" % (play.get("median", 0) / 1e6))
    print("glass                         the desktop twin's at %d of %d checkpoints"
          % (entry["glass"], entry["checks"]))
    return 0 if entry["glass"] == entry["checks"] else 1


def main(argv=None):
    """make chip: a run of the chip twin, or with --figures or --power its measurements."""
    ap = chip.parser()
    ap.add_argument("--figures", action="store_true",
                    help="instead of a script: a 2-player match of 50 covers by GPIO at 400 kHz "
                         "with no USB host, and its press to glass (mean, 95th percentile, "
                         "worst) and glass against the desktop twin's (a few minutes)")
    ap.add_argument("--power", action="store_true",
                    help="instead of a script: how much of the time the core is awake in the "
                         "menu, in a match and with the screen off, the twin's speed, press to "
                         "glass, and the hours of play on 3 AAA cells (a few minutes)")
    ap.add_argument("--work", nargs="?", const=WORK_BASELINE, metavar="COMMIT",
                    help="instead of a script: the cycles the core executes a simulated second "
                         "in the menu, in a match and with the screen off, where a pass spends "
                         "them and press to glass, for COMMIT (default %s, built in a "
                         "temporary git worktree) and this tree side by side (several minutes)"
                         % WORK_BASELINE)
    args = ap.parse_args(argv)
    if args.work:
        from lab import simpair
        if args.figures or args.power or args.script or args.uf2:
            fail("make chip", "--work plays its own runs of two UF2s: no --figures, --power, "
                              "--script or --uf2")
        try:
            simpair.resolve(args.work)
        except simpair.NotMeasured as e:
            fail("make chip", "--work: not measured: %s" % e)
        problem = chip.missing()
        if problem:
            fail("make chip", problem)
        try:
            return chip.stopped_in_a_line(lambda tmp: print_work(args.work))
        except simpair.NotMeasured as e:
            fail("make chip", "--work: not measured: %s" % e)
    if not (args.figures or args.power):
        return chip.stopped_in_a_line(lambda tmp: chip.boot_and_play(args, tmp))
    if args.figures and args.power:
        fail("make chip", "--figures or --power: one at a time")
    if args.uf2 or args.flash or args.script or args.png or args.bus_log or args.no_display:
        fail("make chip", "--%s plays its own runs on this tree's UF2: no --uf2, --flash, "
                          "--script, --png, --bus-log or --no-display"
             % ("figures" if args.figures else "power"))
    if args.nets != chip.NETS:
        fail("make chip", "--nets wires a script's run; --figures and --power use the "
                          "committed board")
    if args.power and args.keys not in (None, "direct"):
        fail("make chip", "--power measures the direct build")
    problem = chip.missing()
    if problem:
        fail("make chip", problem)
    if args.figures:
        return chip.stopped_in_a_line(lambda tmp: print_figures(args.keys or "direct"))
    return chip.stopped_in_a_line(lambda tmp: print_power())


if __name__ == "__main__":
    sys.exit(main())
