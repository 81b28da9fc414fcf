"""A virtual I2C bus and SSD1306 OLED controller for the desktop twin (CPython only).

`VirtualI2C` stands in for `busio.I2C`: Blinka's real `i2cdisplaybus.I2CDisplayBus`
accepts it, so the real `adafruit_displayio_ssd1306` driver runs unchanged; its test
driver `Bus` counts and times the bytes the driver puts on the wire. `VirtualSSD1306`
decodes those bytes with the one model of the controller (twins/models/ssd1306.py:
control bytes, commands with their arguments, GDDRAM writes with the addressing modes)
and shows what the glass would show, naming the model's registers.

Not for the board: tools/mpy.py leaves twins/desktop* out of the firmware.
"""
import errno
import threading
from typing import NamedTuple

from twins.models import ssd1306 as model  # its register indices are private: they
# compile away in CircuitPython's VM, where the model runs too; this twin names them

RAM_COLUMNS = 128  # the controller's GDDRAM, whatever the size of the glass
RAM_PAGES = 8
RAM_ROWS = RAM_PAGES * 8

# memory addressing modes (command 0x20)
HORIZONTAL, VERTICAL, PAGE = model._HORIZONTAL, model._VERTICAL, model._PAGE_MODE


def _register(index, doc):
    return property(lambda self: self.reg[index], doc=doc)


def _flag(index, doc):
    return property(lambda self: bool(self.reg[index]), doc=doc)


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


class VirtualSSD1306(model.SSD1306):
    """An SSD1306 controller with its panel, on the virtual bus: the one decoder of the
    chip (twins/models/ssd1306.py) and what the glass shows.

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
        super().__init__()

    # the registers, by name
    is_on = _flag(model._ON, "True while the display is on (0xAF).")
    contrast = _register(model._CONTRAST, "The contrast (0x81), 0..255.")
    inverted = _flag(model._INVERTED, "Inverse display (0xA7).")
    entire_display_on = _flag(model._ENTIRE_ON, "Entire display on (0xA5).")
    addressing_mode = _register(model._MODE, "HORIZONTAL, VERTICAL or PAGE (0x20).")
    segment_remap = _flag(model._SEGMENT_REMAP, "0xA1: column 127 on SEG0.")
    com_remap = _flag(model._COM_REMAP, "0xC8: scan from COM[N-1] to COM0.")
    start_line = _register(model._START_LINE, "The display start line (0x40-0x7F).")
    display_offset = _register(model._OFFSET, "The display offset (0xD3).")
    multiplex = _register(model._MULTIPLEX, "The mux ratio, 16..64 (0xA8).")
    charge_pump = _flag(model._CHARGE_PUMP, "The charge pump is enabled (0x8D 0x14).")
    scrolling = _flag(model._SCROLLING, "Scrolling is active (0x2F; 0x2E stops it).")
    initialized = _flag(model._INITIALIZED,
                        "Display on arrived with the charge pump enabled: the module lit up.")
    column_start = _register(model._COLUMN_START, "The column window's start (0x21).")
    column_end = _register(model._COLUMN_END, "The column window's end (0x21).")
    page_start = _register(model._PAGE_START, "The page window's start (0x22).")
    page_end = _register(model._PAGE_END, "The page window's end (0x22).")
    page_mode_column_start = _register(model._PAGE_MODE_COLUMN,
                                       "Where a page-mode write starts (0x00-0x1F).")
    column = _register(model._COLUMN, "The address pointer's column.")
    page = _register(model._PAGE, "The address pointer's page.")
    commands_received = property(lambda self: self.counts[0], doc="Commands so far.")
    data_bytes_received = property(lambda self: self.counts[1], doc="GDDRAM bytes so far.")
    unknown_commands = property(lambda self: self.counts[2],
                                doc="Commands the controller does not know, so far.")

    @property
    def settings(self):
        """{opcode: last arguments} of the commands kept but not drawn: scroll setup
        (0x26, 0x27, 0x29, 0x2A, 0xA3), 0xAD, 0xD5, 0xD9, 0xDA, 0xDB."""
        out = {}
        for at in range(model._SETTINGS, len(self.reg), model._SLOT):
            op, count = self.reg[at], self.reg[at + 1]
            if count:
                out[op] = tuple(self.reg[at + 2:at + 2 + count])
        return out

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
        """Save to_image(scale) as a PNG at `path`, whole or not at all (OSError)."""
        from tools.files import replacing
        with replacing(path) as temp:
            self.to_image(scale).save(temp, "PNG")
