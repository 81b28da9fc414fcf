"""Stand-in for CircuitPython's keypad module: Event, EventQueue, Keys and KeyMatrix.

Keys scans its pins every `interval`, debounced by CircuitPython's integrator (the one
model of it, twins/models/debounce.py, beside the stand-ins in the VM), and
queues timestamped events in a ring of native size (2 bytes of key and state, 4 of
timestamp, per event). There is no background task in the VM: every read of a queue
first runs every scanner's scans due by now, in time order, which gives what the board's
scanners would have queued. An empty read of the queue of the scanner made last (the one
the main loop reads last: MENU's on the matrix build) ends a main-loop pass.
The buttons are the bench's contacts (a closed button pulls its pin low); KeyMatrix
(KeyMatrix.py, loaded on first use) reads the bench's matrix keys, a diode each.
"""
import array

import vmbench as _bench
from debounce import scan as _debounce

_DEINITED = "Object has been deinitialized and can no longer be used. Create a new object."


class Event:
    """A key transition: key_number, pressed, released, timestamp."""

    def __init__(self, key_number=0, pressed=True, timestamp=None):
        if not 0 <= key_number <= 65535:
            raise ValueError("key_number must be 0-65535")
        self._key = key_number
        self._pressed = bool(pressed)
        self._timestamp = _bench.ticks() if timestamp is None else timestamp

    @property
    def key_number(self):
        return self._key

    @property
    def pressed(self):
        return self._pressed

    @property
    def released(self):
        return not self._pressed

    @property
    def timestamp(self):
        return self._timestamp

    def __eq__(self, other):
        return isinstance(other, Event) and self._key == other._key \
            and self._pressed == other._pressed

    def __hash__(self):
        return self._key << 1 | self._pressed

    def __repr__(self):
        return "<Event: key_number %d %s>" % (self._key, "pressed" if self._pressed else "released")


_SLOT = 6  # bytes per queued event, as the board's ring stores them


class EventQueue:
    """A bounded queue of key events; a full queue drops the newest and sets overflowed."""

    def __init__(self):
        raise TypeError("cannot create 'EventQueue' instances")

    def get(self):
        """The next event, or None."""
        if not self._take():
            return None
        return Event(self._k, self._p, self._t)

    def get_into(self, event):
        """Move the next event into event and return True; False if there is none."""
        if not isinstance(event, Event):
            raise TypeError("Expected a keypad.Event")
        if not self._take():
            _bench.check_fault()
            scanners = _bench.scanners
            if scanners and self._scanner is scanners[-1]:  # the main loop drained the
                _bench.pass_end()  # queue it reads last (the last made): this pass is done
            return False
        event._key, event._pressed, event._timestamp = self._k, self._p, self._t
        return True

    def clear(self):
        """Drop every event and reset overflowed."""
        self._sync()
        self._count = 0
        self._overflowed = False

    def __bool__(self):
        return len(self) > 0

    def __len__(self):
        self._sync()
        return self._count

    @property
    def overflowed(self):
        self._sync()
        return self._overflowed

    def _sync(self):
        if self._scanner is not None:
            self._scanner._scan_until(_bench.wall)

    def _take(self):
        self._sync()
        if not self._count:
            return False
        ring, i = self._ring, self._head * _SLOT
        code = ring[i] | ring[i + 1] << 8
        self._k, self._p = code & 0x7FFF, bool(code & 0x8000)
        self._t = ring[i + 2] | ring[i + 3] << 8 | ring[i + 4] << 16 | ring[i + 5] << 24
        self._head = (self._head + 1) % self._max
        self._count -= 1
        return True

    def _put(self, key, pressed, timestamp):
        if self._count == self._max:
            self._overflowed = True
            return
        ring, i = self._ring, (self._head + self._count) % self._max * _SLOT
        code = key | (0x8000 if pressed else 0)
        ring[i], ring[i + 1] = code & 0xFF, code >> 8
        ring[i + 2], ring[i + 3] = timestamp & 0xFF, timestamp >> 8 & 0xFF
        ring[i + 4], ring[i + 5] = timestamp >> 16 & 0xFF, timestamp >> 24
        self._count += 1


