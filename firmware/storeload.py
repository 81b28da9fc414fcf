"""Reading firmware/store.py's log: the walk of the sector at boot and a tally's entries,
as functions of the sector's bytes that return what they read (the Log keeps it). Kept
apart so that its code is in the heap only while the board reads the nvm (the app imports
it at boot and lets it go with firmware.forget("firmware.storeload")).

The walk reads the sector _WINDOW bytes at a time (a whole record always fits in one), so
loading never needs 4 KB of heap in one piece. Its work is bounded: CRCs of at most
_BUDGET times the sector's size in bytes, so even a sector of garbage made of record heads
loads in time proportional to its size; past that budget the rest counts as garbage
(damaged is set) and only its end is found."""
from firmware.logfmt import MAGIC_BYTE, crc16, used_end

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

# The record format, as firmware/store.py defines it (firmware/logfmt.py says why the
# numbers are written again here; a test checks they agree).
_HEAD = const(3)
_OVERHEAD = const(5)
_MAX_KIND = const(127)
_TALLY = const(128)
_SLOT = const(3)
_MAX_PAYLOAD = const(200)
if False:  # names for type annotations: mypy reads them, the compiler drops them
    from collections.abc import Callable, Iterator

    from nvm import ByteArray

_WINDOW = const(512)  # bytes of the sector in memory at a time while loading
_BUDGET = const(3)  # a load checks CRCs of at most this many times the sector's bytes


def load(nvm: "ByteArray | bytearray", size: int,
         feed: "Callable[[], None] | None") -> tuple:
    """Read the sector, a window at a time on a budget (see above), calling feed between
    windows: (the end of the log, {kind: newest payload}, {kind: its tally's blocks},
    {kind: 1 where a block's base cannot be read}, the steps taken, whether it gave up on
    garbage)."""
    payloads, links = {}, {}  # type: dict[int, bytes], dict[int, int]  # a kind's value, CRC
    blocks, orphans = {}, {}  # type: dict[int, list[int]], dict[int, int]  # (orphans: base lost)
    i = last = base = 0
    budget = _BUDGET * size
    buf = nvm[0:min(_WINDOW, size)]
    steps = 1
    stop = used_end(buf, 0)  # the log ends after the last byte that is not 0xFF
    damaged = False
    while True:
        k = buf.find(MAGIC_BYTE, i - base) if i - base < len(buf) else -1
        at_end = base + len(buf) >= size
        if k < 0 or (k + _OVERHEAD + _MAX_PAYLOAD > len(buf) and not at_end):
            if at_end:
                break
            base = max(i, base + k if k >= 0 else base + len(buf))  # the window moves
            buf = nvm[base:min(size, base + _WINDOW)]
            steps += 1
            if feed is not None:
                feed()
            stop = max(stop, used_end(buf, base))
            i = base
            continue
        i = base + k
        if i + _OVERHEAD >= size:
            break
        kind = buf[k + 1]
        n = buf[k + 2]
        j = k + _HEAD + n
        slots = buf[k + _HEAD] * _SLOT if kind > _TALLY and n == 3 else 0
        if 0 < kind < 255 and 0 < n <= _MAX_PAYLOAD and base + j + 2 + slots <= size:
            steps += j - k
            if steps > budget:
                damaged = True
                stop = max(stop, _used_after(nvm, size, feed, base + len(buf)))
                break
            crc = crc16(buf, k, j)
            if crc == (buf[j] << 8) | buf[j + 1]:
                i = _take(buf, k, j, base + j + 2, slots, crc, payloads, blocks, links, orphans)
                last = i  # a CRC or slots may end in 0xFF bytes: the log ends after
                continue
        i += 1
    return last if last > stop else stop, payloads, blocks, orphans, steps, damaged


def _take(buf: "bytes | bytearray", k: int, j: int, i: int, slots: int, crc: int,
          payloads: dict, blocks: "dict[int, list[int]]", links: "dict[int, int]",
          orphans: "dict[int, int]") -> int:
    """A valid record at buf[k] (payload up to j), ending at i in the sector: its payload
    (a kind's value), or its block of slots (a tally's); returns where the walk goes on."""
    kind = buf[k + 1]
    if kind <= _MAX_KIND:
        payloads[kind] = bytes(buf[k + _HEAD:j])  # a later one replaces it
        blocks[kind] = []  # the entries before it are in it
        links[kind] = crc
    elif slots:
        if links.get(kind - _TALLY) == (buf[k + 4] << 8) | buf[k + 5]:
            blocks[kind - _TALLY].append(i)
            blocks[kind - _TALLY].append(slots)
        else:  # its base, newer than the kind's record in force, is damaged
            orphans[kind - _TALLY] = 1
        i += slots
    return i


def _used_after(nvm: "ByteArray | bytearray", size: int, feed: "Callable[[], None] | None",
                at: int) -> int:
    """The end of the last byte that is not 0xFF from at on (0 if none)."""
    stop = 0
    while at < size:
        buf = nvm[at:min(size, at + _WINDOW)]
        if feed is not None:
            feed()
        stop = max(stop, used_end(buf, at))
        at += len(buf)
    return stop


def entries(nvm: "ByteArray | bytearray", spans: "list[int] | tuple") -> "Iterator[bytes | None]":
    """A tally's entries in its blocks (spans: start, bytes, ...), oldest first; None for
    a slot that cannot be read."""
    for s in range(0, len(spans), 2):
        slots = nvm[spans[s]:spans[s] + spans[s + 1]]
        for at in range(0, used_end(slots, 0), _SLOT):
            if slots[at] != 0xFF and crc16(slots, at, at + 2) & 0xFF == slots[at + 2]:
                yield bytes(slots[at:at + 2])
            else:
                yield None
