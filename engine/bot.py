"""A computer player for California Speed that plays only through Game.press.

A human-like model: when the table changes, the bot takes a reaction delay before it
acts (drawn around a mean, with a spread, per level); sometimes it misses the change and
takes much longer; sometimes it fouls (presses a pile it cannot cover). When it
plays, it finishes a pending match first, then prefers piles in the opponent's row
(each player collects their own row, so a card left there is the opponent's problem).
With a time handicap on its seat its presses are HELD: it sees its cover when it lands,
but presses the partner of a match it spotted as a person would, without waiting.
Seeded and allocation-free, like the engine.
"""
try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

from .game import PLAY, FINISH, COVERED, GAME_OVER, HELD
from .rng import Rng
from .ticks import ticks_add, ticks_diff

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from .game import Game

# name, mean reaction ms, spread ms, miss per mille, foul per mille
LEVELS = (
    ("ROOKIE", 1700, 900, 200, 20),
    ("CASUAL", 1150, 550, 120, 30),
    ("QUICK", 800, 350, 60, 35),
    ("SHARP", 560, 220, 30, 40),
    ("LIGHTNING", 380, 140, 10, 45),
)
_DELAYS = const(64)  # precomputed reaction delays per bot, drawn with one random number
_FOLLOW_MS = const(180)  # a second press on a match already spotted: hand movement only
_IDLE = const(-1)


