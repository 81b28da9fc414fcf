"""Stand-in for CircuitPython's busdisplay.BusDisplay (what adafruit_displayio_ssd1306 builds on).

It sends the init sequence, brightness and sleep commands over the bus as the board's C
code does. refresh() does not render pixels in the VM (the desktop twin and the chip twin
measure the pixels and their bytes); the bench draws the glass from the root group on
demand, for comparisons.
"""
from micropython import const

import vmbench as _bench

_W = const(128)


class BusDisplay:
    """A display on a display bus; nothing shows until refresh() with auto_refresh off."""

    def __init__(self, display_bus, init_sequence, *, width, height, colstart=0, rowstart=0,
                 rotation=0, color_depth=16, grayscale=False, pixels_in_byte_share_row=True,
                 bytes_per_cell=1, reverse_pixels_in_byte=False, set_column_command=0x2A,
                 set_row_command=0x2B, write_ram_command=0x2C, backlight_pin=None,
                 brightness_command=None, brightness=1.0, single_byte_bounds=False,
                 data_as_commands=False, auto_refresh=True, native_frames_per_second=60,
                 backlight_on_high=True, SH1107_addressing=False):
        if rotation % 90:
            raise ValueError("Display rotation must be in 90 degree increments")
        self._bus = display_bus
        self._w = width
        self._h = height
        self._rotation = rotation % 360
        self._brightness_command = brightness_command
        self._brightness = brightness
        self._auto_refresh = auto_refresh
        self._root = None
        i = 0
        seq = bytes(init_sequence)
        display_bus._begin()
        try:
            while i < len(seq):
                n = seq[i + 1] & 0x7F
                delay = seq[i + 1] & 0x80
                display_bus._send(True, seq[i:i + 1] + seq[i + 2:i + 2 + n])
                i += 2 + n + (1 if delay else 0)
        finally:
            display_bus._i2c.unlock()
        _bench.display = self

    @property
    def auto_refresh(self):
        return self._auto_refresh

    @auto_refresh.setter
    def auto_refresh(self, value):
        self._auto_refresh = bool(value)

    @property
    def brightness(self):
        return self._brightness

    @brightness.setter
    def brightness(self, value):
        if not 0 <= value <= 1:
            raise ValueError("brightness must be 0.0-1.0")
        self._brightness = value
        if self._brightness_command is not None:
            self._bus._begin()
            try:
                self._bus._send(True, bytes((self._brightness_command, int(0xFF * value))))
            finally:
                self._bus._i2c.unlock()

    @property
    def width(self):
        return self._h if self._rotation % 180 else self._w

    @property
    def height(self):
        return self._w if self._rotation % 180 else self._h

    @property
    def rotation(self):
        return self._rotation

    @rotation.setter
    def rotation(self, value):
        if value % 90:
            raise ValueError("Display rotation must be in 90 degree increments")
        self._rotation = value % 360

    @property
    def bus(self):
        return self._bus

    @property
    def root_group(self):
        return self._root

    @root_group.setter
    def root_group(self, group):
        if group is not None and group._group is not None:
            raise ValueError("Group already used")
        if self._root is not None:
            self._root._group = None
        if group is not None:
            group._group = self
        self._root = group

    def refresh(self, *, target_frames_per_second=None, minimum_frames_per_second=0):
        """Send what changed (counted by the bench); True."""
        _bench.refreshes += 1
        return True

    def fill_row(self, y, buffer):
        """The pixels of row y as the display would show them (RGB565 words)."""
        raise NotImplementedError("fill_row is not modelled in the board VM")

    def _release(self):
        self._bus._release()

    # ---- the bench's glass ----

    def _render_pages(self):
        """The glass as 8 pages x 128 columns of bytes (bit 0 = top pixel), in the bench's
        own buffer (a shot must not take a 1 KB block from the firmware's heap)."""
        fb = _bench.glass
        for i in range(len(fb)):
            fb[i] = 0
        if self._root is not None:
            self._draw(self._root, 0, 0, 1, fb)
        return fb

    def _draw(self, layer, ox, oy, scale, fb):
        """Draw a Group's layers, or a TileGrid, placed from (ox, oy) magnified by scale
        (one method, with no helper: each name is interned in the VM)."""
        if hasattr(layer, "_layers"):  # a Group: its fields, not a subclass's properties
            if not layer._hidden:  # (the C code reads the fields)
                for sub in layer._layers:
                    self._draw(sub, ox + layer._x * scale, oy + layer._y * scale,
                               scale * layer._scale, fb)
            return
        if layer.hidden:
            return
        g, s = layer, scale
        gx, gy = ox + g.x * s, oy + g.y * s
        bmp, pal = g._bitmap, g._shader
        tw, th, gw, gh = g.tile_width, g.tile_height, g.width, g.height
        cols = bmp.width // tw
        w, h = gw * tw, gh * th
        turned = self._rotation == 180
        for cell in range(gw * gh):
            tile = g._tile(cell)
            sx0, sy0 = (tile % cols) * tw, (tile // cols) * th
            cx, cy = (cell % gw) * tw, (cell // gw) * th
            for py in range(th):
                for px in range(tw):
                    v = bmp._get(sx0 + px, sy0 + py)
                    if pal.is_transparent(v):
                        continue
                    lit = pal._lit(v)
                    x, y = cx + px, cy + py
                    if g.flip_x:
                        x = w - 1 - x
                    if g.flip_y:
                        y = h - 1 - y
                    if g.transpose_xy:
                        x, y = y, x
                    for dy in range(s):
                        for dx in range(s):  # a pixel of the glass
                            fx, fy = gx + x * s + dx, gy + y * s + dy
                            if turned:
                                fx, fy = _W - 1 - fx, 63 - fy
                            if 0 <= fx < _W and 0 <= fy < 64:
                                i = (fy >> 3) * _W + fx
                                if lit:
                                    fb[i] |= 1 << (fy & 7)
                                else:
                                    fb[i] &= ~(1 << (fy & 7)) & 0xFF
