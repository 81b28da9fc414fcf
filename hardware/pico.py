"""The real handheld: Raspberry Pi Pico (RP2040) + SSD1306 128x64 OLED on I2C, 17 buttons
scanned in the background by keypad.Keys, a piezo on a PWM pin.

Pins and the I2C clock come from settings.toml (os.getenv); a missing or bad value falls
back to the default of hardware/pinmap.py and the console says which. Nothing happens at
import time: code.py calls init().
"""
import os
import sys
import time

import board
import busio
import displayio
import keypad
import microcontroller
import pwmio
import supervisor
from keypad import Event  # noqa: F401  (part of the hardware contract)

from hardware import config, oled
from hardware.keymap import KEYMAP

display = None
keys = None
keymap = KEYMAP
buzzer = None
nvm = None
info = {}  # type: dict


def ticks_ms():
    """Milliseconds on the board's wrapping clock (2**29), as keypad timestamps use."""
    return supervisor.ticks_ms()


def idle():
    """Called at the end of every main-loop pass."""


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


def init():
    """Build the hardware contract's objects; returns this module."""
    global display, keys, buzzer, nvm
    displayio.release_displays()
    cfg = config.read(os.getenv, lambda name: _pin(name) is not None, console)
    info.update(cfg)
    i2c = busio.I2C(_pin(cfg["CS_I2C_SCL"]), _pin(cfg["CS_I2C_SDA"]),
                    frequency=cfg["CS_I2C_HZ"])
    where = "SDA=%s SCL=%s" % (cfg["CS_I2C_SDA"], cfg["CS_I2C_SCL"])
    display = oled.open_display(i2c, cfg["CS_I2C_ADDRESS"], where, console, time.sleep)
    keys = keypad.Keys([_pin(n) for n in config.key_pins(cfg)], value_when_pressed=False,
                       pull=True, interval=cfg["CS_KEY_INTERVAL_MS"] / 1000, max_events=64)
    buzzer = Buzzer(_pin(cfg["CS_PIEZO"]))
    nvm = microcontroller.nvm
    return sys.modules[__name__]
