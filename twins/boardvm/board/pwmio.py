"""Stand-in for CircuitPython's pwmio.PWMOut on an RP2040 (the piezo's tones)."""
import vmbench as _bench


class PWMOut(_bench.OnePin):
    """PWM on one pin; frequency can change only with variable_frequency=True."""

    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        _check_frequency(frequency)
        _check_duty(duty_cycle)
        super().__init__(pin)
        self._duty = duty_cycle
        self._frequency = frequency
        self._variable = variable_frequency

    @property
    def duty_cycle(self):
        self._check()
        return self._duty

    @duty_cycle.setter
    def duty_cycle(self, value):
        self._check()
        _check_duty(value)
        if value != self._duty:
            _bench.tones += 1
        self._duty = value

    @property
    def frequency(self):
        self._check()
        return self._frequency

    @frequency.setter
    def frequency(self, value):
        self._check()
        if not self._variable:
            raise AttributeError("Cannot change frequency on timer. Frequency is fixed "
                                 "when variable_frequency is False.")
        _check_frequency(value)
        self._frequency = value


def _check_frequency(hz):
    if not 1 <= hz <= 62500000:
        raise ValueError("Invalid PWM frequency")


def _check_duty(duty):
    if not 0 <= duty <= 65535:
        raise ValueError("duty_cycle must be 0-65535")
