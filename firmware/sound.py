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

# a short high click for A: 1568 Hz 20 ms
COVER_A = b"\x09\x02"
# a slightly lower click for B: 1319 Hz 20 ms
COVER_B = b"\x08\x02"
# a low double buzz: 150 Hz 120 ms, rest 20 ms, 110 Hz 120 ms
FOUL = b"\x0b\x0c\x00\x02\x0c\x0c"
# too late: a short 880 Hz beep, 20 ms
COLLISION = b"\x0d\x02"
# no match, a falling chime: 784 Hz 80 ms, 659 Hz 80 ms, 523 Hz 120 ms
STALL = b"\x06\x08\x05\x08\x04\x0c"
# a deal or redeal, two quick ticks: 1047 Hz 30 ms, rest 20 ms, 1047 Hz 30 ms
DEAL = b"\x07\x03\x00\x02\x07\x03"
# a rising fanfare: 523 Hz 100 ms, 659 Hz 100 ms, 784 Hz 100 ms, 1047 Hz 300 ms
WIN = b"\x04\x0a\x05\x0a\x06\x0a\x07\x1e"
# a drawn game, two even notes: 659 Hz 120 ms, 659 Hz 120 ms
DRAW = b"\x05\x0c\x05\x0c"
# menu click: 2093 Hz 10 ms
KEY = b"\x0a\x01"
# the self-test's sweep through every note, 80 ms each: 110, 150, 262, 330, 392, 523,
# 659, 784, 1047, 1319, 1568 and 2093 Hz
SWEEP = (b"\x0c\x08\x0b\x08\x01\x08\x02\x08\x03\x08\x04\x08\x05\x08"
         b"\x06\x08\x07\x08\x08\x08\x09\x08\x0a\x08")


class Sound:
    """Plays one sound at a time on a buzzer with tone(hz) (hz 0 = silent)."""

    def __init__(self, buzzer: "Buzzer") -> None:
        self.buzzer = buzzer
        self.muted = False
        self._pattern = b""
        self._i = 0
        self.until = 0  # when the note on sounds ends
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
        if self.active and ticks_diff(now, self.until) >= 0:
            self._i += 2
            self._start_note(now)

    def _start_note(self, now: int) -> None:
        p = self._pattern
        if self._i + 1 >= len(p):
            self.buzzer.tone(0)
            self.active = False
            return
        self.buzzer.tone(_HZ[p[self._i]])
        self.until = ticks_add(now, 10 * p[self._i + 1])
        self.active = True
