"""The sim's plots (matplotlib, written whole): game length, counts per game, the
variants, win rate by seat and by reaction, the handicap study, and Long Speed."""
import os

from engine.bot import LEVELS
from lab.simplay import DELAYS, HANDICAP_LEVEL, HANDICAPS, LEVEL_NAMES, STANDARD
from lab.simstats import BAND, mean
from lab.simstudies import LONG_GAPS_MS
from tools.files import replacing


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
        stalls = mean([v["levels"][lv]["stalls_mean"] for lv in lvs])
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
