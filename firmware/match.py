"""A match on the handheld: the engine, the play screen, sounds, the computer opponent,
feedback for every press, results, and the statistics of each game.

press() and advance() run every main-loop pass during play and allocate nothing.
"""
import gc

import engine
import firmware
from engine import Game
from engine.ticks import ticks_diff
from firmware import glyphs, lang, sound
from hardware.keymap import pile_of, player_of

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from engine import Rules
    from engine.bot import Bot
    from firmware.sound import Sound
    from firmware.stats import Stats
    from firmware.table import Table

class Match:
    """Plays matches on the table; the app owns the screens and the keys."""

    def __init__(self, table: "Table", snd: "Sound", stats: "Stats") -> None:
        self.table = table
        self.sound = snd
        self.stats = stats
        self.game = Game()  # one Game for every match: begin() resets it to its rules
        self.bot = None  # type: Bot | None  # the computer as B in a solo match
        self.level = -1  # its level (-1: two players), to build it again after a pause
        self.hints = False
        self.phase = -1  # the engine phase last shown
        self.ended_at = 0
        self.dealing = False  # the next game was dealt in this pass

    def begin(self, rules: "Rules", seed: int, now: int, level: int = -1,
              decks: "tuple[list[int], list[int]] | None" = None) -> None:
        """Deal a new match: two players, or A against the computer at level >= 0."""
        self.end()
        g = self.game
        g.reset(rules, seed)  # (in its own buffers: no new block of heap is needed)
        if decks is not None:
            g.stack(decks[0], decks[1])
        self.level = level
        self.resume()
        t = self.table
        t.layout(rules.piles_per_row)
        for p in range(2):  # an hourglass on the line of a seat that carries a handicap
            h = rules.handicap_ms if p == 0 else -rules.handicap_ms
            c = rules.handicap if p == 0 else -rules.handicap
            t.lines[p].fill(3, 4, glyphs.ICON_SLOW if h > 0 or c > 0 else 32)
        g.start(now)
        self._dealt(now, True)  # a whole new screen: every pile in its one full frame

    def pause(self) -> None:
        """Play stops for a menu page: the computer player and its code leave the heap,
        which then has room for the page."""
        self.bot = None
        firmware.forget("engine.bot")

    def resume(self) -> None:
        """Play goes on: the computer player is built (again) if it plays. It takes a fresh
        look at the table, as a person coming back to it would."""
        if self.level >= 0 and self.bot is None:
            from engine.bot import Bot  # (its code is in the heap during solo play only)
            g = self.game
            self.bot = Bot(g, 1, self.level, ((g.seed ^ 0x5A5A) + g.version) & 0x3FFFFFFF)

    def end(self) -> None:
        """The match is over or left."""
        self.level = -1
        self.pause()
        gc.collect()  # a quiet point: between matches

    def next_game(self, now: int) -> bool:
        """After a game over: deal the next game of the match; False if the match is over."""
        t = self.table
        for p in range(2):
            t.banner(p, None)
            t.quiet(p)
        if self.game.phase != engine.GAME_OVER:
            return False
        self.game.next_game(now)  # (the app collected the heap as the result was shown)
        self._dealt(now, False)  # the banners go, then the piles come, one a pass
        self.dealing = True
        return True

    def _dealt(self, now: int, every: bool) -> None:
        self.phase = -1
        if every:
            self.table.sync(self.game, True)
        self.sound.play(sound.DEAL, now)

    def press(self, role: int, t: int) -> None:
        """A pile button pressed at scanner time t."""
        g = self.game
        pile = pile_of(role, g.rules.piles_per_row)
        if pile < 0:
            return
        player = player_of(role)
        if player == 1 and self.level >= 0:  # a second person takes seat B
            self.level = -1
            self.pause()
            self.table.say(1, lang.words.JOINED, t, 1500)
        changed = g.changed_at(pile)
        r = g.press(player, pile, t)
        self._feedback(player, r, t, ticks_diff(t, changed))

    def _feedback(self, player: int, r: int, t: int, delay_ms: int) -> None:
        """The sound and message of a press's result (HELD: none yet, its verdict later);
        delay_ms: how long after its pile changed the press was made."""
        if r == engine.COVERED:
            self.sound.play(sound.COVER_A if player == 0 else sound.COVER_B, t)
            if player == 0 or self.bot is None:
                self.stats.cover(delay_ms)
        elif r == engine.FOUL:
            self.sound.play(sound.FOUL, t)
            lockout = self.game.rules.foul_lockout_ms
            w = lang.words
            self.table.say(player, w.LOCKED if lockout else w.FOUL, t, lockout or 400)
        elif r == engine.COLLISION:
            self.sound.play(sound.COLLISION, t)
            self.table.say(player, lang.words.TOO_LATE, t, 500)

    def advance(self, now: int) -> bool:
        """Timers, the computer's presses and the screen; True when a game has just ended."""
        if self.dealing:  # the pass that dealt the next game: that was its work
            self.dealing = False
            return False
        g = self.game
        g.tick(now)
        bot = self.bot
        if bot is not None:
            r = bot.update(now)
            if r >= 0:
                self._feedback(1, r, now, 0)
        v = g.judged()  # held presses (a time handicap), as each took effect
        while v >= 0:
            self._feedback((v >> 20) & 15, v >> 24, now, v & 0xFFFF)
            v = g.judged()
        t = self.table
        t.expire(now)
        ended = self._phase_changed(g, now)
        t.sync(g)  # last: what this pass said is drawn in it if it draws no pile
        if self.hints:
            t.hint(g.coverable_mask if g.phase == engine.PLAY else 0)
        return ended

    def _phase_changed(self, g: Game, now: int) -> bool:
        """Messages and sounds for a new phase; True when a game has just ended."""
        phase = g.phase
        if phase == self.phase:
            return False
        was = self.phase
        self.phase = phase
        t = self.table
        if phase == engine.STALL:
            t.say_both(lang.words.NO_MATCH, now, -1)
            self.sound.play(sound.STALL, now)
        elif phase == engine.PLAY and was == engine.STALL:
            t.quiet(0)
            t.quiet(1)
            self.sound.play(sound.DEAL, now)
        elif phase == engine.GAME_OVER or phase == engine.MATCH_OVER:
            self._result(g, now)
            return True
        return False

    def rest(self, now: int) -> bool:
        """A pass of the result screen: what is left of it drawn; True when nothing was."""
        t = self.table
        t.expire(now)
        if t.pending:
            t.sync(self.game)
            return False
        return True

    def notice(self, text: str, now: int) -> None:
        """A short note for both players, about the keys themselves."""
        self.table.say_both(text, now, 1500)

    def declare_draw(self, now: int) -> None:
        """Both players agreed: the game is a draw."""
        if self.game.declare_draw(now) == engine.ENDED:
            self.advance(now)

    def _result(self, g: Game, now: int) -> None:
        self.ended_at = now
        match = g.phase == engine.MATCH_OVER
        result = g.game_result
        self.stats.game(result, ticks_diff(g.ended_at, g.started_at))
        if match:
            self.stats.match()
        t = self.table
        t.hint(0)
        w = lang.words
        for p in range(2):
            if result == engine.DRAW:
                text = w.DRAW
            elif result == p:
                text = w.MATCH_WON if match else w.YOU_WIN
            else:
                text = w.MATCH_LOST if match else w.YOU_LOSE
            t.banner(p, text)
            t.say(p, w.TO_MENU if match else w.NEXT, now, -1)
        self.sound.play(sound.DRAW if result == engine.DRAW else sound.WIN, now)
