"""A clock-driven twin of CircuitPython's `keypad.Keys` and `keypad.KeyMatrix` for the
desktop (CPython only).

`Event` and `EventQueue` behave like `keypad`'s. `VirtualKeys` scans like `keypad.Keys` and
`VirtualKeyMatrix` like `keypad.KeyMatrix`, with no thread, and have only their names; their
test driver `Buttons` makes them (or takes them made) and works their contacts, a timeline
of changes (`set_key`, `press`, `release`, `tap`, `schedule`), and `scan_until(now)` runs
every scan due by then. Scans fall every `interval_ms` from the start (ticks_ms, wrapping at
2**29); a scan sees the contacts as they are at its time and queues events in key-number
order, stamped with its time.
As on the board: a tap shorter than the interval, between two scans, is missed; debounce
is CircuitPython's integrator (twins/models/debounce.py, the one model of it: a
per-key counter steps towards the contact, within +-threshold, and an event fires when
it crosses zero: a clean change is reported after `debounce_threshold` scans, a
flickering one on its average); a new scanner does not
report keys held at its start (`reset()` does); a full queue drops the newest event and
sets `overflowed`, and that transition is lost for good.
A key matrix (shared-module/keypad/KeyMatrix.c) is scanned a row at a time, every column
of the row read while it is driven: key number row * columns + column, so a scan's events
still come in key-number order. With a diode per key (the handheld's build) a key reads
its own contact and nothing else: no ghosts, nothing masked. `Buttons.set_diode(key,
False)` takes one key's diode out, for a builder's ghost test: that key then conducts
both ways, so while it, a key in its row and a key in its column are held, the fourth
corner of their rectangle reads pressed too (the driven row pulls the diodeless key's
column, which pulls its row through it, which pulls the other held key's column).
With `Buttons(..., clock=SimClock(...))` every read of the queue (get, get_into, len,
bool, overflowed, clear) first scans up to `clock.now`, so firmware that only calls
`get_into` sees what the board would have queued by then. A handheld's scanners (the
matrix build's KeyMatrix and MENU's own Keys) share its clock and one driver, which
numbers their keys on from one scanner to the next, as the key map does.
Not for the board (tools/mpy.py skips virtual*).
"""
import heapq
import re
import time
from array import array
from collections import deque
from typing import Any

from engine.ticks import TICKS_MAX, ticks_add, ticks_diff, valid_ticks
from twins.models import debounce

DEFAULT_HOLD_MS = 80


def _check_int(name, value, lo, hi=None):
    """Raise ValueError unless value is an int in lo..hi."""
    if type(value) is not int or value < lo or (hi is not None and value > hi):
        raise ValueError("%s must be an int >= %d%s, not %r"
                         % (name, lo, "" if hi is None else " and <= %d" % hi, value))


def _check_range(name, value, hi):
    """ValueError unless value is an int in 0..hi, as CircuitPython's range checks say."""
    if type(value) is not int:
        raise TypeError("can't convert %s to int" % type(value).__name__)
    if not 0 <= value <= hi:
        raise ValueError("%s must be 0-%d" % (name, hi))


def _check_ticks(ms):
    if not valid_ticks(ms):
        raise ValueError("not a ticks_ms value: %r" % (ms,))
    return ms


