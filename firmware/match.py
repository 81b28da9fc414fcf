"""A match on the handheld: the engine, the play screen, sounds, the computer opponent,
feedback for every press, results, and the statistics of each game. Two screens show it:
Match while a game is played, Result while its result is up.

key() and advance() run every main-loop pass during play and allocate nothing. The
computer player's presses come in by key() as a person's do.
"""
import gc

import engine
import firmware
from engine import Game
from engine.ticks import ticks_diff
from firmware import glyphs, lang, sound
from firmware.keyfilter import Meaning

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from collections.abc import Callable

    from engine import Rules
    from engine.bot import Bot  # noqa: F401
    from hardware.contract import Shell
    from firmware.store import Saves
    from firmware.settings import Settings
    from firmware.sound import Sound
    from firmware.stats import Stats
    from firmware.table import Table

# What a screen asks the app to do, as firmware/__init__.py numbers it.
_A_NOTHING = const(0)
_A_PAUSE = const(11)
_A_ENDED = const(12)
_A_PLAY = const(13)
_A_TO_MENU = const(14)
# What a key's meaning is (Meaning.what), as firmware/keyfilter.py numbers it.
_M_PRESS = const(1)
_M_HOLD = const(4)

_DOUBLE_MS = const(500)  # a second MENU this soon after the first pauses
_RESULT_GUARD_MS = const(1000)  # presses right after a game ends do not deal the next
_SETTLED = const(2)  # the steps of a result's quiet work: save, then collect and tidy
_SAY_MS = const(1000)  # a refused press is said on its seat's line this long at least
_REST_MS = const(1000)  # the longest rest_ms (firmware/app.py advances a screen this often)
_LOW = const(15)  # % left in the cells: a match starts with a warning (lab/battery.py)


class Match:
    """Plays matches on the table; the app owns the screens and the keys."""

    on_sleep = _A_PAUSE  # (what the app does as the screen goes off: firmware/app.py)

    def __init__(self, table: "Table", snd: "Sound", stats: "Stats") -> None:
        self.table = table
        self.group = table.group  # the play screen
        self.sound = snd
        self.stats = stats
        self.game = Game()  # one Game for every match: begin() resets it to its rules
        self.bot = None  # type: Bot | None  # the computer as B in a solo match
        self.level = -1  # its level (-1: two players), to build it again after a pause
        self.hints = False
        self.phase = -1  # the engine phase last shown
        self.ended_at = 0
        self.dealing = False  # the next game was dealt in this pass
        self.menu_at = -1  # when MENU was last pressed (a second press soon after pauses)
        self.meaning = Meaning()  # the computer player's press (as B)
        self.meaning.what = _M_PRESS
        self.meaning.player = 1
        self.result = -1  # the last press's result (the computer player reads its own)
        self.covered_at = 0  # when a press last covered a pile
        self.rest_ms = 0  # after advance(): ms till it has work again (firmware/app.py)
        self.fresh = False  # a match was dealt and is not on the glass yet

    def enter(self, app: "Shell") -> None:
        """On the glass (from the menus; the next game is on it already)."""
        if app.display.root_group is not self.group:
            app.show(self, 0)
        if self.fresh:  # a new match: said once if the cells are low (none on USB power)
            self.fresh = False
            left = app.hw.cells()
            if 0 <= left <= _LOW:
                self.notice(lang.words.LOW_CELLS, app.hw.ticks_ms())

    def leave(self, app: "Shell") -> None:
        """(Left for the pause page, or for its result: the match goes on.)"""

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
        self.fresh = True

    def pause(self) -> None:
        """Play stops for a menu page: the computer player and its code leave the heap,
        which then has room for the page."""
        self.bot = None
        firmware.forget("engine.bot")

    def resume(self) -> None:
        """Play goes on: the computer player is built (again) if it plays. It takes a fresh
        look at the table, as a person coming back to it would."""
        self.menu_at = -1
        if self.level >= 0 and self.bot is None:
            gc.collect()  # (a quiet point: its code wants room in one piece)
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

    def key(self, m: Meaning, t: int) -> int:
        """A key's meaning at scanner time t (or the computer player's press): a pile
        button presses its pile; MENU twice quickly, or held, pauses."""
        if m.note is not None:
            self.notice(m.note, t)
        if m.what == _M_HOLD:
            return _A_PAUSE
        if m.what != _M_PRESS:
            return _A_NOTHING
        if m.player < 0:  # MENU
            double = self.menu_at >= 0 and ticks_diff(t, self.menu_at) < _DOUBLE_MS
            self.menu_at = t
            return _A_PAUSE if double else _A_NOTHING
        pile = m.pile
        if pile < 0:
            return _A_NOTHING
        g = self.game
        player = m.player
        if player == 1 and self.level >= 0 and m.key >= 0:  # a second person takes seat B
            self.level = -1
            self.pause()
            self.table.say(1, lang.words.JOINED, t, 1500)
        changed = g.changed_at(pile)
        r = g.press(player, pile, t)
        self.result = r
        self._feedback(player, r, t, ticks_diff(t, changed))
        if r == engine.COVERED or r == engine.COLLISION:
            if changed == t == self.covered_at:
                # A press covered this pile in this very instant: both seats pressed it at
                # once and a coin decided (docs/RULES.md, 6). The seat that lost is told:
                # this press's TOO LATE, or the other's cover, taken back.
                self.table.say(player if r == engine.COLLISION else 1 - player,
                               lang.words.LOST_TOSS, t, _SAY_MS)
            if r == engine.COVERED:
                self.covered_at = t
        return _A_NOTHING

    def _feedback(self, player: int, r: int, t: int, delay_ms: int) -> None:
        """The sound and message of a press's result (HELD: none yet, its verdict later);
        delay_ms: how long after its pile changed the press was made."""
        if r == engine.COVERED:
            self.sound.play(sound.COVER_A if player == 0 else sound.COVER_B, t)
            if player == 0 or self.bot is None:
                self.stats.cover(delay_ms)
        elif r == engine.FOUL:
            self.sound.play(sound.FOUL, t)
            left = self.game.lockout_left(player, t)  # (a held press locks from its due time)
            self.table.say(player, lang.words.FOUL, t, max(left, _SAY_MS))
        elif r == engine.LOCKED:
            self.table.say(player, lang.words.LOCKED, t, _SAY_MS)
        elif r == engine.COLLISION:
            self.sound.play(sound.COLLISION, t)
            self.table.say(player, lang.words.TOO_LATE, t, _SAY_MS)

    def advance(self, now: int) -> int:
        """Timers, the computer's presses and the screen; _A_ENDED when a game has just ended."""
        if self.dealing:  # the pass that dealt the next game: that was its work
            self.dealing = False
            self.rest_ms = 0
            return _A_NOTHING
        g = self.game
        g.tick(now)
        bot = self.bot
        if bot is not None:
            pile = bot.choose(now)
            if pile >= 0:
                self.meaning.pile = pile
                self.key(self.meaning, now)
                bot.pressed(pile, self.result, now)
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
        self.rest_ms = self._rest(g, now)
        return _A_ENDED if ended else _A_NOTHING

    def _rest(self, g: Game, now: int) -> int:
        """ms till advance() has work: the table's, the game's next timer or the computer's
        press, whichever is first (0: the next pass)."""
        rest = self.table.rest(g, self.hints, now, _REST_MS)
        t = g.next_timer()
        if t != -1:
            rest = min(rest, ticks_diff(t, now))
        bot = self.bot
        if bot is not None and bot.wake_at != -1:  # (-1: when the table changes)
            rest = min(rest, ticks_diff(bot.wake_at, now))
        return rest if rest > 0 else 0

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
        if t.hint_mask:  # (the marks go, one a pass)
            t.hint(0)
            return False
        return True

    def notice(self, text: str, now: int) -> None:
        """A short note for both players, about the keys themselves or the cells."""
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


