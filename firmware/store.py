"""Settings and statistics kept in the board's nvm as an append-only log of CRC'd records.

On the RP2040, microcontroller.nvm is one 4,096-byte flash sector. Writing bytes that all
read 0xFF (erased) only programs them; writing over anything else makes CircuitPython copy
the sector to RAM, erase it and program all 4 KB again: slow, wearing, and a power cut in
that window loses the sector. So a save appends to the erased tail with one write (no
erase), and only when the tail runs short is the sector rewritten ("compaction"): the one
erase, once per fill of the sector. The owner chooses when: tidy(reserve) compacts if fewer
than reserve bytes are left, at a moment nobody is about to switch off (the app: at boot,
and as a game is dealt or the settings page opened), so a save finds room and never erases.

A record is 0xA5, kind, n (1..200), n payload bytes, then the CRC-16/CCITT-FALSE
(poly 0x1021, init 0xFFFF) of those 3 + n bytes, big-endian. Kinds 1..127 hold values (0 and 255 are never valid): the
newest valid record of a kind (the last in the log) is its value.

A tally keeps small entries that add up (a game's result, say) without a record each: a
record of kind 128 + k (k 1..126) with a 3-byte payload, s (1..255) and the CRC of kind k's
newest record (its base), opens a block of s 3-byte slots right after it, erased until
used. A block whose base is not the newest record of k (it was lost or replaced) counts
for nothing, so the entries never add up without their base. add(k, entry) programs the next free slot: the 2 entry bytes and
the low byte of their CRC-16 (which catches any one flipped bit). entries(k) gives the valid entries
of the blocks after kind k's newest record, oldest first, and counts in lost the slots it
could not read. A slot torn by a power cut fails its CRC and is passed over; the next
entry goes after it.

Loading reads the sector once and walks it: a valid record (magic, a length that fits, the
CRC) is taken whole and the walk jumps past it (and past a block's slots); anything else (a
record torn by a power cut, a flipped bit, garbage) is passed one byte at a time until the
next valid record. A torn append therefore leaves the kind's previous record in force. The
next append goes after the last byte that is not 0xFF, so torn bytes are never programmed
over.

A compaction writes the newest record of every value kind, a tally's entries folded into
its base (fold(k) gives the new base payload), the record being saved first and the others
shortest first. The sector's erase loses everything it held until the records are
programmed again: the window docs/NVM.md measures. Programming runs from offset 0 up, so a
cut during it keeps exactly the records already programmed whole.

Saves is the handheld's side of it: the settings and statistics read back at boot
(firmware/restore.py, let go after), saved when the settings page closes and after each
game, and the log tidied at quiet moments.
"""
import firmware
from firmware.logfmt import crc16, used_end
from firmware.settings import SETTINGS_KIND
from firmware.stats import STATS_KIND

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

if False:  # names for type annotations: mypy reads them, the compiler drops them
    import types
    from collections.abc import Callable, Iterator

    from firmware.settings import Settings
    from firmware.stats import Stats
    from hardware.contract import Target
    from nvm import ByteArray

_MAGIC = const(0xA5)
_HEAD = const(3)  # magic, kind, n
_OVERHEAD = const(5)  # head + 2 CRC bytes
_MAX_KIND = const(127)  # value kinds; 128 + k opens a block of kind k's tally
_TALLY = const(128)
_SLOT = const(3)  # 2 entry bytes and the low byte of their CRC
_SLOTS = const(32)  # slots in a new block
_MAX_PAYLOAD = const(200)
_ERASED = b"\xff"
_FLAT = const(5)  # % left in the cells: no compaction (lab/battery.py, docs/NVM.md)


def _record(kind: int, payload: bytes) -> bytearray:
    n = len(payload)
    rec = bytearray(n + _OVERHEAD)
    rec[0] = _MAGIC
    rec[1] = kind
    rec[2] = n
    rec[_HEAD:_HEAD + n] = payload
    crc = crc16(rec, 0, _HEAD + n)
    rec[_HEAD + n] = crc >> 8
    rec[_HEAD + n + 1] = crc & 0xFF
    return rec


def _reader() -> "types.ModuleType":
    from firmware import storeload
    return storeload


