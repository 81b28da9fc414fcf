"""The handheld's settings: what each one is, its choices, its default, and its record.

A setting is stored as the index of its choice; an index that is out of range (an old or
corrupt record) falls back to the default. The record (kind SETTINGS in firmware/store.py)
is a version byte followed by one index per setting, in FIELDS order (read back by
firmware/restore.py). It is the base of
the SETTINGS tally: a change saves an entry, (setting number, index), and a
compaction folds them into a new base. A record from before a setting was added has no
index for it: that setting takes its default.

PILES offers what the build can press (hardware/seats.py, PILE_CHOICES): 4 and 3 on the
direct build, and 6 besides on the matrix build. Its choices here are the matrix build's,
whose first ones are the direct build's, so an index means the same on either build; a
saved 6 read on the direct build plays 4 (firmware/restore.py says so on the console).

HANDICAP is one line on the page over two settings, handicap_ms and handicap (cards), on
one scale (docs/RULES.md, 10): EVEN; then the stronger seat's presses held 5 ms more a
step, to 500 ms; then 2 cards more a step, to 8. Steps of 5 ms: the sim's win rate moves
0.4 to 1 point a ms of delay, so every gap it measures has a step inside 45-55%
(docs/LAB.md).
"""
from engine import Rules
from firmware import lang
from hardware.seats import PILE_CHOICES as _BY_BUILD, build_of

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

SETTINGS_KIND = 1
RECORD_VERSION = 1
PRESET = 255  # the record's LANGUAGE until one is chosen: settings.toml's CS_LANGUAGE

# key, choices, default choice. What each is called, and each choice, in the chosen
# language: FIELDS in firmware/fields_en.py (and the others), in this order.
FIELDS = (
    ("wins", (1, 2, 3, 4, 5), 1),
    ("piles", _BY_BUILD[1], 0),  # every build's choices (Settings.piles: this build's)
    ("lockout", (400, 200, 800, 0), 0),
    ("match_by", (0, 1, 2), 0),
    ("doubles", (0, 1), 0),
    ("deadlock", (0, 1), 0),
    ("level", (0, 1, 2, 3, 4), 2),  # engine.bot.LEVELS, by number
    ("sound", (1, 0), 0),
    ("contrast", (255, 128, 48, 8), 0),
    ("flip", (0, 1), 0),
    ("hints", (0, 1, 2, 3, 4), 2),  # OFF, ON, on for the next 3, 2 or 1 matches (not 0: on)
    ("sleep", (2, 5, 10, 1, 0), 0),  # minutes
    # cards A is dealt over B (docs/RULES.md, 10): in order, so AUTO steps one choice a match
    ("handicap", (-8, -6, -4, -2, 0, 2, 4, 6, 8), 4),
    ("auto", (0, 1), 0),
    ("language", (0, 1, 2), 0),  # lang.CODES, by number; the default: CS_LANGUAGE
    # ms A's presses are held (B's if negative): shown on HANDICAP's line, not one of its own
    ("handicap_ms", range(-500, 501, 5), 100),
)
KEYS = tuple(key for key, _choices, _default in FIELDS)
_PILES = const(1)  # KEYS.index("piles")
_LEVEL = const(6)  # KEYS.index("level")
_HINTS = const(10)  # KEYS.index("hints")
_HINTS_FOR_3 = const(2)  # HINTS' choice "next 3 matches"; then 2, then 1, then OFF
_HANDICAP = const(12)  # KEYS.index("handicap")
LANGUAGE = KEYS.index("language")
_MS = const(15)  # KEYS.index("handicap_ms")
_TOP = const(104)  # the scale's end: 500 ms (100 steps) and 8 cards (4 more)


