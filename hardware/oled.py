"""Opens the SSD1306 OLED on an I2C bus with the real Adafruit driver, waiting (and saying
so on the console) until the display answers at its address."""


def open_display(i2c, address, where, console, sleep, retry_s=2):
    """The display; `where` describes the wiring for the console message."""
    import i2cdisplaybus
    import adafruit_displayio_ssd1306

    while True:
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
