"""Stand-in for CircuitPython's digitalio.DigitalInOut, as an input only: what the firmware
reads of VBUS_SENSE (GP24, high while USB powers the Pico: the bench's contact[24] open)."""
import vmbench as _bench


class DigitalInOut:
    """A GPIO read as an input (the default direction)."""

    def __init__(self, pin):
        _bench.claim(pin)
        self._pin = pin

    def deinit(self):
        """Free the pin."""
        if self._pin is not None:
            _bench.release(self._pin._number)
            self._pin = None

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()

    @property
    def value(self):
        """The pin's level: low while the bench closes its contact (a button pressed, with
        a pull-up; VBUS_SENSE with no USB power)."""
        if self._pin is None:
            raise ValueError("Object has been deinitialized and can no longer be used. "
                             "Create a new object.")
        return not _bench.contact[self._pin._number]