class Log:
    """Small values by kind (1..127) in nvm: get(kind), put(kind, payload), clear(), and
    tallies: add(kind, entry), entries(kind).

    end is where the next append starts; appends and compactions count the writes made.
    fold(kind) gives a tally's base payload with its entries added in, for a compaction.
    """

    def __init__(self, nvm: "ByteArray | bytearray",
                 feed: "Callable[[], None] | None" = None,
                 fold: "Callable[[int], bytes] | None" = None,
                 cells: "Callable[[], int] | None" = None) -> None:
        self._nvm = nvm
        self._feed = feed  # called while loading (the watchdog)
        self._fold = fold
        self.size = len(nvm)
        self.appends = 0
        self.compactions = 0
        self.end = 0
        self.steps = 0  # bytes the last load checked the CRC of, plus windows read
        self.lost = 0  # slots entries() could not read
        self.damaged = False  # the last load gave up on garbage (see load)
        self._cells = cells  # the charge left in the cells, % (-1 on USB power)
        self._payloads = {}  # type: dict[int, bytes]
        self._blocks = {}  # type: dict[int, list[int]]  # kind: [slots start, bytes, ...]
        # kind: 1 when a block of its tally follows a record that cannot be read (its newest
        # value was damaged: an older one, if any, is in force): the last load saw it
        self.orphans = {}  # type: dict[int, int]
        self.load()

    def load(self) -> None:
        """(Re)read the nvm: the newest valid record of each kind, each tally's blocks, and
        the end of the log (firmware/storeload.py, whose code is in the heap only while
        the board reads the nvm: firmware.forget("firmware.storeload") after)."""
        (self.end, self._payloads, self._blocks, self.orphans, self.steps,
         self.damaged) = _reader().load(self._nvm, self.size, self._feed)

    def get(self, kind: int) -> bytes | None:
        """The newest payload saved for kind (bytes), or None."""
        return self._payloads.get(kind)

    def put(self, kind: int, payload: bytes | bytearray | memoryview) -> None:
        """Save payload (1..200 bytes) as kind's value (1..127): its tally starts afresh."""
        if not isinstance(kind, int) or not 0 < kind <= _MAX_KIND:
            raise ValueError("kind must be an int 1..127")
        if (not isinstance(payload, (bytes, bytearray, memoryview))
                or not 0 < len(payload) <= _MAX_PAYLOAD):
            raise ValueError("payload must be 1..200 bytes")
        payload = bytes(payload)
        rec = _record(kind, payload)
        if not self._append(rec):
            self.compact(kind, payload)  # the last resort: the owner's tidy() came too late
            return
        self._payloads[kind] = payload
        self._blocks[kind] = []

    def add(self, kind: int, entry: bytes) -> None:
        """Add a 2-byte entry (the first byte not 0xFF) to the tally of kind, which must
        have a value (the tally's base)."""
        if len(entry) != 2 or entry[0] == 0xFF or kind >= _MAX_KIND or kind not in self._payloads:
            raise ValueError("a tally entry is 2 bytes, for a kind 1..126 with a value")
        slot = bytearray(entry + b"\0")
        slot[2] = crc16(slot, 0, 2) & 0xFF
        spans = self._blocks[kind]
        if spans:  # the newest block's first slot after the last one programmed
            at, n = spans[-2], spans[-1]
            used = used_end(self._nvm[at:at + n], 0)
            used += -used % _SLOT  # a torn slot is passed over
            if used < n:
                self._nvm[at + used:at + used + _SLOT] = slot  # erased: no erase
                self.appends += 1
                return
        if self.size - self.end < _OVERHEAD + 3 + _SLOT:
            self.compact()  # the last resort: the owner's tidy() came too late
            spans = self._blocks[kind]
        n = min(_SLOTS, (self.size - self.end - _OVERHEAD - 3) // _SLOT)
        link = _record(kind, self._payloads[kind])
        head = _record(_TALLY + kind, bytes((n, link[-2], link[-1])))
        spans.append(self.end + len(head))
        spans.append(n * _SLOT)
        self._append(head + slot, len(head) + n * _SLOT)

    def entries(self, kind: int) -> "Iterator[bytes]":
        """The valid entries of kind's tally since its newest record, oldest first; counts
        in lost the slots it could not read (firmware/storeload.py)."""
        self.lost = 0
        for e in _reader().entries(self._nvm, self._blocks.get(kind) or ()):
            if e is None:
                self.lost += 1
            else:
                yield e

    def tidy(self, reserve: int) -> bool:
        """Compact if fewer than reserve bytes are left; True if it did."""
        if self.size - self.end >= reserve:
            return False
        self.compact()
        return True

    def _append(self, rec: bytearray, length: int = 0) -> bool:
        end = self.end
        length = max(length, len(rec))
        if end + length > self.size:
            return False
        self._nvm[end:end + len(rec)] = rec  # erased bytes only: no erase
        self.end = end + length
        self.appends += 1
        return True

    def compact(self, kind: int = 0, payload: bytes | None = None) -> None:
        """Rewrite the sector with the newest values, each tally folded into its base (and
        kind's value replaced by payload, written first): the one erase; none on flat cells."""
        cells = self._cells
        if cells is not None and 0 <= cells() <= _FLAT:
            raise RuntimeError("cells nearly flat: no compaction")
        values = dict(self._payloads)
        for k, spans in self._blocks.items():
            if spans:
                if self._fold is None:
                    raise ValueError("a tally needs fold to be compacted")
                values[k] = self._fold(k)
        if payload is not None:
            values[kind] = payload
        image = bytearray()
        for _, _, k in sorted((k != kind, len(p), k) for k, p in values.items()):
            image.extend(_record(k, values[k]))
        at = len(image)
        if at > self.size:
            raise ValueError("payload does not fit: the nvm is full")
        image.extend(_ERASED * (self.size - at))
        self._nvm[0:self.size] = image  # the one erase
        self.end = at
        self.compactions += 1
        self._payloads = values
        self._blocks = {k: [] for k in values}

    def clear(self) -> None:
        """Forget everything (one full-size write of 0xFF)."""
        self._nvm[0:self.size] = _ERASED * self.size
        self._payloads = {}
        self._blocks = {}
        self.end = 0


# nvm bytes kept free for what a game or a visit to the settings can save before the next
# tidy: a new block of each tally (8 + 32 x 3) or a statistics record (49)
_RESERVE = const(208)

# What a save can raise: the board's nvm says RuntimeError ("Unable to write to nvm."), a
# desktop's file OSError (a folder made read-only, a full disk).
_NVM_ERRORS = (OSError, RuntimeError)


class Saves:
    """The settings and statistics as the nvm keeps them."""

    def __init__(self, hw: "Target", settings: "Settings", stats: "Stats") -> None:
        """Read what was saved into settings and stats (saying on the console what was
        wrong), then tidy: at boot nobody is about to switch off."""
        self.settings = settings
        self.stats = stats
        self.console = hw.console
        self.log = Log(hw.nvm, hw.feed, self._fold, hw.cells)
        self.unsaved = 0  # bit per kind: its last save failed, the next one writes it whole
        from firmware import restore
        restore.restore(self.log, settings, stats, self.console)
        firmware.forget("firmware.restore")
        firmware.forget("firmware.storeload")  # the loading code leaves the heap
        self.tidy()

    def _fold(self, kind: int) -> bytes:
        return (self.settings if kind == SETTINGS_KIND else self.stats).base()

    def tidy(self) -> None:
        """A moment nobody is about to switch off: compact the nvm if it is nearly full,
        so that no save does it (unless the cells are nearly flat)."""
        try:
            self.log.tidy(_RESERVE)
        except _NVM_ERRORS as e:
            self._not_saved(0, e)

    def _not_saved(self, kind: int, error: Exception) -> None:
        """The nvm refused a write: say so on the console and play on. The values stay
        in memory, and the next save of their kind writes them whole; the log is read
        again, since what reached the nvm is what counts."""
        self.unsaved |= 1 << kind
        self.console("nvm: not saved (%r); kept until the next save" % (error,))
        try:
            self.log.load()
        except _NVM_ERRORS:
            pass
        firmware.forget("firmware.storeload")

    def settings_done(self, changed: bool) -> None:
        """Leaving the settings page: save them if they changed."""
        log, s = self.log, self.settings
        if not changed:
            return
        try:
            if log.get(SETTINGS_KIND) is None or self.unsaved & 1 << SETTINGS_KIND:
                log.put(SETTINGS_KIND, s.base())  # the tally's base: every setting
            for e in s.changes():
                log.add(SETTINGS_KIND, e)
            self.unsaved &= ~(1 << SETTINGS_KIND)
        except _NVM_ERRORS as e:
            self._not_saved(SETTINGS_KIND, e)

    def save_stats(self) -> None:
        """At the end of a game: save the statistics (an entry, or a new base when the game
        set a record)."""
        stats, log = self.stats, self.log
        try:
            if log.get(STATS_KIND) is None or stats.new_record or self.unsaved & 1 << STATS_KIND:
                log.put(STATS_KIND, stats.base())  # the tally's (new) base
            else:
                log.add(STATS_KIND, stats.entry())
            self.unsaved &= ~(1 << STATS_KIND)
        except _NVM_ERRORS as e:
            self._not_saved(STATS_KIND, e)
