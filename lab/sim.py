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
keeps every row written so far.

    python -m lab.sim                      # the standard study, into sim-out/
    python -m lab.sim --games 200 --out /tmp/s --levels QUICK,SHARP --variants standard
    python -m lab.sim --long-only --jobs 2  # the standard study's Long Speed figures
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
from firmware.settings import FIELDS as _SETTINGS, Settings
from tools.files import replacing, write_atomic

# The time handicaps the HANDICAP setting offers the stronger seat, in ms: the magnitudes
# of its handicap_ms choices (A's presses held, or B's if negative).
DELAYS_MS = tuple(sorted({abs(v) for key, choices, _ in _SETTINGS
                          if key == "handicap_ms" for v in choices if v}))

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
          "reaction_b_ms", "handicap", "handicap_ms", "winner", "length_ms", "covers",
          "fouls", "stalls", "dead_deals", "deadlock", "cards_a", "cards_b")
_GAME_LIMIT_MS = 30 * 60 * 1000  # a game still going after this is stopped, "unfinished"
GAPS_MS = (25, 50, 100, 180, 300)  # the handicap study's reaction gaps
HANDICAPS = (0, 2, 4, 6, 8)  # cards the faster bot is dealt over the slower
DELAYS = (0,) + DELAYS_MS  # ms the faster bot's presses are held: EVEN and every setting
BAND = (0.45, 0.55)  # the slower bot's win rate that counts as even
SLOPE_FIT = (0.2, 0.8)  # the slope is fitted through the delays whose rate is in this range
STEP_GRID_MS = 5  # the suggested AUTO step is a multiple of this (the settings' step)
CONFIRM_TRIES = 3  # settings a gap's confirmation plays at most, until one is in the band
HANDICAP_LEVEL = LEVEL_NAMES.index("SHARP")  # both bots play it; the slower one is slowed
MAX_GAMES = 10 ** 7  # --games: games per pairing of levels (a year of one core, or so)
MAX_JOBS = 256  # --jobs: processes
CHUNK = 32  # games a worker process plays per task (and rows between two flushes)
STANDARD = ("levels", "variants")  # the standard study's games (not the handicap study's)


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
        "handicap": g.rules.handicap, "handicap_ms": g.rules.handicap_ms, "winner": winner,
        "length_ms": length, "covers": g.covers, "fouls": g.fouls, "stalls": g.stalls,
        "dead_deals": g.dead_deals, "deadlock": int(g.deadlocked),
        "cards_a": g.deck_size(0), "cards_b": g.deck_size(1),
    }


def plan_size(games, levels, variants, handicap_games=0, delays=DELAYS):
    """How many games plan() yields."""
    return (len(levels) ** 2 * games + len(variants) * games * 2
            + len(GAPS_MS) * (len(HANDICAPS) + len(delays)) * handicap_games)


