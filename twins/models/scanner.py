"""CircuitPython's key scanner (shared-module/keypad), the one model of it: the scan
schedule, the event ring and its overflow, with debounce.py's integrator. The desktop
twin's keypad (twins/desktop/keypad.py) and the board VM's stand-in
(twins/boardvm/board/keypad.py, KeyMatrix.py) are adapters over it: they give each key's
contact (`_down(i)`) and the bench the scanners sit on, which has `scanners` (scanned
together), `wall` (now, in ms that do not wrap; None: no clock), `next_change()` (when a
contact next changes; -1: never) and `apply_until(t)` (the contacts as they are at t).

A scanner scans at its start, with every counter at 0 (so a key held then creeps to
pressed unreported), on reset() (every key taken as released, so one held is reported),
and then every interval (ms, at least 1). A scan debounces each key in key-number order
and queues what changed, stamped with the scan's ticks_ms (origin + time, wrapping at
2**29). Scans that can change nothing (no counter moved at the last one, no contact
changes before them) are skipped: no event differs. A queue holds max_events events of 6
bytes (2 of key number and state, 4 of timestamp, as the board's ring); a full one drops
the newest and sets overflowed, until clear(). The twins scan in no background: every
read of a queue first runs the scans due by the bench's now.

Board subset: in CircuitPython's VM it is a top-level module beside the stand-ins, where
each name it brings stays interned (the soak has few to spare), so it uses theirs.
"""
import array

try:
    from micropython import const
except ImportError:  # CPython
    def const(value):
        return value
if "." in __name__:  # CPython: twins.models.scanner
    from . import debounce
else:  # the board VM: the models are top-level modules beside the stand-ins
    import debounce

_SLOT = const(6)  # bytes an event: key number with pressed in bit 15, then the timestamp
_TICKS = const(0x1FFFFFFF)
_DEINITED = "Object has been deinitialized and can no longer be used. Create a new object."


def _now():
    """supervisor.ticks_ms(): the board VM's (its bench's clock), or the host's on CPython."""
    if "." in __name__:
        import time
        return int(time.time() * 1000) & _TICKS  # (time.time: a name the VM has already)
    from supervisor import ticks_ms
    return ticks_ms()


class Event:
    """keypad.Event: a key transition, key_number, pressed, released, timestamp (read-only).
    Equality and hash ignore the timestamp."""

    def __init__(self, key_number=0, pressed=True, timestamp=None):
        if not 0 <= key_number <= 65535:
            raise ValueError("key_number must be 0-65535")
        # (_key, pressed _p, timestamp _t: names the VM has already, each a new one would
        # be interned; the queue holds its next event in the same three)
        self._key = key_number
        self._p = bool(pressed)
        self._t = _now() if timestamp is None else timestamp

    @property
    def key_number(self):
        return self._key

    @property
    def pressed(self):
        return self._p

    @property
    def released(self):
        return not self._p

    @property
    def timestamp(self):
        return self._t

    def __eq__(self, other):
        return isinstance(other, Event) and self._key == other._key \
            and self._p == other._p

    def __hash__(self):
        return self._key << 1 | self._p

    def __repr__(self):
        return "<Event: key_number %d %s>" % (self._key, "pressed" if self._p else "released")


