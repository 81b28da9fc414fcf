"""The play screen: A's row at the bottom, B's row at the top turned to face B, and each
player's info line (deck count, a message, score pips) along their own edge. Up to four
piles a row a card shows the big face (rank 16 x 18, suit 9 x 9); five or six a row (Long
Speed), the narrow one of firmware/narrow.py. The heap holds one face at a time: dealing
the other's table makes its cells in the room of the face that goes.

sync() compares what is drawn with the game and changes only what differs; it never
reveals which piles match (training hints aside: a new player's first matches). It also keeps
each main-loop pass short on the chip, where a refresh renders and sends every changed
area before the next key is read: a pass draws one pile (with the deck counts and pips),
or else one banner or one message line; messages and banners wait in `pending`.
"""
import gc

import displayio

import engine
import firmware
from engine.ticks import ticks_add, ticks_diff
from firmware import glyphs
from firmware.ui import W, CELL_H, LINE_CHARS, Cell, TextLine, Banner, outline, underline
from hardware.seats import PILES_A_ROW, column

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from engine.game import Game
    from firmware.ui import Kit

_WIDE = const(4)  # the most piles a row the big face fits: a 32-pixel cell for 16 + 1 + 9
_ROW_B_Y = const(8)
_ROW_A_Y = const(32)
_LINE_B_Y = const(0)
_LINE_A_Y = const(56)
_MSG_COL = const(4)
_MSG_LEN = const(12)
_PIPS_COL = const(16)
_FOREVER = const(-1)
_DECK = bytes((glyphs.ICON_DECK,))
_PIP_ON = bytes((glyphs.ICON_PIP_ON,))
_PIP_OFF = bytes((glyphs.ICON_PIP_OFF,))


