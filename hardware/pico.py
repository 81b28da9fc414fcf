"""The real handheld: Raspberry Pi Pico (RP2040) + SSD1306 128x64 OLED on I2C, 17 buttons
scanned in the background by keypad.Keys, a piezo on a PWM pin.

Pins and the I2C clock come from settings.toml (os.getenv); a missing or bad value falls
back to the default of hardware/pinmap.py and the console says which. Nothing happens at
import time: code.py calls init().
"""
import os
import sys
import time
import traceback

import board
import busio
import displayio
import keypad
import microcontroller
import pwmio
import supervisor
from keypad import Event  # noqa: F401  (part of the hardware contract)

from hardware import config, oled, pinmap
from hardware.keymap import KEYMAP, DEBOUNCE_SCANS

display = None
keys = None
keymap = KEYMAP
buzzer = None
nvm = None
info = {}  # type: dict
_watchdog = None


def ticks_ms():
    """Milliseconds on the board's wrapping clock (2**29), as keypad timestamps use."""
    return supervisor.ticks_ms()


def idle():
    """Called at the end of every main-loop pass."""


def feed():
    """Feed the watchdog (every main-loop pass): a hang resets the board after 8 s."""
    if _watchdog is not None:
        _watchdog.feed()


def restart():
    """Start code.py again (after the error screen)."""
    supervisor.reload()


def print_exception(error):
    """The traceback on the serial console."""
    traceback.print_exception(error)


def deep_sleep():
    """Sleep until MENU is pressed (the board then starts afresh); False if it cannot."""
    try:
        import alarm
        menu = _pin(info["CS_MENU"])
        if keys is not None:
            keys.deinit()
        if _watchdog is not None:
            _watchdog.deinit()  # a running watchdog would wake the board at once
        alarm.exit_and_deep_sleep_until_alarms(alarm.pin.PinAlarm(menu, value=False, pull=True))
    except (ImportError, NotImplementedError, RuntimeError, ValueError) as e:
        console("deep sleep is not available (%r); the screen stays off instead" % (e,))
    return False


def stop_requested():
    """The board never stops its main loop."""
    return False


def console(text):
    """A line on the serial console."""
    print(text)


def random_seed():
    """A fresh match seed below 2**30 from the hardware RNG (small ints only)."""
    b = os.urandom(4)
    return (b[0] << 22) | (b[1] << 14) | (b[2] << 6) | (b[3] >> 2)


class Buzzer:
    """A piezo on a PWM pin: tone(hz) plays until tone(0)."""

    def __init__(self, pin):
        self.pwm = pwmio.PWMOut(pin, duty_cycle=0, frequency=440, variable_frequency=True)
        self.volume = 0x8000

    def tone(self, hz):
        if hz:
            self.pwm.frequency = hz
            self.pwm.duty_cycle = self.volume
        else:
            self.pwm.duty_cycle = 0


def _pin(name):
    return getattr(board, name, None)


def init(**_options):
    """Build the hardware contract's objects; returns this module."""
    global display, keys, buzzer, nvm, _watchdog
    displayio.release_displays()
    cfg = config.read(os.getenv, lambda name: _pin(name) is not None, console)
    info.update(cfg)
    pins = [cfg["CS_I2C_SDA"], cfg["CS_I2C_SCL"]]

    def make_i2c():
        try:
            return busio.I2C(_pin(pins[1]), _pin(pins[0]), frequency=cfg["CS_I2C_HZ"])
        except ValueError as e:  # not an I2C pair on this board: back to the default pins
            sda, scl = pinmap.default("CS_I2C_SDA"), pinmap.default("CS_I2C_SCL")
            if pins == [sda, scl]:
                raise
            console("settings.toml: SDA=%s SCL=%s cannot be an I2C pair (%s); using %s/%s"
                    % (pins[0], pins[1], e, sda, scl))
            pins[0], pins[1] = sda, scl
            cfg["CS_I2C_SDA"], cfg["CS_I2C_SCL"] = sda, scl
            return busio.I2C(_pin(scl), _pin(sda), frequency=cfg["CS_I2C_HZ"])

    where = "SDA=%s SCL=%s" % (cfg["CS_I2C_SDA"], cfg["CS_I2C_SCL"])
    display = oled.open_display(make_i2c, cfg["CS_I2C_ADDRESS"], where, console, time.sleep)
    keys = keypad.Keys([_pin(n) for n in config.key_pins(cfg)], value_when_pressed=False,
                       pull=True, interval=cfg["CS_KEY_INTERVAL_MS"] / 1000, max_events=64,
                       debounce_threshold=DEBOUNCE_SCANS)
    buzzer = Buzzer(_pin(cfg["CS_PIEZO"]))
    nvm = microcontroller.nvm
    _watchdog = _start_watchdog()
    return sys.modules[__name__]


def _start_watchdog():
    """The RP2040's watchdog in RESET mode (8 s, its longest), or None without one."""
    try:
        from watchdog import WatchDogMode
        wd = microcontroller.watchdog
        if wd is None:
            raise NotImplementedError("this board has no watchdog")
        wd.timeout = 8
        wd.mode = WatchDogMode.RESET
        return wd
    except (ImportError, AttributeError, ValueError, NotImplementedError) as e:
        console("no watchdog (%r): a hang will need a power cycle" % (e,))
        return None
