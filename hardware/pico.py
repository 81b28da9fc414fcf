"""The real handheld: Raspberry Pi Pico (RP2040) + SSD1306 128x64 OLED on I2C, buttons
scanned in the background, a piezo on a PWM pin. The direct build scans 17 buttons with
keypad.Keys; the matrix build (Long Speed) scans 24 with keypad.KeyMatrix (a diode per
key, anodes on the columns) and MENU, on its own pin for the deep sleep's pin alarm, with
a keypad.Keys of its own.

Pins and the I2C clock come from settings.toml (os.getenv); a missing or bad value falls
back to the default of hardware/pinmap.py and the console says which. Nothing happens at
import time: code.py calls init(), once. What only init() needs (the settings reader, the
pin map, the display opener, the matrix build's scanner maker) is imported there and let go
afterwards: about 4 KB of heap; and init() and its own helpers let their code go too, about
1 KB more (a start that fails restarts the board, which imports this module afresh).
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

from hardware.keymap import KEYMAP, MATRIX_KEYMAP, DEBOUNCE_SCANS

if False:  # names for type annotations: mypy reads them, the compiler drops them
    import alarm  # noqa: F401
    import watchdog
    from hardware.contract import Display, Target  # noqa: F401
    from nvm import ByteArray  # noqa: F401

# The hardware objects: None until init() makes them (the contract types them as made).
display = None  # type: Display  # type: ignore[assignment]
keys = None  # type: keypad.Keys | keypad.KeyMatrix  # type: ignore[assignment]
menu_keys = None  # type: keypad.Keys | None  # the matrix build's MENU
scanners = ()  # type: tuple[tuple[keypad.Keys | keypad.KeyMatrix, int], ...]  # (_make_keys)
keymap = KEYMAP
buzzer = None  # type: Buzzer  # type: ignore[assignment]
nvm = None  # type: ByteArray  # type: ignore[assignment]
info = {}  # type: dict
sleep_memory = None  # type: alarm.SleepMemory  # type: ignore[assignment]
_watchdog = None  # type: watchdog.WatchDogTimer | None
# The direct build's key pins in key-number order; the matrix build's rows, columns and MENU
# (hardware/matrix.py).
_key_pins = []  # type: list | tuple


def ticks_ms() -> int:
    """Milliseconds on the board's wrapping clock (2**29), as keypad timestamps use."""
    return supervisor.ticks_ms()


def idle(ms: int) -> None:
    """The end of a main-loop pass: sleep ms. The core waits for interrupts meanwhile
    (time.sleep); the keypad scans on in the background. Each sleep ends spinning out a
    part of a 1 ms tick, about half a millisecond awake, so the app's naps (firmware/app.py:
    100 ms with the screen off, 8 in the menu, 4 or less) are one sleep each. (Float
    constants, made once: a float made in every pass would be garbage.)"""
    while ms >= 100:
        time.sleep(0.1)
        ms -= 100
    while ms >= 8:
        time.sleep(0.008)
        ms -= 8
    while ms >= 4:
        time.sleep(0.004)
        ms -= 4
    if ms == 3:
        time.sleep(0.003)
    elif ms == 2:
        time.sleep(0.002)
    elif ms == 1:
        time.sleep(0.001)


def feed() -> None:
    """Feed the watchdog (every main-loop pass): a hang resets the board after 8 s."""
    if _watchdog is not None:
        _watchdog.feed()


def restart() -> None:
    """Start code.py again (after the error screen)."""
    supervisor.reload()


def print_exception(error: BaseException) -> None:
    """The traceback on the serial console."""
    traceback.print_exception(error)


def deep_sleep() -> bool:
    """Sleep DORMANT until a key is pressed (code.py then starts afresh): on the direct build
    any key, each on its own pin; on the matrix build MENU (hardware/sleep.py, whose code is
    in the heap only then). If the board cannot, it says why and returns False with the keys
    and the watchdog running as before."""
    global _watchdog
    from hardware import sleep
    sleep.until_a_key((keys, menu_keys), _watchdog,
                      _key_pins if keymap is KEYMAP else _key_pins[2:], console)
    _make_keys()
    _watchdog = _start_watchdog()
    return False


_cells = [-1, -1]  # the last reading (% left; -1 on USB power) and its ticks_ms (-1: none)


