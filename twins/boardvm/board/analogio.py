"""Stand-in for CircuitPython's analogio.AnalogIn on an RP2040: the ADC's 12 bits on GP26-GP29
as a 16-bit value, the voltage the bench puts on the pin (GP29: a third of vmbench.vsys, others 0 V)."""
import vmbench as _bench


class AnalogIn(_bench.OnePin):
    """An ADC input on GP26-GP29 (ADC0-ADC3)."""

    def __init__(self, pin):
        if not 26 <= pin._number <= 29:
            raise ValueError("Pin does not have ADC capabilities")
        super().__init__(pin)

    @property
    def value(self):
        """The pin's voltage against 3.3 V: the ADC's 12 bits stretched to 16, as the
        RP2040 port does (common-hal/analogio/AnalogIn.c)."""
        self._check()
        mv = _bench.vsys // 3 if self._pin._number == 29 else 0
        raw = min(4095, mv * 4095 // 3300)
        return raw << 4 | raw >> 8

    @property
    def reference_voltage(self):
        """The ADC's reference: the Pico's 3.3 V rail."""
        return 3.3
