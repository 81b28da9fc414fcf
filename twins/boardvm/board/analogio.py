"""Stand-in for CircuitPython's analogio.AnalogIn on an RP2040: the ADC's 12 bits on GP26-GP29
as a 16-bit value, the voltage the bench puts on the pin (GP29: a third of vmbench.vsys, others 0 V)."""
import vmbench as _bench


class AnalogIn:
    """An ADC input on GP26-GP29 (ADC0-ADC3)."""

    def __init__(self, pin):
        if not 26 <= pin._number <= 29:
            raise ValueError("Pin does not have ADC capabilities")
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
        """The pin's voltage against 3.3 V: the ADC's 12 bits stretched to 16, as the
        RP2040 port does (common-hal/analogio/AnalogIn.c)."""
        if self._pin is None:
            raise ValueError("Object has been deinitialized and can no longer be used. "
                             "Create a new object.")
        mv = _bench.vsys // 3 if self._pin._number == 29 else 0
        raw = min(4095, mv * 4095 // 3300)
        return raw << 4 | raw >> 8

    @property
    def reference_voltage(self):
        """The ADC's reference: the Pico's 3.3 V rail."""
        return 3.3
