"""make chipnvm: the handheld's memory on the chip twin, CircuitPython's own nvm path on its
flash chip (twins/chip/js/flash.mjs): what a save and a compaction send to the flash, and
what the next boot reads after a power cut at every step of them; and what they cost
(costs(), for make bench).

One run on the emulated Pico: the memory nearly full, LOCKOUT changed on the settings page
and saved (a page program), then the settings page opened again, which compacts the log
(the sector's one erase and its pages programmed again). The flash commands it logged give
the flash at any instant, so the run is made once and each cut point costs one boot: the
flash as the power left it (the run's flash log replayed on the flash chip's Python model,
twins/models/flashchip.py), booted, its settings and statistics pages read off the
glass. The power is cut where the sector's bytes differ: at fractions of the erase (each
programmed bit reads 1 with that probability, as `make nvm` models it for the desktop's
stand-in), and in a page program after each byte count where the app's own loading code
reads the sector differently (a record's or a tally slot's end) and one byte short of it
(a page programmed part way has its first bytes programmed). A cut that leaves the same
bytes as the cut before is not made again, and each distinct flash is booted once.

    make chipnvm                  the whole sweep (a boot a cut point: about 5 minutes)
    make chipnvm ARGS="--sample"  only the cut points make test boots
    make chipnvm ARGS="--write"   ... and its table into docs/NVM.md
"""
import math
import os
import random
import re
import shutil
import sys
import tempfile

from lab import nvmcheck
from twins.chip import chip
from twins.chip.flash import NVM_END, NVM_START, PAGE
from tools.cli import Parser
from tools.files import write_atomic

PRESET_LOCKOUT, SAVED_LOCKOUT = "200 MS", "800 MS"  # before and after the run's save
DEFAULT_LOCKOUT = "400 MS"
ERASE_AT = (0.0, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5, 1.0)  # of an erase

# Times from the first full frame: the settings page, LOCKOUT to its next value, back
# (saved), the settings page again (the compaction), back.
CHANGE = ("400 A1 tap\n700 A1 tap\n1000 A1 tap\n1300 A3 tap\n1600 A1 tap\n1900 A1 tap\n"
          "2200 A3 tap\n2500 MENU tap\n2800 A3 tap\n3400 MENU tap\n")
# After a boot: the settings page (read at 1600 ms), back, the statistics page (at 2600).
READ = "400 A1 tap\n700 A1 tap\n1000 A1 tap\n1300 A3 tap\n1700 MENU tap\n2000 A1 tap\n" \
       "2300 A3 tap\n"


def nvm_commands(run):
    """The run's flash commands that touch the nvm sector (write enables: the one before
    each of them), in order; a write status touches none."""
    out, pending = [], None
    for e in run.flash_log:
        if e["cmd"] == "wren":
            pending = e
            continue
        touches = "addr" in e and e["addr"] < NVM_END and e["addr"] + e.get("bytes", PAGE) > \
            NVM_START
        if touches:
            if pending is not None:
                out.append(pending)
            out.append(e)
        pending = None
    return out


def counted(commands):
    """'N page programs, M erases' of a list of flash commands."""
    programs = sum(e["cmd"] == "program" for e in commands)
    erases = sum(e["cmd"] == "erase" for e in commands)
    return "%d page program%s, %d erase%s" % (programs, "" if programs == 1 else "s", erases,
                                           "" if erases == 1 else "s")


def prepared_memory():
    """(the nvm sector of a handheld that has played, its GAMES): LOCKOUT 200 MS saved, a
    game's tally entry for each game, and the log so full that one more setting saved
    leaves less room than the app keeps free, so the settings page's next opening
    compacts it."""
    from firmware.store import _RESERVE
    from firmware.settings import SETTINGS_KIND, Settings
    from firmware.stats import STATS_KIND, Stats
    from firmware.store import Log
    settings, stats = Settings(), Stats()
    settings.choose("lockout", 200)
    nvm = bytearray(b"\xff" * 4096)
    log = Log(nvm, fold=lambda kind: (settings if kind == SETTINGS_KIND else stats).base())
    log.put(SETTINGS_KIND, settings.base())
    log.put(STATS_KIND, stats.base())
    games = 0
    while log.size - log.end >= _RESERVE + 104 + 104:  # room for a block, then one more
        stats.game(games % 2, 40000 + 1000 * (games % 50))
        log.add(STATS_KIND, stats.entry())
        games += 1
    while log.size - log.end >= _RESERVE + 104:  # the last block, filled
        stats.game(games % 2, 40000)
        log.add(STATS_KIND, stats.entry())
        games += 1
    assert _RESERVE <= log.size - log.end, "the prepared memory compacts at boot"
    return bytes(nvm), games


