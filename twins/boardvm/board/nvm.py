"""Stand-in for CircuitPython's nvm.ByteArray: microcontroller.nvm, 4,096 bytes of flash.

Reads and writes go to the bench's flash; a write over bytes that are not all erased
(0xFF) erases and reprograms the whole sector, as on the RP2040 (the bench counts both).
"""
import vmbench as _bench


class ByteArray:
    """Non-volatile bytes: len(), int and slice reads and writes of the same length."""

    def __init__(self):
        raise TypeError("cannot create 'ByteArray' instances")

    def __bool__(self):
        return True

    def __len__(self):
        return len(_bench.flash)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return bytearray(_bench.flash[index])
        return _bench.flash[index]

    def __setitem__(self, index, value):
        size = len(_bench.flash)
        if isinstance(index, slice):
            start, stop, step = index.indices(size)
            if step != 1:
                raise NotImplementedError("only slices with step=1 (aka None) are supported")
            data = bytes(value)
            if len(data) != stop - start:
                raise ValueError("Slice and value different lengths.")
        else:
            if index < 0:
                index += size
            if not 0 <= index < size:
                raise IndexError("ByteArray index out of range")
            if not 0 <= value <= 255:
                raise ValueError("Bytes must be between 0 and 255.")
            start, data = index, bytes((value,))
        _bench.flash_write(start, data)