class Event:
    """A key transition, as `keypad.Event`: key_number, pressed, released, timestamp
    (all read-only). Equality and hash ignore the timestamp."""

    __slots__ = ("_key_number", "_pressed", "_timestamp")

    def __init__(self, key_number=0, pressed=True, timestamp=None):
        _check_int("key_number", key_number, 0)
        if timestamp is None:
            timestamp = (time.monotonic_ns() // 1000000) & TICKS_MAX
        self._set(key_number, pressed, timestamp)

    def _set(self, key_number, pressed, timestamp):
        """Fill in place (what EventQueue.get_into does)."""
        self._key_number, self._pressed, self._timestamp = key_number, bool(pressed), timestamp

    key_number = property(lambda self: self._key_number, doc="The key number.")
    pressed = property(lambda self: self._pressed, doc="True for a key-down.")
    released = property(lambda self: not self._pressed, doc="True for a key-up.")
    timestamp = property(lambda self: self._timestamp, doc="ticks_ms of the scan.")

    def __eq__(self, other):
        if not isinstance(other, Event):
            return NotImplemented
        return (self._key_number, self._pressed) == (other._key_number, other._pressed)

    def __hash__(self):
        return hash((self._key_number, self._pressed))

    def __repr__(self):
        return "<Event: key_number %d %s>" % (
            self._key_number, "pressed" if self._pressed else "released")


class EventQueue:
    """A bounded FIFO of key events, as `keypad.EventQueue`; a full queue drops the
    newest event. A scanner makes it and fills it."""

    def __init__(self, max_events=64):
        _check_int("max_events", max_events, 1)
        self._items, self._max, self._overflowed = deque(), max_events, False
        self._sync = None  # called before every read: scans up to the clock's now

    def _before_read(self):
        if self._sync is not None:
            self._sync()

    def _record(self, key_number, pressed, timestamp):
        """Queue an event; False (and overflowed set) if the queue is full."""
        if len(self._items) >= self._max:
            self._overflowed = True
            return False
        self._items.append((key_number, pressed, timestamp))
        return True

    def get(self):
        """Remove and return the next Event, or None."""
        self._before_read()
        return Event(*self._items.popleft()) if self._items else None

    def get_into(self, event):
        """Move the next event into `event` (no allocation) and return True; return False,
        leaving `event` untouched, if the queue is empty."""
        if not isinstance(event, Event):
            raise TypeError("get_into() needs an Event, not %s" % type(event).__name__)
        self._before_read()
        if not self._items:
            return False
        event._set(*self._items.popleft())
        return True

    def clear(self):
        """Drop every queued event and set overflowed back to False."""
        self._before_read()
        self._items.clear()
        self._overflowed = False

    def __len__(self):
        self._before_read()
        return len(self._items)

    def __bool__(self):
        return len(self) > 0

    @property
    def overflowed(self):
        """True once an event was dropped because the queue was full, until clear()."""
        self._before_read()
        return self._overflowed


class SimClock:
    """A simulated supervisor.ticks_ms (0..2**29-1, wrapping). The clock is callable,
    so it can stand in for supervisor.ticks_ms."""

    def __init__(self, now=0):
        self._now = _check_ticks(now)
        self._elapsed = 0

    now = property(lambda self: self._now, doc="The current ticks_ms value.")
    elapsed = property(lambda self: self._elapsed,
                       doc="Milliseconds advanced since the clock was made (never wraps).")

    def set(self, ms):
        """Jump to ticks value ms."""
        self._now = _check_ticks(ms)

    def advance(self, ms):
        """Move forward ms >= 0 milliseconds (wrapping); return the new now."""
        _check_int("ms", ms, 0)
        self._now = ticks_add(self._now, ms)
        self._elapsed += ms
        return self._now

    def __call__(self):
        return self._now

    ticks_ms = __call__


class _Scanner:
    """What keypad's scanners share (shared-module/keypad/__init__.c): the events, the
    debounce integrators, reset and deinit, and the scans in simulated time. Each scanner
    says how it reads its keys (_sense)."""

    def _setup(self, n, interval_ms, max_events, debounce_threshold):
        self._n, self._interval, self._threshold = n, interval_ms, debounce_threshold
        self._clock: Any = None  # a SimClock or RealClock, given by Buttons
        self._deinited = False
        # Internal time is unwrapped ms since the start (ticks value _origin).
        self._origin, self._next, self._last = 0, 0, None
        self._contact = [False] * n
        self._count = array("b", bytes(n))  # the integrators, -T..T: at 0 only while
        # new (a key held at the start creeps to +T, and is not reported)
        self._pending, self._seq = [], 0  # heap of (time, seq, key, down)
        self._events = EventQueue(max_events)

    @property
    def events(self):
        """The EventQueue (with a clock, it scans up to clock.now on every read)."""
        self._check()
        return self._events

    @property
    def key_count(self):
        """The number of keys scanned."""
        self._check()
        return self._n

    def reset(self):
        """Take every key as released and scan at once (see Buttons.reset)."""
        self._reset(None)

    def deinit(self):
        """Stop scanning; any further use raises ValueError, as on the board."""
        self._deinited = True
        self._events._sync = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def _start(self, clock, start_ms):
        """Scan from ticks start_ms (default clock.now, or 0); with a clock, every read
        of the queue first scans up to clock.now."""
        self._clock = clock
        self._origin = _check_ticks(start_ms if start_ms is not None
                                    else clock.now if clock is not None else 0)
        self._events._sync = self._sync if clock is not None else None

    def _reset(self, at_ms):
        self._check()
        if at_ms is None and self._clock is None:
            t = self._next if self._last is None else self._last
        else:
            t = self._due(at_ms)
        self._scan_until(self._ticks(t))
        self._count = array("b", [-self._threshold] * self._n)
        self._scan(t)

    def _set_key(self, key_number, down, at_ms):
        self._check()
        _check_int("key_number", key_number, 0, self._n - 1)
        heapq.heappush(self._pending, (self._due(at_ms), self._seq, key_number, bool(down)))
        self._seq += 1

    def _inject(self, key_number, pressed, at_ms):
        self._check()
        _check_int("key_number", key_number, 0)
        self._events._before_read()
        stamp = self._ticks(self._next if self._last is None else self._last)
        return self._events._record(key_number, bool(pressed), stamp if at_ms is None else at_ms)

    def _scan_until(self, now_ms):
        self._check()
        end, step = self._time(now_ms), self._interval
        while self._next <= end:
            if self._idle():  # skip the scans that cannot change anything
                target = min(end, self._pending[0][0]) if self._pending else end
                if target > self._next:
                    self._next += (target - self._next) // step * step
            self._scan(self._next)

    def _scan(self, t):
        pending, contact, count, limit = self._pending, self._contact, self._count, self._threshold
        while pending and pending[0][0] <= t:
            _, _, key, down = heapq.heappop(pending)
            contact[key] = down
        stamp = self._ticks(t)
        sensed = self._sense()
        for key in range(self._n):  # (a matrix: a row at a time, each of its columns)
            if debounce.scan(count, key, sensed[key], limit):
                self._events._record(key, sensed[key], stamp)
        self._last, self._next = t, t + self._interval

    def _sense(self):
        """Each key as a scan reads it now: here its own contact."""
        return self._contact

    def _idle(self):
        limit = self._threshold
        return all(c == (limit if down else -limit)
                   for c, down in zip(self._count, self._sense()))

    def _sync(self):
        if not self._deinited:
            self._scan_until(self._clock.now)

    def _time(self, ms):
        """Internal time of ticks value ms, taken as the nearest to the next scan."""
        return self._next + ticks_diff(_check_ticks(ms), self._ticks(self._next))

    def _ticks(self, t):
        return ticks_add(self._origin, t)

    def _due(self, at_ms):
        """Internal time of a contact change at at_ms (default clock.now), checked."""
        if at_ms is None:
            if self._clock is None:
                raise ValueError("at_ms is needed without a clock")
            at_ms = self._clock.now
        t = self._time(at_ms)
        if self._last is not None and t < self._last:
            raise ValueError("at_ms %d is before the last scan at %d"
                             % (at_ms, self._ticks(self._last)))
        return t

    def _check(self):
        if self._deinited:
            raise ValueError("Object has been deinitialized.")


class VirtualKeys(_Scanner):
    """A `keypad.Keys` look-alike with exactly its names, driven by simulated time (see
    the module docstring). The pins only give the number of keys; a `Buttons` driver sets
    the contacts and, for a handheld, the clock. Alone it scans from ticks 0."""

    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64,
                 debounce_threshold=1):
        _check_int("len(pins)", len(pins), 1)
        interval_ms = round(interval * 1000)
        _check_int("interval in ms", interval_ms, 1)
        _check_int("debounce_threshold", debounce_threshold, 1, 127)
        self._setup(len(pins), interval_ms, max_events, debounce_threshold)