def _new_queue(max_events, scanner):
    q = object.__new__(EventQueue)
    q._ring = bytearray(max_events * _SLOT)
    q._max = max_events
    q._head = q._count = 0
    q._overflowed = False
    q._scanner = scanner
    q._k = q._p = q._t = 0
    return q


class Keys:
    """Individual buttons on pins, scanned in the background."""

    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64,
                 debounce_threshold=1):
        if not 0 < interval <= 100:
            raise ValueError("interval must be 0.001-100")
        if not 1 <= max_events <= 1024:
            raise ValueError("max_events must be 1-1024")
        self._when = bool(value_when_pressed)
        self._pull = pull
        self._begin(pins, len(pins), interval, max_events, debounce_threshold)

    # What every scanner does (shared-module/keypad/__init__.c); KeyMatrix takes these
    # methods as its own (KeyMatrix.py), as the board's KeyMatrix shares them: a class of
    # its own, no subclass of Keys.

    def _begin(self, pins, key_count, interval, max_events, debounce_threshold):
        if not 1 <= debounce_threshold <= 127:
            raise ValueError("debounce_threshold must be 1-127")
        taken = []
        try:
            for p in pins:
                _bench.claim(p)
                taken.append(p._number)
        except BaseException:
            for n in taken:
                _bench.release(n)
            raise
        self._pins = bytes(taken)
        self._interval = max(1, int(interval * 1000 + 0.5))
        self._limit = debounce_threshold
        self._count = array.array("b", bytes(key_count))  # twins/models/debounce.py
        self._events = _new_queue(max_events, self)
        self._next = _bench.wall  # the first scan is now
        self._settled = False
        for i in range(key_count):  # keys held now are not reported (reset() reports them)
            self._count[i] = self._limit if self._down(i) else -self._limit
        _bench.scanners.append(self)

    def deinit(self):
        """Stop scanning and free the pins."""
        if self._pins is not None:
            for n in self._pins:
                _bench.release(n)
            self._pins = None
            self._events._scanner = None
            _bench.scanners.remove(self)

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()

    def reset(self):
        """Take every key as released: keys held now are reported pressed after debounce."""
        self._check()
        for i in range(len(self._count)):
            self._count[i] = -self._limit
        self._settled = False

    @property
    def key_count(self):
        self._check()
        return len(self._count)

    @property
    def events(self):
        self._check()
        return self._events

    def _check(self):
        if self._pins is None:
            raise ValueError(_DEINITED)

    def _scan_until(self, end):
        # Every scanner's scans up to end, in time order: they share the bench's contacts,
        # which a scan moves on to its own time, so none may scan ahead of another.
        while True:
            first = None
            for s in _bench.scanners:
                if s._settled:  # nothing can change before the next contact change
                    t = _bench.next_change()
                    target = end if t < 0 or t > end else t
                    if target > s._next:
                        step = s._interval
                        s._next += (target - s._next) // step * step
                        if s._next < target:
                            s._next += step
                if s._next <= end and (first is None or s._next < first._next):
                    first = s
            if first is None:
                return
            _bench.apply_until(first._next)
            first._scan(first._next)
            first._next += first._interval

    def _scan(self, t):
        limit, count, moved = self._limit, self._count, False
        stamp = (_bench.BOOT_TICKS + t - _bench.boot_wall) & 0x1FFFFFFF
        for i in range(len(count)):  # (KeyMatrix: a row at a time, each of its columns)
            before, down = count[i], self._down(i)
            if _debounce(count, i, down, limit):
                self._events._put(i, down, stamp)
            moved = moved or count[i] != before
        self._settled = not moved

    def _down(self, i):
        closed = _bench.contact[self._pins[i]]
        level = 0 if closed else (1 if self._pull and not self._when else 0)
        return level == self._when


def __getattr__(name):
    # KeyMatrix is in KeyMatrix.py (as the board's is in shared-module/keypad/KeyMatrix.c),
    # loaded when it is first asked for: its names are interned in the VM only on the
    # matrix build (on the board they are in flash). The VM's interned names are nearly
    # full (see the soak's names test): the direct build's must stay what they were.
    if name == "KeyMatrix":
        from KeyMatrix import KeyMatrix
        return KeyMatrix
    raise AttributeError(name)