def cells() -> int:
    """The cells' charge left in % (0-100), or -1 on USB power (VBUS_SENSE high) or with no
    reading: VSYS/3 on GP29 (ADC3), 16 samples averaged, read again only once the last
    reading is 4 s old (cells change over hours), along hardware/cells.py's curve."""
    last = _cells
    now = supervisor.ticks_ms()
    if last[1] >= 0 and (now - last[1]) & 0x1FFFFFFF < 4000:
        return last[0]
    last[0], last[1] = -1, now
    import digitalio
    usb = digitalio.DigitalInOut(_pin("VBUS_SENSE"))
    try:
        if usb.value:
            return -1
    finally:
        usb.deinit()  # (no `with`: CircuitPython's stubs give __exit__ no arguments)
    import analogio  # (on the cells only)
    from hardware.cells import percent
    total = 0
    vsys = analogio.AnalogIn(_pin("VOLTAGE_MONITOR"))
    try:
        for _ in range(16):
            total += vsys.value
    finally:
        vsys.deinit()
    last[0] = percent((total >> 4) * 9900 // 65535)  # (x 3.3 V, the reference, x 3, the divider)
    return last[0]


def stop_requested() -> bool:
    """The board never stops its main loop."""
    return False


def console(text: str) -> None:
    """A line on the serial console."""
    print(text)


def random_seed() -> int:
    """A fresh match seed below 2**30 from the hardware RNG (small ints only)."""
    b = os.urandom(4)
    return (b[0] << 22) | (b[1] << 14) | (b[2] << 6) | (b[3] >> 2)


class Buzzer:
    """A piezo on a PWM pin: tone(hz) plays until tone(0)."""

    def __init__(self, pin: microcontroller.Pin) -> None:
        self.pwm = pwmio.PWMOut(pin, duty_cycle=0, frequency=440, variable_frequency=True)
        self.volume = 0x8000

    def tone(self, hz: int) -> None:
        if hz:
            self.pwm.frequency = hz
            self.pwm.duty_cycle = self.volume
        else:
            self.pwm.duty_cycle = 0


def _pin(name: str) -> microcontroller.Pin:
    return getattr(board, name)


def pin_of(name: str) -> "microcontroller.Pin | None":
    """The pin a GPIO name of the Pico's header (GP0-GP22, GP26-GP28) means on this board;
    None for any other name (A0, LED, board_id, STEMMA_I2C) or one the board lacks."""
    from hardware.pinmap import GP_NAMES
    pin = getattr(board, name, None) if name in GP_NAMES else None
    return pin if isinstance(pin, microcontroller.Pin) else None


def _make_keys() -> None:
    """The key scanner (keys), MENU's own on the matrix build (menu_keys; None on the direct
    build), and both as one (scanners), each with the key number its key 0 has (KMK's way):
    the matrix build's MENU follows the matrix's keys, so it is the keymap's last key and
    nothing else works out where it is."""
    global keys, menu_keys, scanners
    interval = info["CS_KEY_INTERVAL_MS"] / 1000
    if keymap is KEYMAP:
        keys = keypad.Keys(_key_pins, value_when_pressed=False, pull=True, interval=interval,
                           max_events=64, debounce_threshold=DEBOUNCE_SCANS)
        scanners = ((keys, 0),)
        return
    from hardware import matrix  # (names the board has interned already: no new ones)
    keys, menu_keys = matrix.keys(_key_pins, interval)
    scanners = ((keys, 0), (menu_keys, keys.key_count))


def init(**_options: object) -> "Target":
    """Build the hardware contract's objects; returns this module."""
    global display, keymap, buzzer, nvm, sleep_memory, _watchdog
    global _key_pins
    import alarm
    from hardware import config, oled
    displayio.release_displays()
    cfg = config.read(os.getenv, pin_of, console)  # a pin map that can start, whatever it says
    matrix = cfg["CS_KEYS"] == "matrix"
    others = ("CS_KEYS_A", "CS_KEYS_B") if matrix else ("CS_MATRIX_ROWS", "CS_MATRIX_COLUMNS")
    for name in others:  # the other build's key pins: no heap for them
        cfg.pop(name)
    info.update(cfg)
    _clock(cfg["CS_CPU_MHZ"])
    if matrix:
        from hardware import matrix as wiring
        _key_pins = wiring.pins(cfg)
        keymap = MATRIX_KEYMAP
    else:
        _key_pins = [_pin(n) for n in config.key_pins(cfg)]
    info["woke"] = _woken_by_alarm()

    def make_i2c() -> busio.I2C:
        return busio.I2C(_pin(cfg["CS_I2C_SCL"]), _pin(cfg["CS_I2C_SDA"]),
                         frequency=cfg["CS_I2C_HZ"])

    where = "SDA=%s SCL=%s" % (cfg["CS_I2C_SDA"], cfg["CS_I2C_SCL"])
    display = oled.open_display(make_i2c, cfg["CS_I2C_ADDRESS"], where, console, time.sleep)
    _make_keys()
    buzzer = Buzzer(_pin(cfg["CS_PIEZO"]))
    nvm = microcontroller.nvm  # type: ignore[assignment]  # None only on boards without nvm
    sleep_memory = alarm.sleep_memory
    _watchdog = _start_watchdog()
    _unload("config", "oled", "pinmap", "matrix")
    module = sys.modules[__name__]
    for name in _ONCE:  # code run once: it leaves the heap at the next collection
        delattr(module, name)
    return module  # type: ignore[return-value]  # this module is the target


_ONCE = ("init", "pin_of", "_clock", "_woken_by_alarm")  # what only init() runs


def _clock(mhz: int) -> None:
    """The CPU clock settings.toml asks for, before I2C and PWM start (they take their
    timing from it as they start); the console says so if the board cannot."""
    try:
        microcontroller.cpu.frequency = mhz * 1000000
    except (AttributeError, ValueError, NotImplementedError) as e:
        console("the CPU clock cannot be set to %d MHz (%r); it stays as it was" % (mhz, e))


def _unload(*names: str) -> None:
    """Let modules of the hardware package go (their code leaves the heap at the next
    collection); an import brings one back if it is wanted again."""
    import hardware
    for name in names:
        sys.modules.pop("hardware." + name, None)
        if hasattr(hardware, name):
            delattr(hardware, name)


def _woken_by_alarm() -> bool:
    """True when this start is the wake from deep sleep (MENU may still be held)."""
    try:
        import alarm
        return alarm.wake_alarm is not None
    except ImportError:
        return False


def _start_watchdog() -> "watchdog.WatchDogTimer | None":
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
