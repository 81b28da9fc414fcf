"""Stand-in for CircuitPython's digitalio.DigitalInOut, as an input only: what the firmware
reads of VBUS_SENSE (GP24, high while USB powers the Pico: the bench's contact[24] open)."""
import vmbench as _bench


class DigitalInOut(_bench.OnePin):
    """A GPIO read as an input (the default direction)."""

    @property
    def value(self):
        """The pin's level: low while the bench closes its contact (a button pressed, with
        a pull-up; VBUS_SENSE with no USB power)."""
        self._check()
        return not _bench.contact[self._pin._number]