def first_flash(dest):
    """The flash of a Pico that has been flashed with this tree's UF2 and booted once (the
    drive's boot_out.txt written), its memory prepared_memory(); returns the path."""
    path = os.path.join(dest, "flash.bin")
    r = chip.run("", after_ms=100, flash_out=path, work=dest)
    if r.t0 is None:
        raise RuntimeError("the chip did not boot: %s" % r.why)
    memory, games = prepared_memory()
    with open(path, "r+b") as f:
        f.seek(NVM_START)
        f.write(memory)
    return path, games


def _sector(image):
    return bytes(image[NVM_START:NVM_END])


def _reading(image):
    """What the app's own loading code (on the desktop) reads from the image's nvm sector,
    and what it says: where this changes, a record or a tally slot was programmed whole."""
    said = []
    return nvmcheck.read_back(_sector(image), said), tuple(said)


def _candidates(start, log, e):
    """[(name, fraction)]: where in the nvm command e the flash's bytes can differ. A write
    enable changes none. An erase: at ERASE_AT. A page program: at its first changed byte
    (none yet), then at each byte count where the sector's reading changes (a record's or
    a slot's end) and one byte short of it (the record torn), and at its last changed byte;
    none when it changes no byte (erased bytes programmed as 0xFF)."""
    if e["cmd"] == "wren":
        return [("wren", None)]
    if e["cmd"] == "erase":
        return [("erase %g%%" % (f * 100), f) for f in ERASE_AT]
    before = flash_at(start, log, e)
    data = bytes.fromhex(e["data"])
    at = [(e["addr"] & ~0xFF) + ((e["addr"] + k) & 0xFF) for k in range(len(data))]
    changed = [k for k in range(len(data)) if before[at[k]] & data[k] != before[at[k]]]
    if not changed:
        return []
    counts, last = [changed[0], changed[-1] + 1], _reading(before)
    for k in changed:
        now = _reading(flash_at(start, log, e, (k + 1) / len(data)))
        if now != last:
            counts += [k, k + 1]
            last = now
    return [("program %d B" % k, k / len(data)) for k in sorted(set(counts))]


def cut_points(start, log, commands):
    """[(name, index of the command in progress, fraction of it done, the flash then)]: each
    nvm command's _candidates(), each kept only where the nvm sector differs from the point
    before (so no two points in a row boot the same bytes)."""
    points, last = [], None
    for i, e in enumerate(commands):
        for name, f in _candidates(start, log, e):
            image = flash_at(start, log, e, f)
            if _sector(image) != last:
                points.append((name, i, f, image))
                last = _sector(image)
    return points


def sample(commands):
    """The cut points make test boots: the save's write enable, the start and end of its
    page program; the compaction's erase at its start, 0.1% in (the statistics lost, the
    settings kept), half way and done; its first page program at its start and done, and
    its last page program done."""
    erase = next(i for i, e in enumerate(commands) if e["cmd"] == "erase")
    save = next(i for i, e in enumerate(commands) if e["cmd"] == "program")
    programs = [i for i, e in enumerate(commands) if e["cmd"] == "program" and i > erase]
    return [("wren", save - 1, None), ("program 0%", save, 0.0), ("program 100%", save, 1.0),
            ("erase 0%", erase, 0.0), ("erase 0.1%", erase, 0.001), ("erase 50%", erase, 0.5),
            ("erase 100%", erase, 1.0), ("program 0%", programs[0], 0.0),
            ("program 100%", programs[0], 1.0), ("program 100%", programs[-1], 1.0)]


def flash_at(start, log, cut, fraction=None, seed=0, timing="typ"):
    """The flash when the power went: start (the run's first flash) with every command of
    the run's log before the command cut done, and cut done by fraction (None: not begun;
    a write enable changes no byte), replayed on the flash chip's Python model
    (twins/models/flashchip.py); a command it would not take as the chip twin did is an
    error."""
    from twins.models.flashchip import Chip, command_bytes
    flash = bytearray(start)
    chip = Chip(flash, timing)
    for e in log:
        done = 1 if e is not cut else fraction
        if done is None:
            return flash
        chip.transaction(command_bytes(e), e["t"], done, random.Random(seed).random)
        took = chip.log[-1] if chip.log else {}
        if (took.get("cmd"), took.get("t"), took.get("end")) != (e["cmd"], e["t"], e["end"]):
            raise ValueError("the flash chip's Python model did not take the chip twin's "
                             "%s at %d ns as it did" % (e["cmd"], e["t"]))
        if e is cut:
            return flash
    raise ValueError("the cut is not in the log")


