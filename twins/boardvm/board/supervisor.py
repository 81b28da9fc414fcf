"""Stand-in for CircuitPython's supervisor module: ticks_ms() and reload()."""
import vmbench as _bench


def ticks_ms():
    """Milliseconds since an arbitrary start, wrapping at 2**29: 0x1FFF0000 at power-on."""
    return _bench.ticks()


def reload():
    """Stop code.py and run it again from the start (a fresh heap)."""
    _bench.reset("supervisor.reload()")