class Result:
    """The screen while a game's result is up (the play screen, with banners): the quiet
    work it allows, then a key deals the next game or leaves the match."""

    def __init__(self, match: Match, saves: "Saves", settings: "Settings",
                 console: "Callable[[str], None]") -> None:
        self.match = match
        self.group = match.group
        self.saves = saves
        self.settings = settings
        self.console = console
        self.settled = _SETTLED  # steps of the quiet work done (_settle)
        self.rest_ms = 0  # after advance(): ms till it has work again (firmware/app.py)

    on_sleep = _A_NOTHING

    def enter(self, app: "Shell") -> None:
        """A game has just ended: its result is on the way to the glass (the play screen's)."""
        self.settled = 0

    def leave(self, app: "Shell") -> None:
        """Left for the next game, or for the main menu: then the match is over."""
        if app.screen is not self.match:
            self.match.end()

    def key(self, m: Meaning, t: int) -> int:
        """A press, once the guard time is over: the next game (_A_PLAY), or the main menu
        after the match (_A_TO_MENU)."""
        match = self.match
        if m.note is not None:
            match.notice(m.note, t)
        if m.what != _M_PRESS or ticks_diff(t, match.ended_at) < _RESULT_GUARD_MS:
            return _A_NOTHING
        while self.settled < _SETTLED:  # (a key before the quiet work was done)
            self._settle()
        return _A_PLAY if match.next_game(t) else _A_TO_MENU

    def advance(self, now: int) -> int:
        """Once the result is all on the glass, its quiet work, a step a pass."""
        m = self.match
        if m.rest(now) and self.settled < _SETTLED:
            self._settle()
        self.rest_ms = 0 if self.settled < _SETTLED else m.table.rest(m.game, m.hints, now,
                                                                       _REST_MS)
        return _A_NOTHING

    def _settle(self) -> None:
        """The next step of the quiet work a result allows, once it is on the screen (which
        then stays as it is for a while), each in a pass of its own: save the statistics
        (and an AUTO HANDICAP that moved), then collect the heap and tidy the nvm."""
        self.settled += 1
        if self.settled == 1:
            self.console("game over: " + firmware.free())
            self.saves.save_stats()
            g = self.match.game
            if g.phase == engine.MATCH_OVER:
                s = self.settings
                moved = s.match_won(g.match_winner)  # AUTO HANDICAP: the next match has it
                if s.match_over() or moved:  # HINTS for a few matches counted down
                    self.match.hints = bool(s.value("hints"))
                    self.saves.settings_done(True)
        else:
            gc.collect()
            self.saves.tidy()
