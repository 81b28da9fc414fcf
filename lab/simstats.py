"""The sim's statistics: a summary of its rows (each variant, win rates by seat and by
reaction), the handicap study's (the card handicap's rates, the delay closest to even, the
slope and the AUTO HANDICAP step it suggests), the confirmation's next round, and the 95%
interval of a win rate."""
from lab.simplay import DELAYS, STANDARD

BAND = (0.45, 0.55)  # the slower bot's win rate that counts as even
SLOPE_FIT = (0.2, 0.8)  # the slope is fitted through the delays whose rate is in this range
STEP_GRID_MS = 5  # the suggested AUTO step is a multiple of this (the settings' step)
CONFIRM_TRIES = 3  # settings a gap's confirmation plays at most, until one is in the band


def mean(xs):
    """The mean of xs (0.0 for none)."""
    return sum(xs) / len(xs) if xs else 0.0


def percentile(xs, q):
    """The value at rank q * len(xs) of xs sorted (0 for none)."""
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
            "length_s_mean": round(mean(secs), 2),
            "length_s_median": round(percentile(secs, 0.5), 2),
            "length_s_p10": round(percentile(secs, 0.1), 2),
            "length_s_p90": round(percentile(secs, 0.9), 2),
            "share_30_to_90_s": round(sum(30 <= s <= 90 for s in secs) / len(vr), 3),
            "covers_mean": round(mean([r["covers"] for r in vr]), 2),
            "stalls_mean": round(mean([r["stalls"] for r in vr]), 2),
            "dead_deals_mean": round(mean([r["dead_deals"] for r in vr]), 2),
            "deadlock_rate": round(mean([r["deadlock"] for r in vr]), 4),
            "a_wins": round(mean([r["winner"] == "A" for r in vr]), 4),
            "b_wins": round(mean([r["winner"] == "B" for r in vr]), 4),
            "draws": round(mean([r["winner"] == "draw" for r in vr]), 4),
            "unfinished": round(mean([r["winner"] == "unfinished" for r in vr]), 4),
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


def slower_wins(rows, study, key):
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
    cells = slower_wins(rows, "handicap", "handicap")
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
    scan = slower_wins(rows, "delay", "handicap_ms")
    confirm = slower_wins(rows, "confirm", "handicap_ms")
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
            for gap, cells in sorted(slower_wins(rows, "delay", "handicap_ms").items())}


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
    played = slower_wins(rows, "confirm", "handicap_ms")
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
