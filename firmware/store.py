"""Settings and statistics kept in the board's nvm as an append-only log of CRC'd records.

On the RP2040, microcontroller.nvm is one 4,096-byte flash sector. Writing bytes that all
read 0xFF (erased) only programs them; writing over anything else makes CircuitPython copy
the sector to RAM, erase it and program all 4 KB again: slow, wearing, and a power cut in
that window can lose the whole sector. So a save appends a record to the erased tail with
one write (no erase), and only when the tail is too short is the sector rewritten
("compaction"): the one erase, once per fill of the sector.

A record is 0xA5, kind (1..254), n (1..200), n payload bytes, then the CRC-16/CCITT-FALSE
(poly 0x1021, init 0xFFFF) of those 3 + n bytes, big-endian. The newest valid record of a
kind (the last in the log) is its value.

Loading reads the sector once and walks it: a valid record (magic, a length that fits, the
CRC) is taken whole and the walk jumps past it; anything else (a record torn by a power
cut, a flipped bit, garbage) is passed one byte at a time until the next valid record. A
torn append therefore leaves the kind's previous record in force. The next append goes
after the last byte that is not 0xFF, so torn bytes are never programmed over.

A compaction image holds the newest record of every kind: the one being saved first, then
the others shortest first. A power cut while the sector is being programmed keeps exactly
the records that were programmed whole, and programming runs from offset 0 up: the saved
kind is lost only if the cut lands in its own record (the same window as a torn append);
shortest-first then minimises the records a cut at a random offset loses (their ends are
as early as they can be). A cut after the last record loses nothing (the rest is 0xFF
programmed over 0xFF).
"""
try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from collections.abc import Callable

    from nvm import ByteArray

_MAGIC = const(0xA5)
_HEAD = const(3)  # magic, kind, n
_OVERHEAD = const(5)  # head + 2 CRC bytes
_MAX_KIND = const(254)
_MAX_PAYLOAD = const(200)
_WINDOW = const(512)  # bytes of the sector in memory at a time while loading
_BUDGET = const(3)  # a load checks CRCs of at most this many times the sector's bytes
_MAGIC_BYTE = b"\xa5"
_ERASED = b"\xff"


def crc16(buf: bytes | bytearray, start: int, stop: int) -> int:
    """CRC-16/CCITT-FALSE of buf[start:stop] (bytewise, no table)."""
    crc = 0xFFFF
    for b in memoryview(buf)[start:stop]:
        x = (crc >> 8) ^ b
        x ^= x >> 4
        crc = ((crc << 8) ^ (x << 12) ^ (x << 5) ^ x) & 0xFFFF
    return crc


def _used_end(buf: "bytes | bytearray", base: int) -> int:
    """base + the length of buf without its trailing 0xFF bytes (0 when all are 0xFF)."""
    n = len(buf)
    while n and buf[n - 1] == 0xFF:
        n -= 1
    return base + n if n else 0


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