class Settings:
    """The chosen index of every setting; value(key) gives what it means."""

    def __init__(self, language: str = "en", keys: "str | None" = None) -> None:
        """language: the LANGUAGE until one is chosen (settings.toml's CS_LANGUAGE); keys:
        the build (settings.toml's CS_KEYS; the direct build by default), which says the
        PILES it offers."""
        self.piles = _BY_BUILD[build_of(keys)]  # the piles a row this build offers
        self.preset = lang.CODES.index(language) if language in lang.CODES else 0
        self.language_chosen = False  # on the handheld (else the preset is spoken)
        self.index = bytearray(len(FIELDS))
        self.streak = 0  # AUTO HANDICAP: matches won in a row, by A (> 0) or by B (< 0)
        self.reset()
        self.mark()

    def mark(self) -> None:
        """What is saved: changes() counts from here."""
        self.saved = bytes(self.index)

    def changes(self) -> "list[bytes]":
        """A tally entry for each setting changed since mark(); marks."""
        out = [bytes((i, v)) for i, v in enumerate(self.index) if v != self.saved[i]]
        self.mark()
        return out

    def base(self) -> bytes:
        """The record that holds every setting (a compaction's fold); marks."""
        self.mark()
        return self.encode()

    def reset(self) -> None:
        """Every setting back to its default."""
        for i in range(len(FIELDS)):
            _key, _choices, default = FIELDS[i]
            self.index[i] = default
        self.index[LANGUAGE] = self.preset
        self.language_chosen = False

    def value(self, key: str) -> int:
        """The setting's value (e.g. 400 for lockout)."""
        i = KEYS.index(key)
        _key, choices, _default = FIELDS[i]
        return choices[self.index[i]]

    def language(self) -> str:
        """The chosen language's code ("en", "fr" or "pt")."""
        return lang.CODES[self.value("language")]

    def label(self, i: int) -> str:
        """What setting number i is called, in the chosen language (lang.fields())."""
        name, _texts = lang.fields()[i]
        return name

    def text(self, i: int) -> str:
        """The menu text of setting number i's current choice, in the chosen language (the
        CPU level's from the language's own words: the main menu shows it)."""
        if i == _LEVEL:
            return lang.words.LEVELS[self.index[i]]
        _name, texts = lang.fields()[i]
        cards = texts[self.index[i]]
        ms = self.value("handicap_ms") if i == _HANDICAP else 0
        if not ms:
            return cards
        text = "%s %dMS" % ("A" if ms > 0 else "B", abs(ms))  # "A 120MS"
        c = self.value("handicap")
        if not c:
            return text
        return text + (cards[1:] if (c > 0) == (ms > 0) else " " + cards)  # "A 500MS+4"

    def choose(self, key: str, value: int) -> None:
        """Choose one of a setting's values, as its page would (ValueError if it is not)."""
        i = KEYS.index(key)
        _key, choices, _default = FIELDS[i]
        self.index[i] = list(self.piles if i == _PILES else choices).index(value)
        self.language_chosen |= i == LANGUAGE

    def step(self, i: int, delta: int) -> None:
        """Move setting number i to the next (+1) or previous (-1) choice, wrapping;
        HANDICAP along its scale, from end to end."""
        if i == _HANDICAP:
            k = max(-_TOP, min(_TOP, self._scale() + delta))
            far = abs(k) > 100  # (past the full 500 ms: cards)
            self.index[_MS] = 100 + (k if not far else (100 if k > 0 else -100))
            self.index[_HANDICAP] = 4 + (0 if not far else (k - 100 if k > 0 else k + 100))
            return
        _key, choices, _default = FIELDS[i]
        n = len(self.piles) if i == _PILES else len(choices)
        self.index[i] = (self.index[i] + delta) % n
        self.language_chosen |= i == LANGUAGE
        if i == _LEVEL and self.index[i] == 0 and self.index[_HINTS] == 0:
            self.index[_HINTS] = _HINTS_FOR_3  # ROOKIE, the level to learn at: hints again

    def match_over(self) -> bool:
        """A match was finished: HINTS for the next matches counts one down, to OFF after
        the last. True if it changed."""
        i = self.index[_HINTS]
        if i < _HINTS_FOR_3:
            return False
        self.index[_HINTS] = i + 1 if i < _HINTS_FOR_3 + 2 else 0
        return True

    def _scale(self) -> int:
        """Where HANDICAP stands on its scale, -_TOP..._TOP (0: EVEN; A's side > 0). Cards
        without the full 500 ms (a record from before the time handicap) stand at their
        time's place, and leave with the next step."""
        ms = self.value("handicap_ms")
        k = ms // 5 if ms >= 0 else -(-ms // 5)
        c = self.value("handicap")
        if (ms == 500 and c > 0) or (ms == -500 and c < 0):
            k += c // 2
        return k

    def rules(self) -> Rules:
        """The engine Rules these settings ask for."""
        return Rules(piles_per_row=self.value("piles"), match_by=self.value("match_by"),
                     doubles=bool(self.value("doubles")), wins_needed=self.value("wins"),
                     foul_lockout_ms=self.value("lockout"), deadlock=self.value("deadlock"),
                     handicap=self.value("handicap"), handicap_ms=self.value("handicap_ms"))

    def match_won(self, winner: int) -> bool:
        """AUTO HANDICAP: HANDICAP moves towards the winner of a match (0 A, 1 B), the time
        first: 10 ms after one win, then 20, 40 and 80 ms a match while the same seat goes
        on winning (10 again once the other wins: 10 ms moves the sim's win rate by less
        than the 45-55% band is wide; docs/LAB.md), up to 500 ms; then 2 cards a match, to 8.
        Back the other way the cards go first, 2 a match. No winner (a draw) changes
        nothing. True if HANDICAP changed."""
        if not self.value("auto") or (winner != 0 and winner != 1):
            return False
        up = 1 if winner == 0 else -1
        run = self.streak * up
        self.streak = up * (run + 1 if run > 0 else 1)
        k = self._scale()
        if k * up >= 100 or k * up < -100:  # cards: on from the full time, or back off it
            new = k + up
        else:
            new = max(-100, min(100, k + up * (2 << min(abs(self.streak) - 1, 3))))
        self.step(_HANDICAP, new - k)
        return self._scale() != k

    def encode(self) -> bytes:
        """The record payload (LANGUAGE as PRESET until one is chosen on the handheld)."""
        out = bytearray((RECORD_VERSION,)) + self.index
        if not self.language_chosen:
            out[1 + LANGUAGE] = PRESET
        return bytes(out)
