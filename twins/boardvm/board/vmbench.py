"""The bench around the board in CircuitPython's own VM: the world the stand-ins talk to.

Not a CircuitPython module. The stand-ins in this folder (board, busio, displayio, keypad,
microcontroller, ...) have exactly CircuitPython 10's names; whatever they share lives
here: the clock, the pins (claimed or free, and the buttons' contacts from a key script),
the OLED on the I2C bus, the nvm flash, the watchdog, and the run's counters.

Time: `wall` is milliseconds since the bench started; supervisor.ticks_ms() is
0x1FFF0000 at every power-on (as on a Pico) plus the time since, wrapping at 2**29.
Time moves only at the end of a main-loop pass (see pass_end): pass_ms plus the I2C time
of the bytes the pass sent, so a run is the same on every machine; and while the firmware
sleeps (time.sleep, see sleep), by the time it sleeps. pass_ms is a pass's work and its
nap together: a pass that slept that long or longer takes no more than its sleep.

The key script is read as it is needed (a line at a time, so a long soak costs no heap):
    <wall ms> <gpio> 1|0      the button on GPIO n closes (1) or opens (0)
    <wall ms> <row>.<col> 1|0 the key of a diode matrix between the GPIOs row and col
                              (keypad.KeyMatrix's row and column pins) closes or opens
    <wall ms> shot <name>     print the glass as it is then (after that pass)
    <wall ms> fault           the next read of the key queue raises RuntimeError
    <wall ms> power           switch off and on again (a hard reset; held buttons stay held)
    <wall ms> nvm fail|ok     from now the nvm refuses every write, as CircuitPython does
                              when its flash write fails (RuntimeError), or takes them again
    <wall ms> vsys <volts>    USB unplugged: the cells give VSYS (GP29 reads a third of it,
                              VBUS_SENSE, GP24, low); vsys 0: USB plugged in again (the
                              power-on default): VBUS_SENSE high, VSYS 4.7 V (5 V less the
                              Pico's Schottky diode)
    <wall ms> end             stop the run (raises Stop out of the firmware)
"""
import gc

from micropython import const

import norflash  # twins/models/: the chips' models, beside the stand-ins in the VM
import ssd1306

BOOT_TICKS = const(0x1FFF0000)
_TICKS_MASK = const(0x1FFFFFFF)
PIN_COUNT = const(30)


class Stop(BaseException):
    """The run is over: the bench stops the firmware (not an error)."""


class Reset(BaseException):
    """The chip resets: reload, watchdog, deep sleep. args[0] says why."""


# ---- state (module globals: one bench per VM) ----
wall = 0
boot_wall = 0
pass_ms = 3
i2c_hz = 400000
powered_display = True  # an OLED (with its pull-ups) on the I2C pins
display_address = 0x3C
claimed = bytearray(PIN_COUNT)  # 1 while a pin is in use
# 1 while a button pulls the pin low ([gpio]), or while the matrix key between a row's
# and a column's GPIO is closed ([PIN_COUNT * (1 + row) + column], KeyMatrix.py)
contact = bytearray(PIN_COUNT * (PIN_COUNT + 1))
flash = bytearray(b"\xff" * 4096)  # microcontroller.nvm
sleep_memory = bytearray(256)  # alarm.sleep_memory: RAM that outlives resets, not power-off
flash_writes = 0
flash_erases = 0
vsys = 4700  # VSYS in mV, which the Pico's divider puts a third of on GP29 (analogio)
wd_mode = 0  # 0 stopped, 1 RESET
wd_timeout_ms = 0
wd_fed_wall = 0
fed = False  # fed since the last pass end
passes = 0
passes_since_boot = 0
starved = 0  # passes that ended without a feed while the watchdog ran
worst_feed_gap = 0
bus_bytes = 0  # every byte on the I2C wires, address bytes included
_bus_mark = 0
_slept = 0  # ms slept (time.sleep) since the last pass ended
refreshes = 0
oled = ssd1306.SSD1306()  # the OLED's controller: its registers and GDDRAM
glass = bytearray(1024)  # what a shot draws into
display = None  # the BusDisplay that draws (for shots)
scanners = []  # the keypad.Keys that scan in the background (while time.sleep waits)
_display_pins = ()  # the pins its bus held when the last process ended
exceptions = []  # repr of every exception the firmware printed
_next_minute = 60000
script = None  # the key script file
_next = None  # the next script line, split
_lines = 0  # script lines read (the one in _next included)
fault = False  # the key script's fault: the next read of the key queue raises
stop_at = -1  # the wall time a run stops at (-1: the script's end)
tones = 0  # PWM tone changes
sleep_alarms = ()  # the pin alarms a deep sleep waits for (any one wakes it)
boots = 0