def plan(games, levels, variants, seed, handicap_games=0, delays=DELAYS):
    """The (study, variant, seed, level_a, level_b, slow_a, slow_b, handicap, handicap_ms)
    of each game to play, one at a time (a study of millions of games is not held in
    memory). The handicap study plays handicap_games per gap and card handicap (study
    "handicap", no delay), then per gap and delay (study "delay", no cards), the faster
    bot in seat A for half of them (handicap and handicap_ms positive: A is burdened) and
    in seat B for the other half (negative)."""
    s = seed
    for la in levels:  # every pairing of the chosen levels, standard rules
        for lb in levels:
            for _ in range(games):
                yield ("levels", "standard", s, la, lb, 0, 0, 0, 0)
                s += 1
    mid = levels[len(levels) // 2]
    for name in variants:  # each variant with two equal players
        for _ in range(games * 2):
            yield ("variants", name, s, mid, mid, 0, 0, 0, 0)
            s += 1
    for gap in GAPS_MS:
        for h in HANDICAPS:
            for i in range(handicap_games):
                yield _handicapped("handicap", s, gap, i, h, 0)
                s += 1
    for gap in GAPS_MS:
        for d in delays:
            for i in range(handicap_games):
                yield _handicapped("delay", s, gap, i, 0, d)
                s += 1


def _handicapped(study, seed, gap, i, cards, ms):
    """A handicap study's game: both bots SHARP, one slowed by gap; the faster one in seat
    A for an even i (dealt cards more, its presses held ms), in seat B for an odd one."""
    lv = HANDICAP_LEVEL
    if i & 1:  # B is faster: B is burdened
        return (study, "standard", seed, lv, lv, gap, 0, -cards, -ms)
    return (study, "standard", seed, lv, lv, 0, gap, cards, ms)


def confirm_plan(chosen, games, seed):
    """A round of the confirmation: for each gap of chosen ({gap ms: delay ms}, in GAPS_MS
    order), games new games at its delay from seed on, the faster bot's seat alternating
    (see next_delays() for the rounds)."""
    s = seed
    for gap in GAPS_MS:
        if gap not in chosen:
            continue
        for i in range(games):
            yield _handicapped("confirm", s, gap, i, 0, chosen[gap])
            s += 1


class Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total, stream=sys.stderr):
        self.total = total
        self.stream = stream
        self.t0 = time.monotonic()
        self.shown = -1
        self.label = ""  # what is being played, after the figures ("" for nothing)

    def show(self, done):
        pct = done * 100 // max(self.total, 1)
        if pct == self.shown and done != self.total:
            return
        self.shown = pct
        rate = done / max(time.monotonic() - self.t0, 1e-9)
        bar = "#" * (pct * 30 // 100)
        self.stream.write("\r[%-30s] %3d%%  %d/%d games  %.0f games/s%s"
                          % (bar, pct, done, self.total, rate, self.label))
        if done == self.total:
            self.stream.write("\n")
        self.stream.flush()


_RULES = {}  # (variant, handicap, handicap_ms): its Rules, made once a process


def play_planned(game):
    """The CSV row of one game from plan()."""
    study, variant, seed, la, lb, sa, sb, h, ms = game
    rules = _RULES.get((variant, h, ms))
    if rules is None:
        rules = _RULES[(variant, h, ms)] = Rules(wins_needed=1, handicap=h, handicap_ms=ms,
                                                 **VARIANTS[variant])
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


def run(games, csv_path, progress=None, jobs=1, chunk=CHUNK, append=False, done=0):
    """Play the games (an iterable from plan(); progress knows how many) on jobs processes
    (1: in this one), writing each game's row in plan order; returns the rows. append adds
    them to the CSV (done: games progress has counted before these)."""
    rows = []
    played = _rows(games, jobs, chunk)
    try:
        with open(csv_path, "a" if append else "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=FIELDS)
            if not append:
                w.writeheader()
            try:
                for i, r in enumerate(played, done + 1):
                    w.writerow(r)
                    rows.append(r)
                    if i % CHUNK == 0 or (progress and i == progress.total):
                        f.flush()
                        if progress:
                            progress.show(i)
            except KeyboardInterrupt:
                f.flush()
                if progress:
                    progress.stream.write("\n")
                raise
    finally:
        played.close()  # (stops the pool)
    return rows


BENCH_DELAYS = DELAYS[::4]  # the delays of study_games_per_second: every 20 ms


def study_games_per_second(jobs, games=20, handicap_games=8):
    """Games per second of a small standard study (every level and variant, --games
    games, handicap study included, its delays every 20 ms, no confirmation) on jobs
    processes, CSV written (for make bench)."""
    levels = list(range(len(LEVELS)))
    total = plan_size(games, levels, list(VARIANTS), handicap_games, BENCH_DELAYS)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        run(plan(games, levels, list(VARIANTS), 1, handicap_games, BENCH_DELAYS),
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
                r[k] = int(r.get(k) or 0)  # (a CSV from before a handicap has none)
    return rows


def _mean(xs):
    return sum(xs) / len(xs) if xs else 0.0


def _pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0


def summarize(rows):
    """Figures from the rows: per variant, and win rates by seat and reaction difference."""
    out = {"games": len(rows), "variants": {}, "by_reaction_diff": {}}
    for variant in sorted({r["variant"] for r in rows if r["study"] in STANDARD}):
        vr = [r for r in rows if r["variant"] == variant and r["study"] in STANDARD and
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
    out["handicap_ms"] = delay_summary(rows)
    out["auto_step"] = auto_step(out["handicap_ms"])
    return out


def _slower_wins(rows, study, key):
    """{gap: {abs(row[key]): [slower bot's wins, games]}} of a handicap study's rows (draws
    and unfinished games are not wins)."""
    cells = {}
    for r in rows:
        if r["study"] != study:
            continue
        gap = abs(r["reaction_a_ms"] - r["reaction_b_ms"])
        slower = "A" if r["reaction_a_ms"] > r["reaction_b_ms"] else "B"
        cell = cells.setdefault(gap, {}).setdefault(abs(r[key]), [0, 0])
        cell[0] += r["winner"] == slower
        cell[1] += 1
    return cells


def handicap_summary(rows):
    """{gap ms: {"slower_wins": {handicap: rate}, "games": {handicap: n}, "fairest": h}}:
    the slower bot's win rate (draws and unfinished games are not wins) when the faster
    is dealt h more cards, and the handicap that brings it closest to 50%."""
    cells = _slower_wins(rows, "handicap", "handicap")
    out = {}
    for gap in sorted(cells):
        rates = {h: round(w / n, 4) for h, (w, n) in sorted(cells[gap].items())}
        out[str(gap)] = {"slower_wins": {str(h): v for h, v in rates.items()},
                         "games": {str(h): n for h, (_, n) in sorted(cells[gap].items())},
                         "fairest": min(rates, key=lambda h: (abs(rates[h] - 0.5), h))}
    return out


def wilson(wins, n, z=1.96):
    """The 95% (Wilson score) interval of a win rate of wins in n games: (low, high)."""
    if not n:
        return 0.0, 1.0
    p = wins / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) + z * z / (4 * n)) / n) ** 0.5 / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def fairest_delay(cells):
    """The delay closest to even in a scan ({delay: [wins, games]}): the one whose rate,
    pooled with its two neighbours' (three settings 5 ms apart, where the curve is nearly
    straight), is closest to 50%; on a tie the smaller delay; None for an empty scan.
    Pooling takes out most of one point's noise (400 games: about +-5 points, as wide as
    the band), which alone would often pick a setting beside the crossing."""
    ds = sorted(cells)
    best = None
    for i, d in enumerate(ds):
        near = ds[max(0, i - 1):i + 2]
        w = sum(cells[x][0] for x in near)
        n = sum(cells[x][1] for x in near)
        key = (abs(w / n - 0.5), d)
        if best is None or key < best:
            best = key
    return best[1] if best else None


def slope(points, low=SLOPE_FIT[0], high=SLOPE_FIT[1]):
    """The least-squares line through the (delay ms, rate) points whose rate is within
    low..high: (its slope in points of win rate per ms, the delays it went through);
    (None, those delays) for fewer than two."""
    pts = [(d, r) for d, r in points if low <= r <= high]
    if len(pts) < 2:
        return None, [d for d, _ in pts]
    mx = sum(d for d, _ in pts) / len(pts)
    my = sum(r for _, r in pts) / len(pts)
    sxx = sum((d - mx) ** 2 for d, _ in pts)
    sxy = sum((d - mx) * (r - my) for d, r in pts)
    return 100 * sxy / sxx, [d for d, _ in pts]


def step_for(pts_per_ms, band=BAND, grid=STEP_GRID_MS):
    """The delay that moves the win rate by the band's width (10 points) at this slope,
    rounded to the grid (at least one step of it); None without a rising slope."""
    if not pts_per_ms or pts_per_ms <= 0:
        return None
    width = 100 * (band[1] - band[0])
    return max(grid, int(width / pts_per_ms / grid + 0.5) * grid)


def delay_summary(rows):
    """{gap ms: {...}}: the time handicap study. "slower_wins" and "games" per delay (the
    scan); "fairest", the delay fairest_delay() chose; "confirmations", each setting the
    confirmation played, in order ({"delay_ms", "games", "slower_wins", "low", "high" (its
    95% interval), "in_band"}); "confirmed", the one reported: the first in the band, or
    else the closest to 50% (None before any is played); "slope_pts_per_ms", the
    least-squares slope of the scan's rates within 20-80%, "slope_fit_ms" the first and
    last delay of that fit; "local_slope_pts_per_ms", the same through the delays within
    15 ms of the chosen one, whatever their rates; "step_ms", step_for(slope_pts_per_ms)."""
    scan = _slower_wins(rows, "delay", "handicap_ms")
    confirm = _slower_wins(rows, "confirm", "handicap_ms")
    out = {}
    for gap in sorted(scan):
        cells = scan[gap]
        ds = sorted(cells)
        rates = [(d, cells[d][0] / cells[d][1]) for d in ds]
        fair = fairest_delay(cells)
        k, fit = slope(rates)
        local, _ = slope([(d, r) for d, r in rates if abs(d - fair) <= 15], 0.0, 1.0)
        tried = []
        for d, (w, n) in confirm.get(gap, {}).items():  # (in the order played)
            low, high = wilson(w, n)
            tried.append({"delay_ms": d, "games": n, "slower_wins": round(w / n, 4),
                          "low": round(low, 4), "high": round(high, 4),
                          "in_band": _in_band(w, n)})
        out[str(gap)] = {
            "slower_wins": {str(d): round(r, 4) for d, r in rates},
            "games": {str(d): cells[d][1] for d in ds},
            "fairest": fair, "confirmed": _reported(tried),
            "confirmations": tried,
            "slope_pts_per_ms": None if k is None else round(k, 3),
            "slope_fit_ms": [fit[0], fit[-1]] if fit else [],
            "local_slope_pts_per_ms": None if local is None else round(local, 3),
            "step_ms": step_for(k),
        }
    return out


def chosen_delays(rows):
    """{gap ms: the delay to confirm} from the scan's rows (fairest_delay of each gap)."""
    return {gap: fairest_delay(cells)
            for gap, cells in sorted(_slower_wins(rows, "delay", "handicap_ms").items())}


def _in_band(wins, games):
    return BAND[0] <= wins / games <= BAND[1]


def _reported(tried):
    """Of a gap's confirmations (delay_summary()'s, in the order played), the one reported:
    the first in the band, or else the closest to 50% (the first of equals); None for
    none."""
    for t in tried:
        if t["in_band"]:
            return t
    return min(tried, key=lambda t: abs(t["slower_wins"] - 0.5)) if tried else None


def next_delays(rows, tries=CONFIRM_TRIES, delays=DELAYS):
    """{gap ms: delay ms} of the confirmation's next round, from the rows so far. The first
    round: each gap's chosen_delays(). Then, for each gap none of whose confirmations is
    in the band yet, with fewer than tries played: the offered setting next to its last
    one, towards even (a longer delay if the slower bot won under 45%), unless it was
    played already or there is none (then the gap is done: no setting is in the band)."""
    played = _slower_wins(rows, "confirm", "handicap_ms")
    if not played:
        return chosen_delays(rows)
    out = {}
    for gap, cells in played.items():
        tried = list(cells.items())  # (in the order played)
        if len(tried) >= tries or any(_in_band(w, n) for _, (w, n) in tried):
            continue
        d, (w, n) = tried[-1]
        i = delays.index(d) + (1 if w / n < BAND[0] else -1)
        if 0 <= i < len(delays) and delays[i] not in cells:
            out[gap] = delays[i]
    return dict(sorted(out.items()))


def auto_step(delays):
    """The AUTO HANDICAP base step the slopes suggest (from delay_summary()): the smallest
    gap's step_ms, from the steepest slope (a larger step would jump over the band
    there; "exact_ms" before rounding to the 5 ms grid), with that slope and its gap, and
    every gap's step; and "local", the same from the local slopes at the crossings (each
    gap's delays within 15 ms of its chosen one); None without a slope."""
    width = round(100 * (BAND[1] - BAND[0]))

    def steepest(key):
        ks = [(cell[key], int(gap)) for gap, cell in delays.items()
              if cell[key] and cell[key] > 0]
        if not ks:
            return None
        k, gap = max(ks, key=lambda x: (x[0], -x[1]))
        return {"step_ms": step_for(k), "exact_ms": round(width / k, 1),
                "slope_pts_per_ms": k, "gap_ms": gap,
                "steps_ms": {g: step_for(c[key]) for g, c in delays.items()}}
    out = steepest("slope_pts_per_ms")
    if out is None:
        return None
    out["band_pts"] = width
    out["local"] = steepest("local_slope_pts_per_ms")
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
        with replacing(path) as temp:
            fig.savefig(temp, dpi=110, format="png")
        plt.close(fig)
        paths.append(path)

    variants = list(summary["variants"])
    std = [r for r in rows if r["variant"] == "standard" and r["level_a"] == r["level_b"]
           and r["study"] in STANDARD]
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
                  and r["study"] in STANDARD]
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

    hc, hm = summary["handicap"], summary.get("handicap_ms") or {}
    if hc or hm:
        fig, (ax, cards) = plt.subplots(1, 2, figsize=(11, 4.8), sharey=True,
                                        gridspec_kw={"width_ratios": (3, 1)})
        colours = {}
        for ax_ in (ax, cards):
            ax_.axhspan(100 * BAND[0], 100 * BAND[1], color="0.88", zorder=0)
            ax_.axhline(50, color="k", lw=0.6, zorder=1)
        for i, (gap, cell) in enumerate(hm.items()):
            ds = [int(d) for d in cell["slower_wins"]]
            line, = ax.plot(ds, [100 * v for v in cell["slower_wins"].values()], ".-",
                            lw=1, ms=3, label="%s ms slower" % gap)
            colours[gap] = line.get_color()
            for t in cell.get("confirmations", []):  # (a setting tried and left: hollow)
                if t != cell["confirmed"]:
                    ax.plot([t["delay_ms"]], [100 * t["slower_wins"]], "D", ms=6, mfc="none",
                            mec=line.get_color(), zorder=4)
            c = cell["confirmed"]
            if c:
                y = 100 * c["slower_wins"]
                ax.errorbar([c["delay_ms"]], [y], yerr=[[y - 100 * c["low"]],
                            [100 * c["high"] - y]], fmt="D", ms=7, color=line.get_color(),
                            mec="k", capsize=3, zorder=5)
                ax.annotate("%d ms: %.1f%%" % (c["delay_ms"], y), (c["delay_ms"], y),
                            xytext=(6, -14 if i % 2 else 8), textcoords="offset points",
                            fontsize=8, fontweight="bold", color=line.get_color(),
                            bbox={"fc": "white", "ec": "none", "alpha": 0.8, "pad": 1})
        some = next(iter(hm.values()), None)
        games = min(some["games"].values()) if some else 0
        conf = max((c["confirmed"]["games"] for c in hm.values() if c["confirmed"]), default=0)
        left = any(len(c.get("confirmations", [])) > 1 for c in hm.values())
        if hm:
            ax.set_xlim(0, max(DELAYS))
            ax.set_xlabel("time handicap: ms each press of the faster bot is held back "
                          "(EVEN at 0)")
            ax.legend(fontsize=8, loc="lower right")
            ax.set_title("%d games a point; %s%s45-55%% shaded" % (
                games, "diamond: the setting confirmed with %d new games, its 95%% interval; "
                % conf if conf else "", "hollow: played again, off the band; " if left
                else ""), fontsize=9)
        ax.set_ylabel("slower bot's win rate, %")
        ax.set_ylim(-2, 102)
        for gap, cell in hc.items():
            hs = [int(h) for h in cell["slower_wins"]]
            cards.plot(hs, [v * 100 for v in cell["slower_wins"].values()], "o-", ms=4,
                       color=colours.get(gap), label="%s ms slower" % gap)
        cards.set_xticks(list(HANDICAPS))
        cards.set_xticklabels(["EVEN"] + ["+%d" % h for h in HANDICAPS[1:]], fontsize=8)
        cards.set_xlabel("cards the faster bot is dealt more")
        cards.set_title("card handicap, at 0 ms", fontsize=9)
        if not hm:
            cards.legend(fontsize=8)
        fig.suptitle("Both bots %s (mean reaction %d ms), one slowed by the gap; the faster "
                     "one in seat A for half the games, B for the other half"
                     % (LEVEL_NAMES[HANDICAP_LEVEL], LEVELS[HANDICAP_LEVEL][1]), fontsize=10)
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


