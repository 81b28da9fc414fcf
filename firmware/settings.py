"""The handheld's settings: what each one is, its choices, its default, and its record.

A setting is stored as the index of its choice; an index that is out of range (an old or
corrupt record) falls back to the default. The record (kind SETTINGS in firmware/store.py)
is a version byte followed by one index per setting, in FIELDS order (read back by
firmware/restore.py). It is the base of
the SETTINGS tally: a change saves an entry, (setting number, index), and a
compaction folds them into a new base.
"""
from engine import Rules
from firmware import lang

SETTINGS_KIND = 1
_VERSION = 1
PRESET = 255  # the record's LANGUAGE until one is chosen: settings.toml's CS_LANGUAGE

# key, choices, default choice. What each is called, and each choice, in the chosen
# language: FIELDS in firmware/lang_en.py (and the others), in this order.
FIELDS = (
    ("wins", (1, 2, 3, 4, 5), 1),
    ("piles", (4, 3), 0),
    ("lockout", (400, 200, 800, 0), 0),
    ("match_by", (0, 1, 2), 0),
    ("doubles", (0, 1), 0),
    ("deadlock", (0, 1), 0),
    ("level", (0, 1, 2, 3, 4), 2),  # engine.bot.LEVELS, by number
    ("sound", (1, 0), 0),
    ("contrast", (255, 128, 48, 8), 0),
    ("flip", (0, 1), 0),
    ("hints", (0, 1), 0),
    ("sleep", (2, 5, 10, 1, 0), 0),  # minutes
    # cards A is dealt over B (docs/RULES.md, 10): in order, so AUTO steps one choice a match
    ("handicap", (-8, -6, -4, -2, 0, 2, 4, 6, 8), 4),
    ("auto", (0, 1), 0),
    ("language", (0, 1, 2), 0),  # lang.CODES, by number; the default: CS_LANGUAGE
)
KEYS = tuple(key for key, _choices, _default in FIELDS)
_HANDICAP = KEYS.index("handicap")
_LANGUAGE = KEYS.index("language")


class Settings:
    """The chosen index of every setting; value(key) gives what it means."""

    def __init__(self, language: str = "en") -> None:
        """language: the LANGUAGE until one is chosen (settings.toml's CS_LANGUAGE)."""
        self.preset = lang.CODES.index(language) if language in lang.CODES else 0
        self.language_chosen = False  # on the handheld (else the preset is spoken)
        self.index = bytearray(len(FIELDS))
        self.clamped = []  # type: list[str]  # keys whose stored value was out of range (reset to default)
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
        self.index[_LANGUAGE] = self.preset
        self.language_chosen = False
        self.clamped = []

    def value(self, key: str) -> int:
        """The setting's value (e.g. 400 for lockout)."""
        i = KEYS.index(key)
        _key, choices, _default = FIELDS[i]
        return choices[self.index[i]]

    def language(self) -> str:
        """The chosen language's code ("en", "fr" or "pt")."""
        return lang.CODES[self.value("language")]

    def label(self, i: int) -> str:
        """What setting number i is called, in the chosen language."""
        name, _texts = lang.words.FIELDS[i]
        return name

    def text(self, i: int) -> str:
        """The menu text of setting number i's current choice, in the chosen language."""
        _name, texts = lang.words.FIELDS[i]
        return texts[self.index[i]]

    def choose(self, key: str, value: int) -> None:
        """Choose one of a setting's values, as its page would (ValueError if it is not)."""
        i = KEYS.index(key)
        _key, choices, _default = FIELDS[i]
        self.index[i] = choices.index(value)
        self.language_chosen |= i == _LANGUAGE

    def step(self, i: int, delta: int) -> None:
        """Move setting number i to the next (+1) or previous (-1) choice, wrapping."""
        _key, choices, _default = FIELDS[i]
        self.index[i] = (self.index[i] + delta) % len(choices)
        self.language_chosen |= i == _LANGUAGE

    def rules(self) -> Rules:
        """The engine Rules these settings ask for."""
        return Rules(piles_per_row=self.value("piles"), match_by=self.value("match_by"),
                     doubles=bool(self.value("doubles")), wins_needed=self.value("wins"),
                     foul_lockout_ms=self.value("lockout"), deadlock=self.value("deadlock"),
                     handicap=self.value("handicap"))

    def match_won(self, winner: int) -> bool:
        """AUTO HANDICAP: the winner of a match (0 A, 1 B) is dealt 2 more cards in the next,
        up to 8; no winner (a draw) changes nothing. True if the handicap changed."""
        if not self.value("auto") or (winner != 0 and winner != 1):
            return False
        i = self.index[_HANDICAP]
        new = min(i + 1, 8) if winner == 0 else max(i - 1, 0)
        self.index[_HANDICAP] = new
        return new != i

    def encode(self) -> bytes:
        """The record payload (LANGUAGE as PRESET until one is chosen on the handheld)."""
        out = bytearray((_VERSION,)) + self.index
        if not self.language_chosen:
            out[1 + _LANGUAGE] = PRESET
        return bytes(out)
