"""The virtual handheld (desktop only): the firmware's hardware contract on a desktop.

The real Adafruit displayio (Blinka) and SSD1306 driver send real bytes over a virtual
I2C bus to a decoded SSD1306 (what the glass would show, and every byte counted); a
virtual key scanner gives the board's EventQueue semantics and timestamps; the buzzer,
nvm and clock are stand-ins. Two clocks: simulated (deterministic: each main-loop pass
takes pass_ms, its work and its nap, plus the I2C time of the bytes it sent) or real time
(for play).

The firmware's keys, nvm and i2c have only their CircuitPython names; tests and front
ends work them through their test drivers: buttons (Buttons), flash (Flash), bus (Bus).
"""
import contextlib
import io
import os
import random
import stat
import time

with contextlib.redirect_stdout(io.StringIO()):
    # Blinka's board detection prints a note that a PC is not a supported board.
    import microcontroller  # noqa: F401
    import displayio
# Blinka refreshes displays from a thread of its own; the handheld's never refresh by
# themselves (auto_refresh=False, as on the board), and the thread can meet a display
# half made (Blinka lists it before its __init__ has run: AttributeError '_auto_refresh').
displayio._stop_background()

from engine.rng import SEED_MAX
from engine.ticks import TICKS_MAX, ticks_add, ticks_diff
from hardware import cells as gauge, config, oled, pinmap
from tools.files import write_atomic
from hardware.keymap import KEYMAP, KEY_COUNT, MATRIX_KEYMAP, DEBOUNCE_SCANS
from twins.models.flashchip import erase_part
from twins.models.norflash import erase, erased, program_all
from twins.desktop.keypad import (Buttons, Event, SimClock, VirtualKeyMatrix,
                                     VirtualKeys)
from twins.desktop.ssd1306 import Bus, VirtualSSD1306

NVM_SIZE = 4096


# supervisor.ticks_ms() at power-on: the board's clock wraps 65.5 s later, in the first game.
BOOT_TICKS = 0x1FFF0000


def _pin_of(name):
    """The pin a settings.toml name means on a Pico: its own name, for the header's GPIOs."""
    return name if name in pinmap.GP_NAMES else None


class RealClock:
    """ticks_ms from the desktop's monotonic clock, from `start`, wrapping at 2**29 like
    the board's."""

    def __init__(self, start=BOOT_TICKS):
        self._t0 = time.monotonic()
        self._start = start

    @property
    def elapsed(self):
        """Milliseconds since the clock was made."""
        return int((time.monotonic() - self._t0) * 1000)

    @property
    def now(self):
        return (self._start + self.elapsed) & TICKS_MAX

    def __call__(self):
        return self.now


class Buzzer:
    """Records tones instead of playing them: log holds (ticks_ms, hz), newest last."""

    def __init__(self, clock, keep=256):
        self.clock = clock
        self.hz = 0
        self.log = []
        self._keep = keep

    def tone(self, hz):
        self.hz = hz
        self.log.append((self.clock(), hz))
        if len(self.log) > self._keep:
            del self.log[0]


class PowerCut(Exception):
    """A simulated power cut (Flash.cut_power_after) interrupted an nvm write."""


