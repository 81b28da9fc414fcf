"""Stand-in for CircuitPython's busio.I2C on an RP2040 (the OLED's bus).

SDA and SCL must be a pair of one I2C block (SDA on GPIO 4k or 4k+2, SCL on the next
pin); the constructor checks for pull-ups (they are on the OLED module) as the RP2040
port does. The devices are the bench's: an SSD1306 at its address while it is powered.
"""
import sys

import vmbench as _bench

_DEINITED = "Object has been deinitialized and can no longer be used. Create a new object."


class I2C:
    """A two-wire bus; lock it (try_lock) before scan, writeto and readfrom_into."""

    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        s, c = sda._number, scl._number
        if s % 2 or c != s + 1 or s > 27:
            raise ValueError("Invalid pins")
        if frequency < 1 or frequency > 1000000:
            raise ValueError("Unsupported baudrate")
        if _bench.claimed[s] or _bench.claimed[c]:
            raise ValueError("GP%d in use" % (s if _bench.claimed[s] else c))
        if not _bench.powered_display:
            raise RuntimeError("No pull up found on SDA or SCL; check your wiring")
        _bench.claim(sda)
        _bench.claim(scl)
        _bench.i2c_hz = frequency
        self._pins = (s, c)
        self._locked = False

    def deinit(self):
        """Free the pins."""
        if self._pins is not None:
            for n in self._pins:
                _bench.release(n)
            self._pins = None

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()

    def _check(self, locked=True):
        if self._pins is None:
            raise ValueError(_DEINITED)
        if locked and not self._locked:
            raise RuntimeError("Function requires lock")

    def probe(self, address):
        """True when a device answers at address."""
        self._check()
        return address in _bench.i2c_devices()

    def scan(self):
        """The addresses that answer."""
        self._check()
        return list(_bench.i2c_devices())

    def try_lock(self):
        """Take the bus; False if it is already taken."""
        self._check(False)
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        """Release the bus."""
        self._check(False)
        self._locked = False

    def readfrom_into(self, address, buffer, *, start=0, end=sys.maxsize):
        """Read into buffer[start:end] (the SSD1306 answers its status byte, 0)."""
        self._check()
        if address not in _bench.i2c_devices():
            raise OSError(19)
        end = min(end, len(buffer))
        for i in range(start, end):
            buffer[i] = 0

    def writeto(self, address, buffer, *, start=0, end=sys.maxsize):
        """Write buffer[start:end] to the device at address."""
        self._check()
        self._write(address, memoryview(buffer)[start:min(end, len(buffer))])

    def writeto_then_readfrom(self, address, out_buffer, in_buffer, *, out_start=0,
                              out_end=sys.maxsize, in_start=0, in_end=sys.maxsize):
        """A write, then a read with a repeated start."""
        self.writeto(address, out_buffer, start=out_start, end=out_end)
        self.readfrom_into(address, in_buffer, start=in_start, end=in_end)

    def _write(self, address, data):
        if not _bench.i2c_write(address, data):
            raise OSError(19)
