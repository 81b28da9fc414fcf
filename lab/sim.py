"""The simulation lab: many bot-against-bot games on a simulated clock.

Writes a CSV (one row per game) and PNG plots: game length, covers, stalls and dead
deals per game, deadlock rate, win rate by seat and by reaction-time difference, for the
standard rules and for each variant; and the handicap study: for reaction gaps of 25, 50,
100, 180 and 300 ms, the slower bot's win rate when the faster one's presses are held back
by each time handicap the handheld offers (firmware/settings.py's handicap_ms choices),
and when it is dealt 0 to 8 more cards; then, for each gap, the delay closest to even is
played again with new games (--confirm-games), and the next setting towards even if it
falls outside 45-55% (three at most): that is the figure reported, with its 95% interval.
Then AUTO HANDICAP at work (--auto-families): "families" of 40 one-game matches from
EVEN, HANDICAP moved after each by the handheld's own Settings.match_won (summary only).
Last, Long Speed (--long-games): the standard game and Long Speed with 5 and 6 piles a
row, between two bots of each level, and SHARP against SHARP slowed by 25, 50 and 100 ms:
game length, stalls and the slower bot's win rate (summary and long_speed.png only;
--long-only plays it alone, from the seeds the whole study gives it).
The games are played on every core (--jobs), each game from its own seed, so the rows
are the same, in the same order, whatever the number of processes. An interrupted run
keeps every row written so far. This file is the command line; the games are planned and
played by lab/simplay.py, summed up by lab/simstats.py and drawn by lab/simplots.py, and
the AUTO HANDICAP and Long Speed studies are lab/simstudies.py's.

    python -m lab.sim                      # the standard study, into sim-out/
    python -m lab.sim --games 200 --out /tmp/s --levels QUICK,SHARP --variants standard
    python -m lab.sim --long-only --jobs 2  # the standard study's Long Speed figures
"""
import argparse
import json
import os
import sys
import time

from engine.bot import LEVELS
from engine.rng import SEED_MAX
from lab.simplay import (DELAYS_MS, GAPS_MS, LEVEL_NAMES, VARIANTS, Progress, chunk_size,
                         confirm_plan, plan, plan_size, read_csv, run)
from lab.simplots import plot, plot_long
from lab.simstats import BAND, CONFIRM_TRIES, SLOPE_FIT, next_delays, summarize
from lab.simstudies import (AUTO_MATCHES, AUTO_SETTLED, LONG_GAPS_MS, auto_study, long_size,
                            long_study)
from tools.files import write_atomic

MAX_GAMES = 10 ** 7  # --games: games per pairing of levels (a year of one core, or so)
MAX_JOBS = 256  # --jobs: processes


def _levels(text):
    names = [t.strip().upper() for t in text.split(",") if t.strip()]
    bad = [n for n in names if n not in LEVEL_NAMES]
    if bad or not names:
        raise argparse.ArgumentTypeError("levels are %s, not %s"
                                         % (", ".join(LEVEL_NAMES), ", ".join(bad) or "none"))
    return [LEVEL_NAMES.index(n) for n in names]


def _variants(text):
    names = [t.strip() for t in text.split(",") if t.strip()]
    bad = [n for n in names if n not in VARIANTS]
    if bad:
        raise argparse.ArgumentTypeError("variants are %s, not %s"
                                         % (", ".join(VARIANTS), ", ".join(bad)))
    return names


def _cores():
    return min(os.cpu_count() or 1, MAX_JOBS)


