"""A virtual I2C bus and SSD1306 OLED controller for the desktop twin (CPython only).

`VirtualI2C` stands in for `busio.I2C`: Blinka's real `i2cdisplaybus.I2CDisplayBus`
accepts it, so the real `adafruit_displayio_ssd1306` driver runs unchanged; its test
driver `Bus` counts and times the bytes the driver puts on the wire. `VirtualSSD1306`
decodes those bytes exactly as the controller does (control bytes, commands with their
arguments, GDDRAM writes with the addressing modes) and shows what the glass would show.

Not for the board: tools/mpy.py leaves hardware/virtual* out of the firmware.
"""
import errno
import threading
from typing import NamedTuple

RAM_COLUMNS = 128  # the controller's GDDRAM, whatever the size of the glass
RAM_PAGES = 8
RAM_ROWS = RAM_PAGES * 8

HORIZONTAL, VERTICAL, PAGE = 0, 1, 2  # memory addressing modes (command 0x20)

# Commands taking argument bytes: opcode -> number of arguments.
_ARGUMENT_COUNTS = {
    0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1,
    0x8D: 1, 0xA3: 2, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1,
}
# Commands without arguments that need no state beyond being recognised.
_PLAIN_COMMANDS = frozenset({0xE3})


def _advance(value: int, start: int, end: int, limit: int):
    """The address pointer's next value in a start..end window, and whether it wrapped.

    A pointer left outside its window counts on and wraps at the RAM's `limit`.
    """
    if value == end:
        return start, True
    return (value + 1) % limit, False


class BusSpan(NamedTuple):
    """Traffic between two points in time: bytes on the wire and transactions."""

    bytes_sent: int
    transactions: int

    def clocks(self) -> int:
        """SCL clocks: 9 per byte (8 bits + ACK) and 2 per START/STOP pair."""
        return 9 * self.bytes_sent + 2 * self.transactions

    def seconds(self, frequency: int) -> float:
        """Wire time at `frequency` Hz (no clock stretching, no gaps)."""
        return self.clocks() / frequency


class VirtualI2C:
    """An I2C bus holding virtual devices by address, with exactly busio.I2C's names.

    The pins mean nothing on the desktop. A write to an address where nothing answers
    raises OSError as a NACK does (see Bus). A `Bus` driver makes it, attaches the
    devices and reads its counters.
    """

    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        self._frequency = frequency
        self._nack_errno = errno.EREMOTEIO
        self._keep_log = False
        self._log = []  # (address, payload bytes) per write, when _keep_log is on
        self._bytes_sent = 0
        self._transactions = 0
        self._deinitialized = False
        self._devices = {}
        self._locked = False
        self._guard = threading.Lock()  # displayio's background thread shares the bus

    def _answering(self, address: int):
        device = self._devices.get(address)
        if device is None or getattr(device, "nack", False):
            return None
        return device

    def try_lock(self) -> bool:
        """Take the bus lock: True if it was free, False while someone holds it."""
        self._check_alive()
        with self._guard:
            if self._locked:
                return False
            self._locked = True
            return True

    def unlock(self):
        """Release the bus lock (no-op when not locked, like Blinka)."""
        with self._guard:
            self._locked = False

    def scan(self):
        """Addresses of the attached devices that answer, ascending."""
        self._check_alive()
        return sorted(a for a in self._devices if self._answering(a) is not None)

    def writeto(self, address: int, buffer, *, start: int = 0, end=None):
        """One write transaction: START, address, buffer[start:end], STOP."""
        self._check_alive()
        payload = bytes(memoryview(buffer)[start:end])
        device = self._answering(address)
        self._transactions += 1
        if self._keep_log:
            self._log.append((address, payload))
        if device is None:  # the address byte goes out and nobody ACKs it
            self._bytes_sent += 1
            raise OSError(self._nack_errno, f"no ACK from I2C address 0x{address:02x}")
        self._bytes_sent += 1 + len(payload)
        device.write(payload)

    def deinit(self):
        """Release the bus; later use raises ValueError, as a deinitialised busio does.

        displayio.release_displays() calls this through I2CDisplayBus.deinit().
        """
        self.unlock()
        self._deinitialized = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def _check_alive(self):
        if self._deinitialized:
            raise ValueError("Object has been deinitialized and can no longer be used.")