class EventQueue:
    """keypad.EventQueue: the ring of a scanner's events (the module docstring). A scanner
    makes it (_new_queue); EventQueue() is refused, as on the board."""

    def __init__(self):
        raise TypeError("cannot create 'EventQueue' instances")

    @classmethod
    def _new_queue(cls, max_events):
        q = object.__new__(cls)
        q._ring = bytearray(max_events * _SLOT)
        q._max = max_events
        q._head = q._count = 0
        q._overflowed = False
        q._scanner = None  # None once it is deinited: no more scans
        q._key = q._p = q._t = 0
        return q

    def get(self):
        """The next Event, or None."""
        if not self._take():
            return None
        return Event(self._key, self._p, self._t)

    def get_into(self, event):
        """Move the next event into event and return True; False, event untouched, if none.
        An empty read tells the scanner (_drained): the board VM ends its pass there."""
        if not isinstance(event, Event):
            raise TypeError("Expected a keypad.Event")
        if not self._take():
            if self._scanner is not None:
                self._scanner._drained()
            return False
        event._key, event._p, event._t = self._key, self._p, self._t
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
        """True once an event was dropped because the queue was full, until clear()."""
        self._sync()
        return self._overflowed

    def _sync(self):
        scanner = self._scanner
        if scanner is not None:
            now = scanner._bench.wall
            if now is not None:
                scanner._scan_until(now)

    def _take(self):
        self._sync()
        if not self._count:
            return False
        ring, i = self._ring, self._head * _SLOT
        code = ring[i] | ring[i + 1] << 8
        self._key, self._p = code & 0x7FFF, bool(code & 0x8000)
        self._t = ring[i + 2] | ring[i + 3] << 8 | ring[i + 4] << 16 | ring[i + 5] << 24
        self._head = (self._head + 1) % self._max
        self._count -= 1
        return True

    def _put(self, key, pressed, timestamp):
        """Queue an event; False (and overflowed set) when the queue is full."""
        if self._count == self._max:
            self._overflowed = True
            return False
        ring, i = self._ring, (self._head + self._count) % self._max * _SLOT
        code = key & 0x7FFF | (0x8000 if pressed else 0)
        ring[i], ring[i + 1] = code & 0xFF, code >> 8
        ring[i + 2], ring[i + 3] = timestamp & 0xFF, timestamp >> 8 & 0xFF
        ring[i + 4], ring[i + 5] = timestamp >> 16 & 0xFF, timestamp >> 24
        self._count += 1
        return True


class Scanner:
    """What every scanner does (shared-module/keypad/__init__.c): keypad.Keys' and
    keypad.KeyMatrix's events, key_count, reset() and deinit(), and the scans (the module
    docstring). A subclass says how key i reads now (_down) and may hear of an empty read
    of its queue (_drained)."""

    def _begin(self, key_count, interval, max_events, debounce_threshold, events=None):
        """Scan key_count keys every interval s from now into a queue of max_events (of the
        class events, by default EventQueue). The subclass gives _bench and _origin
        (ticks_ms at time 0)."""
        self._interval = max(1, int(interval * 1000 + 0.5))
        self._limit = debounce_threshold
        self._count = array.array("b", bytes(key_count))  # the integrators (debounce.py)
        self._events = (events or EventQueue)._new_queue(max_events)
        self._events._scanner = self
        self._next = self._bench.wall or 0  # the first scan is now
        self._settled = False
        self._bench.scanners.append(self)

    def deinit(self):
        """Stop scanning."""
        if self._events is not None:
            self._bench.scanners.remove(self)
            self._events._scanner = None
            self._events = None

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()

    def reset(self):
        """Take every key as released and scan at once: keys held now are reported
        pressed after debounce_threshold scans. Later scans follow every interval."""
        self._check()
        self._reset(self._bench.wall)

    @property
    def key_count(self):
        self._check()
        return len(self._count)

    @property
    def events(self):
        self._check()
        return self._events

    def _check(self):
        if self._events is None:
            raise ValueError(_DEINITED)

    def _drained(self):
        pass

    def _reset(self, t):
        self._scan_until(t)
        self._bench.apply_until(t)
        count = self._count
        for i in range(len(count)):
            count[i] = -self._limit
        self._scan(t)

    def _scan_until(self, end):
        # Every scan due by end of the scanners on this one's bench, in time order: they
        # share its contacts, which a scan moves on to its own time.
        bench = self._bench
        while True:
            first = None
            for s in bench.scanners:
                if s._settled:  # nothing can change before the next contact change
                    t = bench.next_change()
                    target = end if t < 0 or t > end else t
                    if target > s._next:
                        step = s._interval
                        s._next += (target - s._next + step - 1) // step * step
                if s._next <= end and (first is None or s._next < first._next):
                    first = s
            if first is None:
                return
            bench.apply_until(first._next)
            first._scan(first._next)

    def _scan(self, t):
        limit, count, moved = self._limit, self._count, False
        stamp = (self._origin + t) & _TICKS
        for i in range(len(count)):  # (a matrix: a row at a time, each of its columns)
            before, down = count[i], self._down(i)
            if debounce.scan(count, i, down, limit):
                self._events._put(i, down, stamp)
            moved = moved or count[i] != before
        self._settled = not moved
        self._next = t + self._interval