AUTO_MATCHES = 40  # matches a family plays in the AUTO HANDICAP study
AUTO_SETTLED = 10  # ... of which the first are its way to its setting


def auto_family(task):
    """One family in the AUTO HANDICAP study: the faster bot (A) and the slower by gap (B)
    play AUTO_MATCHES one-game matches from EVEN, HANDICAP moved after each by the
    handheld's own Settings.match_won. (gap, family) -> [(slower won, ms, cards), ...]."""
    gap, family, seed = task
    s = Settings()
    s.choose("auto", 1)
    out = []
    lv = HANDICAP_LEVEL
    for m in range(AUTO_MATCHES):
        r = s.rules()
        rules = Rules(wins_needed=1, handicap=r.handicap, handicap_ms=r.handicap_ms)
        g, _ = play_game(rules, seed + family * AUTO_MATCHES + m, lv, lv, 0, gap)
        out.append((int(g.game_result == 1), r.handicap_ms, r.handicap))
        s.match_won(g.game_result if g.game_result in (0, 1) else -1)
    return out


def auto_study(families, seed, jobs=1):
    """{gap: figures} for AUTO HANDICAP: how often the slower player wins while AUTO finds
    its setting (the first AUTO_SETTLED matches) and after, and where it settles."""
    tasks = [(gap, f, seed + i * families * AUTO_MATCHES)
             for i, gap in enumerate(GAPS_MS) for f in range(families)]
    if jobs > 1:
        import multiprocessing
        with multiprocessing.Pool(jobs, initializer=_ignore_sigint) as pool:
            results = pool.map(auto_family, tasks, chunksize=max(1, len(tasks) // (4 * jobs)))
    else:
        results = [auto_family(t) for t in tasks]
    out = {}
    for (gap, _, _), matches in zip(tasks, results):
        cell = out.setdefault(gap, {"families": 0, "first": [], "after": [], "ms": []})
        cell["families"] += 1
        cell["first"] += [w for w, _, _ in matches[:AUTO_SETTLED]]
        cell["after"] += [w for w, _, _ in matches[AUTO_SETTLED:]]
        cell["ms"] += [ms for _, ms, _ in matches[AUTO_SETTLED:]]
    summary = {}
    for gap, cell in out.items():
        after = cell["after"]
        ms = sorted(cell["ms"])
        summary[str(gap)] = {
            "families": cell["families"], "matches": AUTO_MATCHES,
            "slower_wins_first": round(_mean(cell["first"]), 4),
            "slower_wins_after": round(_mean(after), 4),
            "after_interval": [round(x, 4) for x in wilson(sum(after), len(after))],
            "ms_median_after": ms[len(ms) // 2] if ms else 0,
        }
    return summary


LONG_VARIANTS = ("standard", "long-5", "long-6")  # the Long Speed study's games
LONG_GAPS_MS = (25, 50, 100)  # its reaction gaps (the handicap study's smaller ones)


def long_size(games, levels=None):
    """How many games long_plan() yields."""
    n = len(LEVELS) if levels is None else len(levels)
    return len(LONG_VARIANTS) * (n + 2 * len(LONG_GAPS_MS)) * games


def long_plan(games, seed, levels=None):
    """The Long Speed study's games, in plan()'s form, a seed each from seed on: for the
    standard game and Long Speed with 5 and 6 piles a row, games between two bots of each
    level (study "long"), then twice as many per reaction gap (study "long-gap"): both
    bots SHARP, one slowed by the gap, the faster one in seat A for an even game and in
    seat B for an odd one, no handicap."""
    levels = range(len(LEVELS)) if levels is None else levels
    s = seed
    for variant in LONG_VARIANTS:
        for lv in levels:
            for _ in range(games):
                yield ("long", variant, s, lv, lv, 0, 0, 0, 0)
                s += 1
        for gap in LONG_GAPS_MS:
            for i in range(2 * games):
                sa, sb = (gap, 0) if i & 1 else (0, gap)
                yield ("long-gap", variant, s, HANDICAP_LEVEL, HANDICAP_LEVEL, sa, sb, 0, 0)
                s += 1


def long_summary(rows):
    """{variant: {"levels": {level: figures}, "slower_wins": {gap ms: figures}}} from the
    Long Speed study's rows. A level's figures: its games, the median game length and
    its 10th and 90th percentiles (s), and per game the mean stalls (dead deals
    included), dead deals, covers, deadlocks; the share of games unfinished after 30
    simulated minutes (counted at that length); and the seconds of play a cover (the
    finished games' length less their stalls' pauses, over their covers). A gap's: its
    games, the slower bot's win rate (draws and unfinished games are not wins) and its
    95% interval."""
    out = {}
    for variant in LONG_VARIANTS:
        levels, gaps = {}, {}
        for lv in LEVEL_NAMES:
            vr = [r for r in rows if r["study"] == "long" and r["variant"] == variant
                  and r["level_a"] == lv]
            if not vr:
                continue
            secs = [r["length_ms"] / 1000 for r in vr]
            done = [r for r in vr if r["winner"] != "unfinished"]
            covers = sum(r["covers"] for r in done)
            played = sum(r["length_ms"] - r["stalls"] * _STALL_MS for r in done) / 1000
            levels[lv] = {
                "games": len(vr),
                "length_s_median": round(_pct(secs, 0.5), 2),
                "length_s_p10": round(_pct(secs, 0.1), 2),
                "length_s_p90": round(_pct(secs, 0.9), 2),
                "stalls_mean": round(_mean([r["stalls"] for r in vr]), 2),
                "dead_deals_mean": round(_mean([r["dead_deals"] for r in vr]), 2),
                "covers_mean": round(_mean([r["covers"] for r in vr]), 2),
                "deadlock_rate": round(_mean([r["deadlock"] for r in vr]), 4),
                "unfinished": round((len(vr) - len(done)) / len(vr), 4),
                "s_per_cover": round(played / max(covers, 1), 3),
            }
        cells = _slower_wins([r for r in rows if r["variant"] == variant], "long-gap",
                             "handicap")
        for gap in sorted(cells):
            w, n = cells[gap][0]
            low, high = wilson(w, n)
            gaps[str(gap)] = {"games": n, "slower_wins": round(w / n, 4),
                              "low": round(low, 4), "high": round(high, 4)}
        if levels or gaps:
            out[variant] = {"levels": levels, "slower_wins": gaps}
    return out


_STALL_MS = Rules().stall_ms  # the pause of a stall (the study plays the default rules)


def long_study(games, seed, jobs=1):
    """The Long Speed study's figures (long_summary()) from games a variant and level
    (twice as many a gap), from seed on; its rows are not written."""
    total = long_size(games)
    rows = list(_rows(long_plan(games, seed), jobs, chunk_size(total, jobs)))
    return long_summary(rows)


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


def plot_long(long, out_dir):
    """long_speed.png: the Long Speed study's game length by level and the slower bot's
    win rate by gap, for each variant; returns its path."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax, gaps) = plt.subplots(1, 2, figsize=(11, 4.2),
                                   gridspec_kw={"width_ratios": (3, 2)})
    names = {"standard": "standard (4 a row)", "long-5": "Long Speed, 5 a row",
             "long-6": "Long Speed, 6 a row"}
    width = 0.8 / max(len(long), 1)
    for i, (variant, v) in enumerate(long.items()):
        lvs = list(v["levels"])
        xs = [LEVEL_NAMES.index(lv) + (i - (len(long) - 1) / 2) * width for lv in lvs]
        med = [v["levels"][lv]["length_s_median"] for lv in lvs]
        lo = [m - v["levels"][lv]["length_s_p10"] for m, lv in zip(med, lvs)]
        hi = [v["levels"][lv]["length_s_p90"] - m for m, lv in zip(med, lvs)]
        stalls = _mean([v["levels"][lv]["stalls_mean"] for lv in lvs])
        bars = ax.bar(xs, med, width, yerr=[lo, hi], capsize=2, error_kw={"lw": 0.8},
                      label="%s: %.1f stalls a game" % (names.get(variant, variant), stalls))
        ds = [int(g) + (i - (len(long) - 1) / 2) * 2 for g in v["slower_wins"]]  # (apart)
        cs = list(v["slower_wins"].values())
        y = [100 * c["slower_wins"] for c in cs]
        gaps.errorbar(ds, y, yerr=[[a - 100 * c["low"] for a, c in zip(y, cs)],
                                   [100 * c["high"] - a for a, c in zip(y, cs)]],
                      fmt="o-", ms=4, capsize=3, color=bars.patches[0].get_facecolor(),
                      label=names.get(variant, variant))
    ax.set_xticks(range(len(LEVEL_NAMES)))
    ax.set_xticklabels(LEVEL_NAMES, fontsize=8)
    ax.set_ylabel("game length, simulated s: median, bar 10-90%")
    ax.set_title("two bots of the same level (stalls: the mean over the levels)", fontsize=9)
    ax.legend(fontsize=8)
    gaps.set_xticks(list(LONG_GAPS_MS))
    gaps.set_xlabel("reaction gap, ms (both %s, one slowed)" % LEVEL_NAMES[HANDICAP_LEVEL])
    gaps.set_ylabel("slower bot's win rate, % (95% interval)")
    gaps.set_ylim(-1, 50)
    gaps.legend(fontsize=8)
    some = next(iter(long.values()), None)
    games = [c["games"] for c in some["levels"].values()][:1] if some else []
    g_games = [c["games"] for c in some["slower_wins"].values()][:1] if some else []
    fig.suptitle("Long Speed against the standard game: %s games a level, %s a gap"
                 % (games[0] if games else 0, g_games[0] if g_games else 0), fontsize=10)
    fig.tight_layout()
    path = os.path.join(out_dir, "long_speed.png")
    with replacing(path) as temp:
        fig.savefig(temp, dpi=110, format="png")
    plt.close(fig)
    return path


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