class Bus:
    """The test driver of a `VirtualI2C`: makes it (`i2c`), attaches devices, and counts
    the traffic.

    A write to an address where nothing answers raises OSError(nack_errno) as a NACK
    does: 121 (EREMOTEIO) as on Linux/Blinka, where i2cdisplaybus turns it into
    RuntimeError, or 19 (ENODEV) as CircuitPython's busio raises it. With keep_log, `log`
    holds (address, payload bytes) per write.
    """

    def __init__(self, frequency: int = 400_000, *, nack_errno: int = errno.EREMOTEIO,
                 keep_log: bool = False):
        self.i2c = VirtualI2C(None, None, frequency=frequency)
        self.i2c._nack_errno = nack_errno
        self.i2c._keep_log = keep_log

    frequency = property(lambda self: self.i2c._frequency, doc="The bus clock in Hz.")
    bytes_sent = property(lambda self: self.i2c._bytes_sent,
                          doc="Bytes on the wire so far, address bytes included.")
    transactions = property(lambda self: self.i2c._transactions,
                            doc="Write transactions so far.")
    log = property(lambda self: self.i2c._log,
                   doc="(address, payload bytes) per write, when keep_log is on.")
    locked = property(lambda self: self.i2c._locked, doc="True while the bus lock is held.")
    deinitialized = property(lambda self: self.i2c._deinitialized,
                             doc="True once the bus is deinitialised.")

    def attach(self, device):
        """Connect a device (with `.address` and `.write(bytes)`); returns it."""
        self.i2c._devices[device.address] = device
        return device

    def detach(self, address: int):
        """Disconnect the device at `address` (as pulling its wires would)."""
        self.i2c._devices.pop(address, None)

    def mark(self) -> BusSpan:
        """Snapshot of the counters, for since()."""
        return BusSpan(self.bytes_sent, self.transactions)

    def since(self, mark: BusSpan) -> BusSpan:
        """Traffic since `mark`: (bytes_sent, transactions), with .seconds(frequency)."""
        return BusSpan(self.bytes_sent - mark.bytes_sent, self.transactions - mark.transactions)

    def bus_seconds(self, frequency=None) -> float:
        """Estimated wire time of all traffic so far at `frequency` (default: the bus's)."""
        return self.mark().seconds(frequency or self.frequency)

    def reset_counters(self):
        """Zero bytes_sent and transactions and empty the log."""
        self.i2c._bytes_sent = 0
        self.i2c._transactions = 0
        self.i2c._log.clear()


