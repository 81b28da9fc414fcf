"""A handheld in a test, seen as its players see it.

    h = Hand(decks=DECKS)               # powered on at 0 ms, on a simulated clock
    h.tap("A3", at=BOOTED)              # RIGHT on 2 PLAYERS: the match is dealt
    h.tap("A0", at=h.now + SEEN)        # A covers pile 0 once the cards can be seen
    assert h.piles[0] == "7c" and h.heard() == ["DEAL", "COVER_A"]

Keys are named as in key scripts (A0-A3 the near row from the player's own left,
Af0-Af3 the far row, B0-B3, Bf0-Bf3, MENU; on the matrix build, settings={"CS_KEYS":
"matrix"}, A0-A5 and so on, MENU on its own scanner). Times are milliseconds since power-on. What
the tests look at is read off the decoded glass (twins/desktop/glass.py): `screen`, `lines`,
`faces`, `info(player)`, `cards(player)`, `piles`, `banner(player)`, a page's `items()`;
and `heard()` (the sounds, named as in firmware/sound.py) and `console` (the serial
console's lines). What a builder sees besides is on the virtual hardware, `hw`: the
flash's writes and erases, the nvm file, the buzzer's log, the bus, the restarts.

The app runs as firmware/runner.py runs it: App(hw).run(), here stopped after every pass
(hw.stop, set as the pass idles), and a fresh App when it returned to restart.
"""
import re

from engine import Rules
from firmware import keyfilter, lang, match as match_mod, sound
from firmware.app import App
from twins.desktop import virtual
from tools.keynames import key_named
from twins.desktop import glass
from twins.desktop.play import parse_decks

A, B = 0, 1

# Named times (ms), from the rules' defaults and the firmware's own constants.
BOOTED = keyfilter._BOOT_MS + 100  # keys pressed before this were held at power-up
SEEN = Rules().collision_ms + 50  # a card has been on its pile long enough to be seen
LOCKOUT = Rules().foul_lockout_ms  # a foul's lockout
STALL = Rules().stall_ms  # a stall, until the rows are collected and dealt again
RESULT_GUARD = match_mod._RESULT_GUARD_MS  # presses this soon after a result do nothing
PAUSE_HOLD = keyfilter._PAUSE_HOLD_MS + 100  # MENU held this long in a match pauses it
DOUBLE = match_mod._DOUBLE_MS  # a second MENU within this pauses too
BOUNCE = keyfilter._BOUNCE_MS  # a key pressed again this soon after its release bounced
TAP = 60  # how long a tap holds its key
SETTLE = 100  # after a tap's release: its pass has run and the glass shows it

_SOUNDS = sorted(((name, getattr(sound, name)) for name in dir(sound)
                  if name.isupper() and isinstance(getattr(sound, name), bytes)),
                 key=lambda item: -len(item[1]))  # longest first: a prefix is no match


def _tones(pattern):
    """The buzzer's tones of a sound from its start, the silence at its end included."""
    return [sound._HZ[pattern[i]] for i in range(0, len(pattern), 2)] + [0]


def _item(text):
    """(label, value) of a page's item line (its arrow column cut off): the label is the
    longest of the language's labels the line starts with; else the text up to a gap."""
    w = lang.words
    labels = [f[0] for f in lang.fields()] + list(w.STATS) + list(w.MAIN) + list(w.PAUSE)
    found = [label for label in labels
             if text.startswith(label) and text[len(label):len(label) + 1] in ("", " ")]
    if found:
        label = max(found, key=len)
        return label, text[len(label):].strip()
    parts = re.split(r"  +", text.strip(), maxsplit=1)
    return parts[0], parts[1] if len(parts) > 1 else ""


