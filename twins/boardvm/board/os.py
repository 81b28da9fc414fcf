"""Stand-in for CircuitPython's os where the firmware uses it: getenv() and urandom().

getenv reads settings.toml at the top of the CIRCUITPY tree on every call, as the board
does, and (CircuitPython 10) returns each value as text: '0x3C', '400000', 'GP4'.
urandom comes from the bench's seeded generator, so a run can be repeated.
"""
import vmbench as _bench


def getenv(key, default=None):
    """The value of key in settings.toml as a str, or default."""
    return _bench.setting(key, default)


def urandom(size):
    """size random bytes."""
    return _bench.random_bytes(size)