class NVM:
    """`nvm.ByteArray` (microcontroller.nvm) with exactly its names: 4,096 bytes that
    survive power-off. A `Flash` driver keeps them in a file, counts and breaks writes.

    Writes are the RP2040 port's (twins/models/norflash.py): a write whose target bytes
    are all erased (0xFF) only programs them; any other write erases and rewrites the
    whole 4 KB sector. Slices read as a bytearray, as on the board.
    """

    def __init__(self):
        self._data = bytearray(b"\xff" * NVM_SIZE)
        self._path = None  # the file Flash keeps the bytes in (symbolic links resolved)
        self._name = None  # that file as it was given
        self._hold = None  # this process's lock on it (_Hold)
        self._note = ""  # why saves do not land in it, in one line ('' when they do)
        self._saved = bytearray(self._data)  # what the file holds
        self._mode = 0o644
        self._writes = 0
        self._erases = 0
        self._cut_after = None

    def __len__(self):
        return len(self._data)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return bytearray(self._data[index])
        return self._data[index]

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self._data))
            if step != 1:
                raise ValueError("nvm: only contiguous slices can be written")
            value = bytes(value)
            if len(value) != stop - start:
                raise ValueError("nvm: slice assignment must not change the size")
        else:
            start = index + len(self._data) if index < 0 else index
            if not 0 <= start < len(self._data):
                raise IndexError("nvm index out of range")
            stop = start + 1
            value = bytes((value,))
        self._writes += 1
        needs_erase = not erased(self._data, start, stop)
        if needs_erase:
            self._erases += 1
        cut, self._cut_after = self._cut_after, None
        if isinstance(cut, tuple):  # in this write's erase; one with none waits for it
            if needs_erase:
                cut = self._erase_part(*cut)
            else:
                cut, self._cut_after = None, cut
        powered = cut is None
        image = bytearray(self._data)  # (CircuitPython's nvm: the sector as it is to be)
        image[start:stop] = value
        if cut is None:
            cut = len(image) if needs_erase else stop - start
        if cut < 0:
            pass  # stopped in the erase
        elif needs_erase:  # the sector erased, then programmed from its start
            erase(self._data, 0, len(self._data))
            program_all(self._data, 0, image[0:cut])
        else:  # its bytes were erased: programmed as they are, no erase
            program_all(self._data, start, value[0:min(cut, stop - start)])
        self._save()
        if not powered:
            raise PowerCut("power cut during an nvm write")

    def _erase_part(self, fraction, seed):
        """The sector's erase stopped part way (flashchip's rule, the seed's draws)."""
        erase_part(self._data, 0, len(self._data), fraction, random.Random(seed).random)
        return -1

    def _save(self):
        """Into the file as a whole (tools/files.py), so a kill at any moment leaves
        the old contents or the new; a file with other hard links is written in place, so
        that they still name the memory. A save that fails (a folder made read-only, a full
        disk) raises, and the write is undone here too: the bytes stay what the file holds;
        the note says so until a save lands."""
        if not self._path:
            return
        try:
            if _links(self._path) > 1:
                with open(self._path, "r+b") as f:
                    f.write(self._data)
                    f.flush()
                    os.fsync(f.fileno())
            elif self._hold is None:
                write_atomic(self._path, self._data, mode=self._mode)
            else:
                self._hold.replace(self._path, self._data, self._mode)
        except BaseException as e:
            self._data[:] = self._saved
            if isinstance(e, OSError):
                self._note = ("the last save to %s failed (%s): the handheld keeps what it "
                              "had to save, and the next save that lands writes it"
                              % (self._name, e.strerror or e))
            raise
        self._note = ""
        self._saved[:] = self._data


def _links(path):
    """How many hard links the file at path has (0 when it is not there)."""
    try:
        return os.stat(path).st_nlink
    except FileNotFoundError:
        return 0


