"""Stand-in for CircuitPython's alarm module: deep sleep until a pin alarm, and sleep memory.

exit_and_deep_sleep_until_alarms() ends code.py (the bench raises its Reset, a
BaseException, as CircuitPython raises DeepSleepRequest); the bench lets time pass until
the alarm's pin reads its value, then starts code.py afresh with wake_alarm set.
sleep_memory is the bench's 256 bytes (an RP2040's): kept over every reset and reload,
lost when the power goes.
"""
import vmbench as _bench

from alarm import pin

wake_alarm = None


class SleepMemory:
    """RAM bytes that outlive a reset: len(), int and slice reads and writes of the same
    length (the board's sole instance is alarm.sleep_memory)."""

    def __init__(self):
        raise TypeError("cannot create 'SleepMemory' instances")

    def __bool__(self):
        return len(_bench.sleep_memory) > 0

    def __len__(self):
        return len(_bench.sleep_memory)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return bytearray(_bench.sleep_memory[index])
        return _bench.sleep_memory[index]

    def __setitem__(self, index, value):
        memory = _bench.sleep_memory
        if isinstance(index, slice):
            start, stop, step = index.indices(len(memory))
            if step != 1:
                raise NotImplementedError("only slices with step=1 (aka None) are supported")
            data = bytes(value)
            if len(data) != stop - start:
                raise ValueError("Slice and value different lengths.")
            memory[start:stop] = data
            return
        if not 0 <= value <= 255:
            raise ValueError("Bytes must be between 0 and 255.")
        memory[index] = value


sleep_memory = object.__new__(SleepMemory)


def exit_and_deep_sleep_until_alarms(*alarms, preserve_dios=()):
    """Sleep until one of the alarms fires; the board then starts code.py again."""
    if not alarms:
        raise ValueError("No alarms")
    for a in alarms:
        if not isinstance(a, pin.PinAlarm):
            raise TypeError("Expected an alarm")
        if _bench.claimed[a.pin._number]:
            raise ValueError("GP%d in use" % a.pin._number)
    _bench.sleep_alarms = alarms
    _bench.reset("deep sleep")
