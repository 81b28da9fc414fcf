"""A compact game record (rules, seed, stacked decks, timed inputs) that replays a match exactly.

Layout: b"CSr3", the 12 rule fields (the handicap as a signed byte, then handicap_ms as
two signed bytes, last), the seed
(4 bytes), the stacked decks (a length byte each, 0 when shuffled, then the cards), then
one event per input: a code byte and the zigzag varint of the milliseconds since the
previous event (wrap-safe). Codes: 0x80 | player << 4 | pile for a press, and _START,
_NEXT, _NEW_MATCH, _TICK, _DRAW below. A press that was HELD is recorded when it was
made; it is judged again at its due time on replay. Older records still replay: b"CSr2"
(11 rule fields, no handicap_ms) and b"CSr1" (10: no handicap either).
A Recorder writes into a buffer allocated once; when it is full it stops and sets `full`.
"""
try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

from engine.game import Game, INVALID, IGNORED
from engine.rules import Rules
from engine.ticks import ticks_add, ticks_diff

MAGIC = b"CSr3"
_MAGIC_2 = b"CSr2"  # 11 rule fields: no handicap_ms
_MAGIC_1 = b"CSr1"  # 10 rule fields: no handicap
_START = const(1)
_NEXT = const(2)
_NEW_MATCH = const(3)
_TICK = const(4)
_DRAW = const(5)
_PRESS = const(0x80)
_WIDE = (0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 1)  # rule fields stored in 2 bytes (the rest in 1)


class Recorder:
    """Forwards inputs to a Game and records them; press() and tick() allocate nothing."""

    def __init__(self, game: Game, capacity: int = 2048,
                 stacked: tuple[bytes, bytes] | None = None) -> None:
        if game.phase != 0:
            raise ValueError("game: record from before start()")
        if stacked is None and game._stacked is not None:
            stacked = game._stacked
        head = bytearray(MAGIC)
        vals = game.rules.values()
        for i in range(len(vals)):
            if _WIDE[i]:
                head.append((vals[i] >> 8) & 0xFF)
            head.append(vals[i] & 0xFF)  # (the handicaps, signed, in two's complement)
        s = game.seed
        head.extend(bytes((s >> 24, (s >> 16) & 0xFF, (s >> 8) & 0xFF, s & 0xFF)))
        decks = stacked or (b"", b"")
        head.extend(bytes((len(decks[0]), len(decks[1]))) + bytes(decks[0]) + bytes(decks[1]))
        if capacity < len(head) + 16:
            raise ValueError("capacity: at least %d bytes" % (len(head) + 16))
        self.game = game
        self._buf = bytearray(capacity)
        self._buf[0:len(head)] = head
        self._n = len(head)
        self._t = 0
        self.full = False

    def start(self, now: int) -> int:
        """game.start(now), recorded."""
        return self._log(_START, now, self.game.start(now))

    def next_game(self, now: int) -> int:
        """game.next_game(now), recorded."""
        return self._log(_NEXT, now, self.game.next_game(now))

    def new_match(self, now: int) -> int:
        """game.new_match(now), recorded."""
        return self._log(_NEW_MATCH, now, self.game.new_match(now))

    def declare_draw(self, now: int) -> int:
        """game.declare_draw(now), recorded."""
        return self._log(_DRAW, now, self.game.declare_draw(now))

    def press(self, player: int, pile: int, now: int) -> int:
        """game.press(player, pile, now), recorded unless INVALID."""
        r = self.game.press(player, pile, now)
        if r != INVALID:
            self._put(_PRESS | (player << 4) | pile, now)
        return r

    def tick(self, now: int) -> int:
        """game.tick(now), recorded when a timer fired, a held press was judged or the
        game's clock moved its stamps."""
        restamps = self.game.restamps
        r = self.game.tick(now)
        if r == IGNORED and self.game.restamps != restamps:
            self._put(_TICK, now)
            return r
        return self._log(_TICK, now, r)

    def data(self) -> bytes:
        """The record so far, as bytes."""
        return bytes(self._buf[0:self._n])

    def _log(self, code: int, now: int, result: int) -> int:
        if result != INVALID and result != IGNORED:
            self._put(code, now)
        return result

    def _put(self, code: int, now: int) -> None:
        if self.full:
            return
        d = ticks_diff(now, self._t)
        z = d + d if d >= 0 else -d - d - 1
        buf = self._buf
        i = self._n
        if i + 6 > len(buf):  # code + up to 5 varint bytes
            self.full = True
            return
        buf[i] = code
        i += 1
        while z >= 0x80:
            buf[i] = (z & 0x7F) | 0x80
            z >>= 7
            i += 1
        buf[i] = z
        self._n = i + 1
        self._t = now


def _bad(why: str) -> ValueError:
    return ValueError("record: " + why)


def parse(data: bytes | bytearray) -> tuple[Rules, int, tuple[bytes, bytes] | None,
                                            list[tuple[int, int]]]:
    """(rules, seed, stacked or None, events) from a record; events are (code, now) pairs."""
    data = bytes(data)
    if data[0:4] == MAGIC:
        wides = _WIDE
    elif data[0:4] == _MAGIC_2:
        wides = _WIDE[:-1]
    elif data[0:4] == _MAGIC_1:
        wides = _WIDE[:-2]
    else:
        raise _bad("not a California Speed record")
    i = 4
    vals = []
    try:
        for wide in wides:
            v = data[i]
            i += 1
            if wide:
                v = (v << 8) | data[i]
                i += 1
            vals.append(v)
        seed = (data[i] << 24) | (data[i + 1] << 16) | (data[i + 2] << 8) | data[i + 3]
        la, lb = data[i + 4], data[i + 5]
    except IndexError:
        raise _bad("header cut short")
    i += 6
    stacked = None
    if la or lb:
        if i + la + lb > len(data):
            raise _bad("stacked decks cut short")
        stacked = (data[i:i + la], data[i + la:i + la + lb])
        i += la + lb
    while len(vals) < len(_WIDE):
        vals.append(0)  # an older record: no handicap (CSr1), no handicap_ms (CSr1, CSr2)
    if vals[10] > 127:
        vals[10] -= 256  # B's handicap, stored as a signed byte
    if vals[11] > 32767:
        vals[11] -= 65536  # B's handicap_ms, stored as a signed 16-bit number
    try:
        rules = Rules.from_values(vals)
    except ValueError as e:
        raise _bad(str(e))
    events = []
    t = 0
    while i < len(data):
        code = data[i]
        i += 1
        z = 0
        shift = 0
        while True:
            if i >= len(data) or shift > 28:
                raise _bad("event cut short at byte %d" % i)
            b = data[i]
            i += 1
            z |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                break
        d = z >> 1 if not z & 1 else -(z >> 1) - 1
        t = ticks_add(t, d)
        if not (code & _PRESS or _START <= code <= _DRAW):
            raise _bad("unknown event code 0x%02x" % code)
        events.append((code, t))
    return rules, seed, stacked, events


def replay(data: bytes | bytearray) -> Game:
    """The Game that a record describes, with every recorded input applied."""
    rules, seed, stacked, events = parse(data)
    if stacked is None:
        g = Game(rules, seed)
    else:
        g = Game.from_decks(stacked[0], stacked[1], rules, seed)
    for code, now in events:
        if code & _PRESS:
            g.press((code >> 4) & 7, code & 15, now)
        elif code == _START:
            g.start(now)
        elif code == _NEXT:
            g.next_game(now)
        elif code == _NEW_MATCH:
            g.new_match(now)
        elif code == _DRAW:
            g.declare_draw(now)
        else:
            g.tick(now)
    return g
