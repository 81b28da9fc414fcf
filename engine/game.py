"""A California Speed match as a state machine (docs/RULES.md): deal, cover, stall, collect, end.

No I/O, no clock: every call carries `now`, a ticks_ms value. Piles and decks live in
preallocated bytearrays, so press() and tick() allocate nothing once a game is dealt.
Timers (stall -> redeal, finish -> game over) fire at their exact due time whichever
call notices them first, so a game depends only on its seed, rules and timed presses.
A time handicap (Rules.handicap_ms) holds the burdened seat's presses (HELD) and judges
each at its due time, its collision window counted from when it was made; judged()
hands their outcomes to the caller.
"""
try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

from .rules import Rules, A, B, DRAW, RANK, SUIT, DEADLOCK_FEWER
from .rng import Rng
from .ticks import ticks_add, ticks_diff, valid_ticks

READY = const(0)
PLAY = const(1)
STALL = const(2)
FINISH = const(3)
GAME_OVER = const(4)
MATCH_OVER = const(5)

# Results of press(), start(), next_game(), new_match() and tick().
IGNORED = const(0)
COVERED = const(1)
FOUL = const(2)
COLLISION = const(3)
LOCKED = const(4)
INVALID = const(5)
DEALT = const(6)
ENDED = const(7)
HELD = const(8)  # a time-handicapped seat's press, judged when its delay is up (judged())

_CARDS = const(52)
_HALF_DECK = const(26)
_MAX_PILES = const(12)
_NO_CARD = const(255)
_OLD_MS = const(1 << 25)  # stamps older than this (9 h) are kept at this age (see _time)
_AGE_MS = const(1 << 24)  # how often the stamps are aged
_HOLD = const(8)  # presses the delayed seat can have held at once (more are IGNORED)
_VERDICTS = const(16)  # judged presses kept until judged() reads them (then the oldest go)