class Table:
    """Both rows of piles, both info lines and both banners, as one displayio Group."""

    def __init__(self, kit: "Kit") -> None:
        self.kit = kit
        self.group = displayio.Group()
        self.bg = displayio.Bitmap(W, 64, 2)
        self.group.append(kit.grid(self.bg, W, 64))
        self.lines = (TextLine(kit, LINE_CHARS, 1, _LINE_A_Y),
                      TextLine(kit, LINE_CHARS, 1, _LINE_B_Y, flipped=True))
        for line in self.lines:
            self.group.append(line.grid)
        self.banners = (Banner(kit, self.group, _ROW_A_Y, False),
                        Banner(kit, self.group, _ROW_B_Y, True))
        self.cells = []  # type: list[Cell]  # the face on show, the only one in the heap
        self.narrow = False  # which: the narrow face (Long Speed) or the big one
        self.face(_WIDE)
        self.n = 0
        self.cell_w = 0
        self.decks = bytearray(b"\xff\xff")  # deck counts drawn
        self.pips = bytearray(b"\xff\xff")  # wins drawn
        self.version = -1  # the game's version the table shows in full (-1: none)
        self.msg_until = [_FOREVER, _FOREVER]  # ticks_ms when each message expires
        self.msg_on = bytearray(2)
        self.msg_text = [b"", b""]  # type: list[bytes | str]  # the message each line is to show
        self.pending = 0  # not drawn yet: bit p a player's message, bit 2 + p their banner
        self.hint_mask = 0

    def layout(self, n: int) -> None:
        """Arrange n piles per row and draw the card outlines: an outline of even width, 2
        pixels between cards (1 at 6 a row, where a cell is 21 pixels wide)."""
        if n > PILES_A_ROW:
            raise ValueError("piles_per_row: the handheld shows at most %d a row, not %d"
                             % (PILES_A_ROW, n))
        self.n = n
        self.version = -1
        w = W // n
        self.cell_w = w
        card_w = (w - 1) & ~1
        self.bg.fill(0)  # (the self-test borrows bg: everything is drawn anew)
        self.hint_mask = 0
        self.face(n)
        cells = self.cells
        for i in range(len(cells)):
            cell = cells[i]
            hidden = i >= 2 * n
            cell.rank.hidden = hidden
            cell.suit.hidden = hidden
            if not hidden:
                x, y = self._cell_at(i)
                outline(self.bg, x + 1, y, card_w, CELL_H)
                cell.place(x + 1, y, card_w, i >= n)  # B's piles are turned to face B
                cell.show(-1)
        self.kit.changes += 1
        for p in range(2):
            self.decks[p] = 0xFF
            self.pips[p] = 0xFF
            self.lines[p].show(b"")
            self.banners[p].clear()
            self.msg_on[p] = 0
        self.pending = 0

    def face(self, n: int) -> None:
        """Make the face of a table of n piles a row (n < 0: the face it had), unless it is
        made: the face on show leaves the heap first, so the heap never holds both (Long
        Speed's narrow cells take the big face's room)."""
        narrow = self.narrow if n < 0 else n > _WIDE
        if self.cells and narrow == self.narrow:
            return
        self.lend()
        self.narrow = narrow
        if not narrow:
            firmware.forget("firmware.narrow")  # (its code goes with its cells)
        gc.collect()  # (lend()'s names held a cell: now its room is free)
        if narrow:  # after the banners, with the narrow face's code
            from firmware.narrow import cells
            self.cells = cells(self.kit, self.group)
            return
        for i in range(2 * _WIDE):  # over the background
            c = Cell(self.kit)
            self.cells.append(c)
            self.group.insert(1 + 2 * i, c.rank)
            self.group.insert(2 + 2 * i, c.suit)

    def lend(self) -> None:
        """The cells leave the group and the heap: their room is lent to a screen that
        borrows the background (the self-test, HOW TO PLAY) until face(-1)."""
        group = self.group
        for c in self.cells:
            group.remove(c.rank)
            if c.suit is not c.rank:
                group.remove(c.suit)
        self.cells = []

    def _cell_at(self, pile: int) -> "tuple[int, int]":
        """The top-left corner of a pile's cell: A's row along the bottom, B's along the
        top, each from its seat's own left."""
        n, w = self.n, self.cell_w
        owner = 1 if pile >= n else 0
        x = (W - w * n) // 2 + column(owner, pile - owner * n, n) * w
        return x, _ROW_B_Y if owner else _ROW_A_Y

    def sync(self, game: "Game", every: bool = False) -> None:
        """Redraw the deck counts and score pips that differ from the game, and the first
        pile that does (every pile that does if every). Called every pass, it draws the next
        pile in the next pass: a redeal of every pile spreads over short passes (about 7 ms
        each on the chip) instead of one pass of 70 ms in which no key is read. A pass that
        draws no pile draws one pending banner or message; a banner that goes away goes
        first, in passes that draw nothing else."""
        if self._hiding():  # a banner on its way out: its half-row is this pass's work
            self._draw_pending()
            return
        version = game.version
        drew = False
        if version != self.version:  # else the tops are as the table shows them all
            cells = self.cells
            for p in range(2 * self.n):
                card = game.top(p)
                if card != cells[p].card:
                    cells[p].show(card)
                    drew = True
                    if not every:
                        break
            else:
                self.version = version
        for player in range(2):
            d = game.deck_size(player)
            if d != self.decks[player]:
                line = self.lines[player]
                if self.decks[player] == 0xFF:  # (a new line: the deck's icon first)
                    line.put(0, _DECK)
                self.decks[player] = d
                line.number(1, d, 2)
            wins = game.wins_of(player)
            if wins != self.pips[player]:
                self.pips[player] = wins
                self._draw_pips(player, wins, game.rules.wins_needed)
        if self.pending and not drew:
            self._draw_pending()

    def rest(self, game: "Game", hints: bool, now: int, most: int) -> int:
        """ms until sync(), expire() or hint() next has work (0: now; at most `most`): none
        while the table shows the game as it is and no message is to go before then."""
        if self.pending or game.version != self.version or hints and self.hint_mask != (
                game.coverable_mask if game.phase == engine.PLAY else 0):
            return 0
        for p in range(2):
            if self.msg_on[p] and self.msg_until[p] != _FOREVER:
                most = min(most, ticks_diff(self.msg_until[p], now))
        return most

    def _hiding(self) -> bool:
        """A banner is up that is to go."""
        for p in range(2):
            if self.pending & (4 << p) and self.banners[p].want is None:
                return True
        return False

    def _draw_pending(self) -> None:
        """One step of a pending banner (first), or one pending message line."""
        pending = self.pending
        for p in range(2):
            bit = 4 << p
            if pending & bit:
                if self.banners[p].step():
                    self.pending = pending & ~bit
                return
        for p in range(2):
            bit = 1 << p
            if pending & bit:
                self.pending = pending & ~bit
                self.lines[p].center(self.msg_text[p], _MSG_COL, _MSG_LEN)
                return

    def banner(self, player: int, text: "str | None") -> None:
        """Show a banner across a player's row (None: take it away), over coming passes."""
        b = self.banners[player]
        if text is None:
            b.hide()
        else:
            b.show(text)
        self.pending |= 4 << player

    def _draw_pips(self, player: int, wins: int, needed: int) -> None:
        line = self.lines[player]
        start = LINE_CHARS - needed
        line.fill(_PIPS_COL, start)
        for i in range(needed):
            line.put(start + i, _PIP_ON if i < wins else _PIP_OFF)

    def say(self, player: int, text: bytes | str, now: int, ms: int) -> None:
        """Show a message on a player's line for ms milliseconds (ms < 0: until replaced),
        from a coming pass."""
        self.msg_text[player] = text
        self.pending |= 1 << player
        self.msg_on[player] = 1
        self.msg_until[player] = _FOREVER if ms < 0 else ticks_add(now, ms)

    def say_both(self, text: bytes | str, now: int, ms: int) -> None:
        """The same message for both players."""
        self.say(0, text, now, ms)
        self.say(1, text, now, ms)

    def expire(self, now: int) -> None:
        """Clear messages whose time is up."""
        for p in range(2):
            if self.msg_on[p] and self.msg_until[p] != _FOREVER:
                if ticks_diff(now, self.msg_until[p]) >= 0:
                    self.quiet(p)

    def quiet(self, player: int) -> None:
        """Clear a player's message (in a coming pass)."""
        if self.msg_on[player]:
            self.msg_text[player] = b""
            self.pending |= 1 << player
            self.msg_on[player] = 0

    def hint(self, mask: int) -> None:
        """Training hints: underline the piles in mask (0 hides every mark). A pass draws
        one mark, and only a pass that drew nothing else: marks in both rows, or a mark and
        a card in the other row, would be one area of most of the glass to send."""
        diff = mask ^ self.hint_mask
        if not diff or self.kit.changes:
            return
        p = 0
        while not (diff >> p) & 1:
            p += 1
        self.hint_mask ^= 1 << p
        x, y = self._cell_at(p)
        y += 1 if p >= self.n else CELL_H - 2  # under the card as its player sees it
        self.kit.changes += underline(self.bg, x, y, (self.cell_w + 1) & ~1,
                                      (mask >> p) & 1)  # (centred on it)
