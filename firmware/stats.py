"""Statistics that survive power-off: matches and games played, wins per seat, fastest win,
longest game, the current streak and the average time to cover after a pile changes.

Counted by the app at the end of each game and each cover; saved (kind STATS in
firmware/store.py) at the end of a game, never during play. Every count stays below
2**30 (the board's small ints); the record is 4 bytes per field, big-endian.
"""
STATS_KIND = 2
_LIMIT = (1 << 30) - 1
FIELDS = ("matches", "games", "wins_a", "wins_b", "draws", "fastest_win_ms",
          "longest_game_ms", "streak_seat", "streak", "cover_ms", "covers")


class Stats:
    """The counters; all ints."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Everything back to zero."""
        self.matches = 0
        self.games = 0
        self.wins_a = 0
        self.wins_b = 0
        self.draws = 0
        self.fastest_win_ms = 0  # 0 = no win yet
        self.longest_game_ms = 0
        self.streak_seat = 2  # 0 A, 1 B, 2 nobody
        self.streak = 0
        self.cover_ms = 0  # sum of the delays counted by cover()
        self.covers = 0

    def cover(self, delay_ms: int) -> None:
        """A human covered a pile delay_ms after its top card changed."""
        if 0 <= delay_ms < 60000 and self.cover_ms + delay_ms < _LIMIT:
            self.cover_ms += delay_ms
            self.covers += 1

    def game(self, result: int, length_ms: int) -> None:
        """A game ended: result 0 (A won), 1 (B won) or 2 (draw), after length_ms."""
        self.games = min(self.games + 1, _LIMIT)
        length_ms = max(0, min(length_ms, _LIMIT))
        self.longest_game_ms = max(self.longest_game_ms, length_ms)
        if result == 2:
            self.draws = min(self.draws + 1, _LIMIT)
            self.streak_seat, self.streak = 2, 0
            return
        if result == 0:
            self.wins_a = min(self.wins_a + 1, _LIMIT)
        else:
            self.wins_b = min(self.wins_b + 1, _LIMIT)
        if self.fastest_win_ms == 0 or length_ms < self.fastest_win_ms:
            self.fastest_win_ms = length_ms
        if self.streak_seat == result:
            self.streak = min(self.streak + 1, _LIMIT)
        else:
            self.streak_seat, self.streak = result, 1

    def match(self) -> None:
        """A match ended."""
        self.matches = min(self.matches + 1, _LIMIT)

    def average_cover_ms(self) -> int:
        """Mean time from a pile changing to a human covering it (0 before any cover)."""
        return self.cover_ms // self.covers if self.covers else 0

    def encode(self) -> bytes:
        """The record payload."""
        out = bytearray()
        for name in FIELDS:
            v = getattr(self, name)
            out.extend(bytes(((v >> 24) & 0xFF, (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF)))
        return bytes(out)

    def decode(self, payload: bytes) -> bool:
        """Load a record payload; a short or out-of-range record leaves the defaults."""
        self.reset()
        if not payload or len(payload) < 4 * len(FIELDS):
            return False
        values = []
        for i in range(len(FIELDS)):
            b = payload[4 * i:4 * i + 4]
            v = (b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]
            if v > _LIMIT:
                return False
            values.append(v)
        for name, v in zip(FIELDS, values):
            setattr(self, name, v)
        if self.streak_seat > 2:
            self.streak_seat, self.streak = 2, 0
        return True

    def lines(self) -> tuple[str, ...]:
        """The statistics as short lines for the screen (21 characters at most)."""
        def secs(ms: int) -> str:
            return "%d.%d S" % (ms // 1000, ms % 1000 // 100) if ms else "-"
        streak = "-" if self.streak_seat == 2 else "%s X%d" % ("AB"[self.streak_seat], self.streak)
        return ("MATCHES %d GAMES %d" % (self.matches, self.games),
                "WINS A %d B %d DRAW %d" % (self.wins_a, self.wins_b, self.draws),
                "FASTEST WIN " + secs(self.fastest_win_ms),
                "LONGEST " + secs(self.longest_game_ms),
                "STREAK " + streak,
                "AVG COVER " + secs(self.average_cover_ms()))
