"""The desktop's keypad (CPython only): CircuitPython's `keypad.Keys` and `keypad.KeyMatrix`
on the one model of the key scanner (twins/models/scanner.py and keymatrix.py: the scan
schedule, the debounce, the event ring and its overflow, the matrix numbering), driven by
simulated time with no thread.

`Event` and `EventQueue` are the model's. `VirtualKeys` scans like `keypad.Keys` and
`VirtualKeyMatrix` like `keypad.KeyMatrix`, and have only their names; their test driver
`Buttons` makes them (or takes them made) and works their contacts, a timeline of changes
(`set_key`, `press`, `release`, `tap`, `schedule`), and `scan_until(now)` runs every scan
due by then. Scans fall every `interval_ms` from the start (ticks_ms, wrapping at 2**29);
a scan sees the contacts as they are at its time and queues events in key-number order,
stamped with its time.
As on the board: a tap shorter than the interval, between two scans, is missed; debounce
is CircuitPython's integrator (a per-key counter steps towards the contact, within
+-threshold, and an event fires when it crosses zero: a clean change is reported after
`debounce_threshold` scans, a flickering one on its average); a new scanner does not
report keys held at its start (`reset()` does); a full queue drops the newest event and
sets `overflowed`, and that transition is lost for good.
A key matrix is scanned a row at a time, every column of the row read while it is
driven: key number row * columns + column, so a scan's events still come in key-number
order. With a diode per key (the handheld's build) a key reads its own contact and
nothing else: no ghosts, nothing masked. `Buttons.set_diode(key, False)` takes one key's
diode out, for a builder's ghost test: that key then conducts both ways, so while it, a
key in its row and a key in its column are held, the fourth corner of their rectangle
reads pressed too (the driven row pulls the diodeless key's column, which pulls its row
through it, which pulls the other held key's column).
With `Buttons(..., clock=SimClock(...))` every read of the queue (get, get_into, len,
bool, overflowed, clear) first scans up to `clock.now`, so firmware that only calls
`get_into` sees what the board would have queued by then. A handheld's scanners (the
matrix build's KeyMatrix and MENU's own Keys) share its clock and one driver, which
numbers their keys on from one scanner to the next, as the key map does.
Not for the board (tools/mpy.py skips virtual*).
"""
import heapq
import re

from engine.ticks import ticks_add, ticks_diff, valid_ticks
from twins.models import keymatrix, scanner as model

DEFAULT_HOLD_MS = 80


def _check_int(name, value, lo, hi=None):
    """Raise ValueError unless value is an int in lo..hi."""
    if type(value) is not int or value < lo or (hi is not None and value > hi):
        raise ValueError("%s must be an int >= %d%s, not %r"
                         % (name, lo, "" if hi is None else " and <= %d" % hi, value))


def _check_ticks(ms):
    if not valid_ticks(ms):
        raise ValueError("not a ticks_ms value: %r" % (ms,))
    return ms


class Event(model.Event):
    """`keypad.Event`, the model's (twins/models/scanner.py): key_number, pressed, released,
    timestamp (by default the host's ticks_ms). Equality and hash ignore the timestamp."""


class EventQueue(model.EventQueue):
    """`keypad.EventQueue`, the model's: a bounded FIFO of key events; a full queue drops
    the newest. A scanner makes it and fills it; get() makes this module's Events."""

    def get(self):
        """Remove and return the next Event, or None."""
        event = Event(0, True, 0)
        return event if self.get_into(event) else None


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


class _Fingers:
    """One scanner's contacts over time, as Buttons schedules them, and its clock: the bench
    the model scans it on (twins/models/scanner.py). Times are the scanner's: ms from its
    first scan, not wrapping."""

    def __init__(self, scanner, key_count):
        self.scanner = scanner
        self.scanners = []  # (the model's: the scanners on this bench, this one alone)
        self.contact = [False] * key_count
        self.pending, self.seq = [], 0  # heap of (time, seq, key, down)
        self.clock = None

    @property
    def wall(self):
        """The clock's now (the nearest time to the next scan), None without a clock."""
        return None if self.clock is None else self.scanner._time(self.clock.now)

    def next_change(self):
        """The time of the next scheduled contact change; -1 if none."""
        return self.pending[0][0] if self.pending else -1

    def apply_until(self, t):
        """Every scheduled contact change up to t."""
        pending, contact = self.pending, self.contact
        while pending and pending[0][0] <= t:
            _, _, key, down = heapq.heappop(pending)
            contact[key] = down