class VirtualKeyMatrix(_Scanner):
    """A `keypad.KeyMatrix` look-alike with exactly its names and argument checks
    (shared-bindings/keypad/KeyMatrix.c), driven by simulated time (see the module
    docstring). The pins only give the number of rows and columns (no pin may be given
    twice, as on the board); key number = row * len(column_pins) + column. The board
    scans every millisecond when interval is below 1 ms; here that is the shortest too."""

    def __init__(self, row_pins, column_pins, *, columns_to_anodes=True, interval=0.020,
                 max_events=64, debounce_threshold=1):
        rows, columns = len(row_pins), len(column_pins)
        _check_int("len(row_pins)", rows, 1)
        _check_int("len(column_pins)", columns, 1)
        if len(set(row_pins)) != rows:
            raise TypeError("row_pins contains duplicate pins")
        if len(set(column_pins)) != columns:
            raise TypeError("column_pins contains duplicate pins")
        if set(row_pins) & set(column_pins):
            raise TypeError("row_pins and column_pins contain duplicate pins")
        if not isinstance(interval, (int, float)):
            raise TypeError("interval must be of type float, not %s" % type(interval).__name__)
        if interval < 0:
            raise ValueError("interval must be >= 0")
        _check_int("max_events", max_events, 1)
        _check_int("debounce_threshold", debounce_threshold, 1, 127)
        self._rows, self._columns = rows, columns
        self._anodes = bool(columns_to_anodes)  # (the diodes' direction: no ghost either way)
        self._diodeless = set()  # key numbers whose diode is missing (Buttons.set_diode)
        self._setup(rows * columns, max(1, round(interval * 1000)), max_events,
                    debounce_threshold)

    def key_number_to_row_column(self, key_number):
        """(row, column) of a key number."""
        self._check()
        # The board's range check takes the key count itself too (mp_arg_validate_int_range
        # is inclusive): key_count gives (rows, 0), as the C does.
        _check_range("key_number", key_number, self._n)
        return divmod(key_number, self._columns)

    def row_column_to_key_number(self, row, column):
        """The key number of a row and column: row * len(column_pins) + column."""
        self._check()
        _check_range("row", row, self._rows)  # (inclusive of the count, as the C)
        _check_range("column", column, self._columns)
        return row * self._columns + column

    def _sense(self):
        """Each key as the scan reads it: the rows driven one at a time and every column
        of the row read. A key with its diode conducts from its column to its row only;
        a diodeless one both ways, so a driven row can reach a column through other held
        keys (the module docstring)."""
        contact = self._contact
        if not self._diodeless:
            return contact
        rows, columns, diodeless = self._rows, self._columns, self._diodeless
        sensed = [False] * self._n
        for row in range(rows):
            reached, todo, pulled = {row}, [row], set()
            while todo:
                r = todo.pop()
                for c in range(columns):
                    if contact[r * columns + c] and c not in pulled:
                        pulled.add(c)  # the column follows the row through a held key
                        for other in range(rows):  # and back up another row through a
                            k = other * columns + c  # held key with no diode
                            if other not in reached and contact[k] and k in diodeless:
                                reached.add(other)
                                todo.append(other)
            for c in pulled:
                sensed[row * columns + c] = True
        return sensed


