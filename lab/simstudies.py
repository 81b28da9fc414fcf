"""The sim's two studies beside the standard one: AUTO HANDICAP at work (families of
one-game matches, HANDICAP moved after each by the handheld's own Settings) and Long Speed
(5 and 6 piles a row against the standard game): their plans, games and figures."""
from engine import Rules
from engine.bot import LEVELS
from firmware.settings import Settings
from lab.simplay import (GAPS_MS, HANDICAP_LEVEL, LEVEL_NAMES, chunk_size, ignore_sigint,
                         play_game, played_rows)
from lab.simstats import mean, percentile, slower_wins, wilson

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
        with multiprocessing.Pool(jobs, initializer=ignore_sigint) as pool:
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
            "slower_wins_first": round(mean(cell["first"]), 4),
            "slower_wins_after": round(mean(after), 4),
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


_STALL_MS = Rules().stall_ms  # the pause of a stall (the study plays the default rules)


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
                "length_s_median": round(percentile(secs, 0.5), 2),
                "length_s_p10": round(percentile(secs, 0.1), 2),
                "length_s_p90": round(percentile(secs, 0.9), 2),
                "stalls_mean": round(mean([r["stalls"] for r in vr]), 2),
                "dead_deals_mean": round(mean([r["dead_deals"] for r in vr]), 2),
                "covers_mean": round(mean([r["covers"] for r in vr]), 2),
                "deadlock_rate": round(mean([r["deadlock"] for r in vr]), 4),
                "unfinished": round((len(vr) - len(done)) / len(vr), 4),
                "s_per_cover": round(played / max(covers, 1), 3),
            }
        cells = slower_wins([r for r in rows if r["variant"] == variant], "long-gap",
                            "handicap")
        for gap in sorted(cells):
            w, n = cells[gap][0]
            low, high = wilson(w, n)
            gaps[str(gap)] = {"games": n, "slower_wins": round(w / n, 4),
                              "low": round(low, 4), "high": round(high, 4)}
        if levels or gaps:
            out[variant] = {"levels": levels, "slower_wins": gaps}
    return out


def long_study(games, seed, jobs=1):
    """The Long Speed study's figures (long_summary()) from games a variant and level
    (twice as many a gap), from seed on; its rows are not written."""
    total = long_size(games)
    rows = list(played_rows(long_plan(games, seed), jobs, chunk_size(total, jobs)))
    return long_summary(rows)