class Game:
    """One match between A and B: Game(rules, seed) or Game.from_decks(...)."""

    def __init__(self, rules: Rules | None = None, seed: int = 0) -> None:
        self._keys = [0] * _CARDS  # match keys (see reset)
        self._piles = bytearray(_MAX_PILES * _CARDS)  # pile p at [p*52 ...], bottom first
        self._pile_len = bytearray(_MAX_PILES)
        self._tops = bytearray(b"\xff" * _MAX_PILES)
        self._changed = [0] * _MAX_PILES  # when each pile's top card last changed
        self._decks = bytearray(2 * _CARDS)  # two ring buffers, read from the head
        self._deck_head = bytearray(2)
        self._deck_len = bytearray(2)
        self._shuffle = bytearray(_CARDS)
        self._wins = bytearray(2)
        self._lock_at = [0, 0]
        # The delayed seat's held presses, oldest first: [count, pile, made at, pile, ...];
        # and the verdicts on them that judged() has not handed out: [count, verdict, ...].
        self._held = [0] * (1 + 2 * _HOLD)
        self._verdicts = [0] * (1 + _VERDICTS)
        self.reset(rules, seed)

    def reset(self, rules: Rules | None = None, seed: int = 0) -> None:
        """Back to READY as Game(rules, seed) would be, in the same buffers: on a board
        whose heap is in pieces, a new match's rules need no new block of memory."""
        if rules is None:
            rules = Rules()
        if not isinstance(rules, Rules):
            raise ValueError("rules: must be a Rules, not %r" % (rules,))
        self._rng = Rng(seed)  # (raises for a bad seed)
        self.rules = rules
        self.seed = seed
        n = rules.piles_per_row
        self._n = n
        self.piles = 2 * n  # piles on the table (read-only)
        # Match keys: a bit per rank (0..12) and per suit (13..16); tops match on a shared bit.
        by = rules.match_by
        keys = self._keys
        for c in range(_CARDS):
            keys[c] = (1 << (c % 13) if by != SUIT else 0) | \
                (1 << (13 + c // 13) if by != RANK else 0)
        self._doubles = rules.doubles
        for p in range(_MAX_PILES):
            self._pile_len[p] = 0
            self._tops[p] = _NO_CARD
            self._changed[p] = 0
        for player in (A, B):
            self._deck_len[player] = 0
            self._wins[player] = 0
            self._lock_at[player] = 0
        self._clear()

    def _clear(self) -> None:
        """reset()'s timers, the last cover, and the match's and game's counts."""
        self._locked = 0  # bit per player
        self._held[0] = 0
        self._verdicts[0] = 0
        self.pending_mask = 0  # bit p: pile p is pending (read-only outside the engine)
        self.coverable_mask = 0  # bit p: pile p is coverable (read-only)
        self._stall_at = 0
        self._finish_at = 0
        self._finisher = -1
        self._dead = 0  # consecutive dead redeals
        self._stacked = None  # type: tuple[bytes, bytes] | None  # (deck_a, deck_b) for the first game, from stack()
        # The last cover, kept so a same-instant press on that pile can win the coin toss.
        self._last_pile = -1
        self._last_player = 0
        self._last_at = 0
        self._last_pending = 0
        self._last_changed = 0
        self._last_phase = PLAY
        self.version = 0  # bumped whenever a top card changes (cover, deal, undo)
        self.last_change = 0  # when the table last changed
        self.phase = READY
        self.game_result = -1
        self.match_winner = -1
        self.games = 0  # games dealt in this match
        self.started_at = 0
        self.ended_at = 0
        self._now = 0  # the latest time the game has seen
        self._aged_at = 0  # when the stamps were last aged
        self._age_left = _AGE_MS  # ms the clock can go on from _now before they are due
        self.restamps = 0  # times the stamps moved (the clock went back, or they were aged)
        self.covers = 0  # per game
        self.fouls = 0
        self.stalls = 0
        self.dead_deals = 0
        self.deadlocked = False  # the game ended by dead_deal_limit dead deals in a row

    @classmethod
    def from_decks(cls, deck_a: list[int] | tuple[int, ...] | bytes | bytearray,
                   deck_b: list[int] | tuple[int, ...] | bytes | bytearray,
                   rules: Rules | None = None, seed: int = 0) -> "Game":
        """A match whose first game uses these decks (top card first); later games reshuffle."""
        g = cls(rules, seed)
        g.stack(deck_a, deck_b)
        return g

    def stack(self, deck_a: list[int] | tuple[int, ...] | bytes | bytearray,
              deck_b: list[int] | tuple[int, ...] | bytes | bytearray) -> None:
        """Before start(): the first game deals these decks (top card first), not a
        shuffle; ValueError names a deck that is not a set of distinct card ids."""
        seen = bytearray(_CARDS)
        for name, deck in (("deck_a", deck_a), ("deck_b", deck_b)):
            why = None
            if not isinstance(deck, (list, tuple, bytes, bytearray)):
                why = "must be a sequence of card ids"
            elif len(deck) < self._n + 1:
                why = "needs at least %d cards, has %d" % (self._n + 1, len(deck))
            else:
                for c in deck:
                    if type(c) is not int or c < 0 or c >= _CARDS or seen[c]:
                        why = "%r is not a card id 0..51 or appears twice" % (c,)
                        break
                    seen[c] = 1
            if why:
                raise ValueError(name + ": " + why)
        self._stacked = (bytes(deck_a), bytes(deck_b))

    # ---- reading the table ----

    def top(self, pile: int) -> int:
        """Card id on top of a pile, or -1 if it is empty or not a pile."""
        if not self._is_pile(pile):
            return -1
        c = self._tops[pile]
        return -1 if c == _NO_CARD else c

    def pile_cards(self, pile: int) -> bytes:
        """The pile's cards as bytes, bottom card first."""
        if not self._is_pile(pile):
            return b""
        base = pile * _CARDS
        return bytes(self._piles[base:base + self._pile_len[pile]])

    def deck_cards(self, player: int) -> bytes:
        """The player's deck as bytes, top card first."""
        if player != A and player != B:
            return b""
        base = player * _CARDS
        head = self._deck_head[player]
        out = bytearray(self._deck_len[player])
        for i in range(len(out)):
            out[i] = self._decks[base + (head + i) % _CARDS]
        return bytes(out)

    def deck_size(self, player: int) -> int:
        """Cards left in the player's deck (0 for anything that is not a player)."""
        if player != A and player != B:
            return 0
        return self._deck_len[player]

    def coverable(self, pile: int) -> bool:
        """True if pressing the pile now would cover it (docs/RULES.md section 4)."""
        if not self._is_pile(pile):
            return False
        return (self.coverable_mask >> pile) & 1 == 1

    def pending(self, pile: int) -> bool:
        """True if the pile is pending: part of a match that someone started covering."""
        if not self._is_pile(pile):
            return False
        return (self.pending_mask >> pile) & 1 == 1

    def changed_at(self, pile: int) -> int:
        """The ticks_ms time the pile's top card last changed (dealt or covered)."""
        if not self._is_pile(pile):
            return 0
        return self._changed[pile]

    def locked(self, player: int, now: int) -> bool:
        """True if a foul still locks the player out at `now`."""
        if (player != A and player != B) or not (self._locked >> player) & 1:
            return False
        return ticks_diff(now, self._lock_at[player]) < self.rules.foul_lockout_ms

    def lockout_left(self, player: int, now: int) -> int:
        """The ms of a foul's lockout still left at `now` (0 when none): a held press's
        foul locks from its due time, which may lie before its verdict is read."""
        if not self.locked(player, now):
            return 0
        return self.rules.foul_lockout_ms - ticks_diff(now, self._lock_at[player])

    def judged(self) -> int:
        """The oldest held press judged and not yet read, or -1: an int, result << 24 |
        player << 20 | pile << 16 | reaction, where result is what press() would have
        returned at the press's due time, and reaction, for a cover, the ms from the pile's
        last change to the press (0..65535). Read it after every call that may judge (tick
        says HELD); a reader more than 16 behind loses the oldest."""
        v = self._verdicts
        n = v[0]
        if not n:
            return -1
        first = v[1]
        for i in range(1, n):
            v[i] = v[i + 1]
        v[0] = n - 1
        return first

    def next_timer(self) -> int:
        """When the game next changes by itself, or -1 if it will not: a timer (stall ->
        redeal, finish -> game over) or a held press coming due."""
        t = -1
        if self.phase == STALL:
            t = ticks_add(self._stall_at, self.rules.stall_ms)
        elif self.phase == FINISH:
            t = ticks_add(self._finish_at, self.rules.tie_window_ms + 1)
        if self._held[0]:
            h = ticks_add(self._held[2], abs(self.rules.handicap_ms))
            if t < 0 or ticks_diff(h, t) < 0:
                t = h
        return t

    @property
    def wins(self) -> tuple[int, int]:
        """(wins of A, wins of B) in this match."""
        return (self._wins[A], self._wins[B])

    def wins_of(self, player: int) -> int:
        """Games the player has won in this match (allocation-free, unlike wins)."""
        if player != A and player != B:
            return 0
        return self._wins[player]

    # ---- transitions ----

    def start(self, now: int) -> int:
        """Deal the first game of the match (phase READY only)."""
        if not valid_ticks(now):
            return INVALID
        if self.phase != READY:
            return IGNORED
        return self._begin_game(now)

    def next_game(self, now: int) -> int:
        """After GAME_OVER: gather all 52 cards, reshuffle and deal the next game."""
        if not valid_ticks(now):
            return INVALID
        if self.phase != GAME_OVER:
            return IGNORED
        return self._begin_game(now)

    def new_match(self, now: int) -> int:
        """Forget the score and deal the first game of a new match (any phase but READY)."""
        if not valid_ticks(now):
            return INVALID
        if self.phase == READY:
            return IGNORED
        self._wins[A] = 0
        self._wins[B] = 0
        self.games = 0
        self.match_winner = -1
        return self._begin_game(now)

    def declare_draw(self, now: int) -> int:
        """Both players agree on a draw: the game ends now and counts for nobody. A finish
        or a deadlock that came due before now stands instead (ENDED either way)."""
        if not valid_ticks(now):
            return INVALID
        if self.phase == READY or self.phase >= GAME_OVER:
            return IGNORED
        now = self._time(now)
        self.tick(now)
        if self.phase < GAME_OVER:
            self._end(DRAW, now)
        return ENDED

    def tick(self, now: int) -> int:
        """Fire what is due, in time order: the timers (stall -> collect -> redeal; finish
        -> game over) and the held presses, each judged at its due time (a timer due at the
        same ms first). DEALT, ENDED, HELD (only presses were judged: read judged()) or
        IGNORED."""
        if not valid_ticks(now):
            return INVALID
        now = self._time(now, False)
        held = self._held
        if self.phase != STALL and self.phase != FINISH and not held[0]:
            return IGNORED  # no timer runs and no press is held (the usual case: quick)
        ms = self.rules.handicap_ms
        if self.phase != STALL and self.phase != FINISH and \
                ticks_diff(now, ticks_add(held[2], abs(ms))) < 0:
            return IGNORED  # no timer runs and no held press is due
        r = IGNORED
        player = A if ms > 0 else B
        while held[0]:
            pile = held[1]
            made = held[2]
            due = ticks_add(made, abs(ms))
            if ticks_diff(now, due) < 0:
                break
            n = held[0] - 1
            for i in range(1, 1 + 2 * n):
                held[i] = held[i + 2]
            held[0] = n
            a = self._advance(due)
            r = a if a != IGNORED else (r or HELD)
            reaction = min(max(ticks_diff(made, self._changed[pile]), 0), 0xFFFF)
            a = self._cover(player, pile, due, made)
            v = self._verdicts  # kept for judged(); the oldest goes when 16 are unread
            if v[0] == _VERDICTS:
                self.judged()
            n = v[0] + 1
            v[n] = a << 24 | player << 20 | pile << 16 | reaction
            v[0] = n
        a = self._advance(now)
        if a != IGNORED:
            r = a
        if r != IGNORED:
            self._time(now)  # seen: the game's time is now
        return r

    def press(self, player: int, pile: int, now: int) -> int:
        """A player presses a pile: COVERED, FOUL, COLLISION, LOCKED, IGNORED or INVALID;
        HELD for the time-handicapped seat, whose press is judged at now + handicap_ms,
        TOO LATE (COLLISION) if its pile changed after now or within collision_ms before
        it (the window counts from the press, held or not). A press when _HOLD of that
        seat's are held is IGNORED."""
        if (player != A and player != B) or type(player) is not int or type(pile) is not int \
                or not 0 <= pile < self.piles or not valid_ticks(now):
            return INVALID
        now = self._time(now)
        if self.phase == STALL or self.phase == FINISH or self._held[0]:
            self.tick(now)  # what came due first
        ms = self.rules.handicap_ms
        if ms and player == (A if ms > 0 else B):
            phase = self.phase
            held = self._held
            n = held[0]
            if phase != PLAY and (phase != FINISH or player == self._finisher) or n == _HOLD:
                return IGNORED
            held[1 + 2 * n] = pile
            held[2 + 2 * n] = now
            held[0] = n + 1
            return HELD
        if pile == self._last_pile and now == self._last_at and player != self._last_player \
                and self._deck_len[player] > 0:
            # Both pressed this pile at the same instant: a coin decides whose card lies there.
            if self.locked(player, now):
                return LOCKED
            self._last_pile = -1
            if self._rng.below(2) == 0:
                return COLLISION
            self._undo_cover(pile)
            # If that cover was a held press, its verdict (if not read yet) is TOO LATE now.
            v = self._verdicts
            for i in range(v[0], 0, -1):
                if v[i] >> 16 == COVERED << 8 | self._last_player << 4 | pile:
                    v[i] ^= (COVERED ^ COLLISION) << 24
                    break
        return self._cover(player, pile, now, now)

    # ---- internals ----

    def _time(self, now: int, seen: bool = True) -> int:
        """The game's clock; returns now. A `now` behind the latest one seen, by any amount,
        means no time passed: every stamp moves back with it. Every _AGE_MS, stamps older
        than _OLD_MS are brought to that age (no rule window is near it), so ticks_diff,
        which spans 2**28 ms, compares right however long a game is left alone. A tick
        that changes nothing is not 'seen' (seen=False): the game's time is that of its
        last change, so a record of the changes alone replays it exactly. _age_left is
        _AGE_MS less the age of _now since the last ageing: a clock that went on by less
        than that needs no other look (the usual case, one ticks_diff)."""
        d = ticks_diff(now, self._now)
        if 0 <= d < self._age_left:
            if seen:
                self._now = now
                self._age_left -= d
            return now
        if d < 0:
            self._restamp(d, -1)
        elif ticks_diff(now, self._aged_at) >= _AGE_MS:
            self._aged_at = now
            self._restamp(0, ticks_add(now, -_OLD_MS))
        elif not seen:
            return now
        self._now = now
        self._age_left = _AGE_MS - ticks_diff(now, self._aged_at)
        return now

    def _restamp(self, d: int, oldest: int) -> None:
        """Move every stamp by d ms; with oldest >= 0, none earlier than oldest."""
        self.restamps += 1
        changed = self._changed
        for p in range(_MAX_PILES):
            changed[p] = _moved(changed[p], d, oldest)
        held = self._held
        for i in range(2, 1 + 2 * _HOLD, 2):
            held[i] = _moved(held[i], d, oldest)
        lock = self._lock_at
        lock[A] = _moved(lock[A], d, oldest)
        lock[B] = _moved(lock[B], d, oldest)
        self._stall_at = _moved(self._stall_at, d, oldest)
        self._finish_at = _moved(self._finish_at, d, oldest)
        self._last_at = _moved(self._last_at, d, oldest)
        self._last_changed = _moved(self._last_changed, d, oldest)
        self.last_change = _moved(self.last_change, d, oldest)
        self.started_at = _moved(self.started_at, d, oldest)
        self.ended_at = _moved(self.ended_at, d, oldest)
        self._aged_at = _moved(self._aged_at, d, -1)

    def _is_pile(self, pile: int) -> bool:
        return type(pile) is int and 0 <= pile < self.piles

    def _cover(self, player: int, pile: int, now: int, seen: int) -> int:
        """A press made at `seen` (the table as the player saw it) and taking effect at now
        (later for a held one): press()'s result, the pile covered if it can be."""
        phase = self.phase
        if phase != PLAY and (phase != FINISH or player == self._finisher):
            return IGNORED
        if (self._locked >> player) & 1:
            if self.locked(player, now):
                return LOCKED
            self._locked &= ~(1 << player)
        # The window counts from when the press was made, held or not: a card that changed
        # under collision_ms before it (or after it) is one nobody can have seen yet.
        if ticks_diff(seen, self._changed[pile]) < self.rules.collision_ms:
            return COLLISION
        if not (self.coverable_mask >> pile) & 1:
            self.fouls += 1
            if self.rules.foul_lockout_ms:
                self._locked |= 1 << player
                self._lock_at[player] = now
            return FOUL
        keys = self._keys
        tops = self._tops
        old_key = keys[tops[pile]]
        self._last_pile = pile
        self._last_player = player
        self._last_at = now
        self._last_pending = self.pending_mask
        self._last_changed = self._changed[pile]
        self._last_phase = self.phase
        pending = self.pending_mask & ~(1 << pile)
        for p in range(self.piles):
            if p != pile and keys[tops[p]] & old_key:
                pending |= 1 << p
        self.pending_mask = pending
        # The top card of the player's deck onto the pile, and the version bumped as
        # _touch does, written out: a cover is the engine's busiest path.
        head = self._deck_head[player]
        card = self._decks[player * _CARDS + head]
        self._deck_head[player] = (head + 1) % _CARDS
        self._deck_len[player] -= 1
        n = self._pile_len[pile]
        self._piles[pile * _CARDS + n] = card
        self._pile_len[pile] = n + 1
        tops[pile] = card
        self._changed[pile] = now
        self.version = (self.version + 1) & 0x3FFFFFFF
        self.last_change = now
        self._refresh()
        self._covered(player, now)
        return COVERED

    def _covered(self, player: int, now: int) -> None:
        """After a cover: the player's last card starts the finish (or ties it); a table
        with nothing coverable left stalls."""
        self.covers += 1
        if self._deck_len[player] == 0:
            if self.phase == FINISH:
                d = ticks_diff(now, self._finish_at)
                if -self.rules.tie_window_ms <= d <= self.rules.tie_window_ms:
                    self._end(DRAW, now)
            else:
                self.phase = FINISH
                self._finisher = player
                self._finish_at = now
        elif self.phase == PLAY and not self.coverable_mask:
            self.phase = STALL
            self._stall_at = now
            self.stalls += 1

    def _undo_cover(self, pile: int) -> None:
        """Take back the last cover, made on `pile`: its card goes back on top of its deck."""
        base = pile * _CARDS
        n = self._pile_len[pile] - 1
        self._pile_len[pile] = n
        card = self._piles[base + n]
        self._tops[pile] = self._piles[base + n - 1]
        player = self._last_player
        head = (self._deck_head[player] + _CARDS - 1) % _CARDS
        self._deck_head[player] = head
        self._decks[player * _CARDS + head] = card
        self._deck_len[player] += 1
        self.pending_mask = self._last_pending
        self._changed[pile] = self._last_changed
        if self.phase == STALL:
            self.stalls -= 1
        self.phase = self._last_phase
        if self._finisher == player:
            self._finisher = -1
        self.covers -= 1
        self._touch(self._last_at)
        self._refresh()

    def _advance(self, now: int) -> int:
        result = IGNORED
        while True:
            phase = self.phase
            if phase == STALL:
                due = ticks_add(self._stall_at, self.rules.stall_ms)
                if ticks_diff(now, due) < 0:
                    return result
                self._collect()
                self._deal(due)
                result = DEALT
                if self.phase == STALL:
                    self._dead += 1
                    self.dead_deals += 1
                    if self._dead >= self.rules.dead_deal_limit:  # deadlock
                        a, b = self._deck_len[A], self._deck_len[B]
                        fewer = A if a < b else (B if b < a else DRAW)
                        self.deadlocked = True
                        self._end(fewer if self.rules.deadlock == DEADLOCK_FEWER else DRAW,
                                  due)
                        return ENDED
                else:
                    self._dead = 0
            elif phase == FINISH:
                if ticks_diff(now, self._finish_at) <= self.rules.tie_window_ms:
                    return result
                self._end(self._finisher, self._finish_at)
                return ENDED
            else:
                return result

    def _end(self, result: int, now: int) -> None:
        self.game_result = result
        self.ended_at = now
        self._last_pile = -1
        self._finisher = -1
        if result != DRAW:
            self._wins[result] += 1
            if self._wins[result] >= self.rules.wins_needed:
                self.match_winner = result
                self.phase = MATCH_OVER
                return
        self.phase = GAME_OVER

    def _shuffle_decks(self) -> None:
        cards = self._shuffle
        for i in range(_CARDS):
            cards[i] = i
        rng = self._rng
        for i in range(_CARDS - 1, 0, -1):
            j = rng.below(i + 1)
            c = cards[i]
            cards[i] = cards[j]
            cards[j] = c
        decks = self._decks
        split = _HALF_DECK + self.rules.handicap // 2  # A's share (docs/RULES.md, 10)
        for i in range(_CARDS):
            decks[i if i < split else _CARDS + i - split] = cards[i]
        self._deck_head[A] = 0
        self._deck_head[B] = 0
        self._deck_len[A] = split
        self._deck_len[B] = _CARDS - split

    def _begin_game(self, now: int) -> int:
        """Shuffle all 52 cards into two decks (or load the stacked ones), then deal."""
        stacked = self._stacked
        if stacked is None:
            self._shuffle_decks()
        else:
            self._stacked = None
            for player in range(2):
                deck = stacked[player]
                for i in range(len(deck)):
                    self._decks[player * _CARDS + i] = deck[i]
                self._deck_head[player] = 0
                self._deck_len[player] = len(deck)
        self._held[0] = 0  # presses still held were made at another table: they go
        for p in range(_MAX_PILES):
            self._pile_len[p] = 0
            self._tops[p] = _NO_CARD
        self._locked = 0
        self._dead = 0
        self._finisher = -1
        self.game_result = -1
        self.covers = 0
        self.fouls = 0
        self.stalls = 0
        self.dead_deals = 0
        self.deadlocked = False
        self.started_at = now
        self.ended_at = now
        self._now = now
        self._aged_at = now
        self._age_left = _AGE_MS
        self.games += 1
        self._deal(now)
        return DEALT

    def _collect(self) -> None:
        """Each player puts their own row under their deck: leftmost pile first, bottom up."""
        n = self._n
        piles = self._piles
        decks = self._decks
        for player in range(2):
            deck = player * _CARDS
            head = self._deck_head[player]
            size = self._deck_len[player]
            for p in range(player * n, player * n + n):
                base = p * _CARDS
                for i in range(self._pile_len[p]):
                    decks[deck + (head + size) % _CARDS] = piles[base + i]
                    size += 1
                self._pile_len[p] = 0
                self._tops[p] = _NO_CARD
            self._deck_len[player] = size

    def _deal(self, now: int) -> None:
        """Each player lays the top N cards of their deck on their own row, left to right."""
        n = self._n
        piles = self._piles
        decks = self._decks
        for player in range(2):
            deck = player * _CARDS
            head = self._deck_head[player]
            for p in range(player * n, player * n + n):
                card = decks[deck + head]
                head = (head + 1) % _CARDS
                k = self._pile_len[p]
                piles[p * _CARDS + k] = card
                self._pile_len[p] = k + 1
                self._tops[p] = card
            self._deck_head[player] = head
            self._deck_len[player] -= n
        for p in range(self.piles):
            self._changed[p] = now
        self._touch(now)
        self.pending_mask = 0
        self._last_pile = -1
        self._refresh()
        if self.coverable_mask:
            self.phase = PLAY
        else:
            self.phase = STALL
            self._stall_at = now
            self.stalls += 1

    def _touch(self, now: int) -> None:
        self.version = (self.version + 1) & 0x3FFFFFFF
        self.last_change = now

    def _refresh(self) -> None:
        """Recompute the coverable mask from the tops, the pending piles and doubles."""
        keys = self._keys
        tops = self._tops
        np = self.piles
        seen = 0
        shared = 0
        for p in range(np):
            k = keys[tops[p]]
            shared |= seen & k
            seen |= k
        mask = self.pending_mask
        if shared:
            for p in range(np):
                if keys[tops[p]] & shared:
                    mask |= 1 << p
        if self._doubles:
            piles = self._piles
            for p in range(np):
                n = self._pile_len[p]
                if n >= 2 and piles[p * _CARDS + n - 1] % 13 == piles[p * _CARDS + n - 2] % 13:
                    mask |= 1 << p
        self.coverable_mask = mask


def _moved(t: int, d: int, oldest: int) -> int:
    """Stamp t moved by d ms, and no earlier than oldest (when oldest >= 0)."""
    t = ticks_add(t, d)
    return oldest if oldest >= 0 and ticks_diff(t, oldest) < 0 else t
