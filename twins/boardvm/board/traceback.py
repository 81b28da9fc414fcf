"""Stand-in for CircuitPython's traceback module (the unix port has none).

The exception is printed by type and value; the bench keeps its repr for the report.
"""
import vmbench as _bench


def format_exception(exc, value=None, tb=None, limit=None, chain=True):
    """The exception as a list of lines."""
    e = exc if value is None else value
    return ["Traceback (most recent call last):\n", "%s: %s\n" % (type(e).__name__, e)]


def print_exception(exc, value=None, tb=None, limit=None, file=None, chain=True):
    """Print the exception (to the console)."""
    e = exc if value is None else value
    _bench.exceptions.append(repr(e))
    for line in format_exception(exc, value, tb, limit, chain):
        print(line, end="")
