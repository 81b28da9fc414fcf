"""The SSD1306 OLED controller's command decoder and GDDRAM: the one model of the chip.

`SSD1306.write(buffer)` takes what follows the address byte of one I2C write, as the
controller does: control bytes (Co, D/C), commands with their argument bytes, GDDRAM
writes with the three addressing modes. The desktop twin draws the glass from it
(twins/desktop/ssd1306.py), the chip twin's bus log is decoded by that, and the board
VM's bench keeps its OLED in one (twins/boardvm/board/vmbench.py).

Board subset: it runs in CircuitPython's VM too, beside the firmware, where every name a
module brings stays interned (the soak has only a few to spare). So the controller's
state is one register file, `reg`, indexed by constants that compile away, not an
attribute for each register; VirtualSSD1306 names them for the desktop.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(value):
        return value

_COLUMNS = const(128)  # the GDDRAM, whatever the size of the glass: 128 columns x 8 pages
_PAGES = const(8)
_HORIZONTAL = const(0)  # memory addressing modes (command 0x20)
_VERTICAL = const(1)
_PAGE_MODE = const(2)

# The register file: one byte each, then the pending command's arguments, then the last
# arguments of the commands kept only as settings: a slot each of opcode, count, 6 bytes.
_ON = const(0)
_CONTRAST = const(1)
_INVERTED = const(2)
_ENTIRE_ON = const(3)
_MODE = const(4)
_SEGMENT_REMAP = const(5)  # 0xA1: column 127 on SEG0
_COM_REMAP = const(6)  # 0xC8: scan from COM[N-1] to COM0
_START_LINE = const(7)
_OFFSET = const(8)
_MULTIPLEX = const(9)
_CHARGE_PUMP = const(10)
_SCROLLING = const(11)
_INITIALIZED = const(12)  # display on with the charge pump enabled: the module lights up
_COLUMN_START = const(13)
_COLUMN_END = const(14)
_PAGE_START = const(15)
_PAGE_END = const(16)
_PAGE_MODE_COLUMN = const(17)  # the column a page-mode write starts at (0x00-0x1F)
_COLUMN = const(18)  # the address pointer
_PAGE = const(19)
_OP = const(20)  # a command waiting for _WANTED argument bytes, _GOT of them in _ARGS
_WANTED = const(21)
_GOT = const(22)
_ARGS = const(23)
_SETTINGS = const(29)
_SLOT = const(8)
_SLOTS = const(10)  # scroll setup (0x26, 0x27, 0x29, 0x2A, 0xA3), 0xAD, 0xD5, 0xD9, 0xDA, 0xDB
_REGISTERS = const(109)  # _SETTINGS + _SLOT * _SLOTS


class SSD1306:
    """The controller: `gddram` (128 columns x 8 pages, bit 0 = top row of its page),
    `reg` (its registers) and `counts` (commands, GDDRAM bytes and unknown commands
    received). Nothing is allocated per byte."""

    def __init__(self):
        self.gddram = bytearray(_COLUMNS * _PAGES)
        self.reg = bytearray(_REGISTERS)
        self.counts = [0, 0, 0]
        self.reset()

    def reset(self):
        """Power-on / RST state from the datasheet (GDDRAM cleared to 0)."""
        reg = self.reg
        for i in range(len(self.gddram)):
            self.gddram[i] = 0
        for i in range(len(reg)):
            reg[i] = 0
        reg[_CONTRAST] = 0x7F
        reg[_MODE] = _PAGE_MODE
        reg[_MULTIPLEX] = 64
        reg[_COLUMN_END] = _COLUMNS - 1
        reg[_PAGE_END] = _PAGES - 1
        self.counts[0] = self.counts[1] = self.counts[2] = 0

    def write(self, buffer):
        """Decode one I2C write (everything after the address byte)."""
        control = -1  # the next byte is a control byte
        for value in buffer:
            if control < 0:
                control = value & 0xC0  # Co and D/C; other bits are don't-care
                continue
            if control & 0x40:
                self.data(value)
            else:
                self.command(value)
            if control & 0x80:  # Co=1: one byte, then another control byte
                control = -1

    def data(self, value):
        """A GDDRAM byte at the address pointer, which moves on as the mode says."""
        reg = self.reg
        self.counts[1] += 1
        column, page = reg[_COLUMN], reg[_PAGE]
        self.gddram[page * _COLUMNS + column] = value
        mode = reg[_MODE]
        if mode == _PAGE_MODE:  # the page never changes; the column wraps to its start
            column = reg[_PAGE_MODE_COLUMN] if column == _COLUMNS - 1 else column + 1
        elif mode == _HORIZONTAL:
            if column == reg[_COLUMN_END]:
                column = reg[_COLUMN_START]
                page = reg[_PAGE_START] if page == reg[_PAGE_END] else (page + 1) % _PAGES
            else:  # a pointer outside its window counts on and wraps at the RAM's end
                column = (column + 1) % _COLUMNS
        elif page == reg[_PAGE_END]:  # vertical
            page = reg[_PAGE_START]
            column = reg[_COLUMN_START] if column == reg[_COLUMN_END] \
                else (column + 1) % _COLUMNS
        else:
            page = (page + 1) % _PAGES
        reg[_COLUMN], reg[_PAGE] = column, page

    def command(self, value):
        """A command byte: an opcode, or an argument of the pending one."""
        # pylint: disable=too-many-branches,too-many-statements
        reg = self.reg
        if reg[_WANTED]:  # an argument of the pending command
            reg[_ARGS + reg[_GOT]] = value
            reg[_GOT] += 1
            if reg[_GOT] < reg[_WANTED]:
                return
            reg[_WANTED] = 0
            op = reg[_OP]
        else:
            self.counts[0] += 1
            op = value
            if op == 0x26 or op == 0x27:  # horizontal scroll setup
                wanted = 6
            elif op == 0x29 or op == 0x2A:  # vertical and horizontal scroll setup
                wanted = 5
            elif op in (0x21, 0x22, 0xA3):
                wanted = 2
            elif op in (0x20, 0x81, 0x8D, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB):
                wanted = 1
            else:
                wanted = 0
            if wanted:
                reg[_OP], reg[_WANTED], reg[_GOT] = op, wanted, 0
                return
        arg = reg[_ARGS]
        if op <= 0x0F:  # page mode: lower column nibble
            reg[_PAGE_MODE_COLUMN] = (reg[_PAGE_MODE_COLUMN] & 0xF0) | op
            if reg[_MODE] == _PAGE_MODE:
                reg[_COLUMN] = reg[_PAGE_MODE_COLUMN]
        elif op <= 0x1F:  # page mode: upper column nibble
            reg[_PAGE_MODE_COLUMN] = ((op & 0x07) << 4) | (reg[_PAGE_MODE_COLUMN] & 0x0F)
            if reg[_MODE] == _PAGE_MODE:
                reg[_COLUMN] = reg[_PAGE_MODE_COLUMN]
        elif op == 0x20:
            if arg & 0x03 != 0x03:  # 0b11 is invalid and ignored
                reg[_MODE] = arg & 0x03
        elif op == 0x21:
            reg[_COLUMN_START], reg[_COLUMN_END] = arg & 0x7F, reg[_ARGS + 1] & 0x7F
            reg[_COLUMN] = reg[_COLUMN_START]
        elif op == 0x22:
            reg[_PAGE_START], reg[_PAGE_END] = arg & 0x07, reg[_ARGS + 1] & 0x07
            reg[_PAGE] = reg[_PAGE_START]
        elif op in (0x26, 0x27, 0x29, 0x2A, 0xA3, 0xAD, 0xD5, 0xD9, 0xDA, 0xDB):
            at = _SETTINGS  # kept, not drawn: its slot, or the first free one
            while reg[at] != op and reg[at + 1]:
                at += _SLOT
            reg[at], reg[at + 1] = op, reg[_GOT]
            for i in range(reg[_GOT]):
                reg[at + 2 + i] = reg[_ARGS + i]
        elif op == 0x2E or op == 0x2F:
            reg[_SCROLLING] = op == 0x2F
        elif 0x40 <= op <= 0x7F:
            reg[_START_LINE] = op & 0x3F
        elif op == 0x81:
            reg[_CONTRAST] = arg
        elif op == 0x8D:
            reg[_CHARGE_PUMP] = arg & 0x04 != 0
        elif op == 0xA0 or op == 0xA1:
            reg[_SEGMENT_REMAP] = op == 0xA1
        elif op == 0xA4 or op == 0xA5:
            reg[_ENTIRE_ON] = op == 0xA5
        elif op == 0xA6 or op == 0xA7:
            reg[_INVERTED] = op == 0xA7
        elif op == 0xA8:
            if arg & 0x3F >= 15:  # 0..14 are invalid
                reg[_MULTIPLEX] = (arg & 0x3F) + 1
        elif op == 0xAE or op == 0xAF:
            reg[_ON] = op == 0xAF
            if op == 0xAF and reg[_CHARGE_PUMP]:
                reg[_INITIALIZED] = 1
        elif 0xB0 <= op <= 0xB7:
            if reg[_MODE] == _PAGE_MODE:
                reg[_PAGE] = op & 0x07
        elif 0xC0 <= op <= 0xCF:
            reg[_COM_REMAP] = op & 0x08 != 0
        elif op == 0xD3:
            reg[_OFFSET] = arg & 0x3F
        elif op != 0xE3:  # NOP
            self.counts[2] += 1
