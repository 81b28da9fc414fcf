"""Stand-in for CircuitPython's alarm.pin: PinAlarm."""


class PinAlarm:
    """Wake when pin reads value (edge: on a change to value; pull: the pull towards not value)."""

    def __init__(self, pin, *, value, edge=False, pull=False):
        self._pin = pin
        self._value = bool(value)
        self._edge = edge
        self._pull = pull

    @property
    def pin(self):
        return self._pin

    @property
    def value(self):
        return self._value