def ticks():
    """supervisor.ticks_ms(): the board's clock."""
    return (BOOT_TICKS + wall - boot_wall) & _TICKS_MASK


def note(text):
    """Something worth reporting happened (kept, and printed for the host)."""
    print("BENCH event %d %s" % (wall, text))


def open_script(path, end=-1):
    """Read contact changes and commands from a key script file, from where the last
    process stopped; the run stops at wall time end (-1: at the script's end)."""
    global script, stop_at, _lines
    script = open(path)
    stop_at = end
    skip, _lines = _lines, 0
    while _lines < skip and script.readline():
        _lines += 1
    _read_next()


def _read_next():
    global _next, _lines
    _next = None
    while script is not None:
        line = script.readline()
        if not line:
            return
        _lines += 1
        words = line.split()
        if words and not words[0].startswith("#"):
            _next = words
            _next[0] = int(_next[0])
            return


def next_change():
    """Wall time of the next scripted contact change or command; -1 if none."""
    return -1 if _next is None else _next[0]


def load_state(path):
    """The bench as the last process left it; returns why that process ended."""
    global flash, contact, _display_pins, sleep_memory
    try:
        f = open(path)
    except OSError:
        return "power on"
    with open(path + ".flash", "rb") as g:
        flash = bytearray(g.read())
    why = "power on"
    with f:
        for line in f:
            k, v = line.rstrip("\n").split(" ", 1)
            if k == "contact":
                contact = bytearray(bytes.fromhex(v))
            elif k == "display_pins":
                _display_pins = tuple([int(n) for n in v.split()])
            elif k == "sleep_memory":
                sleep_memory = bytearray(bytes.fromhex(v))
            elif k == "oled":  # the OLED kept its registers through the board's reset
                oled.reg[:] = bytes.fromhex(v)
            elif k == "why":
                why = v
            else:
                globals()[k] = int(v)
    if why == "power cycle":  # the power went: RAM is lost
        sleep_memory = bytearray(256)
    return why


def save_state(path, why):
    """Write what the next process needs to go on."""
    with open(path + ".flash", "wb") as f:
        f.write(flash)
    with open(path, "w") as f:
        for k in ("wall", "boot_wall", "passes", "starved", "worst_feed_gap", "boots", "refreshes",
                  "bus_bytes", "flash_writes", "flash_erases", "tones", "_next_minute", "_rng",
                  "vsys"):
            f.write("%s %d\n" % (k, int(globals()[k])))
        f.write("_lines %d\n" % (_lines - (_next is not None)))  # the pending line again
        f.write("contact")  # (no new name: the VM's interned names are nearly full)
        f.write(" ")
        for b in contact:  # (a byte at a time, as below)
            f.write("%02x" % b)
        f.write("\nsleep_memory ")
        for b in sleep_memory:  # (a byte at a time: the firmware's heap may be nearly full)
            f.write("%02x" % b)
        f.write("\noled ")
        for b in oled.reg:
            f.write("%02x" % b)
        f.write("\n")
        pins = display._bus._i2c._pins if display is not None and display._bus._i2c._pins else ()
        f.write("display_pins %s\n" % " ".join([str(n) for n in pins]))
        f.write("why %s\n" % why)


def apply_until(t):
    """Apply every scripted contact change up to wall time t (commands wait for pass_end)."""
    # (a slice, not what[0]: the VM interns a str's indexed character as a name, one more
    # the board would not have, and a block of names fills at a few more: see names())
    while _next is not None and _next[0] <= t and _next[1][:1].isdigit():
        what = _next[1]
        dot = what.find(".")  # a matrix key: row.column
        contact[int(what) if dot < 0 else
                PIN_COUNT * (1 + int(what[:dot])) + int(what[dot + 1:])] = _next[2] == "1"
        _read_next()


