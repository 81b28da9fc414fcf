"""The simulation lab: many bot-against-bot games on a simulated clock.

Writes a CSV (one row per game) and PNG plots: game length, covers, stalls and dead
deals per game, deadlock rate, win rate by seat and by reaction-time difference, for the
standard rules and for each variant; and the handicap study: for reaction gaps of 25, 50,
100, 180 and 300 ms, the slower bot's win rate when the faster is dealt 0 to 8 more cards.
The games are played on every core (--jobs), each game from its own seed, so the rows
are the same, in the same order, whatever the number of processes. An interrupted run
keeps every row written so far.

    python -m tools.sim                      # the standard study, into sim-out/
    python -m tools.sim --games 200 --out /tmp/s --levels QUICK,SHARP --variants standard
"""
import argparse
import csv
import json
import os
import signal
import sys
import tempfile
import time
from collections import deque

from engine import Game, Rules, GAME_OVER, DRAW, SUIT, RANK_OR_SUIT, DEADLOCK_FEWER
from engine.bot import Bot, LEVELS, play_out
from engine.rng import SEED_MAX

LEVEL_NAMES = [lv[0] for lv in LEVELS]
VARIANTS = {
    "standard": {},
    "quick-3": {"piles_per_row": 3},
    "long-5": {"piles_per_row": 5},
    "long-6": {"piles_per_row": 6},
    "suit": {"match_by": SUIT},
    "rank-or-suit": {"match_by": RANK_OR_SUIT},
    "doubles": {"doubles": True},
    "deadlock-fewer": {"deadlock": DEADLOCK_FEWER},
}
FIELDS = ("study", "variant", "seed", "level_a", "level_b", "reaction_a_ms",
          "reaction_b_ms", "handicap", "winner", "length_ms", "covers", "fouls", "stalls",
          "dead_deals", "deadlock", "cards_a", "cards_b")
_GAME_LIMIT_MS = 30 * 60 * 1000  # a game still going after this is stopped, "unfinished"
GAPS_MS = (25, 50, 100, 180, 300)  # the handicap study's reaction gaps
HANDICAPS = (0, 2, 4, 6, 8)  # cards the faster bot is dealt over the slower
HANDICAP_LEVEL = LEVEL_NAMES.index("SHARP")  # both bots play it; the slower one is slowed
MAX_GAMES = 10 ** 7  # --games: games per pairing of levels (a year of one core, or so)
MAX_JOBS = 256  # --jobs: processes
CHUNK = 32  # games a worker process plays per task (and rows between two flushes)


def slowed(bot, ms):
    """The bot with every reaction (and every missed change) ms later: a reaction gap the
    five levels do not have. Desktop only: it shifts the bot's table of delays (a bot
    slowed by 0 is left as it is)."""
    if ms:
        bot._delays = [d + ms for d in bot._delays]
        bot._miss_ms += ms
    return bot


def play_game(rules, seed, level_a, level_b, slow_a=0, slow_b=0):
    """One bot-against-bot game from seed; returns the Game and its length in ms, or -1
    for a game still going after 30 simulated minutes (stopped, reported as unfinished).
    slow_a and slow_b add to each bot's reaction time (ms)."""
    g = Game(rules, seed)
    g.start(0)
    a = slowed(Bot(g, 0, level_a, 2 * seed + 1), slow_a)
    b = slowed(Bot(g, 1, level_b, 2 * seed + 2), slow_b)
    end = play_out(g, a, b, _GAME_LIMIT_MS)
    return g, end


def games_per_second(games=1000, level=2):
    """Bot-against-bot games per second on this core, standard rules (for make bench)."""
    rules = Rules(wins_needed=1)
    t0 = time.perf_counter()
    for seed in range(games):
        play_game(rules, seed, level, level)
    return games / (time.perf_counter() - t0)