class VirtualSSD1306:
    """An SSD1306 controller with its panel: decodes the I2C byte stream into GDDRAM.

    The chip's GDDRAM is always 128 columns x 8 pages (bit 0 of a byte = top row of
    its page). The glass is `width` x `height`, wired like the usual modules: with the
    driver's 0xA1 and 0xC8 RAM column `column_offset + x` shows at glass x and RAM row
    y at glass y (glass x = 127 - column_offset - SEG, glass y = height - 1 - COM);
    with 0xA0/0xC0 the picture turns 180 degrees. `column_offset` defaults to
    (128 - width) // 2, as adafruit_displayio_ssd1306 assumes. Start line and display
    offset both shift the RAM row a scan line shows; lines past the mux ratio stay
    dark. Scrolling and the COM pin layout (0xDA) are recorded in `settings`, not drawn.

    `initialized` becomes True when display-on (0xAF) arrives while the charge pump is
    enabled (0x8D 0x14): the moment a real module lights up. Set `nack = True` to make
    the device stop answering on the bus.
    """

    def __init__(self, width: int = 128, height: int = 64, address: int = 0x3C, *,
                 column_offset=None, nack: bool = False):
        self.width = width
        self.height = height
        self.address = address
        self.column_offset = (RAM_COLUMNS - width) // 2 if column_offset is None else column_offset
        self.nack = nack
        self.reset()

    def reset(self):
        """Power-on / RST state from the datasheet (GDDRAM cleared to 0)."""
        self.gddram = bytearray(RAM_COLUMNS * RAM_PAGES)
        self.is_on = False
        self.contrast = 0x7F
        self.inverted = False
        self.entire_display_on = False
        self.addressing_mode = PAGE
        self.segment_remap = False  # 0xA1: column 127 on SEG0
        self.com_remap = False  # 0xC8: scan from COM[N-1] to COM0
        self.start_line = 0
        self.display_offset = 0
        self.multiplex = 64
        self.charge_pump = False
        self.scrolling = False
        self.initialized = False
        self.settings = {}  # last argument(s) of 0xD5, 0xD9, 0xDA, 0xDB, scroll setup...
        self.unknown_commands = 0
        self.commands_received = 0
        self.data_bytes_received = 0
        self.column_start, self.column_end = 0, RAM_COLUMNS - 1
        self.page_start, self.page_end = 0, RAM_PAGES - 1
        self.page_mode_column_start = 0
        self.column = 0
        self.page = 0
        self._command = None  # opcode waiting for argument bytes
        self._arguments = []

    # the I2C side
    def write(self, payload: bytes):
        """Decode one I2C write (everything after the address byte)."""
        control = None  # the next byte is a control byte
        for byte in payload:
            if control is None:
                control = byte & 0xC0  # Co and D/C; other bits are don't-care
                continue
            if control & 0x40:
                self._data(byte)
            else:
                self._command_byte(byte)
            if control & 0x80:  # Co=1: one byte, then another control byte
                control = None

    def _data(self, byte: int):
        self.data_bytes_received += 1
        self.gddram[self.page * RAM_COLUMNS + self.column] = byte
        columns = (self.column_start, self.column_end, RAM_COLUMNS)
        pages = (self.page_start, self.page_end, RAM_PAGES)
        if self.addressing_mode == HORIZONTAL:
            self.column, wrapped = _advance(self.column, *columns)
            if wrapped:
                self.page = _advance(self.page, *pages)[0]
        elif self.addressing_mode == VERTICAL:
            self.page, wrapped = _advance(self.page, *pages)
            if wrapped:
                self.column = _advance(self.column, *columns)[0]
        else:  # page mode: the page never changes; the column wraps to its start
            start = self.page_mode_column_start
            self.column = _advance(self.column, start, RAM_COLUMNS - 1, RAM_COLUMNS)[0]

    def _command_byte(self, byte: int):
        if self._command is not None:  # an argument of the pending command
            self._arguments.append(byte)
            if len(self._arguments) == _ARGUMENT_COUNTS[self._command]:
                command, self._command = self._command, None
                self._execute(command, self._arguments)
            return
        self.commands_received += 1
        if byte in _ARGUMENT_COUNTS:
            self._command, self._arguments = byte, []
        else:
            self._execute(byte, ())

    def _execute(self, op: int, args):
        # pylint: disable=too-many-branches,too-many-statements
        if op <= 0x0F:  # page mode: lower column nibble
            self.page_mode_column_start = (self.page_mode_column_start & 0xF0) | op
            self._page_mode_pointer()
        elif op <= 0x1F:  # page mode: upper column nibble
            self.page_mode_column_start = ((op & 0x07) << 4) | (self.page_mode_column_start & 0x0F)
            self._page_mode_pointer()
        elif op == 0x20:
            if args[0] & 0x03 != 0x03:  # 0b11 is invalid and ignored
                self.addressing_mode = args[0] & 0x03
        elif op == 0x21:
            self.column_start, self.column_end = args[0] & 0x7F, args[1] & 0x7F
            self.column = self.column_start
        elif op == 0x22:
            self.page_start, self.page_end = args[0] & 0x07, args[1] & 0x07
            self.page = self.page_start
        elif op in (0x26, 0x27, 0x29, 0x2A, 0xA3, 0xAD, 0xD5, 0xD9, 0xDA, 0xDB):
            self.settings[op] = tuple(args)
        elif op == 0x2E:
            self.scrolling = False
        elif op == 0x2F:
            self.scrolling = True
        elif 0x40 <= op <= 0x7F:
            self.start_line = op & 0x3F
        elif op == 0x81:
            self.contrast = args[0]
        elif op == 0x8D:
            self.charge_pump = bool(args[0] & 0x04)
        elif op in (0xA0, 0xA1):
            self.segment_remap = op == 0xA1
        elif op in (0xA4, 0xA5):
            self.entire_display_on = op == 0xA5
        elif op in (0xA6, 0xA7):
            self.inverted = op == 0xA7
        elif op == 0xA8:
            if (args[0] & 0x3F) >= 15:  # 0..14 are invalid
                self.multiplex = (args[0] & 0x3F) + 1
        elif op in (0xAE, 0xAF):
            self.is_on = op == 0xAF
            if self.is_on and self.charge_pump:
                self.initialized = True
        elif 0xB0 <= op <= 0xB7:
            if self.addressing_mode == PAGE:
                self.page = op & 0x07
        elif 0xC0 <= op <= 0xCF:
            self.com_remap = bool(op & 0x08)
        elif op == 0xD3:
            self.display_offset = args[0] & 0x3F
        elif op not in _PLAIN_COMMANDS:
            self.unknown_commands += 1

    def _page_mode_pointer(self):
        if self.addressing_mode == PAGE:
            self.column = self.page_mode_column_start

    # the glass side
    def ram_pixel(self, column: int, row: int) -> int:
        """The GDDRAM bit at RAM column `column`, RAM row `row` (0 or 1)."""
        return (self.gddram[(row >> 3) * RAM_COLUMNS + column] >> (row & 7)) & 1

    def _ram_column(self, x: int) -> int:
        segment = RAM_COLUMNS - 1 - self.column_offset - x
        return RAM_COLUMNS - 1 - segment if self.segment_remap else segment

    def _ram_row(self, y: int):
        """RAM row shown on glass row y, or None for a COM line the mux leaves dark."""
        com = self.height - 1 - y
        line = self.multiplex - 1 - com if self.com_remap else com
        if not 0 <= line < self.multiplex:
            return None
        return (line + self.start_line + self.display_offset) % RAM_ROWS

    def pixel(self, x: int, y: int) -> int:
        """1 if glass pixel (x, y) is lit, else 0 (x right, y down from top-left)."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"pixel ({x}, {y}) is off the {self.width}x{self.height} glass")
        if not self.is_on:
            return 0
        row = self._ram_row(y)
        if row is None:
            return 0
        if self.entire_display_on:
            return 1
        return self.ram_pixel(self._ram_column(x), row) ^ self.inverted

    def frame(self) -> bytes:
        """The glass as width*height bytes, row-major from the top-left: 1 lit, 0 dark."""
        out = bytearray(self.width * self.height)
        if not self.is_on:
            return bytes(out)
        columns = [self._ram_column(x) for x in range(self.width)]
        for y in range(self.height):
            row = self._ram_row(y)
            if row is None:
                continue
            base = y * self.width
            if self.entire_display_on:
                out[base:base + self.width] = b"\x01" * self.width
                continue
            page = self.gddram[(row >> 3) * RAM_COLUMNS:((row >> 3) + 1) * RAM_COLUMNS]
            shift, flip = row & 7, int(self.inverted)
            for x, column in enumerate(columns):
                out[base + x] = ((page[column] >> shift) & 1) ^ flip
        return bytes(out)

    def to_text(self, on: str = "#", off: str = ".") -> str:
        """The glass as text, one line per row: `on` for lit pixels, `off` for dark."""
        frame, w = self.frame(), self.width
        return "\n".join(
            "".join(on if v else off for v in frame[y * w:(y + 1) * w]) for y in range(self.height)
        )

    def to_image(self, scale: int = 4, on=(200, 230, 255), off=(0, 0, 0)):
        """A Pillow RGB image of the glass, each pixel a `scale` x `scale` square."""
        from PIL import Image  # pylint: disable=import-outside-toplevel

        mask = Image.frombytes("L", (self.width, self.height),
                               bytes(255 if v else 0 for v in self.frame()))
        size = (self.width * scale, self.height * scale)
        image = Image.new("RGB", size, off)
        image.paste(on, (0, 0, size[0], size[1]), mask.resize(size, Image.NEAREST))
        return image

    def to_png(self, path, scale: int = 4):
        """Save to_image(scale) as a PNG at `path`."""
        self.to_image(scale).save(path, "PNG")
