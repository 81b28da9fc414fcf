"""Stand-in for CircuitPython's displayio core objects: Bitmap, Palette, TileGrid, Group.

Each keeps its pixels or tile indices in a buffer the size of the board's (a Bitmap in
32-bit words per row, a TileGrid's indices in bytes), so heap figures in the VM mean
something. Drawing happens in busdisplay (the bench's glass); nothing here renders.
"""
import array

from micropython import const

import vmbench as _bench


class Bitmap:
    """A width x height grid of values 0..value_count-1."""

    def __init__(self, width, height, value_count):
        if not 0 <= width <= 32767 or not 0 <= height <= 32767:
            raise ValueError("width and height must be 0-32767")
        if not 1 <= value_count <= 65536:
            raise ValueError("value_count must be 1-65536")
        bits = 1
        while (value_count - 1) >> bits:
            bits = bits * 2 if bits < 8 else bits + 8
        self._w = width
        self._h = height
        self._bits = bits
        self._stride = (width * bits + 31) // 32 * 4  # bytes per row, in whole words
        self._data = bytearray(self._stride * height)

    @property
    def width(self):
        return self._w

    @property
    def height(self):
        return self._h

    @property
    def bits_per_value(self):
        return self._bits

    def _at(self, index):
        """The bit offset of a pixel, from a linear index or (x, y). An int, not a tuple:
        the board's C code allocates nothing for a pixel, and neither does this."""
        if isinstance(index, int):
            if not 0 <= index < self._w * self._h:
                raise IndexError("index must be 0-%d" % (self._w * self._h - 1))
            x = index % self._w
            y = index // self._w
        else:
            x, y = index
            if not 0 <= x < self._w:
                raise IndexError("x must be 0-%d" % (self._w - 1))
            if not 0 <= y < self._h:
                raise IndexError("y must be 0-%d" % (self._h - 1))
        return y * self._stride * 8 + x * self._bits

    def __getitem__(self, index):
        return self._get_at(self._at(index))

    def _get(self, x, y):
        return self._get_at(y * self._stride * 8 + x * self._bits)

    def _get_at(self, at):
        bits = self._bits
        if bits >= 8:
            v = 0
            for i in range(bits // 8):
                v |= self._data[at // 8 + i] << (8 * i)
            return v
        return (self._data[at >> 3] >> (at & 7)) & ((1 << bits) - 1)

    def __setitem__(self, index, value):
        if value is None:
            raise AttributeError("Cannot delete values")
        at = self._at(index)
        bits = self._bits
        if not 0 <= value < 1 << bits:
            raise ValueError("value must be 0-%d" % ((1 << bits) - 1))
        if bits >= 8:
            for i in range(bits // 8):
                self._data[at // 8 + i] = (value >> (8 * i)) & 0xFF
            return
        mask = ((1 << bits) - 1) << (at & 7)
        b = self._data[at >> 3]
        self._data[at >> 3] = (b & ~mask & 0xFF) | (value << (at & 7))

    def fill(self, value):
        """Every pixel to value."""
        if not 0 <= value < 1 << self._bits:
            raise ValueError("value must be 0-%d" % ((1 << self._bits) - 1))
        for y in range(self._h):
            for x in range(self._w):
                self[x, y] = value

    def dirty(self, x1=0, y1=0, x2=-1, y2=-1):
        """Mark an area changed by writes through a buffer (nothing to do here)."""

    def deinit(self):
        """Free the pixels."""
        self._data = bytearray(0)


class Palette:
    """Colours by index, 16 bytes each as the board keeps them (r, g, b, ..., transparent)."""

    def __init__(self, color_count, *, dither=False):
        if not 1 <= color_count <= 32767:
            raise ValueError("color_count must be 1-32767")
        self._colors = bytearray(16 * color_count)
        self.dither = dither

    def __bool__(self):
        return True

    def __len__(self):
        return len(self._colors) // 16

    def _at(self, index):
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("index out of range")
        return index * 16

    def __getitem__(self, index):
        i = self._at(index)
        c = self._colors
        return c[i] << 16 | c[i + 1] << 8 | c[i + 2]

    def __setitem__(self, index, value):
        i = self._at(index)
        if isinstance(value, int):
            if not 0 <= value <= 0xFFFFFF:
                raise TypeError("color must be between 0x000000 and 0xffffff")
            rgb = (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
        else:
            rgb = tuple(value)[:3]
        self._colors[i], self._colors[i + 1], self._colors[i + 2] = rgb

    def _index(self, palette_index):
        if not 0 <= palette_index < len(self):
            raise ValueError("palette_index must be 0-%d" % (len(self) - 1))
        return palette_index * 16 + 15

    def make_transparent(self, palette_index):
        self._colors[self._index(palette_index)] = 1

    def make_opaque(self, palette_index):
        self._colors[self._index(palette_index)] = 0

    def is_transparent(self, palette_index):
        return self._colors[self._index(palette_index)] == 1

    def _lit(self, index):
        """True when colour index lights a 1-bit grayscale pixel (luma >= 128, as the C code)."""
        i = index * 16
        c = self._colors
        return (c[i] * 19 + c[i + 1] * 182 + c[i + 2] * 54) // 255 >= 128


_X = const(0)  # TileGrid._n: int16 x, y, then uint16 fields, as the C struct keeps them
_Y = const(1)
_GW = const(2)
_GH = const(3)
_TW = const(4)
_TH = const(5)
_COUNT = const(6)  # tiles in the bitmap
_FLAGS = const(7)
_HIDDEN = const(1)
_FLIP_X = const(2)
_FLIP_Y = const(4)
_TRANSPOSE = const(8)
_WIDE = const(16)  # a tile index takes 2 bytes (more than 255 tiles in the bitmap)


class TileGrid:
    """A grid of tiles cut from a Bitmap, drawn with a Palette.

    Kept about as small as the board's C struct: the numbers in one array, the tile
    indices inline (an int) for up to 4 one-byte tiles, else in their own buffer."""

    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None,
                 tile_height=None, default_tile=0, x=0, y=0):
        if not isinstance(bitmap, Bitmap):
            raise TypeError("unsupported bitmap type")
        if not isinstance(pixel_shader, Palette):
            raise TypeError("unsupported pixel_shader type")
        tw = tile_width or bitmap.width
        th = tile_height or bitmap.height
        if bitmap.width % tw:
            raise ValueError("Tile width must exactly divide bitmap width")
        if bitmap.height % th:
            raise ValueError("Tile height must exactly divide bitmap height")
        count = (bitmap.width // tw) * (bitmap.height // th)
        wide = count > 255
        self._bitmap = bitmap
        self._shader = pixel_shader
        self._group = None
        self._n = array.array("h", (x, y, width, height, tw, th, count, _WIDE if wide else 0))
        cells = width * height
        self._t = 0 if cells <= (2 if wide else 4) else bytearray(cells * (2 if wide else 1))
        for i in range(cells):
            self._put(i, default_tile)

    def _flag(self, bit):
        return bool(self._n[_FLAGS] & bit)

    def _set_flag(self, bit, on):
        self._n[_FLAGS] = self._n[_FLAGS] | bit if on else self._n[_FLAGS] & ~bit

    @property
    def hidden(self):
        return self._flag(_HIDDEN)

    @hidden.setter
    def hidden(self, value):
        self._set_flag(_HIDDEN, value)

    @property
    def flip_x(self):
        return self._flag(_FLIP_X)

    @flip_x.setter
    def flip_x(self, value):
        self._set_flag(_FLIP_X, value)

    @property
    def flip_y(self):
        return self._flag(_FLIP_Y)

    @flip_y.setter
    def flip_y(self, value):
        self._set_flag(_FLIP_Y, value)

    @property
    def transpose_xy(self):
        return self._flag(_TRANSPOSE)

    @transpose_xy.setter
    def transpose_xy(self, value):
        self._set_flag(_TRANSPOSE, value)

    @property
    def x(self):
        return self._n[_X]

    @x.setter
    def x(self, value):
        self._n[_X] = value

    @property
    def y(self):
        return self._n[_Y]

    @y.setter
    def y(self, value):
        self._n[_Y] = value

    @property
    def width(self):
        return self._n[_GW]

    @property
    def height(self):
        return self._n[_GH]

    @property
    def tile_width(self):
        return self._n[_TW]

    @property
    def tile_height(self):
        return self._n[_TH]

    @property
    def bitmap(self):
        return self._bitmap

    @property
    def pixel_shader(self):
        return self._shader

    def contains(self, touch_tuple):
        """True when (x, y, ...) lies within the grid's area."""
        n = self._n
        x, y = touch_tuple[0], touch_tuple[1]
        return n[_X] <= x < n[_X] + n[_GW] * n[_TW] and n[_Y] <= y < n[_Y] + n[_GH] * n[_TH]

    def _cell_at(self, index):  # (a name the firmware has: each new one is interned in the VM)
        gw, gh = self._n[_GW], self._n[_GH]
        if isinstance(index, int):
            x, y = index % gw, index // gw
        else:
            x, y = index
        if not 0 <= x < gw or not 0 <= y < gh:
            raise IndexError("Tile index out of bounds")
        return y * gw + x

    def _put(self, i, tile):
        t = self._t
        if isinstance(t, int):
            shift = 8 * i
            self._t = (t & ~(0xFF << shift)) | (tile << shift) if not self._n[_FLAGS] & _WIDE \
                else (t & ~(0xFFFF << 2 * shift)) | (tile << 2 * shift)
        elif self._n[_FLAGS] & _WIDE:
            t[2 * i], t[2 * i + 1] = tile & 0xFF, tile >> 8
        else:
            t[i] = tile

    def _tile(self, i):
        t = self._t
        if isinstance(t, int):
            return (t >> 16 * i) & 0xFFFF if self._n[_FLAGS] & _WIDE else (t >> 8 * i) & 0xFF
        if self._n[_FLAGS] & _WIDE:
            return t[2 * i] | t[2 * i + 1] << 8
        return t[i]

    def __getitem__(self, index):
        return self._tile(self._cell_at(index))

    def __setitem__(self, index, value):
        i = self._cell_at(index)
        if value is None:
            raise TypeError("'TileGrid' object doesn't support item assignment")
        if not 0 <= value < self._n[_COUNT]:
            raise ValueError("tile must be 0-%d" % (self._n[_COUNT] - 1))
        self._put(i, value)


class Group:
    """Layers drawn in order (the last on top), moved by x, y and magnified by scale."""

    def __init__(self, *, scale=1, x=0, y=0):
        if scale < 1:
            raise ValueError("scale must be >= 1")
        self._layers = []
        # The fields themselves, as the C code sets them: a subclass's properties of the
        # same names (adafruit_display_text's scale) are not called from here.
        self._scale = scale
        self._x = x
        self._y = y
        self._hidden = False
        self._group = None

    @property
    def hidden(self):
        return self._hidden

    @hidden.setter
    def hidden(self, value):
        self._hidden = bool(value)

    @property
    def scale(self):
        return self._scale

    @scale.setter
    def scale(self, value):
        if value < 1:
            raise ValueError("scale must be >= 1")
        self._scale = value

    @property
    def x(self):
        return self._x

    @x.setter
    def x(self, value):
        self._x = value

    @property
    def y(self):
        return self._y

    @y.setter
    def y(self, value):
        self._y = value

    def _adopt(self, layer):
        if not isinstance(layer, (Group, TileGrid)):
            raise ValueError("Layer must be a Group or TileGrid subclass")
        if layer._group is not None:
            raise ValueError("Layer already in a group")
        layer._group = self

    def append(self, layer):
        self._adopt(layer)
        self._layers.append(layer)

    def insert(self, index, layer):
        self._adopt(layer)
        self._layers.insert(index, layer)

    def index(self, layer):
        return self._layers.index(layer)

    def pop(self, i=-1):
        layer = self._layers.pop(i)
        layer._group = None
        return layer

    def remove(self, layer):
        self.pop(self._layers.index(layer))

    def __bool__(self):
        return bool(self._layers)

    def __contains__(self, item):
        return item in self._layers

    def __iter__(self):
        return iter(self._layers)

    def __len__(self):
        return len(self._layers)

    def __getitem__(self, index):
        return self._layers[index]

    def __setitem__(self, index, value):
        self._adopt(value)
        self._layers[index]._group = None
        self._layers[index] = value

    def __delitem__(self, index):
        self.pop(index)

    def sort(self, key, reverse):
        self._layers.sort(key=key, reverse=reverse)


def release_displays():
    """Release every display and its bus (their pins are free again), the one a reload
    left running included."""
    d = _bench.display
    if d is not None:
        d._release()
        _bench.display = None
    for n in _bench._display_pins:
        _bench.release(n)
    _bench._display_pins = ()
