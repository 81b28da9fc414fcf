"""Stand-in for CircuitPython's time where the firmware uses it: sleep().

On the board time passes while code sleeps (the keypad scans on in the background), so
here sleep() moves the bench's clock on by that much: the key script goes on meanwhile
(contacts, shots, a power cut, its end), and a watchdog that runs out resets the board.
"""
import vmbench as _bench


_ms = {}  # seconds -> ms for the lengths slept before: no float arithmetic (each result a
# new float on this VM's heap, where the board's C makes none) when a main loop naps


def sleep(seconds):
    """Wait for seconds (a float), rounded to whole milliseconds as the board does."""
    ms = _ms.get(seconds)
    if ms is None:
        if seconds < 0:
            raise ValueError("sleep length must be non-negative")
        ms = int(seconds * 1000 + 0.5)
        if len(_ms) < 16:
            _ms[seconds] = ms
    _bench.sleep(ms)