class Flash:
    """The test driver of an `NVM`: makes it (`nvm`), of `size` bytes, kept in the file
    `path` when given; counts its writes and sector erases; cuts the power and flips bits.

    cut_power_after(n) makes the next write stop after n bytes have been programmed and
    raise PowerCut, keeping what was programmed: a write that needs no erase keeps its
    first n target bytes; one that needs an erase leaves the sector erased and then the
    first n bytes of the full 4 KB image programmed (the port programs from offset 0).
    cut_power_in_erase(fraction, seed) stops the next write that needs an erase part way
    through the erase: each programmed (0) bit of the sector reads 1 with that probability,
    and nothing new is programmed. flip_bit(offset, bit) simulates a flash bit error.
    """

    def __init__(self, path=None, size=NVM_SIZE):
        self.nvm = NVM()
        self.nvm._data = bytearray(b"\xff" * size)
        if path:
            problem = memory_file_problem(path, size)
            if problem:
                raise NVMRefused(problem)
            self.nvm._name = path
            path = os.path.realpath(path)  # a link is followed, never replaced
            self.nvm._hold = _hold(path, self.nvm._name)
            if os.path.exists(path):
                self.nvm._mode = stat.S_IMODE(os.stat(path).st_mode)
                with open(path, "rb") as f:
                    saved = f.read(size)
                self.nvm._data[0:len(saved)] = saved
            if not os.access(os.path.dirname(path), os.W_OK):
                self.nvm._note = ("saves off: the folder of %s is read-only; what it holds "
                                  "was read, and nothing is written" % self.nvm._name)
                path = None
        self.nvm._path = path
        self.nvm._saved = bytearray(self.nvm._data)

    path = property(lambda self: self.nvm._path, doc="The file of the bytes, or None.")
    data = property(lambda self: self.nvm._data,
                    doc="The stored bytes (a bytearray; changing it is not a write).")
    writes = property(lambda self: self.nvm._writes, doc="Writes so far.")
    erases = property(lambda self: self.nvm._erases, doc="Sector erases so far.")
    note = property(lambda self: self.nvm._note,
                    doc="Why saves do not land in the file, in one line ('' when they do).")

    def cut_power_after(self, n):
        """Interrupt the next write after n programmed bytes (see the class notes)."""
        if n < 0:
            raise ValueError("n must be >= 0")
        self.nvm._cut_after = n

    def cut_power_in_erase(self, fraction, seed=0):
        """Stop the next write that needs an erase part way through it (class notes)."""
        if not 0 <= fraction <= 1:
            raise ValueError("fraction must be 0..1")
        self.nvm._cut_after = (fraction, seed)

    def flip_bit(self, offset, bit):
        """Invert one bit of the stored data (a flash bit error)."""
        self.nvm._data[offset] ^= 1 << bit
        self.nvm._save()


class NVMInUse(Exception):
    """Another process keeps its handheld's nvm in the same file."""


class NVMRefused(ValueError):
    """A file that is not a handheld's memory was given to keep one in."""


def memory_file_problem(path, size=NVM_SIZE):
    """Why the file at path cannot keep a handheld's memory ('' when it can): only a
    regular file (or a link to one) that is absent, empty, or a memory already (size
    bytes: a log's first record, 0xA5 first, or all erased) is taken, so that no other
    file is ever overwritten. The folder must exist."""
    return kept_file_problem(path, size, "a handheld's memory", "saved settings",
                             lambda data: data[0] == 0xA5 or data == b"\xff" * size)


def kept_file_problem(path, size, what, contents, looks_right):
    """Why the file at path cannot be read and written back as `what` ('' when it can):
    it must be a regular file (or a link to one) that is absent (its folder there), empty,
    or size bytes that looks_right(data) takes; anything else (another file, a device, a
    pipe, a folder) is left as it is. `contents` names what such a file holds."""
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        folder = os.path.dirname(real)
        if not os.path.isdir(folder):
            return "%s: the folder %s does not exist" % (path, folder)
        return ""
    except OSError as e:
        return "%s: %s" % (path, e.strerror or e)
    if stat.S_ISDIR(st.st_mode):
        return "%s: that is a folder; give a file" % path
    if not stat.S_ISREG(st.st_mode):
        return "%s: that is not a regular file (a device, a pipe or a socket); give a file" % path
    if st.st_size == 0:
        return ""
    try:
        with open(real, "rb") as f:
            head = f.read(size + 1)
    except OSError as e:
        return "%s: %s" % (path, e.strerror or e)
    if len(head) != size or not looks_right(head):
        found = "{:,} bytes".format(st.st_size) if st.st_size != size else "no " + contents
        return ("%s is not %s (%s; one is %s bytes of %s); it is left as it is: give a new "
                "file" % (path, what, found, "{:,}".format(size), contents))
    return ""


