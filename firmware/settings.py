"""The handheld's settings: what each one is, its choices, its default, and its record.

A setting is stored as the index of its choice; an index that is out of range (an old or
corrupt record) falls back to the default. The record (kind SETTINGS in firmware/store.py)
is a version byte followed by one index per setting, in FIELDS order (read back by
firmware/restore.py). It is the base of
the SETTINGS tally: a change saves an entry, (setting number, index), and a
compaction folds them into a new base.
"""
from engine import Rules
from engine.bot import LEVELS

SETTINGS_KIND = 1
_VERSION = 1

# key, menu label, choices, text of each choice, default choice
FIELDS = (
    ("wins", "MATCH", (1, 2, 3, 4, 5),
     ("1 GAME", "FIRST TO 2", "FIRST TO 3", "FIRST TO 4", "FIRST TO 5"), 1),
    ("piles", "PILES", (4, 3), ("4 A ROW", "3 A ROW"), 0),
    ("lockout", "LOCKOUT", (400, 200, 800, 0), ("400 MS", "200 MS", "800 MS", "OFF"), 0),
    ("match_by", "MATCH BY", (0, 1, 2), ("RANK", "SUIT", "RANK/SUIT"), 0),
    ("doubles", "DOUBLES", (0, 1), ("OFF", "ON"), 0),
    ("deadlock", "DEADLOCK", (0, 1), ("DRAW", "FEWER WIN"), 0),
    ("level", "CPU", tuple(range(len(LEVELS))), tuple(lv[0] for lv in LEVELS), 2),
    ("sound", "SOUND", (1, 0), ("ON", "OFF"), 0),
    ("contrast", "CONTRAST", (255, 128, 48, 8), ("HIGH", "MEDIUM", "LOW", "LOWEST"), 0),
    ("flip", "FLIP SCREEN", (0, 1), ("OFF", "ON"), 0),
    ("hints", "HINTS", (0, 1), ("OFF", "ON"), 0),
    ("sleep", "SLEEP", (2, 5, 10, 1, 0), ("2 MIN", "5 MIN", "10 MIN", "1 MIN", "NEVER"), 0),
)
KEYS = tuple(f[0] for f in FIELDS)


class Settings:
    """The chosen index of every setting; value(key) gives what it means."""

    def __init__(self) -> None:
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
            self.index[i] = FIELDS[i][4]
        self.clamped = []

    def value(self, key: str) -> int:
        """The setting's value (e.g. 400 for lockout)."""
        f = FIELDS[KEYS.index(key)]
        return f[2][self.index[KEYS.index(key)]]

    def text(self, i: int) -> str:
        """The menu text of setting number i's current choice."""
        return FIELDS[i][3][self.index[i]]

    def step(self, i: int, delta: int) -> None:
        """Move setting number i to the next (+1) or previous (-1) choice, wrapping."""
        n = len(FIELDS[i][2])
        self.index[i] = (self.index[i] + delta) % n

    def rules(self) -> Rules:
        """The engine Rules these settings ask for."""
        return Rules(piles_per_row=self.value("piles"), match_by=self.value("match_by"),
                     doubles=bool(self.value("doubles")), wins_needed=self.value("wins"),
                     foul_lockout_ms=self.value("lockout"), deadlock=self.value("deadlock"))

    def encode(self) -> bytes:
        """The record payload."""
        return bytes((_VERSION,)) + bytes(self.index)
