"""What the handheld's nvm keeps, measured on the firmware's own app and store code.

Two reports:
- wear: how many games pass between compactions (the sector's one erase) with a tally
  entry per game, next to the format before it (a 49-byte statistics record per game),
  on the same played history; and that no save ever erased;
- power cuts: a compaction cut at every point of its timeline, the 4 KB sector's erase
  then its 16 pages programmed, and what the next boot reads at each: the settings and
  statistics as they were, or the defaults, never anything else.

    make nvm ARGS="--games 3000 --seed 1"
"""
import random
import sys

from firmware.app import App
from firmware.settings import Settings
from firmware.stats import Stats, STATS_KIND
from firmware.store import Log, _RESERVE
from twins.desktop import virtual
from tools.cli import Parser, bounded, ctrl_c

# The Pico's flash, a Winbond W25Q16JV (datasheet, typical and maximum): a 4 KB sector
# erase 45 / 400 ms, a 256-byte page program 0.4 / 3 ms. CircuitPython erases the sector
# and programs all 16 pages, from offset 0 up, with interrupts off.
ERASE_MS = (45.0, 400.0)
PAGE_MS = (0.4, 3.0)
PAGE = 256


def _app():
    hw = virtual.init(seed=1)
    hw.console = lambda line: None
    return hw, App(hw)


def _games(rng, app, count, record_per_game):
    """Play count games' worth of saves in the app, as the handheld makes them: matches
    first to 2 with a draw now and then, covers and their delays, a visit to the settings
    every 20 matches and a CPU level change every 7. Returns the erases saves made."""
    stats, log, flash = app.stats, app.saves.log, app.hw.flash
    save_erases = 0
    wins = [0, 0]
    matches = 0
    for _ in range(count):
        if not record_per_game:
            app.saves.tidy()  # a game is dealt
        for _ in range(rng.randrange(8, 40)):
            stats.cover(rng.randrange(300, 4000))
        result = rng.choice((0, 1) * 10 + (2,))
        stats.game(result, rng.randrange(15000, 180000))
        if result < 2:
            wins[result] += 1
        over = max(wins) == 2
        if over:
            stats.match()
            wins = [0, 0]
            matches += 1
        erases = flash.erases
        if record_per_game:
            log.put(STATS_KIND, stats.encode())
        else:
            app.saves.save_stats()
            save_erases += flash.erases - erases
        if over and matches % 7 == 0:
            app.settings.step(6, 1)  # CPU LEVEL, straight from the main menu
            erases = flash.erases
            app.saves.settings_done(True)
            save_erases += 0 if record_per_game else flash.erases - erases
        if over and matches % 20 == 0:
            if not record_per_game:
                app.saves.tidy()  # the settings page opens
            app.settings.step(8, 1)  # CONTRAST
            erases = flash.erases
            app.saves.settings_done(True)
            save_erases += 0 if record_per_game else flash.erases - erases
    return save_erases


def read_back(data, said=None):
    """What a boot reads from the nvm bytes: (settings record, statistics record), read by
    the app's own loading code; what it says on the console goes into said."""
    lines = said if said is not None else []
    settings, stats = Settings(), Stats()
    from firmware.restore import restore
    restore(Log(bytearray(data)), settings, stats, lines.append)
    return bytes(settings.encode()), stats.encode()


def wear(games, seed):
    """Compactions over the same history of games, in both formats."""
    out = {}
    for name, per_game in (("tally", False), ("record", True)):
        hw, app = _app()
        save_erases = _games(random.Random(seed), app, games, per_game)
        out[name] = {"games": games, "compactions": app.saves.log.compactions,
                     "save_erases": save_erases, "appends": app.saves.log.appends}
        if not per_game:
            settings, stats = read_back(hw.flash.data)
            out[name]["read_back"] = (settings == bytes(app.settings.encode()),
                                      _close(stats, app.stats))
    return out


def _close(saved, live):
    """The saved statistics equal the live ones, the mean cover time to within 50 ms."""
    from firmware.restore import decode_stats
    got = Stats()
    decode_stats(got, saved)
    same = all(getattr(got, f) == getattr(live, f) for f in
               ("matches", "games", "wins_a", "wins_b", "draws", "fastest_win_ms",
                "longest_game_ms", "streak_seat", "streak", "covers"))
    return same and abs(got.average_cover_ms() - live.average_cover_ms()) <= 50


def before_compaction(seed):
    """An app whose next tidy compacts, with settings that are not the defaults; its nvm
    bytes; and every statistics record a boot would have read after each game."""
    hw, app = _app()
    rng = random.Random(seed)
    for i in (0, 2, 6, 8):
        app.settings.step(i, 1)
    app.saves.settings_done(True)
    history = set()
    while app.saves.log.size - app.saves.log.end >= _RESERVE:
        _games(rng, app, 1, False)
        history.add(read_back(hw.flash.data)[1])
    return app, bytes(hw.flash.data), history


