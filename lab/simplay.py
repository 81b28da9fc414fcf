"""The sim's games: each planned (the levels and variants, the handicap study and its
confirmation, a seed each), played bot against bot on a simulated clock, in this process or
a pool of them, in plan order whatever the pool, and written a row each to a CSV."""
import csv
import os
import signal
import sys
import tempfile
import time
from collections import deque

from engine import Game, Rules, DRAW, SUIT, RANK_OR_SUIT, DEADLOCK_FEWER
from engine.bot import Bot, LEVELS, play_out
from firmware.settings import FIELDS as _SETTINGS

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
HANDICAP_LEVEL = LEVEL_NAMES.index("SHARP")  # both bots play it; the slower one is slowed
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


def ignore_sigint():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def played_rows(games, jobs, chunk):
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
        pool = multiprocessing.Pool(jobs, initializer=ignore_sigint)
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
    played = played_rows(games, jobs, chunk)
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
