"""Statistics that survive power-off: matches and games played, wins per seat, fastest win,
longest game, the current streak and the average time to cover after a pile changes.

Counted by the app at the end of each game and each cover, never saved during play. The
record (kind STATS in firmware/store.py) is 4 bytes per field, big-endian; every count
stays below 2**30 (the board's small ints). It is the base: after it, each game adds a
2-byte entry to the STATS tally (entry(), apply()), and a new fastest win or longest game
a RECORDS record (records(), apply_records()). A compaction folds them into a new base.

An entry: result (2 bits: A, B, draw), the match ended (1 bit), the covers counted since
the last entry (6 bits) and their mean delay in 100 ms steps (7 bits, to 12.7 s). The mean
is rounded once per game, so the saved average cover is within 50 ms of the counted one.
"""
STATS_KIND = 2
RECORDS_KIND = 3
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
        self.mark()

    def mark(self) -> None:
        """What is saved so far: the next entry counts from here."""
        self._covers = self.covers
        self._cover_ms = self.cover_ms
        self._result = 3  # no game since
        self._ended = 0
        self.new_record = False  # fastest win or longest game changed since

    def cover(self, delay_ms: int) -> None:
        """A human covered a pile delay_ms after its top card changed."""
        if 0 <= delay_ms < 60000 and self.cover_ms + delay_ms < _LIMIT:
            self.cover_ms += delay_ms
            self.covers += 1

    def game(self, result: int, length_ms: int) -> None:
        """A game ended: result 0 (A won), 1 (B won) or 2 (draw), after length_ms."""
        length_ms = max(0, min(length_ms, _LIMIT))
        if length_ms > self.longest_game_ms:
            self.longest_game_ms = length_ms
            self.new_record = True
        if result < 2 and (self.fastest_win_ms == 0 or length_ms < self.fastest_win_ms):
            self.fastest_win_ms = length_ms
            self.new_record = True
        self._count(result)

    def _count(self, result: int) -> None:
        self._result = result
        self.games = min(self.games + 1, _LIMIT)
        if result == 2:
            self.draws = min(self.draws + 1, _LIMIT)
            self.streak_seat, self.streak = 2, 0
            return
        if result == 0:
            self.wins_a = min(self.wins_a + 1, _LIMIT)
        else:
            self.wins_b = min(self.wins_b + 1, _LIMIT)
        if self.streak_seat == result:
            self.streak = min(self.streak + 1, _LIMIT)
        else:
            self.streak_seat, self.streak = result, 1

    def match(self) -> None:
        """A match ended."""
        self.matches = min(self.matches + 1, _LIMIT)
        self._ended = 1

    def entry(self) -> bytes:
        """The tally entry of the game just counted (see the module notes); marks."""
        c = self.covers - self._covers
        m = min(127, ((self.cover_ms - self._cover_ms) // c + 50) // 100) if c else 0
        e = bytes((self._result << 6 | self._ended << 5 | min(c, 63) >> 1,
                   (min(c, 63) & 1) << 7 | m))
        self.mark()
        return e

    def apply(self, e: bytes) -> None:
        """Count a saved entry (loading); one with no valid result is passed over."""
        if e[0] >> 6 < 3:
            c = (e[0] & 31) << 1 | e[1] >> 7
            s = c * (e[1] & 127) * 100
            if self.cover_ms + s < _LIMIT:
                self.covers += c
                self.cover_ms += s
            self._count(e[0] >> 6)
            if e[0] & 32:
                self.match()

    def records(self) -> bytes:
        """The RECORDS payload: fastest win and longest game."""
        return _pack((self.fastest_win_ms, self.longest_game_ms))

    def apply_records(self, payload: bytes | None) -> None:
        """Take a saved RECORDS payload where it beats the counts (loading)."""
        if payload is not None and len(payload) == 8:
            f, g = _unpack(payload, 2)
            if f and f <= _LIMIT and (not self.fastest_win_ms or f < self.fastest_win_ms):
                self.fastest_win_ms = f
            if self.longest_game_ms < g <= _LIMIT:
                self.longest_game_ms = g

    def base(self) -> bytes:
        """The record that holds everything counted (a compaction's fold); marks."""
        self.mark()
        return self.encode()

    def average_cover_ms(self) -> int:
        """Mean time from a pile changing to a human covering it (0 before any cover)."""
        return self.cover_ms // self.covers if self.covers else 0

    def encode(self) -> bytes:
        """The record payload."""
        return _pack([getattr(self, name) for name in FIELDS])

    def decode(self, payload: bytes) -> bool:
        """Load a record payload; a short or out-of-range record leaves the defaults."""
        self.reset()
        if not payload or len(payload) < 4 * len(FIELDS):
            return False
        values = _unpack(payload, len(FIELDS))
        if max(values) > _LIMIT:
            return False
        for name, v in zip(FIELDS, values):
            setattr(self, name, v)
        if self.streak_seat > 2:
            self.streak_seat, self.streak = 2, 0
        self.mark()
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


def _pack(values: "list[int] | tuple[int, ...]") -> bytes:
    out = bytearray()
    for v in values:
        out.extend(bytes(((v >> 24) & 0xFF, (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF)))
    return bytes(out)


def _unpack(b: bytes, n: int) -> list[int]:
    return [(b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]
            for i in range(0, 4 * n, 4)]
