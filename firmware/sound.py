"""Non-blocking sounds on the piezo. A sound is bytes of (note, length in 10 ms) pairs;
update() moves to the next note when its time is up, so the main loop never waits."""
try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

from engine.ticks import ticks_add, ticks_diff

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from hardware.contract import Buzzer

# Note numbers index this table of frequencies in Hz (0 = rest).
_HZ = (0, 262, 330, 392, 523, 659, 784, 1047, 1319, 1568, 2093, 150, 110, 880, 1760)

COVER_A = b"\x09\x02"  # a short high click for A
COVER_B = b"\x08\x02"  # a slightly lower click for B
FOUL = b"\x0b\x0c\x00\x02\x0c\x0c"  # a low double buzz
COLLISION = b"\x0d\x02"
STALL = b"\x06\x08\x05\x08\x04\x0c"  # a falling chime: no match
DEAL = b"\x07\x03\x00\x02\x07\x03"
WIN = b"\x04\x0a\x05\x0a\x06\x0a\x07\x1e"  # a rising fanfare
DRAW = b"\x05\x0c\x05\x0c"
KEY = b"\x0a\x01"  # menu click
SWEEP = b"\x0c\x08\x0b\x08\x01\x08\x02\x08\x03\x08\x04\x08\x05\x08\x06\x08\x07\x08\x08\x08\x09\x08\x0a\x08"


class Sound:
    """Plays one sound at a time on a buzzer with tone(hz) (hz 0 = silent)."""

    def __init__(self, buzzer: "Buzzer") -> None:
        self.buzzer = buzzer
        self.muted = False
        self._pattern = b""
        self._i = 0
        self._until = 0
        self.active = False

    def play(self, pattern: bytes, now: int) -> None:
        """Start a sound now, replacing whatever was playing."""
        if self.muted:
            return
        self._pattern = pattern
        self._i = 0
        self._start_note(now)

    def stop(self) -> None:
        """Silence the buzzer."""
        if self.active:
            self.buzzer.tone(0)
            self.active = False

    def update(self, now: int) -> None:
        """Advance to the next note when the current one is over."""
        if self.active and ticks_diff(now, self._until) >= 0:
            self._i += 2
            self._start_note(now)

    def _start_note(self, now: int) -> None:
        p = self._pattern
        if self._i + 1 >= len(p):
            self.buzzer.tone(0)
            self.active = False
            return
        self.buzzer.tone(_HZ[p[self._i]])
        self._until = ticks_add(now, 10 * p[self._i + 1])
        self.active = True
