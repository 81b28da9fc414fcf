"""Opens the SSD1306 OLED on an I2C bus with the real Adafruit driver, waiting (and saying
so on the console) until the bus starts and the display answers at its address.

Without a powered display the bus itself may not start: CircuitPython refuses to open
I2C when SDA and SCL have no pull-up resistors, and those are on the display module.
"""

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from collections.abc import Callable

    import busio

    from hardware.contract import Display


def open_display(make_i2c: "Callable[[], busio.I2C]", address: int, where: str,
                 console: "Callable[[str], None]", sleep: "Callable[[float], None]",
                 retry_s: int = 2) -> "Display":
    """The display; make_i2c() opens the bus, `where` describes the wiring for messages."""
    import i2cdisplaybus
    import adafruit_displayio_ssd1306

    i2c = None
    while True:
        if i2c is None:
            try:
                i2c = make_i2c()
            except (RuntimeError, OSError) as e:
                console("Cannot start I2C on %s (%s). Is the display connected and powered? "
                        "Retrying in %d s." % (where, e, retry_s))
                sleep(retry_s)
                continue
        while not i2c.try_lock():
            pass
        try:
            found = i2c.scan()
        finally:
            i2c.unlock()
        if address in found:
            break
        console("No display at I2C address 0x%02x on %s (found: %s). "
                "Check the wiring and power; retrying in %d s."
                % (address, where, ", ".join(["0x%02x" % a for a in found]) or "nothing",
                   retry_s))
        sleep(retry_s)
    bus = i2cdisplaybus.I2CDisplayBus(i2c, device_address=address)
    return adafruit_displayio_ssd1306.SSD1306(bus, width=128, height=64, auto_refresh=False)