class _Driven(model.Scanner):
    """What the desktop's scanners add to the model's: their contacts (_Fingers), which
    Buttons schedules, and their ticks_ms."""

    def _setup(self, key_count, interval, max_events, debounce_threshold):
        self._n = key_count
        self._bench = self._fingers = _Fingers(self, key_count)
        self._scanned = False
        self._origin = 0  # (the ticks_ms of the first scan: Buttons sets it, _start)
        self._begin(key_count, interval, max_events, debounce_threshold, EventQueue)

    def reset(self):
        """Take every key as released and scan at once (see Buttons.reset)."""
        self._reset_at(None)

    def _start(self, clock, start_ms):
        """Scan from ticks start_ms (default clock.now, or 0); with a clock, every read
        of the queue first scans up to clock.now."""
        self._fingers.clock = clock
        self._origin = _check_ticks(start_ms if start_ms is not None
                                    else clock.now if clock is not None else 0)

    def _last(self):
        """Internal time of the last scan, None before the first."""
        return self._next - self._interval if self._scanned else None

    def _reset_at(self, at_ms):
        self._check()
        if at_ms is None and self._fingers.clock is None:
            t = self._next if self._last() is None else self._last()
        else:
            t = self._due(at_ms)
        self._reset(t)

    def _set_key(self, key_number, down, at_ms):
        self._check()
        _check_int("key_number", key_number, 0, self._n - 1)
        fingers = self._fingers
        heapq.heappush(fingers.pending, (self._due(at_ms), fingers.seq, key_number, bool(down)))
        fingers.seq += 1

    def _inject(self, key_number, pressed, at_ms):
        self._check()
        _check_int("key_number", key_number, 0)
        self._events._sync()
        stamp = self._ticks(self._next if self._last() is None else self._last())
        return self._events._put(key_number, bool(pressed), stamp if at_ms is None else at_ms)

    def _run_until(self, now_ms):
        self._check()
        self._scan_until(self._time(now_ms))

    def _scan(self, t):
        super()._scan(t)
        self._scanned = True

    def _down(self, i):
        return self._fingers.contact[i]

    def _time(self, ms):
        """Internal time of ticks value ms, taken as the nearest to the next scan."""
        return self._next + ticks_diff(_check_ticks(ms), self._ticks(self._next))

    def _ticks(self, t):
        return ticks_add(self._origin, t)

    def _due(self, at_ms):
        """Internal time of a contact change at at_ms (default clock.now), checked."""
        if at_ms is None:
            if self._fingers.clock is None:
                raise ValueError("at_ms is needed without a clock")
            at_ms = self._fingers.clock.now
        t = self._time(at_ms)
        last = self._last()
        if last is not None and t < last:
            raise ValueError("at_ms %d is before the last scan at %d" % (at_ms, self._ticks(last)))
        return t


class VirtualKeys(_Driven):
    """A `keypad.Keys` look-alike with exactly its names, driven by simulated time (see
    the module docstring). The pins only give the number of keys; a `Buttons` driver sets
    the contacts and, for a handheld, the clock. Alone it scans from ticks 0."""

    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64,
                 debounce_threshold=1):
        _check_int("len(pins)", len(pins), 1)
        _check_int("interval in ms", round(interval * 1000), 1)
        _check_int("max_events", max_events, 1)
        _check_int("debounce_threshold", debounce_threshold, 1, 127)
        self._setup(len(pins), interval, max_events, debounce_threshold)


class VirtualKeyMatrix(_Driven, keymatrix.KeyMatrix):
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
        self._check_pins(row_pins, column_pins, interval, max_events)
        _check_int("debounce_threshold", debounce_threshold, 1, 127)
        self._rows, self._columns = rows, columns
        self._diodeless = set()  # key numbers whose diode is missing (Buttons.set_diode)
        self._sensed = None
        self._setup(rows * columns, interval, max_events, debounce_threshold)

    def _scan(self, t):
        self._sensed = self._sense()
        super()._scan(t)

    def _down(self, i):
        return self._sensed[i]

    def _sense(self):
        """Each key as the scan reads it: the rows driven one at a time and every column
        of the row read. A key with its diode conducts from its column to its row only;
        a diodeless one both ways, so a driven row can reach a column through other held
        keys (the module docstring)."""
        contact = self._fingers.contact
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
        if not scanners or not all(isinstance(s, _Driven) for s in scanners):
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
        lambda self: None if self.keys._last() is None else self.keys._ticks(self.keys._last()),
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
        scanner._settled = False  # what the keys read may change at the next scan

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
            scanner._run_until(now_ms)

    def reset(self, at_ms=None):
        """reset() of every scanner at at_ms (default clock.now, or the last scan's time):
        every key is taken as released and scanned at once, so held keys are reported
        pressed after debounce_threshold scans. Later scans fall every interval from
        that time."""
        for scanner in self.scanners:
            scanner._reset_at(at_ms)


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