class Buttons:
    """The test driver of a handheld's key scanners: the fingers on their contacts, and
    their scan times.

    Buttons(key_count, ...) makes one `VirtualKeys` (`keys`) of key_count keys scanned
    every interval_ms; Buttons.wired(scanners, ...) drives scanners made elsewhere (a
    `VirtualKeyMatrix` and MENU's `VirtualKeys`, as hardware/pico.py makes them), their
    keys numbered on from one scanner to the next (`keys` is the first). With a clock
    their queues scan up to clock.now on every read. Times are ticks_ms values within
    2**28 ms of the next scan. The first scan is at `start_ms`, by default clock.now, or
    0 without a clock."""

    def __init__(self, key_count, *, interval_ms=5, max_events=64, debounce_threshold=1,
                 clock=None, start_ms=None):
        _check_int("key_count", key_count, 1)
        _check_int("interval_ms", interval_ms, 1)
        self._wire([VirtualKeys(range(key_count), value_when_pressed=False,
                                interval=interval_ms / 1000, max_events=max_events,
                                debounce_threshold=debounce_threshold)], clock, start_ms)

    @classmethod
    def wired(cls, scanners, *, clock=None, start_ms=None):
        """The driver of scanners already made (VirtualKeys, VirtualKeyMatrix): key
        numbers run on from one to the next, all on the same clock from the same start."""
        if not scanners or not all(isinstance(s, _Scanner) for s in scanners):
            raise ValueError("scanners: give one or more VirtualKeys or VirtualKeyMatrix")
        self = cls.__new__(cls)
        self._wire(list(scanners), clock, start_ms)
        return self

    def _wire(self, scanners, clock, start_ms):
        self.scanners = tuple(scanners)  # in key-number order
        self.keys = scanners[0]
        self._first, first = [], 0
        for scanner in scanners:
            scanner._start(clock, start_ms)
            self._first.append(first)
            first += scanner._n
        self.key_count = first

    def _route(self, key_number):
        """(scanner, its own key number) of a key number; ValueError outside the keys."""
        _check_int("key_number", key_number, 0, self.key_count - 1)
        i = len(self._first) - 1
        while self._first[i] > key_number:
            i -= 1
        return self.scanners[i], key_number - self._first[i]

    last_scan_ms = property(
        lambda self: None if self.keys._last is None else self.keys._ticks(self.keys._last),
        doc="ticks_ms of the first scanner's last scan, None before the first.")
    next_scan_ms = property(lambda self: self.keys._ticks(self.keys._next),
                            doc="ticks_ms of the first scanner's next scan.")

    def set_key(self, key_number, down, at_ms=None):
        """Close (down) or open key_number's contact at ticks at_ms (default clock.now).
        ValueError for a key outside 0..key_count-1 or a time before the last scan."""
        scanner, key = self._route(key_number)
        scanner._set_key(key, down, at_ms)

    def press(self, key_number, at_ms=None):
        """set_key(key_number, True, at_ms)."""
        self.set_key(key_number, True, at_ms)

    def release(self, key_number, at_ms=None):
        """set_key(key_number, False, at_ms)."""
        self.set_key(key_number, False, at_ms)

    def tap(self, key_number, at_ms=None, hold_ms=DEFAULT_HOLD_MS):
        """Press at at_ms, release hold_ms later (missed if both fall between two scans)."""
        _check_int("hold_ms", hold_ms, 0)
        scanner, _ = self._route(key_number)
        at = scanner._ticks(scanner._due(at_ms))
        self.press(key_number, at)
        self.release(key_number, ticks_add(at, hold_ms))

    def schedule(self, events, offset_ms=0):
        """set_key for each (ms, key, down) of load_script() at ticks offset_ms + ms;
        all are checked before any is scheduled."""
        for scanner in self.scanners:
            scanner._check()
        items = [(ticks_add(offset_ms, ms), key, down) for ms, key, down in events]
        for at, key, _ in items:
            self._route(key)[0]._due(at)
        for at, key, down in items:
            self.set_key(key, down, at)

    def set_diode(self, key_number, fitted):
        """Fit (True) or take out (False) a matrix key's diode (the module docstring says
        what a missing one does); ValueError for a key that is not on a matrix."""
        scanner, key = self._route(key_number)
        if not isinstance(scanner, VirtualKeyMatrix):
            raise ValueError("key %d is not on a key matrix" % key_number)
        if fitted:
            scanner._diodeless.discard(key)
        else:
            scanner._diodeless.add(key)

    def inject(self, key_number, pressed, at_ms=None):
        """Queue an event as if scanned, bypassing contacts and debounce (overflow still
        applies; returns False if dropped): for firmware tests of key numbers no wiring
        gives, e.g. beyond the key map (those go to the first scanner). Stamped at_ms,
        default the last scan's time."""
        if type(key_number) is int and 0 <= key_number < self.key_count:
            scanner, key_number = self._route(key_number)
        else:
            scanner = self.keys
        return scanner._inject(key_number, pressed, at_ms)

    def scan_until(self, now_ms):
        """Run every scan whose time is <= ticks now_ms."""
        for scanner in self.scanners:
            scanner._scan_until(now_ms)

    def reset(self, at_ms=None):
        """reset() of every scanner at at_ms (default clock.now, or the last scan's time):
        every key is taken as released and scanned at once, so held keys are reported
        pressed after debounce_threshold scans. Later scans fall every interval from
        that time."""
        for scanner in self.scanners:
            scanner._reset(at_ms)


