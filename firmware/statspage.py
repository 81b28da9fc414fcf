"""The statistics page's values: imported when the page opens and let go after, so that
their code is not in the heap during play."""
from firmware import lang

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from firmware.stats import Stats


def values(stats: "Stats") -> "list[str]":
    """The value of each line of the page, in the order of STATS in firmware/lang_en.py
    (labels and values share a line of 20 characters)."""
    def secs(ms: int) -> str:
        return lang.words.SECONDS % (ms // 1000, ms % 1000 // 100) if ms else "-"
    streak = "-" if stats.streak_seat == 2 else "%s X%d" % ("AB"[stats.streak_seat], stats.streak)
    return ["%d" % stats.matches, "%d" % stats.games, "%d" % stats.wins_a, "%d" % stats.wins_b,
            "%d" % stats.draws, secs(stats.fastest_win_ms), secs(stats.longest_game_ms),
            secs(stats.average_cover_ms()), streak]