def read_back(path, uf2=None):
    """What a boot of the flash at path reads (re-flashed with uf2 first, when given):
    (LOCKOUT, GAMES, what the console said about the memory), off the settings and
    statistics pages."""
    from twins.desktop import glass
    r = chip.run(READ, uf2=uf2, flash=path, reflash=uf2 is not None, after_ms=400,
                 boot_ms=20000)
    if r.t0 is None:
        return "no boot", "no boot", r.why

    def value(ms, label):
        for line in glass.page(r.oled_at(ms).frame()):
            if line[1:].startswith(label):
                return line[1 + len(label):].strip()
        return "?"
    said = [s for _, s in r.console if re.match(r"(settings|statistics|nvm):", s)]
    return value(1600, "LOCKOUT"), value(2600, "GAMES"), "; ".join(said)


def outcome(got, new_games):
    """A cut's reading in words: 'saved', 'before' or 'default' for LOCKOUT, 'kept',
    'default' or the count for GAMES."""
    lockout, games, said = got
    lk = {SAVED_LOCKOUT: "saved", PRESET_LOCKOUT: "before", DEFAULT_LOCKOUT: "default"}.get(
        lockout, lockout)
    gm = "kept" if games == str(new_games) else "default" if games == "0" else games
    return lk, gm, said


def sweep(work, sampled=False, progress=None):
    """The run, then a boot at each cut point (sampled: only sample()'s), one a distinct
    flash: ({"commands": the nvm commands, "run": the ChipRun, "games": GAMES saved,
    "changed": the bytes each command changes, "images": distinct flashes booted}, rows of
    (command, cut name, ms from the first nvm command, LOCKOUT, GAMES, said))."""
    start_path, games = first_flash(work)
    with open(start_path, "rb") as f:
        start = f.read()
    run = chip.run(CHANGE, flash=start_path, reflash=False, after_ms=600,
                   flash_out=os.path.join(work, "after.bin"))
    log = nvm_commands(run)
    first = log[0]["t"] if log else 0
    changed = [sum(a != b for a, b in zip(_sector(flash_at(start, run.flash_log, e)),
                                          _sector(flash_at(start, run.flash_log, e, 1))))
               for e in log]
    if sampled:
        points = [(name, i, f, flash_at(start, run.flash_log, log[i], f))
                  for name, i, f in sample(log)]
    else:
        points = cut_points(start, run.flash_log, log)
    rows, booted = [], {}
    for n, (name, i, f, image) in enumerate(points):
        e = log[i]
        t = e["t"] + (f or 0) * (e["end"] - e["t"])
        key = _sector(image)
        if key not in booted:
            path = os.path.join(work, "cut.bin")
            with open(path, "wb") as out:
                out.write(image)
            booted[key] = outcome(read_back(path), games)
        rows.append((i, name, (t - first) / 1e6) + booted[key])
        if progress:
            progress("  cut %d of %d: %s of command %d: %s" % (n + 1, len(points), name, i,
                                                              ", ".join(rows[-1][3:5])))
    return {"commands": log, "run": run, "games": games, "changed": changed,
            "images": len(booted), "sampled": sampled}, rows


def _pass_with(run, t):
    """The main-loop pass (between two watchdog feeds) that holds time t, in ns."""
    feeds = run.feeds
    for a, b in zip(feeds, feeds[1:]):
        if a <= t < b:
            return b - a
    return 0


def _glass_after(run, t):
    """ns from t to the end of the first I2C write after it that changes the glass."""
    from twins.desktop.ssd1306 import VirtualSSD1306
    oled = VirtualSSD1306(run.width, run.height, run.address)
    later = []
    for w in run.i2c:
        if w[1] <= t:
            if w[3] and w[2] == run.address:
                oled.write(w[4])
        else:
            later.append(w)
    before = oled.frame()
    for start, end, a, ack, data in later:
        if ack and a == run.address:
            oled.write(data)
            if oled.frame() != before:
                return end - t
    return None


def costs(work, timing="typ"):
    """What a save and a compaction cost the main loop on the chip, at the flash's typical
    or slowest times: the passes that hold them, press to glass for a press (DOWN, its
    edge at the command's start, or half way through the erase) made during each, and how
    long after its edge the keypad's first scan comes (its timestamp). {name: ns}."""
    start, _ = first_flash(work)
    probe = chip.run(CHANGE, flash=start, reflash=False, after_ms=600, flash_timing=timing)
    log = nvm_commands(probe)
    save = next(e for e in log if e["cmd"] == "program")
    erase = next(e for e in log if e["cmd"] == "erase")
    split = log.index(erase) - 1  # (the erase's write enable)
    out = {"save_commands": counted(log[:split]), "compaction_commands": counted(log[split:]),
           "save_pass": _pass_with(probe, save["t"]),
           "compaction_pass": _pass_with(probe, erase["t"]),
           "save_busy": save["end"] - save["t"],
           "compaction_busy": log[-1]["end"] - erase["t"]}
    lines = CHANGE.splitlines()
    for name, at, keep in (("save", save["t"], 8), ("erase", (erase["t"] + erase["end"]) / 2,
                                                    9)):
        # The script's times are whole ms from the first frame: the press goes at the first
        # one at or after the command (a press just before the save waits for its pass: 30
        # ms against 7, so the figure flipped with a boot 1 ms shorter or longer).
        ms = math.ceil((at - probe.t0) / 1e6)
        script = "\n".join(lines[:keep]) + "\n%d A1 tap\n" % ms
        r = chip.run(script, flash=start, reflash=False, after_ms=600, flash_timing=timing)
        edge = next(t for t, pin, down in r.keys if down and t >= r.t0 + ms * 1e6 - 1e6)
        out[name + "_press_to_glass"] = _glass_after(r, edge)
        out[name + "_first_scan"] = next(t for t, _ in r.scans if t >= edge) - edge
    return out