_NUMBER = re.compile(r"[0-9]+\Z")


def load_script(text, names=None, max_ms=1 << 27, key_count=None):
    """Parse a key script into a list of (ms, key, down) in script order.

    One event a line: `<ms> <key> down|up` or `<ms> <key> tap [hold_ms]` (a tap is a
    down at ms and an up at ms + hold_ms, default 80). `#` starts a comment; blank
    lines are skipped. <key> is a key number (below key_count, when given) or a name in
    `names` ({"MENU": 16}). Times and holds are at most max_ms. Raises ValueError naming
    the line number and the reason."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue

        def bad(reason):
            return ValueError("line %d: %s: %r" % (number, reason, line.strip()))

        if not 3 <= len(words) <= 4 or (len(words) == 4 and words[2] != "tap"):
            raise bad("expected '<ms> <key> down|up' or '<ms> <key> tap [hold_ms]'")
        ms, key, action = words[:3]
        if not _NUMBER.match(ms):
            raise bad("time %r is not a whole number of ms" % ms)
        if _NUMBER.match(key):
            key = int(key)
            if key_count is not None and key >= key_count:
                raise bad("key %d is not a key (the keys are 0..%d)" % (key, key_count - 1))
        elif names is None:
            raise bad("key %r is not a number (no key names given)" % key)
        elif key in names:
            key = names[key]
        else:
            raise bad("unknown key name %r" % key)
        ms = int(ms)
        if ms > max_ms:
            raise bad("time %d ms is past the longest script, %d ms" % (ms, max_ms))
        if action in ("down", "up"):
            out.append((ms, key, action == "down"))
        elif action == "tap":
            hold = words[3] if len(words) == 4 else str(DEFAULT_HOLD_MS)
            if not _NUMBER.match(hold) or not 1 <= int(hold) <= max_ms:
                raise bad("hold %r is not a whole number of ms, 1..%d" % (hold, max_ms))
            out += [(ms, key, True), (ms + int(hold), key, False)]
        else:
            raise bad("action %r is not down, up or tap" % action)
    return out