class Hand:
    """A virtual handheld on a simulated clock, its app started at power-on.

    decks: 'A cards / B cards' stacked for the first match; rules: fixed rules (else the
    handheld's settings); nvm: the file of its saved memory (else RAM); settings: a
    settings.toml as a dict; lang: a language code; held: keys down at power-up (release
    them with release()); any other option goes to
    twins.desktop.virtual.init (e.g. start_ms, i2c_fails, display_answers_after)."""

    def __init__(self, decks=None, rules=None, nvm=None, settings=None, lang=None, seed=1,
                 held=(), **options):
        self._again = dict(rules=rules, settings=settings, lang=lang, seed=seed, **options)
        self._on_idle = options.pop("on_idle", None)  # a test's own hook: still called
        self._watchers = []
        self.hw = virtual.init(seed=seed, nvm_path=nvm, settings=settings, **options)
        self.hw.on_idle = self._idled
        for key in held:  # down at power-up (MENU: the self-test)
            self.hw.buttons.press(self.key(key), self.hw.ms(0))
        self._options = {"rules": rules, "language": lang,
                         "decks": parse_decks(decks) if decks else None}
        self.app = App(self.hw, **self._options)
        self._heard_from = 0

    # ---- time and keys ----

    @property
    def now(self):
        """Milliseconds since power-on."""
        return self.hw.elapsed

    def run(self, ms):
        """Let ms milliseconds pass."""
        self.run_until(self.now + ms)

    def run_until(self, ms=None, screen=None, timeout=60000):
        """Run until ms since power-on, or until `screen` shows (within timeout ms:
        AssertionError saying what shows instead). Returns the time it stopped."""
        if screen is not None:
            end = self.now + timeout
            while self.screen != screen:
                if self.now >= end:
                    raise AssertionError("after %d ms the glass shows %r, not %r: %r"
                                         % (timeout, self.screen, screen, self.lines))
                self._pass()
            return self.now
        while self.now < ms:
            self._pass()
        return self.now

    def next_pass(self):
        """Let one pass of the main loop run."""
        self._pass()

    def watch(self, look):
        """Call look(hand) at the end of every pass from now on (h.now: the pass's time;
        the glass, the sounds and the nvm as the pass left them)."""
        self._watchers.append(look)

    def _pass(self):
        restarts = self.hw.restarts
        self.hw.stop = False
        self.app.run()  # one pass: it idles, and _idled asks it to stop
        self.hw.stop = False
        if self.hw.restarts != restarts:  # it restarted (a new language): a fresh app,
            self.app = App(self.hw, **self._options)  # as firmware.runner makes

    def _idled(self, hw):
        if self._on_idle is not None:
            self._on_idle(hw)
        hw.stop = True
        for look in self._watchers:
            look(self)

    def _at(self, at):
        if at is None:
            return self.now
        if at < self.now:
            raise ValueError("at %d ms is in the past (now %d ms)" % (at, self.now))
        return at

    def key(self, key):
        """A key's number in this handheld's key map: by its name (A0, Bf5, MENU), or a
        number as it is. ValueError for a name the build has no key of."""
        if isinstance(key, int):
            return key
        number = key_named(key, self.hw.keymap)
        if number < 0:
            raise ValueError("no key %r on this build (%s)" % (key, self.hw.info["CS_KEYS"]))
        return number

    def press(self, key, at=None):
        """Close a key's contact at a time (default now); nothing runs. A key is named,
        or a number (one the key map does not know has no name)."""
        self.hw.buttons.press(self.key(key), self.hw.ms(self._at(at)))

    def release(self, key, at=None):
        """Open a key's contact at a time (default now); nothing runs."""
        self.hw.buttons.release(self.key(key), self.hw.ms(self._at(at)))

    def tap(self, key, at=None, hold=TAP, settle=SETTLE):
        """Press a key at a time (default now) for hold ms, and run until settle ms after
        its release. Returns the time of the press."""
        t = self._at(at)
        self.press(key, t)
        self.release(key, t + hold)
        self.run_until(t + hold + settle)
        return t

    def hold(self, key, ms, at=None, settle=SETTLE):
        """Hold a key down for ms; returns the time of the press."""
        return self.tap(key, at, ms, settle)

    def taps(self, *keys, gap=150):
        """Tap keys one after another, gap ms apart; returns the time of the first."""
        first = self.now
        for key in keys:
            self.tap(key, settle=gap - TAP)
        return first

    def to(self, item, player="A"):
        """Move the arrow of the page on the glass down to the item that starts with
        these words (with the player's DOWN key)."""
        for _ in range(24):
            if any(line.startswith("\u2192" + item) for line in self.lines):
                return
            self.tap(player + "1")
        raise AssertionError("no item %r on the page: %r" % (item, self.lines))

    def choose(self, item, player="A"):
        """The item's RIGHT: choose it (a menu), or step it to its next value (a setting)."""
        self.to(item, player)
        self.tap(player + "3")

    def set(self, label, value, player="A", left=False, taps=250):
        """Put the arrow on the setting of that label (its line's label, exactly) and step
        it with RIGHT (LEFT if left) until its line shows value."""
        for _ in range(24):
            if self.arrowed()[0] == label:
                break
            self.tap(player + "1")
        else:
            raise AssertionError("no item %r on the page: %r" % (label, self.lines))
        for _ in range(taps):
            if self.arrowed() == (label, value):
                return
            self.tap(player + ("2" if left else "3"))
        raise AssertionError("%s never shows %r: %r" % (label, value, self.arrowed()))

    # ---- what the players see and hear ----

    @property
    def glass(self):
        """The glass: 128 * 64 bytes, 1 lit; all dark while the display is off."""
        if not self.hw.oled.is_on:
            return bytes(glass.W * glass.H)
        return self.hw.oled.frame()

    @property
    def faces(self):
        """Whom the page on the glass faces: A or B (their menu keys turn it)."""
        return B if self._title(glass.turned(self.glass)) and not self._title(self.glass) else A

    @property
    def lines(self):
        """The text lines of the page on the glass, read by whoever it faces."""
        frame = self.glass
        return glass.page(glass.turned(frame) if self.faces == B else frame)

    def text(self, row):
        """One line of the page, without its leading and trailing spaces."""
        return self.lines[row].strip()

    def info(self, player):
        """A player's info line on the play screen (deck count, message, score pips)."""
        return glass.info(self.glass, player)

    def cards(self, player):
        """The count of cards in a player's deck, as their info line shows it."""
        return int(self.info(player)[1:3])

    def message(self, player):
        """The message on a player's info line ('' when none)."""
        return glass.info(self.glass, player)[4:16].strip()

    def items(self):
        """The items of the page on the glass as {label: value} ('' for none), the whole
        page, in its order: one that scrolls is scrolled to its top and then down to its
        end (with the keys of whoever it faces), which moves its arrow. Labels are the
        language's own."""
        for _ in range(40):
            if not self.lines[0].endswith(glass.ICONS[glass.glyphs.ICON_UP]):
                break
            self.tap("AB"[self.faces] + "0")
        out = {}
        for _ in range(40):
            lines = self.lines
            for line in lines[1:7]:
                if line[1:].strip():
                    label, value = _item(line[1:])
                    out[label] = value
            if not lines[7].endswith(glass.ICONS[glass.glyphs.ICON_DOWN]):
                return out
            self.tap("AB"[self.faces] + "1")
        raise AssertionError("the page does not end: %r" % (self.lines,))

    def arrowed(self):
        """(label, value) of the item the page's arrow is on, or None."""
        arrow = glass.ICONS[glass.glyphs.ICON_RIGHT]
        for line in self.lines[1:7]:
            if line.startswith(arrow):
                return _item(line[1:])
        return None

    @property
    def piles(self):
        """The top card of every pile, as '5c', in the engine's pile order."""
        return glass.piles(self.glass)

    def banner(self, player):
        """The banner across a player's row (YOU WIN!, ...), or None."""
        return glass.banner(self.glass, player)

    @property
    def screen(self):
        """Which screen shows: 'off', 'menu', 'settings', 'statistics', 'pause', 'howto',
        'selftest', 'play', 'result' or 'unknown' (the error screen, in its own font)."""
        frame = self.glass
        if not any(frame):
            return "off"
        name = self._title(frame) or self._title(glass.turned(frame))
        if name:
            return name
        if glass.banner(frame, A) is not None or glass.banner(frame, B) is not None:
            return "result"
        if glass.info(frame, A).startswith(glass.ICONS[glass.glyphs.ICON_DECK]):
            return "play"
        return "unknown"

    @staticmethod
    def _title(frame):
        """The page a frame shows facing A, by its title (or its foot, for HOW TO PLAY)."""
        w = lang.words
        lines = glass.page(frame)
        title = lines[0].rstrip(glass.ICONS[glass.glyphs.ICON_UP]).strip()  # (scrolled)
        title = re.sub(r" +\d{1,3}%$", "", title)  # (on cells: the gauge at its end)
        for name, words in (("menu", w.TITLE), ("settings", w.MAIN[3]),
                            ("statistics", w.MAIN[4]), ("pause", w.PAUSED),
                            ("selftest", w.SELFTEST)):
            if title == words:
                return name
        if re.search(r" \d/\d +%s" % re.escape(w.BACK), lines[7]):
            return "howto"
        return None

    def heard(self):
        """The sounds started since the last call, oldest first, by their names in
        firmware/sound.py ('COVER_A', 'FOUL', ...); a sound cut short by the next one
        counts."""
        log = [hz for _, hz in self.hw.buzzer.log[self._heard_from:]]
        self._heard_from = len(self.hw.buzzer.log)
        out = []
        i = 0
        while i < len(log):
            if log[i] == 0:
                i += 1
                continue
            best, length = None, 0
            for name, pattern in _SOUNDS:
                tones = _tones(pattern)
                n = 0
                while n < len(tones) and i + n < len(log) and log[i + n] == tones[n]:
                    n += 1
                if n > length:
                    best, length = name, n
            out.append(best or "%d Hz" % log[i])
            i += max(length, 1)
        return out

    @property
    def console(self):
        """The serial console's lines so far."""
        return self.hw.console_lines

    def power_cycle(self):
        """Switch off and on again: a new handheld on the same saved memory (and the same
        options, but stacked decks: those were for the first match)."""
        if self.hw.flash.path is None:
            raise ValueError("a memory in RAM is gone at power-off: give Hand an nvm file")
        return Hand(nvm=self.hw.flash.path, **self._again)

    def png(self, path, scale=4):
        """Save the glass (for looking at a failing test)."""
        self.hw.oled.to_png(path, scale=scale)
