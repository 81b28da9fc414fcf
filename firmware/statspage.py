"""The statistics page's lines: imported when the page opens and let go after, so that
their code is not in the heap during play."""
if False:  # names for type annotations: mypy reads them, the compiler drops them
    from firmware.stats import Stats


def lines(stats: "Stats") -> tuple[str, ...]:
    """The statistics as short lines for the screen (21 characters at most)."""
    def secs(ms: int) -> str:
        return "%d.%d S" % (ms // 1000, ms % 1000 // 100) if ms else "-"
    streak = "-" if stats.streak_seat == 2 else "%s X%d" % ("AB"[stats.streak_seat], stats.streak)
    return ("MATCHES %d GAMES %d" % (stats.matches, stats.games),
            "WINS A %d B %d DRAW %d" % (stats.wins_a, stats.wins_b, stats.draws),
            "FASTEST WIN " + secs(stats.fastest_win_ms),
            "LONGEST " + secs(stats.longest_game_ms),
            "STREAK " + streak,
            "AVG COVER " + secs(stats.average_cover_ms()))