def _print_delays(summary):
    """The time handicap study's lines of the printed summary."""
    lo, hi = round(100 * BAND[0]), round(100 * BAND[1])
    for gap, cell in summary["handicap_ms"].items():
        rates = {int(d): v for d, v in cell["slower_wins"].items()}
        name = lambda d: "EVEN" if d == 0 else "%d ms" % d  # noqa: E731
        print("time handicap, %s ms slower: slower wins %s (every 50 ms; every delay in "
              "summary.json)" % (gap, "  ".join("%s %.1f%%" % (name(d), 100 * v)
                                                for d, v in rates.items() if d % 50 == 0)))
        fair = cell["fairest"]
        if fair is None:
            continue
        near = [d for d in rates if abs(d - fair) <= 10]
        print("  near even: %s; closest (with its neighbours): %s"
              % ("  ".join("%s %.1f%%" % (name(d), 100 * rates[d]) for d in near), name(fair)))
        for c in cell["confirmations"]:
            print("  %s: %s, slower wins %.1f%% (95%%: %.1f-%.1f%%) of %d new games: "
                  "%s %d-%d%%" % (("confirmed" if c["in_band"] else "reported, none in the band")
                                  if c == cell["confirmed"] else "tried",
                                  name(c["delay_ms"]), 100 * c["slower_wins"], 100 * c["low"],
                                  100 * c["high"], c["games"],
                                  "within" if c["in_band"] else "OUTSIDE", lo, hi))
        k = cell["slope_pts_per_ms"]
        local = cell["local_slope_pts_per_ms"]
        print("  slope: %s%s; the band's %d points take %s" % (
            "%.2f points a ms (least squares through %d-%d ms, the delays at %d-%d%%)"
            % (k, cell["slope_fit_ms"][0], cell["slope_fit_ms"][1], 100 * SLOPE_FIT[0],
               100 * SLOPE_FIT[1]) if k is not None else "none (fewer than two delays at "
            "%d-%d%%)" % (100 * SLOPE_FIT[0], 100 * SLOPE_FIT[1]),
            "; %.2f within 15 ms of %s" % (local, name(fair)) if local is not None else "",
            hi - lo, "%d ms" % cell["step_ms"] if cell["step_ms"] else "-"))
    step = summary["auto_step"]
    for what, st in (("", step), (", from the local slopes", step and step["local"])):
        if st:
            print("AUTO HANDICAP base step%s: %d ms (the band's %d points / %.2f points a ms, "
                  "the steepest, at %d ms slower: %.1f ms; by gap: %s)"
                  % (what, st["step_ms"], hi - lo, st["slope_pts_per_ms"], st["gap_ms"],
                     st["exact_ms"], ", ".join("%s ms slower %s" % (g, "%d ms" % s if s else "-")
                                               for g, s in st["steps_ms"].items())))


def print_long(long):
    """The Long Speed study's lines of the printed summary."""
    for variant, v in long.items():
        for lv, c in v["levels"].items():
            print("%-8s %-9s %5d games  length median %5.1f s (10-90%%: %5.1f-%5.1f)  "
                  "stalls %5.2f  covers %5.1f  %.2f s of play a cover%s"
                  % (variant, lv, c["games"], c["length_s_median"], c["length_s_p10"],
                     c["length_s_p90"], c["stalls_mean"], c["covers_mean"], c["s_per_cover"],
                     "  unfinished %.2f%%" % (100 * c["unfinished"]) if c["unfinished"]
                     else ""))
        if v["slower_wins"]:
            print("%-8s SHARP against SHARP slowed: slower wins %s" % (variant, "  ".join(
                "%s ms %.1f%% (95%%: %.1f-%.1f%%)" % (gap, 100 * c["slower_wins"],
                                                     100 * c["low"], 100 * c["high"])
                for gap, c in v["slower_wins"].items())))


LONG_GAMES = 1000  # --long-games: its default


def _long(args, seed):
    """The Long Speed study of main(), from seed on: (its figures, interrupted)."""
    print("Long Speed study: %d games (%d a variant and level, %d a variant and gap)" % (
        long_size(args.long_games), args.long_games, 2 * args.long_games), file=sys.stderr)
    try:
        return long_study(args.long_games, seed, args.jobs), False
    except KeyboardInterrupt:
        return {}, True


def _long_only(args, seed):
    """main() with --long-only: the Long Speed study alone, from seed on."""
    t0 = time.monotonic()
    long, interrupted = _long(args, seed)
    summary = {"long": long, "games": long_size(args.long_games) if long else 0,
               "games_per_second": round(long_size(args.long_games) / max(
                   time.monotonic() - t0, 1e-9)) if long else 0,
               "interrupted": interrupted}
    write_atomic(os.path.join(args.out, "summary.json"),
                 json.dumps(summary, indent=1).encode("utf-8"), mode=0o644)
    paths = [plot_long(long, args.out)] if long and not args.no_plots else []
    print_long(long)
    print("%d games/s; wrote summary.json%s" % (summary["games_per_second"], "".join(
        ", " + os.path.basename(p) for p in paths)))
    return 130 if interrupted else 0