def row(study, variant, seed, la, lb, g, length, slow_a=0, slow_b=0):
    """The CSV row of a finished game."""
    result = g.game_result
    if length < 0:
        winner, length = "unfinished", _GAME_LIMIT_MS
    else:
        winner = "draw" if result == DRAW else "AB"[result]
    return {
        "study": study, "variant": variant, "seed": seed,
        "level_a": LEVEL_NAMES[la], "level_b": LEVEL_NAMES[lb],
        "reaction_a_ms": LEVELS[la][1] + slow_a, "reaction_b_ms": LEVELS[lb][1] + slow_b,
        "handicap": g.rules.handicap, "winner": winner,
        "length_ms": length, "covers": g.covers, "fouls": g.fouls, "stalls": g.stalls,
        "dead_deals": g.dead_deals, "deadlock": int(g.deadlocked),
        "cards_a": g.deck_size(0), "cards_b": g.deck_size(1),
    }


def plan_size(games, levels, variants, handicap_games=0):
    """How many games plan() yields."""
    return (len(levels) ** 2 * games + len(variants) * games * 2
            + len(GAPS_MS) * len(HANDICAPS) * handicap_games)


def plan(games, levels, variants, seed, handicap_games=0):
    """The (study, variant, seed, level_a, level_b, slow_a, slow_b, handicap) of each game
    to play, one at a time (a study of millions of games is not held in memory). The
    handicap study plays handicap_games per gap and handicap, the faster bot in seat A
    for half of them and in seat B for the other half."""
    s = seed
    for la in levels:  # every pairing of the chosen levels, standard rules
        for lb in levels:
            for _ in range(games):
                yield ("levels", "standard", s, la, lb, 0, 0, 0)
                s += 1
    mid = levels[len(levels) // 2]
    for name in variants:  # each variant with two equal players
        for _ in range(games * 2):
            yield ("variants", name, s, mid, mid, 0, 0, 0)
            s += 1
    lv = HANDICAP_LEVEL
    for gap in GAPS_MS:
        for h in HANDICAPS:
            for i in range(handicap_games):
                if i & 1:  # B is faster: B is dealt the extra cards
                    yield ("handicap", "standard", s, lv, lv, gap, 0, -h)
                else:
                    yield ("handicap", "standard", s, lv, lv, 0, gap, h)
                s += 1


class Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total, stream=sys.stderr):
        self.total = total
        self.stream = stream
        self.t0 = time.monotonic()
        self.shown = -1

    def show(self, done):
        pct = done * 100 // max(self.total, 1)
        if pct == self.shown and done != self.total:
            return
        self.shown = pct
        rate = done / max(time.monotonic() - self.t0, 1e-9)
        bar = "#" * (pct * 30 // 100)
        self.stream.write("\r[%-30s] %3d%%  %d/%d games  %.0f games/s"
                          % (bar, pct, done, self.total, rate))
        if done == self.total:
            self.stream.write("\n")
        self.stream.flush()


_RULES = {}  # (variant, handicap): its Rules, made once a process


def play_planned(game):
    """The CSV row of one game from plan()."""
    study, variant, seed, la, lb, sa, sb, h = game
    rules = _RULES.get((variant, h))
    if rules is None:
        rules = _RULES[(variant, h)] = Rules(wins_needed=1, handicap=h, **VARIANTS[variant])
    g, length = play_game(rules, seed, la, lb, sa, sb)
    return row(study, variant, seed, la, lb, g, length, sa, sb)


def play_chunk(games):
    """The rows of a list of games from plan(), in order (a worker process's task)."""
    return [play_planned(game) for game in games]


def _chunks(games, size):
    chunk = []
    for game in games:
        chunk.append(game)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _ignore_sigint():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _rows(games, jobs, chunk):
    """The rows of the games, in plan order: in this process (jobs 1), or from a pool of
    jobs processes that play chunk games a task, a few tasks ahead of the rows given."""
    if jobs == 1:
        for game in games:
            yield play_planned(game)
        return
    import multiprocessing
    # The workers are born with Ctrl-C ignored (and keep it so): an interrupt is for this
    # process alone, which stops them, so they print nothing.
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        pool = multiprocessing.Pool(jobs, initializer=_ignore_sigint)
    finally:
        signal.signal(signal.SIGINT, old)
    try:
        ahead = deque()
        for part in _chunks(games, chunk):
            ahead.append(pool.apply_async(play_chunk, (part,)))
            if len(ahead) > 2 * jobs:
                yield from ahead.popleft().get()
        while ahead:
            yield from ahead.popleft().get()
    finally:
        pool.terminate()
        pool.join()


def run(games, csv_path, progress=None, jobs=1, chunk=CHUNK):
    """Play the games (an iterable from plan(); progress knows how many) on jobs processes
    (1: in this one), writing each game's row in plan order; returns the rows."""
    rows = []
    played = _rows(games, jobs, chunk)
    try:
        with open(csv_path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=FIELDS)
            w.writeheader()
            try:
                for i, r in enumerate(played):
                    w.writerow(r)
                    rows.append(r)
                    if (i + 1) % CHUNK == 0 or (progress and i + 1 == progress.total):
                        f.flush()
                        if progress:
                            progress.show(i + 1)
            except KeyboardInterrupt:
                f.flush()
                if progress:
                    progress.stream.write("\n")
                raise
    finally:
        played.close()  # (stops the pool)
    return rows


def study_games_per_second(jobs, games=20, handicap_games=8):
    """Games per second of a small standard study (every level and variant, --games
    games, handicap study included) on jobs processes, CSV written (for make bench)."""
    levels = list(range(len(LEVELS)))
    total = plan_size(games, levels, list(VARIANTS), handicap_games)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        run(plan(games, levels, list(VARIANTS), 1, handicap_games),
            os.path.join(tmp, "games.csv"), jobs=jobs, chunk=chunk_size(total, jobs))
        return total / (time.perf_counter() - t0)


def chunk_size(total, jobs):
    """Games a task: CHUNK, or fewer for a study too small to give every process a few."""
    return max(1, min(CHUNK, total // (4 * jobs)))


def read_csv(path):
    """The rows of a CSV written by run(), with numbers as ints."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in FIELDS:
            if k not in ("study", "variant", "level_a", "level_b", "winner"):
                r[k] = int(r.get(k) or 0)  # (a CSV from before the handicap has none)
    return rows


def _mean(xs):
    return sum(xs) / len(xs) if xs else 0.0


def _pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0


def summarize(rows):
    """Figures from the rows: per variant, and win rates by seat and reaction difference."""
    out = {"games": len(rows), "variants": {}, "by_reaction_diff": {}}
    for variant in sorted({r["variant"] for r in rows if r["study"] != "handicap"}):
        vr = [r for r in rows if r["variant"] == variant and r["study"] != "handicap" and
              (variant != "standard" or r["level_a"] == r["level_b"])]
        if not vr:
            continue
        secs = [r["length_ms"] / 1000 for r in vr]
        out["variants"][variant] = {
            "games": len(vr),
            "length_s_mean": round(_mean(secs), 2),
            "length_s_median": round(_pct(secs, 0.5), 2),
            "length_s_p10": round(_pct(secs, 0.1), 2),
            "length_s_p90": round(_pct(secs, 0.9), 2),
            "share_30_to_90_s": round(sum(30 <= s <= 90 for s in secs) / len(vr), 3),
            "covers_mean": round(_mean([r["covers"] for r in vr]), 2),
            "stalls_mean": round(_mean([r["stalls"] for r in vr]), 2),
            "dead_deals_mean": round(_mean([r["dead_deals"] for r in vr]), 2),
            "deadlock_rate": round(_mean([r["deadlock"] for r in vr]), 4),
            "a_wins": round(_mean([r["winner"] == "A" for r in vr]), 4),
            "b_wins": round(_mean([r["winner"] == "B" for r in vr]), 4),
            "draws": round(_mean([r["winner"] == "draw" for r in vr]), 4),
            "unfinished": round(_mean([r["winner"] == "unfinished" for r in vr]), 4),
        }
    for r in rows:
        if r["study"] != "levels":
            continue
        d = str(r["reaction_a_ms"] - r["reaction_b_ms"])
        cell = out["by_reaction_diff"].setdefault(d, [0, 0])
        cell[0] += r["winner"] == "A"
        cell[1] += 1
    out["by_reaction_diff"] = {d: round(w / n, 4) for d, (w, n) in
                               sorted(out["by_reaction_diff"].items(), key=lambda x: int(x[0]))}
    out["handicap"] = handicap_summary(rows)
    return out


def handicap_summary(rows):
    """{gap ms: {"slower_wins": {handicap: rate}, "games": {handicap: n}, "fairest": h}}:
    the slower bot's win rate (draws and unfinished games are not wins) when the faster
    is dealt h more cards, and the handicap that brings it closest to 50%."""
    cells = {}
    for r in rows:
        if r["study"] != "handicap":
            continue
        gap = abs(r["reaction_a_ms"] - r["reaction_b_ms"])
        slower = "A" if r["reaction_a_ms"] > r["reaction_b_ms"] else "B"
        cell = cells.setdefault(gap, {}).setdefault(abs(r["handicap"]), [0, 0])
        cell[0] += r["winner"] == slower
        cell[1] += 1
    out = {}
    for gap in sorted(cells):
        rates = {h: round(w / n, 4) for h, (w, n) in sorted(cells[gap].items())}
        out[str(gap)] = {"slower_wins": {str(h): v for h, v in rates.items()},
                         "games": {str(h): n for h, (_, n) in sorted(cells[gap].items())},
                         "fairest": min(rates, key=lambda h: (abs(rates[h] - 0.5), h))}
    return out


def plot(rows, summary, out_dir):
    """The PNG plots; returns their paths."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    paths = []

    def save(fig, name):
        path = os.path.join(out_dir, name)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)

    variants = list(summary["variants"])
    std = [r for r in rows if r["variant"] == "standard" and r["level_a"] == r["level_b"]
           and r["study"] != "handicap"]
    if std:
        fig, ax = plt.subplots(figsize=(7, 4))
        for lv in LEVEL_NAMES:
            secs = [r["length_ms"] / 1000 for r in std if r["level_a"] == lv]
            if secs:
                ax.hist(secs, bins=40, histtype="step", label=lv)
        ax.axvspan(30, 90, color="0.85", zorder=0, label='printed: "30 to 90 s"')
        ax.set_xlabel("game length, simulated seconds (two bots of the same level)")
        ax.set_ylabel("games")
        ax.legend(fontsize=8)
        save(fig, "game_length.png")

    fig, axes = plt.subplots(1, 3, figsize=(11, 3.6))
    for ax, key, label in zip(axes, ("covers", "stalls", "dead_deals"),
                              ("covers per game", "stalls per game", "dead deals per game")):
        for v in variants:
            xs = [r[key] for r in rows if r["variant"] == v and r["level_a"] == r["level_b"]
                  and r["study"] != "handicap"]
            ax.hist(xs, bins=30, histtype="step", label=v)
        ax.set_xlabel(label)
    axes[0].set_ylabel("games")
    axes[-1].legend(fontsize=7)
    save(fig, "per_game_counts.png")

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    s = summary["variants"]
    axes[0].bar(variants, [s[v]["deadlock_rate"] * 100 for v in variants])
    axes[0].set_ylabel("games ending in deadlock, %")
    axes[1].bar(variants, [s[v]["length_s_median"] for v in variants])
    axes[1].set_ylabel("median game length, s")
    for ax in axes:
        ax.tick_params(axis="x", rotation=40, labelsize=8)
    save(fig, "variants.png")

    fig, ax = plt.subplots(figsize=(8, 3.8))
    xs = range(len(variants))
    ax.bar([x - 0.2 for x in xs], [s[v]["a_wins"] * 100 for v in variants], 0.4, label="A wins")
    ax.bar([x + 0.2 for x in xs], [s[v]["b_wins"] * 100 for v in variants], 0.4, label="B wins")
    ax.axhline(50, color="k", lw=0.8)
    ax.set_xticks(list(xs))
    ax.set_xticklabels(variants, rotation=40, fontsize=8)
    ax.set_ylabel("% of games (equal bots)")
    ax.legend()
    save(fig, "win_rate_by_seat.png")

    if summary["by_reaction_diff"]:
        fig, ax = plt.subplots(figsize=(7, 4))
        d = [int(k) for k in summary["by_reaction_diff"]]
        ax.plot(d, [v * 100 for v in summary["by_reaction_diff"].values()], "o-")
        ax.axhline(50, color="k", lw=0.8)
        ax.set_xlabel("A's mean reaction time minus B's, ms (negative: A is faster)")
        ax.set_ylabel("A's win rate, %")
        save(fig, "win_rate_by_reaction.png")

    hc = summary["handicap"]
    if hc:
        fig, ax = plt.subplots(figsize=(7, 4))
        for gap, cell in hc.items():
            hs = [int(h) for h in cell["slower_wins"]]
            ax.plot(hs, [v * 100 for v in cell["slower_wins"].values()], "o-",
                    label="%s ms slower (%d games a point)" % (gap, min(cell["games"].values())))
        ax.axhline(50, color="k", lw=0.8)
        ax.set_xticks(list(HANDICAPS))
        ax.set_xticklabels(["EVEN"] + ["+%d" % h for h in HANDICAPS[1:]])
        ax.set_xlabel("cards the faster bot is dealt over the slower (HANDICAP)")
        ax.set_ylabel("slower bot's win rate, %")
        ax.set_title("both bots %s (mean reaction %d ms), one of them slowed by the gap"
                     % (LEVEL_NAMES[HANDICAP_LEVEL], LEVELS[HANDICAP_LEVEL][1]), fontsize=9)
        ax.set_ylim(-2, 102)
        ax.legend(fontsize=8)
        save(fig, "handicap.png")
    return paths


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
                    help="handicap study: games per reaction gap and handicap (default 400; "
                         "0 leaves it out)")
    ap.add_argument("--seed", type=int, default=1, help="first game's seed (default 1)")
    ap.add_argument("--out", default="sim-out", help="output directory (default sim-out)")
    ap.add_argument("--no-plots", action="store_true", help="CSV and summary only")
    ap.add_argument("--jobs", type=bounded(1, MAX_JOBS, " processes"), default=_cores(),
                    help="processes that play the games (default: one a core, here %d; 1 "
                         "plays them in this process)" % _cores())
    args = ap.parse_args(argv)
    total = plan_size(args.games, args.levels, args.variants, args.handicap_games)
    top = (SEED_MAX - 2) // 2 - (total - 1)  # the last game's bots: 2 * its seed + 1 and + 2
    if not 0 <= args.seed <= top:
        ap.error("--seed must be 0..%d for these %d games (the bots' seeds must stay "
                 "below 2**30)" % (top, total))
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        ap.error("cannot create --out %s: %s" % (args.out, e))
    csv_path = os.path.join(args.out, "games.csv")
    games = plan(args.games, args.levels, args.variants, args.seed, args.handicap_games)
    print("%d games on %d process%s -> %s" % (total, args.jobs, "es" if args.jobs > 1 else "",
                                             csv_path), file=sys.stderr)
    t0 = time.monotonic()
    interrupted = False
    try:
        rows = run(games, csv_path, Progress(total), args.jobs, chunk_size(total, args.jobs))
    except KeyboardInterrupt:
        interrupted = True
        rows = read_csv(csv_path)
        print("interrupted: kept the %d games finished so far in %s" % (len(rows), csv_path),
              file=sys.stderr)
    elapsed = time.monotonic() - t0
    summary = summarize(rows)
    summary["games_per_second"] = round(len(rows) / max(elapsed, 1e-9))
    summary["interrupted"] = interrupted
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    paths = [] if args.no_plots or not rows else plot(rows, summary, args.out)
    for name, v in summary["variants"].items():
        print("%-15s %5d games  length median %5.1f s (10-90%%: %5.1f-%5.1f)  stalls %5.1f  "
              "deadlocks %5.2f%%  A/B/draw %4.1f/%4.1f/%4.1f%%%s"
              % (name, v["games"], v["length_s_median"], v["length_s_p10"], v["length_s_p90"],
                 v["stalls_mean"], 100 * v["deadlock_rate"], 100 * v["a_wins"],
                 100 * v["b_wins"], 100 * v["draws"],
                 "  unfinished %.1f%%" % (100 * v["unfinished"]) if v["unfinished"] else ""))
    for gap, cell in summary["handicap"].items():
        fair = cell["fairest"]
        print("handicap, %s ms slower: slower wins %s; closest to even: %s (%.1f%%)"
              % (gap, "  ".join("%s %4.1f%%" % ("EVEN" if h == "0" else "+" + h, 100 * v)
                                for h, v in cell["slower_wins"].items()),
                 "EVEN" if fair == 0 else "+%d" % fair, 100 * cell["slower_wins"][str(fair)]))
    print("%d games/s; wrote %s, summary.json%s" % (summary["games_per_second"], csv_path,
          "".join(", " + os.path.basename(p) for p in paths)))
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
