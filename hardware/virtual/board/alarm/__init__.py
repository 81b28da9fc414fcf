"""Stand-in for CircuitPython's alarm module: deep sleep until a pin alarm.

exit_and_deep_sleep_until_alarms() ends code.py (the bench raises its Reset, a
BaseException, as CircuitPython raises DeepSleepRequest); the bench lets time pass until
the alarm's pin reads its value, then starts code.py afresh with wake_alarm set.
"""
import vmbench as _bench

from alarm import pin

wake_alarm = None


def exit_and_deep_sleep_until_alarms(*alarms, preserve_dios=()):
    """Sleep until one of the alarms fires; the board then starts code.py again."""
    if not alarms:
        raise ValueError("No alarms")
    for a in alarms:
        if not isinstance(a, pin.PinAlarm):
            raise TypeError("Expected an alarm")
        if _bench.claimed[a.pin._number]:
            raise ValueError("GP%d in use" % a.pin._number)
    _bench.sleep_alarm = alarms[0]
    _bench.reset("deep sleep")
