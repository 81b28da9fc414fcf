"""Statistics that survive power-off: matches and games played, wins per seat, fastest win,
longest game, the current streak and the average time to cover after a pile changes.

Counted by the app at the end of each game and each cover, never saved during play. The
record (kind STATS in firmware/store.py) is 4 bytes per field, big-endian (read back by
firmware/restore.py); every count
stays below 2**30 (the board's small ints). It is the base: after it, each game adds a
2-byte entry to the STATS tally (entry(); firmware/restore.py counts it back in); a game that sets a new fastest win or
longest game saves a new base instead, as does a compaction (base()).

An entry: result (2 bits: A, B, draw), the match ended (1 bit), the covers counted since
the last entry (6 bits) and their mean delay in 100 ms steps (7 bits, to 12.7 s). The mean
is rounded once per game, so the saved average cover is within 50 ms of the counted one.
"""
STATS_KIND = 2
LIMIT = (1 << 30) - 1  # every count stays below it: a small int on the board
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
        if 0 <= delay_ms < 60000 and self.cover_ms + delay_ms < LIMIT:
            self.cover_ms += delay_ms
            self.covers += 1

    def game(self, result: int, length_ms: int) -> None:
        """A game ended: result 0 (A won), 1 (B won) or 2 (draw), after length_ms."""
        length_ms = max(0, min(length_ms, LIMIT))
        if length_ms > self.longest_game_ms:
            self.longest_game_ms = length_ms
            self.new_record = True
        if result < 2 and (self.fastest_win_ms == 0 or length_ms < self.fastest_win_ms):
            self.fastest_win_ms = length_ms
            self.new_record = True
        self.count(result)

    def count(self, result: int) -> None:
        """A game's result counted (its length is for game())."""
        self._result = result
        self.games = min(self.games + 1, LIMIT)
        if result == 2:
            self.draws = min(self.draws + 1, LIMIT)
            self.streak_seat, self.streak = 2, 0
            return
        if result == 0:
            self.wins_a = min(self.wins_a + 1, LIMIT)
        else:
            self.wins_b = min(self.wins_b + 1, LIMIT)
        if self.streak_seat == result:
            self.streak = min(self.streak + 1, LIMIT)
        else:
            self.streak_seat, self.streak = result, 1

    def match(self) -> None:
        """A match ended."""
        self.matches = min(self.matches + 1, LIMIT)
        self._ended = 1

    def entry(self) -> bytes:
        """The tally entry of the game just counted (see the module notes); marks."""
        c = self.covers - self._covers
        m = min(127, ((self.cover_ms - self._cover_ms) // c + 50) // 100) if c else 0
        e = bytes((self._result << 6 | self._ended << 5 | min(c, 63) >> 1,
                   (min(c, 63) & 1) << 7 | m))
        self.mark()
        return e

    def base(self) -> bytes:
        """The record that holds everything counted (a compaction's fold); marks."""
        self.mark()
        return self.encode()

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