_HELD = {}  # (device, inode) of a memory file -> this process's _Hold on it


def claim_memory(path):
    """Make the file at path this process's handheld memory, before a handheld starts:
    '' when it can be (and it is held from now on), else one line saying why not."""
    problem = memory_file_problem(path)
    if not problem:
        try:
            _hold(os.path.realpath(path), path)
        except (NVMInUse, NVMRefused) as e:
            problem = str(e)
        except OSError as e:
            problem = "%s: %s" % (path, e.strerror or e)
    return problem


def _file_key(st):
    return st.st_dev, st.st_ino


class _Hold:
    """This process's lock on a memory file: the file itself open and flock'ed, so that a
    handheld of another process on it, by any name (a link, a hard link), is refused: it
    would overwrite this one's saves. (Handhelds of one process share it: a test's power
    cycle.) A save that replaces the file locks the new one before it takes the name."""

    def __init__(self, fd):
        self.fd = fd
        self._next = None
        _HELD[_file_key(os.fstat(fd))] = self

    def replace(self, path, data, mode):
        """Write data to path whole (write_atomic), the lock moving to the new file."""
        try:
            write_atomic(path, data, mode=mode, write=self._write_and_lock)
        except BaseException:
            if self._next is not None:
                os.close(self._next)
                self._next = None
            raise
        del _HELD[_file_key(os.fstat(self.fd))]
        os.close(self.fd)
        self.fd, self._next = self._next, None
        _HELD[_file_key(os.fstat(self.fd))] = self

    def _write_and_lock(self, f, data):
        import fcntl
        f.write(data)
        self._next = os.dup(f.fileno())  # (kept open, and so locked, once f is closed)
        fcntl.flock(self._next, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a new file: nobody's


def _hold(path, name):
    """Lock the memory file at path (resolved; name: as it was given) for this process,
    making it empty when it is not there: this process's _Hold, or None where nothing can
    be locked (no flock on this OS; no file, in a folder that cannot have one). Raises
    NVMInUse when another process holds it, NVMRefused when it is not a regular file."""
    try:
        import fcntl
    except ImportError:
        return None
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
    for _ in range(8):  # (the holder may replace the file between the open and the lock)
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            try:
                fd = os.open(path, flags | os.O_CREAT, 0o644)
            except OSError:
                return None
        st = os.fstat(fd)
        held = _HELD.get(_file_key(st))
        if held is not None:
            os.close(fd)
            return held
        if not stat.S_ISREG(st.st_mode):
            os.close(fd)
            raise NVMRefused("%s is not a regular file (a device, a pipe or a socket)" % name)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            break
        try:
            named = _file_key(os.stat(path)) == _file_key(st)
        except FileNotFoundError:
            named = False
        if named:
            return _Hold(fd)
        os.close(fd)
    raise NVMInUse("%s is in use by another virtual handheld (make play); close it, or "
                   "give this one another file with --nvm FILE" % name)


def _refresh_like_the_board(display):
    """Make display.refresh() leave displayio's change flags as CircuitPython does.

    After a full refresh Blinka keeps every TileGrid's change flags set (its refresh may
    run in a thread), so the next refresh resends the whole screen; CircuitPython's C
    displayio clears them. Clearing them here keeps the desktop's bus figures the board's.
    """
    refresh = display.refresh
    core = display._core

    def refresh_and_settle(*, target_frames_per_second=None, minimum_frames_per_second=0):
        full = core.full_refresh
        done = refresh(target_frames_per_second=target_frames_per_second,
                       minimum_frames_per_second=minimum_frames_per_second)
        group = core.current_group
        if full and group is not None:
            group._get_refresh_areas([])
            group._finish_refresh()
        return done

    display.refresh = refresh_and_settle


class WatchdogReset(BaseException):
    """The virtual watchdog fired: on the board the chip would reset here."""


class Handheld:
    """The objects of the hardware contract, on the desktop, and the test drivers of the
    keys, nvm and i2c: buttons, flash and bus. settings.toml's CS_KEYS picks the build:
    "direct" (key_count keys on one scanner) or "matrix" (see _buttons); buttons presses
    the keymap's key numbers either way."""

    def __init__(self, *, realtime=False, settings=None, nvm_path=None, seed=None,
                 pass_ms=4, start_ms=BOOT_TICKS, display_answers_after=0, echo=False,
                 key_count=KEY_COUNT, on_idle=None, watchdog_ms=8000, i2c_fails=0,
                 bus_log=False, cells=None):
        self.console_lines = []
        self.echo = echo
        self.Event = Event
        self.keymap = KEYMAP
        self.seed = seed
        self.pass_ms = pass_ms
        self.realtime = realtime
        self.clock = RealClock(start_ms) if realtime else SimClock(start_ms)
        self.boot = self.clock.now  # ticks_ms at power-on
        self.info = config.read((settings or {}).get, _pin_of, self.console)
        self.bus = Bus(self.info["CS_I2C_HZ"], keep_log=bus_log)  # bus_log: bus.log keeps
        self.i2c = self.bus.i2c  # every write
        self.oled = VirtualSSD1306(address=self.info["CS_I2C_ADDRESS"])
        self._absent_for = display_answers_after  # retries before the display answers
        if not self._absent_for:
            self.bus.attach(self.oled)
        displayio.release_displays()
        where = "SDA=%s SCL=%s" % (self.info["CS_I2C_SDA"], self.info["CS_I2C_SCL"])
        self._i2c_fails = i2c_fails  # attempts to open the bus that fail (no pull-ups)
        self.display = oled.open_display(self._open_i2c, self.info["CS_I2C_ADDRESS"], where,
                                         self.console, self._retry_sleep)
        _refresh_like_the_board(self.display)
        self.buttons = self._buttons(key_count)
        self.keys = self.buttons.keys
        self.menu_keys = self.buttons.scanners[1] if self.info["CS_KEYS"] == "matrix" else None
        self.scanners = ((self.keys, 0),) if self.menu_keys is None else \
            ((self.keys, 0), (self.menu_keys, self.keys.key_count))  # (as hardware/pico.py)
        self.buzzer = Buzzer(self.clock)
        self.flash = Flash(nvm_path)
        self.nvm = self.flash.nvm
        if self.flash.note:
            self.console("nvm: " + self.flash.note)
        self.on_idle = on_idle  # a desktop front end's hook, called once per pass
        self.stop = False
        self._mark = self.bus.mark()
        self.watchdog_ms = watchdog_ms
        self.fed_at = self.clock.now
        self.restarts = 0
        self.sleep_memory = bytearray(256)  # as alarm.sleep_memory: kept over restart()
        self.deep_sleeps = 0
        self.cells_v = cells  # VSYS from the cells in volts; None: on USB power

    def _buttons(self, key_count):
        """The key scanners as hardware/pico.py makes them for the build settings.toml
        says, and their driver. The direct build: one Keys of key_count keys. The matrix
        build (keymap MATRIX_KEYMAP): a KeyMatrix of its 4 x 6 pile keys and MENU's own
        Keys, driven as one: MENU is key 24 for the driver, key 0 of menu_keys."""
        interval_ms = self.info["CS_KEY_INTERVAL_MS"]
        if self.info["CS_KEYS"] != "matrix":
            return Buttons(key_count, interval_ms=interval_ms,
                           debounce_threshold=DEBOUNCE_SCANS, clock=self.clock)
        self.keymap = MATRIX_KEYMAP
        rows, columns = config.matrix_pins(self.info)
        interval = interval_ms / 1000
        return Buttons.wired([
            VirtualKeyMatrix(rows, columns, columns_to_anodes=True, interval=interval,
                             max_events=64, debounce_threshold=DEBOUNCE_SCANS),
            VirtualKeys((self.info["CS_MENU"],), value_when_pressed=False, pull=True,
                        interval=interval, max_events=8, debounce_threshold=DEBOUNCE_SCANS),
        ], clock=self.clock)

    def ticks_ms(self):
        """The handheld's ticks_ms."""
        return self.clock.now

    def ms(self, t):
        """The ticks_ms value t milliseconds after power-on (for scripts and tests)."""
        return ticks_add(self.boot, t)

    @property
    def elapsed(self):
        """Milliseconds since power-on (never wraps)."""
        return self.clock.elapsed

    def idle(self, ms):
        """End of a main-loop pass, which sleeps ms: the front end runs, then time moves on
        (real time, or simulated: pass_ms covers a pass's work and a nap up to as long, a
        longer nap is its own length, and the I2C time of the bytes the pass sent is added)."""
        if self.on_idle is not None:
            self.on_idle(self)
        if self.realtime:
            time.sleep(ms / 1000)
            return
        span = self.bus.since(self._mark)
        self._mark = self.bus.mark()
        bus_ms = int(span.seconds(self.bus.frequency) * 1000 + 0.999)
        self.busy(max(self.pass_ms, ms) + bus_ms)

    def busy(self, ms):
        """Simulated time spent working; the watchdog fires if it is not fed in time."""
        self.clock.advance(ms)
        self._check_watchdog()

    def feed(self):
        """Feed the watchdog."""
        self.fed_at = self.clock.now

    def _check_watchdog(self):
        if self.watchdog_ms and ticks_diff(self.clock.now, self.fed_at) > self.watchdog_ms:
            self.console("watchdog: not fed for %d ms; the board resets" % self.watchdog_ms)
            self.fed_at = self.clock.now
            raise WatchdogReset()

    def restart(self):
        """After the error screen: the app starts again (a fresh App on this handheld)."""
        self.restarts += 1
        self.feed()

    def print_exception(self, error):
        """The traceback on the console."""
        import traceback
        for chunk in traceback.format_exception(type(error), error, error.__traceback__):
            for line in chunk.rstrip().splitlines():
                self.console(line)

    def deep_sleep(self):
        """The desktop cannot deep-sleep: the screen stays off (as on a board without alarms)."""
        self.deep_sleeps += 1
        if self.deep_sleeps == 1:
            self.console("deep sleep requested: not on the desktop; the screen stays off")
        return False

    def stop_requested(self):
        """True once a front end or a script has asked the main loop to end."""
        return self.stop

    def console(self, text):
        """The serial console: kept in console_lines (and printed when echo is on)."""
        self.console_lines.append(text)
        if self.echo:
            print(text)

    def cells(self):
        """The cells' charge left in %, from VSYS cells_v (which a test may change at any
        time) along hardware/cells.py's curve, as hardware/pico.py reads it; -1 on USB power
        (cells_v None) or under the Pico's 1.8 V."""
        return -1 if self.cells_v is None else gauge.percent(int(self.cells_v * 1000 + 0.5))

    def random_seed(self):
        """The match seed: fixed when given, else fresh from the OS."""
        if self.seed is not None:
            return self.seed
        return int.from_bytes(os.urandom(4), "big") & SEED_MAX

    def _open_i2c(self):
        if self._i2c_fails > 0:
            self._i2c_fails -= 1
            raise RuntimeError("No pull up found on SDA or SCL; check your wiring")
        return self.i2c

    def _retry_sleep(self, seconds):
        if self.realtime:
            time.sleep(seconds)
        else:
            self.clock.advance(int(seconds * 1000))
        self._absent_for -= 1
        if self._absent_for <= 0 and self.oled.address not in self.i2c.scan():
            self.bus.attach(self.oled)


def init(**options):
    """A virtual handheld (see Handheld for the options)."""
    return Handheld(**options)


def restart():
    """After init() failed: nothing to undo on the desktop; init() is called again."""