def power_cuts(seed, seeds=4):
    """Cut a compaction at every point: [(phase, at, settings, statistics)], where at is
    the erase's fraction done or the image bytes programmed, and each outcome is "kept",
    "earlier" (the statistics as a boot read them some games before), "default", "part,
    said" (some games lost, and the console says how many) or "part" (a silent partial
    read: the harness fails); and the compacted log's length."""
    app, data, history = before_compaction(seed)
    old = read_back(data)
    fresh = (bytes(Settings().encode()), Stats().encode())
    base = app.stats.encode()  # what the app's fold writes: everything counted
    new = (old[0], base)
    rows = []

    def outcome(flash):
        said = []
        got = read_back(flash.data, said)
        return tuple("kept" if g in (o, n) else "default" if g == f else
                     "earlier" if g in earlier else "part, said" if said else "part"
                     for g, o, n, f, earlier in zip(got, old, new, fresh, ((), history)))

    def compact(flash):
        log = Log(flash.nvm, fold=lambda kind: base)
        try:
            log.tidy(_RESERVE)
        except virtual.PowerCut:
            return None
        return log.end

    for fraction in (0, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02) + tuple(
            step / 20 for step in range(1, 21)):
        for s in range(seeds):
            flash = virtual.Flash()
            flash.data[:] = data
            flash.cut_power_in_erase(fraction, seed=s)
            compact(flash)
            rows.append(("erase", fraction) + outcome(flash))
    flash = virtual.Flash()
    flash.data[:] = data
    used = compact(flash)
    for n in list(range(0, used + 2)) + list(range(PAGE, len(data) + 1, PAGE)):
        flash = virtual.Flash()
        flash.data[:] = data
        flash.cut_power_after(n)
        compact(flash)
        rows.append(("program", n) + outcome(flash))
    return rows, used


def _ms(phase, at, timing):
    erase, page = ERASE_MS[timing], PAGE_MS[timing]
    return at * erase if phase == "erase" else erase + at / PAGE * page


def summary(rows):
    """Runs of cut points with the same outcomes (an erase fraction's seeds together), and
    the loss window in ms (typical, at the flash's slowest)."""
    points = []
    for phase, at, settings, stats in rows:
        if points and points[-1][:2] == [phase, at]:
            points[-1][2].add((settings, stats))
        else:
            points.append([phase, at, {(settings, stats)}])
    runs = []
    for phase, at, outcomes in points:
        key = (phase, " / ".join("%s, %s" % o for o in sorted(outcomes)))
        if runs and runs[-1][0] == key:
            runs[-1][2] = at
        else:
            runs.append([key, at, at])
    lost = [r for r in rows if r[2] != "kept" or r[3] != "kept"]
    last = max(lost, key=lambda r: (r[0] == "program", r[1]), default=None)
    window = tuple(_ms(last[0], last[1], t) if last else 0.0 for t in (0, 1))
    return runs, window


def losses(rows):
    """What a cut loses when, from the rows: {"both": the erase's fraction from which every
    cut loses the settings and statistics, "settings": the bytes programmed from which the
    settings are kept again, "stats": ... the statistics}."""
    erase = sorted({r[1] for r in rows if r[0] == "erase"})
    both = [f for f in erase if all(r[2:] == ("default", "default") for r in rows
                                    if r[0] == "erase" and r[1] >= f)]
    program = [r for r in rows if r[0] == "program"]

    def back(col):
        return min(r[1] for r in program if all(q[col] == "kept" for q in program
                                                if q[1] >= r[1]))
    return {"both": both[0] if both else None, "settings": back(2), "stats": back(3)}


def main(argv=None):
    ap = Parser(prog="make nvm", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=bounded(50, 100000), default=3000,
                    help="games played for the wear figure (default 3000)")
    ap.add_argument("--seed", type=bounded(0, 2**31 - 1), default=1,
                    help="the played history's seed (default 1)")
    args = ap.parse_args(argv)
    print("Wear: %d games (matches first to 2, covers, settings changes)" % args.games,
          flush=True)
    w = wear(args.games, args.seed)
    t, r = w["tally"], w["record"]
    per = {k: v["games"] / max(1, v["compactions"]) for k, v in w.items()}
    print("  a 49-byte record per game: %d compactions, one every %.0f games"
          % (r["compactions"], per["record"]))
    print("  a 3-byte tally slot per game: %d compactions, one every %.0f games (%.1fx rarer)"
          % (t["compactions"], per["tally"], per["tally"] / per["record"]))
    print("  saves that erased: %d; read back after the last game: settings %s, statistics %s"
          % (t["save_erases"], *("equal" if ok else "DIFFERENT" for ok in t["read_back"])))
    print("Power cuts in a compaction (the log nearly full, as the next game is dealt):",
          flush=True)
    rows, used = power_cuts(args.seed)
    runs, window = summary(rows)
    print("  %-7s %-20s %-14s %s" % ("phase", "cut after", "ms (typical)",
                                    "settings, statistics (each seed of the erase)"))
    for (phase, outcomes), first, last in runs:
        if phase == "erase":
            span = "%5.2f%% .. %5.2f%% erased" % (first * 100, last * 100)
        else:
            span = "%4d .. %4d bytes" % (first, last)
        ms = "%5.1f .. %5.1f" % (_ms(phase, first, 0), _ms(phase, last, 0))
        print("  %-7s %-20s %-14s %s" % (phase, span, ms, outcomes))
    silent = sum(1 for r in rows if "part" in r[2:])
    lost = losses(rows)
    print("  %d cut points; %d read part of a value without saying so. The compacted log is "
          "%d bytes. A cut from %g%% into the erase (%.1f ms) until the settings record is "
          "programmed again (%d bytes, %.1f ms typical, %.0f ms at the flash's slowest) "
          "loses the settings and statistics; from then until the statistics record is (%d "
          "bytes, %.1f ms) the statistics alone. Earlier in the erase the settings can be "
          "kept and the statistics kept, \"earlier\" (as a boot read them some games "
          "before), \"part, said\" (some games lost, and the console says how many) or "
          "lost. Any later cut loses nothing." % (
              len(rows), silent, used, lost["both"] * 100, _ms("erase", lost["both"], 0),
              lost["settings"], _ms("program", lost["settings"], 0),
              _ms("program", lost["settings"], 1), lost["stats"],
              _ms("program", lost["stats"], 0)))
    return 0 if silent == 0 and t["save_erases"] == 0 else 1


if __name__ == "__main__":
    with ctrl_c("make nvm", "it writes no file"):
        sys.exit(main())
