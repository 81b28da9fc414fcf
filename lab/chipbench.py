"""make chip's measurements of the chip twin (twins/chip/chip.py): press to glass, main-loop
passes, where the CPU goes, the clock to run at, the core awake and asleep, and make chip's
command line, which adds --figures and --power to the chip twin's own flags and hands a
script's run to it.

    make chip ARGS="--figures"                # press to glass over a match, at 400 kHz
    make chip ARGS="--keys matrix --figures"  # the same on the matrix build
    make chip ARGS="--power"                  # the core awake, the deep sleep, the batteries
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
            if info & 15 == 2 and size:  # STT_FUNC
                end = elf.index(b"\0", strtab[4] + name)
                out.append((value & ~1, (value & ~1) + size,
                            elf[strtab[4] + name:end].decode("ascii", "replace")))
    return sorted(out)


# Where a pass spends the CPU: by function name, first match wins.
_WHERE = (("asleep (waiting for an interrupt)", ("<asleep>",)),
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
    args = ap.parse_args(argv)
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
