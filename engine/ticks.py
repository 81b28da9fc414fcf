"""Wrap-safe arithmetic on ticks_ms values (they wrap at 2**29, like supervisor.ticks_ms)."""
try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

TICKS_PERIOD = const(1 << 29)
TICKS_MAX = const(TICKS_PERIOD - 1)
_HALF = const(1 << 28)


def ticks_add(t: int, delta: int) -> int:
    """t + delta on the wrapping clock."""
    return (t + delta) & TICKS_MAX


def ticks_diff(end: int, start: int) -> int:
    """Signed milliseconds from start to end, correct across a wrap (|result| < 2**28)."""
    return ((end - start + _HALF) & TICKS_MAX) - _HALF


def valid_ticks(t: object) -> bool:
    """True for an int that a ticks_ms clock can show."""
    return type(t) is int and 0 <= t <= TICKS_MAX
