"""The virtual SSD1306 against the real Blinka displayio stack and hand-built byte streams.

The real driver (adafruit_displayio_ssd1306 over i2cdisplaybus) talks to a VirtualI2C;
the decoded glass must match the bitmap pixel for pixel, and the bytes on the wire are
counted (by its test driver, Bus). Full 128x64 frame: 7 (column window) + 7 (page
window) + 1026 (0x40 + 1024 bytes of GDDRAM) = 1,040 bytes in 3 transactions.
"""
import errno

import pytest

import adafruit_displayio_ssd1306
import displayio
import i2cdisplaybus
from PIL import Image

from twins.desktop.ssd1306 import HORIZONTAL, PAGE, VERTICAL, Bus, VirtualI2C, VirtualSSD1306

FULL_FRAME_BYTES = 1040
ONE_COLUMN_BYTES = 17  # 7 + 7 + (address, 0x40, one GDDRAM byte)


class Rig:
    """The real display stack on a virtual bus."""

    def __init__(self, width=128, height=64, **display_options):
        displayio.release_displays()
        self.bus = Bus(keep_log=True)
        self.i2c = self.bus.i2c
        self.oled = self.bus.attach(VirtualSSD1306(width, height))
        self.display_bus = i2cdisplaybus.I2CDisplayBus(self.i2c, device_address=0x3C)
        self.display = adafruit_displayio_ssd1306.SSD1306(
            self.display_bus, width=width, height=height, auto_refresh=False, **display_options
        )

    def show_bitmap(self):
        """A 2-colour full-screen bitmap as the root group; returns the bitmap."""
        bitmap = displayio.Bitmap(self.display.width, self.display.height, 2)
        self.display.root_group = group_of(displayio.TileGrid(bitmap, pixel_shader=palette()))
        return bitmap

    def refresh(self):
        """display.refresh(); returns the traffic it caused."""
        mark = self.bus.mark()
        self.display.refresh()
        return self.bus.since(mark)


@pytest.fixture
def rig():
    made = Rig()
    yield made
    displayio.release_displays()


def palette():
    colours = displayio.Palette(2)
    colours[0], colours[1] = 0x000000, 0xFFFFFF
    return colours


def group_of(*layers):
    group = displayio.Group()
    for layer in layers:
        group.append(layer)
    return group


def fill_rect(bitmap, x1, y1, x2, y2, value=1):
    for y in range(y1, y2):
        for x in range(x1, x2):
            bitmap[x, y] = value


def draw_pattern(bitmap):
    """Corners, single pixels on both sides of the y=7/8 page boundary, rectangles."""
    w, h = bitmap.width, bitmap.height
    for x, y in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1),
                 (3, 7), (3, 8), (4, 7), (5, 8), (w - 2, 7), (w - 2, 8), (40, 15), (41, 16)]:
        bitmap[x, y] = 1
    fill_rect(bitmap, 10, 5, 21, 12)  # straddles pages 0 and 1
    fill_rect(bitmap, 30, 17, 52, 31)
    fill_rect(bitmap, 33, 20, 49, 28, 0)  # a hollow frame, off-centre so flips show


def pixels_of(bitmap):
    return bytes(bitmap[x, y] for y in range(bitmap.height) for x in range(bitmap.width))


def rotated_180(frame):
    return bytes(reversed(frame))


