"""Rules of a California Speed match (docs/RULES.md), validated once at construction."""
try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

A = const(0)
B = const(1)
DRAW = const(2)

RANK = const(0)
SUIT = const(1)
RANK_OR_SUIT = const(2)

DEADLOCK_DRAW = const(0)
DEADLOCK_FEWER = const(1)

_MAX_MS = const(60000)
MAX_HANDICAP = const(8)  # the most cards one seat is dealt over the other
_MAX_DELAY_MS = const(500)  # the longest a seat's presses can be held back

# Field order is the record format (tools/record.py): name, low, high.
_FIELDS = (
    ("piles_per_row", 3, 6),
    ("match_by", RANK, RANK_OR_SUIT),
    ("doubles", 0, 1),
    ("wins_needed", 1, 5),
    ("foul_lockout_ms", 0, _MAX_MS),
    ("collision_ms", 0, _MAX_MS),
    ("tie_window_ms", 0, _MAX_MS),
    ("stall_ms", 0, _MAX_MS),
    ("dead_deal_limit", 1, 1000),
    ("deadlock", DEADLOCK_DRAW, DEADLOCK_FEWER),
    ("handicap", -MAX_HANDICAP, MAX_HANDICAP),
    ("handicap_ms", -_MAX_DELAY_MS, _MAX_DELAY_MS),
)


class Rules:
    """The variant and timings of a match; a bad value raises ValueError naming the field."""

    def __init__(self, piles_per_row: int = 4, match_by: int = RANK, doubles: bool = False,
                 wins_needed: int = 2, foul_lockout_ms: int = 400, collision_ms: int = 150,
                 tie_window_ms: int = 10, stall_ms: int = 1000, dead_deal_limit: int = 10,
                 deadlock: int = DEADLOCK_DRAW, handicap: int = 0,
                 handicap_ms: int = 0) -> None:
        values = (piles_per_row, match_by, doubles, wins_needed, foul_lockout_ms,
                  collision_ms, tie_window_ms, stall_ms, dead_deal_limit, deadlock, handicap,
                  handicap_ms)
        for i in range(len(_FIELDS)):
            name, low, high = _FIELDS[i]
            v = values[i]
            if name == "doubles":
                if v is not True and v is not False:
                    raise ValueError("doubles: must be True or False, not %r" % (v,))
            elif type(v) is not int or v < low or v > high:
                raise ValueError("%s: must be an integer %d..%d, not %r" % (name, low, high, v))
        if handicap & 1:
            raise ValueError("handicap: must be even (cards over the other seat), not %d"
                             % handicap)
        self.piles_per_row = piles_per_row
        self.match_by = match_by
        self.doubles = doubles
        self.wins_needed = wins_needed
        self.foul_lockout_ms = foul_lockout_ms
        self.collision_ms = collision_ms
        self.tie_window_ms = tie_window_ms
        self.stall_ms = stall_ms
        self.dead_deal_limit = dead_deal_limit
        self.deadlock = deadlock
        # A shuffled deal gives A 26 + handicap / 2 cards and B the rest: A+4 is 28 to 24,
        # B+4 (handicap -4) is 24 to 28. The stronger seat takes the extra cards.
        self.handicap = handicap
        # A time handicap: each press of A (of B if negative) takes effect this many ms
        # after it is made (docs/RULES.md, 10). The same sign as handicap: the burdened seat.
        self.handicap_ms = handicap_ms

    def values(self) -> tuple[int, ...]:
        """The fields as a tuple of ints, in record order."""
        return (self.piles_per_row, self.match_by, int(self.doubles), self.wins_needed,
                self.foul_lockout_ms, self.collision_ms, self.tie_window_ms,
                self.stall_ms, self.dead_deal_limit, self.deadlock, self.handicap,
                self.handicap_ms)

    @classmethod
    def from_values(cls, values: tuple[int, ...] | list[int]) -> "Rules":
        """Rules from a tuple made by values(); ValueError if it does not fit."""
        if len(values) != len(_FIELDS):
            raise ValueError("rules: expected %d fields, got %d" % (len(_FIELDS), len(values)))
        v = list(values)
        v[2] = bool(v[2]) if v[2] in (0, 1) else v[2]
        return cls(*v)  # type: ignore[arg-type]  # v[2] is a bool by now; mypy sees list[int]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and self.values() == other.values()
