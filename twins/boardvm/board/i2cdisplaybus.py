"""Stand-in for CircuitPython's i2cdisplaybus.I2CDisplayBus: a display on an I2C bus.

Commands go out as (0x80, command) pairs in one write; data as 0x40 then the bytes.
"""


class I2CDisplayBus:
    """The bus a BusDisplay sends its commands and pixels through."""

    def __init__(self, i2c_bus, *, device_address, reset=None):
        if not 0 <= device_address <= 127:
            raise ValueError("device_address must be 0-127")
        self._i2c = i2c_bus
        self._address = device_address

    def reset(self):
        """Pulse the reset pin (there is none here: nothing to do)."""

    def send(self, command, data):
        """Send a command byte, then its data."""
        self._begin()
        try:
            self._send(True, bytes((command,)))
            self._send(False, data)
        finally:
            self._i2c.unlock()

    def _begin(self):
        while not self._i2c.try_lock():
            pass

    def _send(self, is_command, data):
        if is_command:
            out = bytearray(2 * len(data))
            for i in range(len(data)):
                out[2 * i] = 0x80
                out[2 * i + 1] = data[i]
        else:
            out = bytearray(1 + len(data))
            out[0] = 0x40
            out[1:] = data
        try:
            self._i2c._write(self._address, out)
        except OSError:
            pass  # the board's display bus does not raise on a NACK

    def _release(self):
        self._i2c.deinit()