class Bot:
    """Plays one seat of a Game: call update(now) often; it presses when it is time."""

    def __init__(self, game: "Game", player: int, level: int = 2, seed: int = 0) -> None:
        if type(level) is not int or not 0 <= level < len(LEVELS):
            raise ValueError("level: must be 0..%d, not %r" % (len(LEVELS) - 1, level))
        if player != 0 and player != 1:
            raise ValueError("player: must be 0 (A) or 1 (B), not %r" % (player,))
        self.game = game
        self.player = player
        _, mean, spread, miss, foul = LEVELS[level]
        self._miss = miss
        self._foul = foul
        self._miss_ms = 2 * mean
        self._rng = Rng(seed)
        # Delays are mean - spread + (u1 + u2 + u3 + u4) / 2 with u uniform in [0, spread]
        # (7-bit draws, two from each 15-bit number): a bell around the mean.
        self._delays = [0] * _DELAYS
        rng = self._rng
        for i in range(_DELAYS):
            r1 = rng.next15()
            r2 = rng.next15()
            u = (r1 & 127) + (r1 >> 8) + (r2 & 127) + (r2 >> 8)  # four values 0..127
            self._delays[i] = mean - spread + (u * spread) // 254
        self._version = -1
        self._act_at = 0
        self._aim = 0  # its next press: -1 a foul, a mask the partners of a held cover, 0 any
        self.wake_at = _IDLE  # when the bot next wants update() (-1: when the table changes)
        self.presses = 0

    def update(self, now: int) -> int:
        """Look at the table and press if the reaction time is up; returns the press result
        or -1 when the bot did not press."""
        pile = self.choose(now)
        if pile < 0:
            return -1
        r = self.game.press(self.player, pile, now)
        self.pressed(pile, r, now)
        return r

    def choose(self, now: int) -> int:
        """Look at the table: the pile to press now if the reaction time is up, else -1.
        Whoever presses it for the bot tells it the result (pressed())."""
        g = self.game
        if g.phase != PLAY and g.phase != FINISH:
            self._version = -1
            self.wake_at = _IDLE
            return -1
        if g.version != self._version:
            if self._aim > 0 and self._aim & g.coverable_mask:
                self._version = g.version  # a match it spotted: it presses it all the same
            else:
                self._plan(g)
        if self.wake_at == _IDLE or ticks_diff(now, self._act_at) < 0:
            return -1
        me = self.player
        if g.deck_size(me) == 0:
            self.wake_at = _IDLE
            return -1
        if g.locked(me, now):
            self._act_at = ticks_add(now, 50)
            self.wake_at = self._act_at
            return -1
        pile = self._choose(g)
        if pile < 0:
            self.wake_at = _IDLE  # nothing to do until the table changes
            return -1
        self.presses += 1
        return pile

    def pressed(self, pile: int, r: int, now: int) -> None:
        """The result of the press choose() asked for: what the bot does next."""
        g = self.game
        self._aim = 0
        if r == HELD:
            # It takes effect later; a spotted match's partner is pressed now all the same.
            keys = g._keys
            k = keys[g.top(pile)]
            mask = g.coverable_mask & ~_held(g, self.player)
            aim = 0  # the piles, not pressed yet, that match this one
            for p in range(g.piles):
                if (mask >> p) & 1 and keys[g.top(p)] & k:
                    aim |= 1 << p
            self._aim = aim
            self._version = g.version
            self._act_at = ticks_add(now, _FOLLOW_MS + self._delays[self._rng.next15() & 63] // 8) \
                if aim else ticks_add(now, abs(g.rules.handicap_ms) + 1)
            self.wake_at = self._act_at
        elif r == COVERED and g.pending_mask and g.phase == PLAY:
            # The partner pile of a spotted match is pending: no new search needed.
            self._version = g.version
            self._act_at = ticks_add(now, _FOLLOW_MS + self._delays[self._rng.next15() & 63] // 8)
            self.wake_at = self._act_at
        else:
            self._version = -1  # look again from scratch
            self.wake_at = _IDLE
            self._plan(g)

    def _plan(self, g: "Game") -> None:
        """The table changed: decide when to act, and whether this look ends in a foul."""
        self._version = g.version
        r = self._rng.next15()
        delay = self._delays[r & 63]
        roll = ((r >> 6) * 1000) >> 9  # the 9 bits above the delay's 6: 0..998
        if roll < self._miss:
            delay += self._miss_ms
        self._aim = -1 if roll >= 1000 - self._foul else 0
        if not g.coverable_mask and not self._aim:
            self.wake_at = _IDLE
            return
        self._act_at = ticks_add(g.last_change, delay)
        self.wake_at = self._act_at

    def _choose(self, g: "Game") -> int:
        """The pile to press: a pending pile, then the opponent's row; -1 if none."""
        mask = g.coverable_mask
        pending = g.pending_mask
        n = g.piles
        aim = self._aim
        if aim > 0:
            mask &= aim
            self._aim = 0
        elif aim:  # a foul: a pile that cannot be covered (if every one can, it covers)
            mask = (~mask & ((1 << n) - 1)) or mask
        if g._held[0]:
            mask &= ~_held(g, self.player)  # (and not its own presses still to land)
        if not mask:
            return -1
        half = n // 2
        opp = ((1 << half) - 1) << ((1 - self.player) * half)  # the opponent's row
        start = self._rng.next15() % n  # break ties at random
        # The best class of pile there is: pending in the opponent's row, pending, in the
        # opponent's row, any; of those, the first from start on.
        best = (mask & pending & opp) or (mask & pending) or (mask & opp) or mask
        for i in range(n):
            p = (start + i) % n
            if (best >> p) & 1:
                return p
        return -1


def _held(g: "Game", player: int) -> int:
    """The piles of the player's presses that the game holds (a time handicap), as a mask:
    what it pressed and has not seen land yet."""
    ms = g.rules.handicap_ms
    if not ms or player != (0 if ms > 0 else 1):
        return 0
    held = g._held
    mask = 0
    for i in range(held[0]):
        mask |= 1 << held[1 + 2 * i]
    return mask


def play_out(game: "Game", a: Bot, b: Bot, limit_ms: int = 1800000) -> int:
    """Let bots a and b play a dealt game to its end on a clock that jumps from event to
    event; returns the end time, or -1 if the game is still going after limit_ms."""
    now = game.last_change
    start = now
    step = 0
    while game.phase < GAME_OVER:
        if step & 1:  # neither seat always looks first
            a.update(now)
            b.update(now)
        else:
            b.update(now)
            a.update(now)
        step += 1
        if game.phase >= GAME_OVER:
            break
        # The next event: the earlier bot's wake (B's on a tie), or the timer if it is not
        # later; -1 means never.
        t = a.wake_at
        w = b.wake_at
        if t < 0 or (w >= 0 and ticks_diff(t, w) >= 0):
            t = w
        w = game.next_timer() if game.phase != PLAY or game._held[0] else -1
        if t < 0 or (w >= 0 and ticks_diff(t, w) >= 0):
            t = w
        if t < 0 or ticks_diff(t, start) > limit_ms:
            return -1
        now = t
        # A tick at a time before the timer, inside the game's clock window (Game._time),
        # changes nothing: it is left out.
        if t == w or not 0 <= ticks_diff(t, game._now) < game._age_left:
            game.tick(now)
    return game.ended_at