def table(result, rows):
    """The sweep as text lines: each nvm command and the bytes it changes, the cut points'
    readings, and what they come to."""
    log, changed = result["commands"], result["changed"]
    lines = ["Flash commands in the nvm sector (0x%X..0x%X): %d write enables, %d page "
             "programs, %d erases" % (0x10000000 + NVM_START, 0x10000000 + NVM_END - 1,
                                      sum(e["cmd"] == "wren" for e in log),
                                      sum(e["cmd"] == "program" for e in log),
                                      sum(e["cmd"] == "erase" for e in log))]
    lines.append("  %-4s %-7s %-10s %-9s %-6s %s" % ("cmd", "what", "address", "busy ms",
                                                   "bytes", "bytes it changes"))
    for i, e in enumerate(log):
        if e["cmd"] != "wren":
            lines.append("  %-4d %-7s 0x%08x %-9.2f %-6d %d" % (
                i, e["cmd"], 0x10000000 + e["addr"], (e["end"] - e["t"]) / 1e6,
                e.get("bytes") or len(e["data"]) // 2, changed[i]))
    lines.append("%s (then a boot, its settings and statistics pages read):" % (
        "A sample of the power cuts (make test's)" if result.get("sampled") else
        "Power cuts where the sector's bytes differ from the cut before"))
    lines.append("  %-4s %-14s %-9s %-9s %-9s %s" % ("cmd", "cut at", "ms", "LOCKOUT", "GAMES",
                                                  "the console said"))
    for i, name, ms, lockout, games, said in rows:
        lines.append("  %-4d %-14s %-9.2f %-9s %-9s %s" % (i, name, ms, lockout, games,
                                                       said or "-"))
    still = sum(1 for i, e in enumerate(log) if not changed[i])
    lines.append("  %d cut points, %d distinct flash images booted; the %d commands that "
                 "change no byte (write enables, pages programmed as they were) are cut "
                 "nowhere else." % (len(rows), result["images"], still))
    erase = next((i for i, e in enumerate(log) if e["cmd"] == "erase"), None)
    after = [r for r in rows if erase is not None and r[0] >= erase]
    for what, col, want in (("LOCKOUT", 3, "saved"), ("GAMES", 4, "kept")):
        lost = [n for n, r in enumerate(after) if r[col] != want]
        if lost and lost[-1] + 1 < len(after):
            a, b = after[lost[0]], after[lost[-1] + 1]
            lines.append("  %s is lost from %s of command %d (%.2f ms) until %s of command %d "
                         "(%.2f ms)." % (what, a[1], a[0], a[2], b[1], b[0], b[2]))
    return lines


MARK = ("<!-- make chipnvm writes from here -->", "<!-- make chipnvm wrote up to here -->")


def write_doc(lines, path):
    """Put the table between the markers of docs/NVM.md (added at its end the first time)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    block = "%s\n```\n%s\n```\n%s" % (MARK[0], "\n".join(lines), MARK[1])
    if MARK[0] in text and MARK[1] in text:
        a, b = text.index(MARK[0]), text.index(MARK[1]) + len(MARK[1])
        text = text[:a] + block + text[b:]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    write_atomic(path, text.encode("utf-8"), mode=0o644)


def main(argv=None):
    from tools.cli import fail
    ap = Parser(prog="make chipnvm", description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="put the table into docs/NVM.md")
    ap.add_argument("--sample", action="store_true",
                    help="only the cut points make test boots (sample())")
    args = ap.parse_args(argv)
    problem = chip.missing()
    if problem:
        fail("make chipnvm", problem)
    work = tempfile.mkdtemp(prefix="california-speed-chipnvm-")
    try:
        print("The run: LOCKOUT saved, then the settings page's compaction...", flush=True)
        result, rows = sweep(work, sampled=args.sample,
                             progress=lambda line: print(line, flush=True))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    lines = table(result, rows)
    print("\n".join(lines))
    if args.write:
        from tools.boardcode import ROOT
        write_doc(lines, os.path.join(ROOT, "docs", "NVM.md"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
