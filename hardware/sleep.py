"""The Pico's deep sleep, imported only as the handheld goes to sleep: DORMANT, every clock
stopped, until a key pin goes low (the matrix build wakes on MENU alone: a matrix key joins
two pins, and the rows are not driven while the chip sleeps)."""

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from collections.abc import Callable

    import keypad
    import watchdog


def until_a_key(scanners: "tuple[keypad.Keys | keypad.KeyMatrix | None, ...]",
                dog: "watchdog.WatchDogTimer | None", pins: "list | tuple",
                console: "Callable[[str], None]") -> None:
    """Stop the scanners and the watchdog and sleep until one of pins goes low: the board
    then starts afresh and this does not return. It returns where the board cannot sleep
    (said on the console), the scanners and the watchdog stopped."""
    try:
        import alarm
    except ImportError as e:
        console("deep sleep is not available (%r); the screen stays off instead" % (e,))
        return
    for scanner in scanners:
        if scanner is not None:
            scanner.deinit()  # the pin alarm needs MENU's pin
    if dog is not None:
        dog.mode = None  # stopped (the WatchDogTimer has no deinit)
    try:
        alarm.exit_and_deep_sleep_until_alarms(
            *[alarm.pin.PinAlarm(pin, value=False, pull=True) for pin in pins])
    except Exception as e:  # DeepSleepRequest is a BaseException: it goes on up and sleeps
        console("deep sleep is not available (%r); the screen stays off instead" % (e,))