def main(argv=None):
    from tools.cli import Parser, bounded
    ap = Parser(prog="make sim", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=bounded(1, MAX_GAMES, " games a pairing"), default=200,
                    help="games per pairing of levels (variants get twice as many; default "
                         "200, at most {:,})".format(MAX_GAMES))
    ap.add_argument("--levels", type=_levels, default=list(range(len(LEVELS))),
                    help="comma-separated levels to pair (default all: %s)" % ",".join(LEVEL_NAMES))
    ap.add_argument("--variants", type=_variants, default=list(VARIANTS),
                    help="comma-separated variants (default all: %s)" % ",".join(VARIANTS))
    ap.add_argument("--handicap-games", type=bounded(0, 10 ** 6), default=400,
                    help="handicap study: games per reaction gap and card handicap, and per "
                         "gap and time handicap (EVEN and the %d delays the handheld offers, "
                         "%d-%d ms; default 400; 0 leaves the study out)"
                         % (len(DELAYS_MS), DELAYS_MS[0], DELAYS_MS[-1]))
    ap.add_argument("--confirm-games", type=bounded(0, 10 ** 6), default=1600,
                    help="handicap study: new games per gap at the delay closest to even, "
                         "the figure reported, and at the next setting towards even while "
                         "the last is off 45-55%%%% (%d settings at most; default 1600; 0 "
                         "leaves it out)" % CONFIRM_TRIES)
    ap.add_argument("--auto-families", type=bounded(0, 10 ** 5), default=60,
                    help="AUTO HANDICAP study: families per reaction gap, each %d one-game "
                         "matches from EVEN with AUTO HANDICAP on (default 60; 0 leaves it "
                         "out)" % AUTO_MATCHES)
    ap.add_argument("--long-games", type=bounded(0, 10 ** 5), default=LONG_GAMES,
                    help="Long Speed study: games per level for the standard game and Long "
                         "Speed with 5 and 6 piles a row, twice as many per reaction gap "
                         "(%s ms; default %d; 0 leaves it out)"
                         % (", ".join(map(str, LONG_GAPS_MS)), LONG_GAMES))
    ap.add_argument("--long-only", action="store_true",
                    help="play only the Long Speed study, from the seeds the whole study "
                         "with the same options gives it (so its figures are that study's); "
                         "summary.json then holds only them, and the plot is long_speed.png")
    ap.add_argument("--seed", type=int, default=1, help="first game's seed (default 1)")
    ap.add_argument("--out", default="sim-out", help="output directory (default sim-out)")
    ap.add_argument("--no-plots", action="store_true", help="CSV and summary only")
    ap.add_argument("--jobs", type=bounded(1, MAX_JOBS, " processes"), default=_cores(),
                    help="processes that play the games (default: one a core, here %d; 1 "
                         "plays them in this process)" % _cores())
    args = ap.parse_args(argv)
    scan = plan_size(args.games, args.levels, args.variants, args.handicap_games)
    confirm = len(GAPS_MS) * args.confirm_games if args.handicap_games else 0
    total = scan + confirm  # (the confirmation's first round; more if one is off the band)
    most = scan + CONFIRM_TRIES * confirm  # (its games from seed + scan on)
    auto_games = len(GAPS_MS) * args.auto_families * AUTO_MATCHES  # (from seed + most on)
    long_games = long_size(args.long_games)  # (from seed + most + auto_games on)
    seeds = most + auto_games + long_games
    top = (SEED_MAX - 2) // 2 - (seeds - 1)  # the last bots: 2 * seed + 1, + 2
    if not 0 <= args.seed <= top:
        ap.error("--seed must be 0..%d for up to %d games (the bots' seeds must stay "
                 "below 2**30)" % (top, seeds))
    if args.long_only and not args.long_games:
        ap.error("--long-only with --long-games 0 plays nothing")
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        ap.error("cannot create --out %s: %s" % (args.out, e))
    if args.long_only:
        return _long_only(args, args.seed + most + auto_games)
    csv_path = os.path.join(args.out, "games.csv")
    games = plan(args.games, args.levels, args.variants, args.seed, args.handicap_games)
    print("%d games on %d process%s -> %s%s" % (
        total, args.jobs, "es" if args.jobs > 1 else "", csv_path,
        " (the last %d confirm the handicap study's fairest delays, and a gap's next "
        "setting if one is off 45-55%%)" % confirm if confirm else ""), file=sys.stderr)
    t0 = time.monotonic()
    interrupted = False
    progress = Progress(total)
    try:
        rows = run(games, csv_path, progress, args.jobs, chunk_size(scan, args.jobs))
        done = scan
        todo = next_delays(rows) if confirm else {}
        while todo:  # a round of the confirmation
            n = len(todo) * args.confirm_games
            if done > scan:  # not the first: its games were not in the bar's total
                progress.total += n
                print("confirming again, the last outside %d-%d%%: %s" % (
                    round(100 * BAND[0]), round(100 * BAND[1]), ", ".join(
                        "%d ms slower at %d ms" % (g, d) for g, d in todo.items())),
                    file=sys.stderr)
            progress.label = "  (confirming)"
            rows += run(confirm_plan(todo, args.confirm_games, args.seed + done), csv_path,
                        progress, args.jobs, chunk_size(n, args.jobs), append=True, done=done)
            done += n
            todo = next_delays(rows)
    except KeyboardInterrupt:
        interrupted = True
        rows = read_csv(csv_path)
        print("interrupted: kept the %d games finished so far in %s" % (len(rows), csv_path),
              file=sys.stderr)
    elapsed = time.monotonic() - t0
    summary = summarize(rows)
    summary["games_per_second"] = round(len(rows) / max(elapsed, 1e-9))
    auto = {}
    if args.auto_families and not interrupted:
        print("AUTO HANDICAP study: %d families a gap, %d matches each" % (
            args.auto_families, AUTO_MATCHES), file=sys.stderr)
        try:
            auto = auto_study(args.auto_families, args.seed + most, args.jobs)
        except KeyboardInterrupt:
            interrupted = True
    summary["auto"] = auto
    long = {}
    if args.long_games and not interrupted:
        long, interrupted = _long(args, args.seed + most + auto_games)
    summary["long"] = long
    summary["interrupted"] = interrupted
    write_atomic(os.path.join(args.out, "summary.json"),
                 json.dumps(summary, indent=1).encode("utf-8"), mode=0o644)
    paths = [] if args.no_plots or not rows else plot(rows, summary, args.out)
    if long and not args.no_plots:
        paths.append(plot_long(long, args.out))
    for name, v in summary["variants"].items():
        print("%-15s %5d games  length median %5.1f s (10-90%%: %5.1f-%5.1f)  stalls %5.1f  "
              "deadlocks %5.2f%%  A/B/draw %4.1f/%4.1f/%4.1f%%%s"
              % (name, v["games"], v["length_s_median"], v["length_s_p10"], v["length_s_p90"],
                 v["stalls_mean"], 100 * v["deadlock_rate"], 100 * v["a_wins"],
                 100 * v["b_wins"], 100 * v["draws"],
                 "  unfinished %.1f%%" % (100 * v["unfinished"]) if v["unfinished"] else ""))
    for gap, cell in summary["handicap"].items():
        fair = cell["fairest"]
        print("card handicap, %s ms slower: slower wins %s; closest to even: %s (%.1f%%)"
              % (gap, "  ".join("%s %4.1f%%" % ("EVEN" if h == "0" else "+" + h, 100 * v)
                                for h, v in cell["slower_wins"].items()),
                 "EVEN" if fair == 0 else "+%d" % fair, 100 * cell["slower_wins"][str(fair)]))
    _print_delays(summary)
    for gap, a in auto.items():
        print("AUTO HANDICAP, %s ms slower: slower wins %.1f%% of matches 1-%d, %.1f%% of "
              "matches %d-%d (95%%: %.1f-%.1f%%), at a median %d ms" % (
                  gap, 100 * a["slower_wins_first"], AUTO_SETTLED, 100 * a["slower_wins_after"],
                  AUTO_SETTLED + 1, AUTO_MATCHES, 100 * a["after_interval"][0],
                  100 * a["after_interval"][1], a["ms_median_after"]))
    print_long(long)
    print("%d games/s; wrote %s, summary.json%s" % (summary["games_per_second"], csv_path,
          "".join(", " + os.path.basename(p) for p in paths)))
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