def assert_shows(oled, expected):
    actual = oled.frame()
    if actual != expected:
        w = oled.width
        wrong = [(i % w, i // w) for i, (a, b) in enumerate(zip(actual, expected)) if a != b]
        pytest.fail(f"{len(wrong)} pixels differ, first (x, y): {wrong[:8]}\n{oled.to_text()}")


def bare_oled():
    """(VirtualI2C, VirtualSSD1306): a controller alone on a bus, nothing sent yet
    (power-on state: page addressing)."""
    bus = Bus()
    return bus.i2c, bus.attach(VirtualSSD1306())


# --- the real driver -------------------------------------------------------------------

def test_init_sequence_is_recognised(rig):
    oled = rig.oled
    assert oled.initialized and oled.is_on and oled.charge_pump
    assert oled.addressing_mode == HORIZONTAL
    assert oled.contrast == 0xFF  # init sets 0xCF, then brightness=1.0 sends 0x81 0xFF
    assert oled.segment_remap and oled.com_remap and not oled.inverted
    assert oled.multiplex == 64 and oled.settings[0xDA] == (0x12,)
    assert oled.unknown_commands == 0
    assert rig.bus.log[0] == (0x3C, b"\x80\xae")
    assert rig.bus.log[1] == (0x3C, b"\x80\x20\x80\x00")  # argument in its own 0x80 pair
    assert (rig.bus.transactions, rig.bus.bytes_sent) == (14, 60)


def test_full_refresh_shows_the_bitmap_pixel_for_pixel(rig):
    bitmap = rig.show_bitmap()
    draw_pattern(bitmap)
    traffic = rig.refresh()
    assert_shows(rig.oled, pixels_of(bitmap))
    assert traffic == (FULL_FRAME_BYTES, 3)
    assert 1000 <= traffic.bytes_sent <= 1100
    assert abs(traffic.seconds(400_000) - (9 * 1040 + 6) / 400_000) < 1e-12


@pytest.mark.parametrize("width, height", [(128, 32), (64, 48), (72, 40), (64, 32)])
def test_other_panel_sizes_show_the_bitmap(width, height):
    rig = Rig(width, height)
    bitmap = rig.show_bitmap()
    draw_pattern(bitmap)
    rig.refresh()
    assert rig.oled.unknown_commands == 0
    assert_shows(rig.oled, pixels_of(bitmap))
    displayio.release_displays()


def test_a_small_change_sends_only_its_page_aligned_column(rig):
    bitmap = rig.show_bitmap()
    draw_pattern(bitmap)
    assert rig.refresh().bytes_sent == FULL_FRAME_BYTES
    # Blinka keeps the TileGrid's change flags through a full refresh: the next refresh
    # sends the whole frame again; after that only dirty areas go out.
    assert rig.refresh().bytes_sent == FULL_FRAME_BYTES
    assert rig.refresh() == (0, 0)
    for x, y in [(70, 20), (3, 7), (3, 8), (127, 63), (0, 0)]:
        bitmap[x, y] = 1 - bitmap[x, y]
        assert rig.refresh() == (ONE_COLUMN_BYTES, 3)
        assert_shows(rig.oled, pixels_of(bitmap))
    assert rig.bus.log[-2] == (0x3C, b"\x80\x22\x80\x00\x80\x00")  # pages 0..0
    bitmap[9, 7] = bitmap[9, 8] = 1  # two pages, one column
    assert rig.refresh().bytes_sent == ONE_COLUMN_BYTES + 1
    assert_shows(rig.oled, pixels_of(bitmap))


def test_far_apart_changes_merge_into_one_bounding_box(rig):
    bitmap = rig.show_bitmap()
    rig.refresh()
    rig.refresh()
    bitmap[0, 0] = bitmap[127, 63] = 1
    assert rig.refresh().bytes_sent == FULL_FRAME_BYTES  # Blinka unions the dirty area
    assert_shows(rig.oled, pixels_of(bitmap))


def test_one_tile_change_sends_one_tile(rig):
    sheet = displayio.Bitmap(16, 8, 2)  # tile 0 blank, tile 1 a diamond
    for i in range(8):
        sheet[8 + i, i] = sheet[15 - i, i] = 1
    grid = displayio.TileGrid(sheet, pixel_shader=palette(), width=16, height=8,
                              tile_width=8, tile_height=8)
    rig.display.root_group = group_of(grid)
    rig.refresh()
    rig.refresh()
    grid[5, 3] = 1
    traffic = rig.refresh()
    assert traffic == (7 + 7 + 2 + 8, 3)
    expected = bytearray(128 * 64)
    for i in range(8):
        expected[(24 + i) * 128 + 40 + i] = expected[(24 + i) * 128 + 47 - i] = 1
    assert_shows(rig.oled, bytes(expected))


def test_flip_commands_turn_the_picture_180_degrees(rig):
    bitmap = rig.show_bitmap()
    draw_pattern(bitmap)
    rig.refresh()
    rig.display_bus.send(0xA0, b"")
    rig.display_bus.send(0xC0, b"")
    assert_shows(rig.oled, rotated_180(pixels_of(bitmap)))
    rig.display_bus.send(0xA1, b"")
    rig.display_bus.send(0xC8, b"")
    assert_shows(rig.oled, pixels_of(bitmap))


def test_software_rotation_and_hardware_flip_cancel_out():
    rig = Rig(rotation=180)
    bitmap = rig.show_bitmap()
    draw_pattern(bitmap)
    rig.refresh()
    assert_shows(rig.oled, rotated_180(pixels_of(bitmap)))
    rig.display_bus.send(0xA0, b"")
    rig.display_bus.send(0xC0, b"")
    assert_shows(rig.oled, pixels_of(bitmap))
    displayio.release_displays()


def test_sleep_wake_and_inverse_through_the_driver(rig):
    bitmap = rig.show_bitmap()
    draw_pattern(bitmap)
    rig.refresh()
    rig.display.sleep()
    assert not rig.oled.is_on and rig.oled.frame() == bytes(128 * 64)
    rig.display.wake()
    rig.display_bus.send(0xA7, b"")
    assert rig.oled.inverted
    assert_shows(rig.oled, bytes(1 - v for v in pixels_of(bitmap)))


def test_display_that_does_not_answer_at_startup():
    displayio.release_displays()
    bus = Bus()
    bus.attach(VirtualSSD1306(nack=True))
    assert bus.i2c.scan() == []
    display_bus = i2cdisplaybus.I2CDisplayBus(bus.i2c, device_address=0x3C)
    with pytest.raises(RuntimeError, match="0x3c"):
        adafruit_displayio_ssd1306.SSD1306(display_bus, width=128, height=64, auto_refresh=False)
    displayio.release_displays()


def test_circuitpython_style_nack_stays_an_oserror():
    displayio.release_displays()
    i2c = Bus(nack_errno=errno.ENODEV).i2c
    bus = i2cdisplaybus.I2CDisplayBus(i2c, device_address=0x3C)
    with pytest.raises(OSError) as caught:
        bus.send(0xAF, b"")
    assert caught.value.errno == errno.ENODEV
    displayio.release_displays()


# --- the bus ---------------------------------------------------------------------------

def test_bus_lock_scan_and_missing_address():
    bus = Bus()
    i2c, oled = bus.i2c, bus.attach(VirtualSSD1306())
    assert i2c.scan() == [0x3C]
    assert i2c.try_lock() and bus.locked
    assert not i2c.try_lock()
    i2c.unlock()
    assert i2c.try_lock()
    i2c.unlock()
    i2c.unlock()  # unlocking a free bus is harmless, as in Blinka
    with pytest.raises(OSError) as caught:
        i2c.writeto(0x3D, b"\x80\xaf")
    assert caught.value.errno == errno.EREMOTEIO
    assert (bus.bytes_sent, bus.transactions) == (1, 1)  # the address byte went out
    oled.nack = True
    with pytest.raises(OSError):
        i2c.writeto(0x3C, b"\x80\xaf")
    assert not oled.is_on


def test_deinit_ends_the_bus_and_release_displays_deinits_it(rig):
    displayio.release_displays()
    assert rig.bus.deinitialized
    with pytest.raises(ValueError):
        rig.i2c.writeto(0x3C, b"\x80\xaf")
    with VirtualI2C("GP5", "GP4", frequency=400_000) as i2c:  # made as on the board
        assert i2c.scan() == []
    with pytest.raises(ValueError):
        i2c.scan()


def test_counters_and_bus_seconds_scale_with_frequency():
    bus = Bus()
    bus.attach(VirtualSSD1306())
    bus.i2c.writeto(0x3C, bytes([0x40] * 10) + b"\x00" * 10, start=10)  # 10 bytes sent
    mark = bus.mark()
    bus.i2c.writeto(0x3C, b"\x80\xaf")
    assert bus.since(mark) == (3, 1)
    assert (bus.bytes_sent, bus.transactions) == (14, 2)
    clocks = (11 * 9 + 2) + (3 * 9 + 2)
    assert bus.bus_seconds() == pytest.approx(clocks / 400_000)
    assert bus.bus_seconds(100_000) == pytest.approx(clocks / 100_000)
    assert bus.bus_seconds(1_000_000) == pytest.approx(clocks / 1_000_000)
    assert bus.bus_seconds(100_000) == pytest.approx(10 * bus.bus_seconds(1_000_000))
    assert Bus(frequency=1_000_000).frequency == 1_000_000
    assert bus.log == []  # the log is off by default
    bus.reset_counters()
    assert bus.mark() == (0, 0)


# --- hand-built byte streams -----------------------------------------------------------

def test_page_addressing_mode_stream():
    i2c, oled = bare_oled()
    assert oled.addressing_mode == PAGE
    i2c.writeto(0x3C, b"\x00\xb2\x05\x11")  # 0x00: a stream of commands
    assert (oled.page, oled.column) == (2, 0x15)
    i2c.writeto(0x3C, b"\x40\x01\x02\x03")
    assert oled.gddram[2 * 128 + 0x15:2 * 128 + 0x18] == b"\x01\x02\x03"
    i2c.writeto(0x3C, b"\x00\xb5\x0e\x17")  # page 5, column 126
    i2c.writeto(0x3C, b"\x40\xaa\xbb\xcc")  # 126, 127, then back to the start column
    assert (oled.gddram[5 * 128 + 126], oled.gddram[5 * 128 + 127]) == (0xCC, 0xBB)
    assert oled.page == 5


def test_horizontal_mode_wraps_column_then_page_within_the_window():
    i2c, oled = bare_oled()
    i2c.writeto(0x3C, b"\x00\x20\x00\x21\x78\x7f\x22\x06\x07")
    i2c.writeto(0x3C, b"\x40" + bytes(range(1, 18)))  # 16 fill the window, 1 wraps
    assert oled.gddram[6 * 128 + 120] == 17
    assert oled.gddram[6 * 128 + 121:6 * 128 + 128] == bytes(range(2, 9))
    assert oled.gddram[7 * 128 + 120:7 * 128 + 128] == bytes(range(9, 17))
    assert (oled.column, oled.page) == (121, 6)


def test_vertical_mode_wraps_page_then_column():
    i2c, oled = bare_oled()
    i2c.writeto(0x3C, b"\x00\x20\x01\x21\x0a\x0b\x22\x02\x03")
    assert oled.addressing_mode == VERTICAL
    i2c.writeto(0x3C, b"\x40\x01\x02\x03\x04\x05")
    ram = oled.gddram
    assert (ram[2 * 128 + 10], ram[3 * 128 + 10], ram[2 * 128 + 11], ram[3 * 128 + 11]) == (
        5, 2, 3, 4)


def test_co_bit_pairs_mix_commands_and_data_in_one_write():
    i2c, oled = bare_oled()
    # 0x80 command pairs (argument in its own pair), then 0xC0 single data bytes
    i2c.writeto(0x3C, b"\x80\x20\x80\x00\x80\x21\x80\x00\x80\x7f\xc0\x0f\xc0\xf0\x80\xa7")
    assert oled.gddram[0:2] == b"\x0f\xf0" and oled.inverted
    i2c.writeto(0x3C, b"\x80\x81")  # a command's argument may come in the next write
    i2c.writeto(0x3C, b"\x80\x10")
    assert oled.contrast == 0x10
    i2c.writeto(0x3C, b"\xc0\x81\x00\xa5")  # 0xC0: 0x81 is data; 0x00: commands follow
    assert oled.gddram[2] == 0x81 and oled.entire_display_on and oled.contrast == 0x10


def test_hardware_flip_of_a_hand_written_corner():
    i2c, oled = bare_oled()  # power-on: 0xA0 and 0xC0, so the picture is upside down
    i2c.writeto(0x3C, b"\x00\x20\x00\x8d\x14\xaf")
    i2c.writeto(0x3C, b"\x40\x01")  # RAM column 0, row 0
    assert oled.initialized
    assert oled.pixel(127, 63) == 1 and sum(oled.frame()) == 1
    i2c.writeto(0x3C, b"\x00\xa1\xc8")
    assert oled.pixel(0, 0) == 1 and sum(oled.frame()) == 1
    i2c.writeto(0x3C, b"\x00\x41")  # start line 1: RAM row 0 wraps to the bottom line
    assert oled.pixel(0, 63) == 1 and sum(oled.frame()) == 1
    i2c.writeto(0x3C, b"\x00\xa8\x3e")  # mux 63: that bottom line is no longer driven
    assert sum(oled.frame()) == 0


def test_display_off_inverse_and_entire_display_on():
    i2c, oled = bare_oled()
    i2c.writeto(0x3C, b"\x40\xff")
    assert not oled.is_on and not oled.initialized and oled.frame() == bytes(128 * 64)
    i2c.writeto(0x3C, b"\x00\xaf\xa1\xc8")
    assert not oled.initialized  # the charge pump was never enabled
    assert [oled.pixel(0, y) for y in range(10)] == [1] * 8 + [0, 0]
    i2c.writeto(0x3C, b"\x00\xa7")
    assert sum(oled.frame()) == 128 * 64 - 8
    i2c.writeto(0x3C, b"\x00\xa6\xa5")
    assert sum(oled.frame()) == 128 * 64
    i2c.writeto(0x3C, b"\x00\xa4\xae")
    assert sum(oled.frame()) == 0


def test_unknown_commands_are_counted_not_fatal():
    i2c, oled = bare_oled()
    i2c.writeto(0x3C, b"\x00\xff\xd0\x81\x42\x90")
    assert oled.unknown_commands == 3 and oled.contrast == 0x42
    i2c.writeto(0x3C, b"\x00\xe3\xaf")  # NOP is known
    assert oled.unknown_commands == 3 and oled.is_on


def test_text_and_png_renderings(tmp_path):
    i2c, oled = bare_oled()
    i2c.writeto(0x3C, b"\x00\xaf\xa1\xc8")
    i2c.writeto(0x3C, b"\x40\x81")  # column 0: rows 0 and 7
    lines = oled.to_text().splitlines()
    assert len(lines) == 64 and lines[0] == "#" + "." * 127 and lines[7][0] == "#"
    path = tmp_path / "oled.png"
    oled.to_png(path, scale=3)
    with Image.open(path) as image:
        assert image.format == "PNG" and image.size == (384, 192)
        rgb = image.convert("RGB")
        assert min(rgb.getpixel((1, 1))) > 150 and rgb.getpixel((4, 1)) == (0, 0, 0)
    assert oled.to_image(scale=1).size == (128, 64)