class Log:
    """Small values by kind (1..254) in nvm: get(kind), put(kind, payload), clear().

    end is where the next append starts; appends and compactions count the writes made.
    """

    def __init__(self, nvm: "ByteArray | bytearray",
                 feed: "Callable[[], None] | None" = None) -> None:
        self._nvm = nvm
        self._feed = feed  # called while loading (the watchdog)
        self.size = len(nvm)
        self.appends = 0
        self.compactions = 0
        self.end = 0
        self.steps = 0  # bytes the last load checked the CRC of, plus windows read
        self.damaged = False  # the last load gave up on garbage (see load)
        self._payloads = {}  # type: dict[int, bytes]
        self.load()

    def load(self) -> None:
        """(Re)read the nvm: the newest valid record of each kind, and the end of the log.

        The sector is read _WINDOW bytes at a time (a whole record always fits in a
        window), so loading never needs 4 KB of heap in one piece. The work is bounded:
        CRCs of at most _BUDGET times the sector's size in bytes, so even a sector of
        garbage made of record heads loads in time proportional to its size; past that
        budget the rest counts as garbage (damaged is set) and only its end is found."""
        size, nvm, feed = self.size, self._nvm, self._feed
        payloads = {}
        i = last = base = 0
        budget = _BUDGET * size
        buf = nvm[0:min(_WINDOW, size)]
        steps = 1
        stop = _used_end(buf, 0)  # the log ends after the last byte that is not 0xFF
        self.damaged = False
        while True:
            k = buf.find(_MAGIC_BYTE, i - base)  # skips erased runs and garbage at C speed
            at_end = base + len(buf) >= size
            if k < 0 or (k + _OVERHEAD + _MAX_PAYLOAD > len(buf) and not at_end):
                if at_end:
                    break
                base = base + k if k >= 0 else base + len(buf)  # the window moves on
                buf = nvm[base:min(size, base + _WINDOW)]
                steps += 1
                if feed is not None:
                    feed()
                stop = max(stop, _used_end(buf, base))
                i = base
                continue
            i = base + k
            if i + _OVERHEAD >= size:
                break
            kind = buf[k + 1]
            n = buf[k + 2]
            j = k + _HEAD + n
            if 0 < kind <= _MAX_KIND and 0 < n <= _MAX_PAYLOAD and base + j + 2 <= size:
                steps += j - k
                if steps > budget:
                    self.damaged = True
                    stop = max(stop, self._used_after(base + len(buf)))
                    break
                crc = 0xFFFF
                for b in memoryview(buf)[k:j]:  # crc16(), inlined
                    x = (crc >> 8) ^ b
                    x ^= x >> 4
                    crc = ((crc << 8) ^ (x << 12) ^ (x << 5) ^ x) & 0xFFFF
                if crc == (buf[j] << 8) | buf[j + 1]:
                    payloads[kind] = bytes(buf[k + _HEAD:j])  # a later one replaces it
                    i = base + j + 2
                    last = i  # its CRC may end in 0xFF bytes: the log ends after them
                    continue
            i += 1
        self.end = last if last > stop else stop
        self._payloads = payloads
        self.steps = steps

    def _used_after(self, at: int) -> int:
        """The end of the last byte that is not 0xFF from at on (0 if none)."""
        stop = 0
        while at < self.size:
            buf = self._nvm[at:min(self.size, at + _WINDOW)]
            if self._feed is not None:
                self._feed()
            stop = max(stop, _used_end(buf, at))
            at += len(buf)
        return stop

    def get(self, kind: int) -> bytes | None:
        """The newest payload saved for kind (bytes), or None."""
        return self._payloads.get(kind)

    def put(self, kind: int, payload: bytes | bytearray | memoryview) -> None:
        """Save payload (1..200 bytes) as kind's value (1..254)."""
        if not isinstance(kind, int) or not 0 < kind <= _MAX_KIND:
            raise ValueError("kind must be an int 1..254")
        if (not isinstance(payload, (bytes, bytearray, memoryview))
                or not 0 < len(payload) <= _MAX_PAYLOAD):
            raise ValueError("payload must be 1..200 bytes")
        payload = bytes(payload)
        rec = _record(kind, payload)
        end = self.end
        if end + len(rec) <= self.size:
            self._nvm[end:end + len(rec)] = rec  # erased bytes only: no erase
            self.end = end + len(rec)
            self.appends += 1
        else:
            self._compact(kind, rec)
        self._payloads[kind] = payload

    def _compact(self, kind: int, rec: bytearray) -> None:
        # The new record first, then the others shortest first (see the module docstring).
        order = sorted((len(p), k) for k, p in self._payloads.items() if k != kind)
        used = len(rec)
        for n, _ in order:
            used += n + _OVERHEAD
        if used > self.size:
            raise ValueError("payload does not fit: the nvm is full")
        image = bytearray(self.size)
        image[0:len(rec)] = rec
        at = len(rec)
        for n, k in order:
            image[at:at + n + _OVERHEAD] = _record(k, self._payloads[k])
            at += n + _OVERHEAD
        image[at:] = _ERASED * (self.size - at)
        self._nvm[0:self.size] = image  # the one erase
        self.end = at
        self.compactions += 1

    def clear(self) -> None:
        """Forget everything (one full-size write of 0xFF)."""
        self._nvm[0:self.size] = _ERASED * self.size
        self._payloads = {}
        self.end = 0
