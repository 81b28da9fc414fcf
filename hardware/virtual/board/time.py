"""Stand-in for CircuitPython's time where the firmware uses it: sleep().

On the board time passes while code sleeps (the keypad scans on in the background), so
here sleep() moves the bench's clock on by that much: the key script goes on meanwhile
(contacts, shots, a power cut, its end), and a watchdog that runs out resets the board.
"""
import vmbench as _bench


def sleep(seconds):
    """Wait for seconds (a float), rounded to whole milliseconds as the board does."""
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    _bench.sleep(int(seconds * 1000 + 0.5))