def _commands():
    global fault, vsys
    while True:
        apply_until(wall)
        if _next is None or _next[0] > wall:
            return
        what = _next[1]
        if what == "shot":
            shot(_next[2])
        elif what == "fault":
            fault = True
        elif what == "power":
            _read_next()
            reset("power cycle")
        elif what == "nvm":
            _nvm_refuses[0] = _next[2] == "fail"
        elif what == "vsys":  # (VBUS_SENSE reads GP24's contact: closed, it reads low)
            mv = int(float(_next[2]) * 1000 + 0.5)
            contact[24] = mv > 0
            vsys = mv or 4700
        elif what == "end":
            raise Stop("end of script")
        else:  # a typo in a script would otherwise run on for ever
            raise Stop("unknown key script command %r at %d ms" % (what, _next[0]))
        _read_next()


def check_fault():
    """Raise the scripted fault, once."""
    global fault
    if fault:
        fault = False
        note("fault injected")
        raise RuntimeError("bench fault: injected by the key script")


def pass_end():
    """The key queue ran dry: the end of a main-loop pass. Time moves on here."""
    global passes, fed, starved, wall, _bus_mark, _next_minute, worst_feed_gap, passes_since_boot
    global _slept
    passes += 1
    passes_since_boot += 1
    if wd_mode:
        if not fed:
            starved += 1
        gap = wall - wd_fed_wall
        if gap > worst_feed_gap:
            worst_feed_gap = gap
    fed = False
    if passes == 1:  # the app is built and its first pass is done
        gc.collect()
        print("BENCH heap after_app %d" % gc.mem_alloc())
    if passes_since_boot == 1:
        names("started")
    bus = bus_bytes - _bus_mark
    _bus_mark = bus_bytes
    work = pass_ms - _slept  # (pass_ms is a pass's work and its nap: a nap up to as long
    _slept = 0  # is in it, a longer one is its own length)
    wall += (work if work > 0 else 0) + (bus * 9 * 1000 + i2c_hz - 1) // i2c_hz
    if wd_mode and wall - wd_fed_wall > wd_timeout_ms:
        reset("watchdog")
    if wall >= _next_minute:
        _next_minute += 60000
        gc.collect()
        print("BENCH heap_minute %d %d" % (wall // 60000, gc.mem_alloc()))
    if stop_at >= 0 and wall >= stop_at:
        raise Stop("time is up")
    _commands()


def sleep(ms):
    """time.sleep(): the CPU waits ms while time passes, as in pass_end but with no pass:
    the background keypad scans go on, the script's contact changes and commands come at
    their times, and a watchdog that is not fed meanwhile resets the board when it runs out."""
    global wall, _slept
    _slept += ms
    end = wall + ms
    while True:
        t = next_change()
        t = end if t < 0 or t > end else max(t, wall)
        if stop_at >= 0 and stop_at < t:
            t = max(wall, stop_at)
        if wd_mode and wd_fed_wall + wd_timeout_ms + 1 < t:
            t = max(wall, wd_fed_wall + wd_timeout_ms + 1)
        for keys in scanners:
            keys._scan_until(t)
        wall = t
        if wd_mode and wall - wd_fed_wall > wd_timeout_ms:
            reset("watchdog")
        if stop_at >= 0 and wall >= stop_at:
            raise Stop("time is up")
        _commands()
        if wall >= end:
            return


def names(when):
    """How many blocks of interned names (qstr pools) the VM holds: a BENCH line, then the
    VM's own "qstr pool: n_pool=..." line. A block added after start-up needs a large
    piece of a heap that is by then in pieces. The blocks double: 20, 40, ... 640 names,
    1,260 in six; the seventh, for 1,280, is 9 KB. The VM's count holds the bench's names
    too (about 420 at boot: the stand-ins', their files'), which the board has in flash
    or not at all, so the bench keeps its own few: its options come from a file, not the
    command line (whose words the VM interns), and it indexes no character out of a str
    (the VM interns that character), which would add a name mid-run."""
    import micropython
    print("BENCH names %s" % when)
    micropython.qstr_info()


def sleep_until_pin(alarms):
    """Deep sleep: time passes until the button on one alarm's pin reads its value; False
    if none ever does."""
    global wall
    while True:
        apply_until(wall)
        if any((0 if contact[a.pin._number] else 1) == a.value for a in alarms):
            return True
        t = next_change()
        if t < 0:
            return False
        if wd_mode and t - wd_fed_wall > wd_timeout_ms:
            wall = wd_fed_wall + wd_timeout_ms + 1
            reset("watchdog during deep sleep")
        wall = t


def reset(why):
    """The chip resets now."""
    note("reset: " + why)
    raise Reset(why)


def power_on(hard):
    """code.py starts again: the watchdog is off and pins are free. After a hard reset the
    clock starts again at its boot value; after a reload the display and its bus live on
    (their pins stay in use until displayio.release_displays(), as on the board)."""
    global boot_wall, wd_mode, fed, display, boots, passes_since_boot
    wd_mode = 0
    fed = False
    boots += 1
    passes_since_boot = 0
    if hard:
        boot_wall = wall
    for i in range(PIN_COUNT):
        claimed[i] = 0
    if not hard:  # the display bus, kept running by the supervisor, still holds its pins
        for i in _display_pins:
            claimed[i] = 1


def claim(pin):
    """A pin is taken by an object; ValueError('GPn in use') if it already is."""
    if claimed[pin._number]:
        raise ValueError("GP%d in use" % pin._number)
    claimed[pin._number] = 1


def release(number):
    """A pin (its GPIO number) is free again."""
    claimed[number] = 0


class OnePin:
    """What the stand-ins holding one pin share (pwmio.PWMOut, analogio.AnalogIn,
    digitalio.DigitalInOut): the pin claimed while held, deinit(), with, and the board's
    error once deinited."""

    def __init__(self, pin):
        claim(pin)
        self._pin = pin

    def deinit(self):
        """Free the pin."""
        if self._pin is not None:
            release(self._pin._number)
            self._pin = None

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()

    def _check(self):
        if self._pin is None:
            raise ValueError("Object has been deinitialized and can no longer be used. "
                             "Create a new object.")


def feed():
    global fed, wd_fed_wall
    fed = True
    wd_fed_wall = wall


# ---- the I2C bus and the OLED ----

def i2c_devices():
    return (display_address,) if powered_display else ()


def i2c_write(address, buf):
    """A write transaction; False (NACK) when nobody answers at address."""
    global bus_bytes
    bus_bytes += 1 + len(buf)  # the address byte, then the data
    if not powered_display or address != display_address:
        return False
    oled.write(buf)
    return True


out_dir = ""  # where shots and nvm snapshots go (the host reads them)


def shot(name):
    """Save the glass (what the current root group shows) as 8 pages x 128 bytes."""
    if display is None:
        note("shot %s: no display" % name)
        return
    with open("%s/shot-%s.bin" % (out_dir, name), "wb") as f:
        f.write(display._render_pages())
    note("shot %s" % name)


# ---- the nvm flash ----

_nvm_refuses = [False]  # the script's "nvm fail": writes raise, nothing is written


def flash_write(start, data):
    """The RP2040's nvm write: it programs bytes that are all erased; over anything else
    it erases the 4 KB sector and programs it again with the new bytes in place, which
    leaves what a plain overwrite leaves (and takes no 4 KB copy from the heap)."""
    global flash_writes, flash_erases
    if _nvm_refuses[0]:
        raise RuntimeError("Unable to write to nvm.")  # (shared-bindings/nvm/ByteArray.c)
    flash_writes += 1
    if norflash.erased(flash, start, start + len(data)):
        norflash.program_all(flash, start, data)
    else:
        flash_erases += 1
        flash[start:start + len(data)] = data
    with open("%s/nvm-%d.bin" % (out_dir, flash_writes), "wb") as f:
        f.write(flash)  # the host checks that every one of them parses


# ---- settings.toml and randomness ----

settings_path = ""
_rng = 12345


def setting(key, default=None):
    """CircuitPython 10's os.getenv: the value text of `key = value` in settings.toml."""
    try:
        f = open(settings_path)
    except OSError:
        return default
    with f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#") or "=" not in line:
                continue
            k, v = line.split("=", 1)
            if k.strip() != key:
                continue
            v = v.strip()
            if v[:1] == '"':
                end = v.find('"', 1)
                return v[1:end] if end > 0 else default
            return v.split("#", 1)[0].strip()
    return default


def random_bytes(size):
    """Bytes from a seeded generator (the board's come from its ring oscillator)."""
    global _rng
    out = bytearray(size)
    for i in range(size):
        _rng = (_rng * 1103515245 + 12345) & 0x3FFFFFFF
        out[i] = _rng >> 22
    return bytes(out)
