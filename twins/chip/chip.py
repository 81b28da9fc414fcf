"""make chip: the unchanged firmware on CircuitPython's own Pico image in an emulated RP2040.

It boots one UF2, the file a classroom drags onto RPI-RP2: by default this tree's, as
`make uf2` writes it (CircuitPython's Pico image and the CIRCUITPY drive exactly as
`make deploy` writes it), or any Raspberry Pi Pico UF2 given with --uf2, checked first.
rp2040js (npm, pinned in twins/chip/js/package-lock.json, installed on first use) runs it,
wired as the firmware reads the drive's settings.toml (a value it refuses: the default, as
the firmware takes it): the OLED is an SSD1306 answering on the I2C pins (bytes take their
real bit times), the buttons are GPIO inputs with pull-ups, the piezo's PWM is read from its
slice's registers, the console is USB CDC. The matrix build (CS_KEYS = "matrix") is the
printed board's: each switch, MENU, the OLED and the piezo reach the GPIO the board's copper
joins them to (hardware/pcb/nets.json, which make pcb reads back from the board; --nets
FILE for another), and 24 of the keys are a 4 x 6 diode matrix on its row and column pins
(twins/chip/js/matrix.mjs). The glass is decoded from the bus bytes by the desktop twin's
own SSD1306 decoder.

    make chip ARGS="--script docs/screenshot.keys --png chip.png"
    make chip ARGS="--uf2 dist/california-speed-VERSION-raspberry_pi_pico-cp10.uf2"
    make chip ARGS="--keys matrix --script docs/screenshot.keys"   # the matrix build
    make chip ARGS="--keys matrix --figures"   # press to glass over a match, at 400 kHz

Needs node and npm, and RP2040_BOOTROM (bootrom-b1.bin); to build the tree's UF2 also
CIRCUITPY_UF2 (raspberry_pi_pico.uf2) and CIRCUITPY_MPY_CROSS (.ci/run sets all three).
The flash chip is modelled (twins/chip/js/flash.mjs: program, erase, their busy times), so
nvm saves persist: --flash FILE keeps the whole 2 MB flash from one run to the next. The ring
oscillator's random bit, os.urandom's source, reads 1 as in rp2040js, so every run deals
the same first match, unless --entropy N gives it N's stream (twins/chip/js/errata.mjs). Not
modelled: exact wait states, the ADC.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

from hardware import config, pinmap
from tools import files
from tools.keynames import BUILDS
from twins.desktop.ssd1306 import VirtualSSD1306
from twins.boardvm import boardvm
from tools.cli import Parser, bounded, fail, output_file

HERE = os.path.dirname(os.path.abspath(__file__))
NODE_DIR = os.path.join(HERE, "js")
MAX_MS = 3600000
FAULTS = ("missing", "reversed")  # a matrix key built wrong: no diode, or turned round
NETS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "hardware", "pcb", "nets.json")


def keys_of(values):
    """"direct" or "matrix": the key build settings.toml's CS_KEYS makes of a board, read
    as the firmware reads it (hardware/config.py: any other value is the direct build)."""
    word = values.get("CS_KEYS")
    return "matrix" if isinstance(word, str) and word.strip().lower() == "matrix" else "direct"


def keymap_of(keys):
    """The key map of a build ("direct" or "matrix")."""
    from hardware.keymap import KEYMAP, MATRIX_KEYMAP
    return MATRIX_KEYMAP if keys == "matrix" else KEYMAP


def key_names(keys="direct"):
    """{name: key number} of a build's keys (A0, Bf3, MENU: tools/keynames.py); the
    names, and so a key script, mean the same piles on either build."""
    from tools import keynames
    keymap = keymap_of(keys)
    return {keynames.name_of(k, keymap): k for k in range(len(keymap))}


def saved_settings(**index):
    """The nvm sector of a handheld whose saved settings are the defaults but for the
    choices given by their index (piles=2: the third of the build's PILES choices)."""
    from firmware.settings import KEYS, SETTINGS_KIND, Settings
    from firmware.store import Log
    settings = Settings()
    for key, i in index.items():
        settings.index[KEYS.index(key)] = i
    nvm = bytearray(b"\xff" * 4096)
    Log(nvm).put(SETTINGS_KIND, settings.base())
    return bytes(nvm)


def toolchain():
    """(uf2, bootrom) paths: the variables, else make toolchain's files (tools/toolchain.py);
    None for a missing one."""
    from tools.toolchain import chip_files
    return chip_files()


def missing(own_uf2=False):
    """One line naming what the chip twin lacks here, or None when it can run; own_uf2:
    a UF2 is given, so nothing is needed to build one."""
    lacks = []
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            lacks.append(tool)
    uf2, rom = toolchain()
    if uf2 is None and not own_uf2:
        lacks.append("CIRCUITPY_UF2 (CircuitPython's raspberry_pi_pico.uf2)")
    if rom is None:
        lacks.append("RP2040_BOOTROM (the RP2040's bootrom-b1.bin)")
    if boardvm.mpy_cross() is None and not own_uf2:
        lacks.append("CIRCUITPY_MPY_CROSS (CircuitPython's mpy-cross)")
    return ("the chip twin needs %s (make toolchain fetches all but node and npm)"
            % ", ".join(lacks)) if lacks else None


def _npm_ready():
    """rp2040js installed from the lock file, once."""
    stamp = os.path.join(NODE_DIR, "node_modules", ".installed")
    lock = os.path.join(NODE_DIR, "package-lock.json")
    if os.path.exists(stamp) and os.path.getmtime(stamp) >= os.path.getmtime(lock):
        return
    print("Setting up twins/chip/js/node_modules from package-lock.json (first run only)...",
          file=sys.stderr)
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                   cwd=NODE_DIR, check=True, stdout=subprocess.DEVNULL)
    with open(stamp, "w"):
        pass


def check_uf2(path):
    """'' when the chip twin can boot the UF2 at path (a Raspberry Pi Pico's: RP2040, the
    drive at 1 MB), else one sentence why not: rp2040js is an RP2040 without the Pico W's
    radio, so neither a Pico 2 (RP2350) nor a Pico W image runs on it."""
    from tools import uf2
    try:
        wrong = uf2.problems(path, uf2.board_facts("raspberry_pi_pico")[2])
        if wrong:
            return wrong[0]
        family = uf2.family(path)
        if family != uf2.board_facts("raspberry_pi_pico")[0]:
            return ("%s is for the %s family; the chip twin is an RP2040 (a Raspberry Pi Pico)"
                    % (path, uf2.FAMILIES.get(family, "0x%08x" % family)))
        _, board = uf2.circuitpython_of(path)
        if board is not None and board != uf2.BOARDS["raspberry_pi_pico"]:
            return ("%s is for the %s; the chip twin is a Raspberry Pi Pico (no radio, the "
                    "drive at 1 MB)" % (path, board))
        if "code.py" not in uf2.drive_files(path):
            return "%s carries no CIRCUITPY drive with a code.py" % path
    except uf2.UF2Error as e:
        return str(e)
    return ""


FLASH_BYTES = 2 * 1024 * 1024  # the Pico's W25Q16JV
NVM_START, NVM_END = 0xFF000, 0x100000  # the Pico's nvm sector, offsets in flash
PAGE = 256


def _boot2_crc(data):
    """The CRC the boot ROM checks at the end of boot stage 2 (the flash's first 256
    bytes): CRC-32 with polynomial 0x04C11DB7, not reflected, from 0xFFFFFFFF."""
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b << 24
        for _ in range(8):
            crc = (crc << 1 ^ 0x04C11DB7 if crc & 0x80000000 else crc << 1) & 0xFFFFFFFF
    return crc


def looks_like_flash(data):
    """True for a Pico's whole flash: erased where boot stage 2 goes, or a boot stage 2
    that the boot ROM would run (its CRC right)."""
    boot2 = data[:256]
    return boot2 == b"\xff" * 256 or _boot2_crc(boot2[:252]) == int.from_bytes(boot2[252:],
                                                                               "little")


def flash_problem(path):
    """'' when path can be the chip's whole flash (absent or empty: an erased chip, or
    2 MB that a Pico boots) and be written back (the 2 MB go to a new file beside it, then
    over it: its folder must take them), else one line; another file is never written."""
    from twins.desktop.virtual import kept_file_problem
    problem = kept_file_problem(path, FLASH_BYTES, "a Pico's flash",
                                "flash that starts with a boot stage 2 a Pico runs",
                                looks_like_flash)
    if problem:
        return problem
    folder = os.path.dirname(os.path.realpath(path))
    if not os.access(folder, os.W_OK | os.X_OK):
        return ("%s: cannot write the flash back in %s (no permission, or read-only)"
                % (path, folder))
    free = shutil.disk_usage(folder).free
    if free < FLASH_BYTES:
        return ("%s: the disk has %s bytes free; writing the flash back needs %s"
                % (path, "{:,}".format(free), "{:,}".format(FLASH_BYTES)))
    return ""


def blank_flash(path):
    """True for a --flash file that holds nothing a Pico boots: absent, empty, or erased
    where boot stage 2 goes (an erased chip, whose boot ROM waits as RPI-RP2 for a UF2:
    the UF2 is written over it)."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return True
    with open(path, "rb") as f:
        return f.read(256) == b"\xff" * 256


def settings_of(path):
    """The settings the firmware runs on, from the drive a UF2 (or a whole flash) carries:
    its settings.toml read as CircuitPython's os.getenv reads it, checked as the firmware
    checks it (hardware/config.py: a value it refuses takes the default, and the firmware
    says so on its console), so the chip is wired as the firmware drives it."""
    from tools import uf2
    try:
        drive = uf2.drive_files(path)
    except uf2.UF2Error:  # (a flash, not a UF2; or no drive)
        drive = uf2.image_files(_flash_drive(path)) if os.path.getsize(path) else {}
    getenv = getenv_of(drive.get("settings.toml"))
    return config.read(getenv, _gpio, lambda line: None)


def _gpio(name):
    """The pin a name means on the Pico (hardware/pico.py pin_of), as its name."""
    return name if name in pinmap.GP_NAMES else None


_SPACE = frozenset(b" \t\n\v\f\r")  # MicroPython's unichar_isspace
_ESCAPES = {ord("b"): 8, ord("t"): 9, ord("n"): 10, ord("v"): 11, ord("f"): 12, ord("r"): 13}
_NL, _QUOTE, _HASH = ord("\n"), ord('"'), ord("#")


def getenv_of(data):
    """os.getenv over a settings.toml of these bytes (None: no file), as CircuitPython 10.3
    reads it byte by byte (supervisor/shared/settings.c): a key's value as text, a quoted
    one unescaped, a bare one trimmed; None when the key is not found before a [table] or
    its value is ill-formed; UnicodeError for a value that is not UTF-8."""
    data = data or b""

    def getenv(key):
        at = [0]

        def byte():  # (0 at the end: the reader cannot tell it from a NUL byte)
            at[0] += 1
            return data[at[0] - 1] if at[0] <= len(data) else 0

        def next_line():
            while byte() not in (0, _NL):
                pass

        def skip_space():
            c = byte()
            while c not in (0, _NL) and c in _SPACE:
                c = byte()
            return c

        def key_matches():
            c = skip_space()
            if c in (0, ord("[")):
                at[0] = len(data)
                return False
            for k in key.encode():
                if c != k:
                    if c != _NL:
                        next_line()
                    return False
                c = byte()
            if c in _SPACE:
                c = skip_space()
            if c != ord("="):
                if c != _NL:
                    next_line()
                return False
            return True

        def quoted():
            out = bytearray()
            while True:
                c = byte()
                if c in (0, _NL):
                    return None
                if c == _QUOTE:
                    return out if skip_space() in (0, _NL, _HASH) else None
                if c == ord("\\"):
                    c = byte()
                    if c in (0, _NL):
                        return None
                    if c in (ord("u"), ord("U")):
                        code = _hex(bytes(byte() for _ in range(4 if c == ord("u") else 8)))
                        if code is None or code >= 0x110000:
                            return None
                        out += chr(code).encode("utf-8", "surrogatepass")
                        continue
                    c = _ESCAPES.get(c, c)
                out.append(c)

        def bare(c):
            out, trailing = bytearray(), 0
            while c not in (0, _NL, _HASH):
                out.append(c)
                trailing = trailing + 1 if c in b" \t\r" else 0
                c = byte()
            return out[:len(out) - trailing]

        while at[0] < len(data):
            if key_matches():
                c = skip_space()
                value = quoted() if c == _QUOTE else None if c in (0, _NL) else bare(c)
                if value is None:
                    return None
                try:
                    return bytes(value).decode("utf-8", "surrogatepass")
                except UnicodeDecodeError:
                    raise UnicodeError()  # (MicroPython's utf8_check)
        return None
    return getenv


def _hex(digits):
    """strtoul(digits, 16) when it reads every digit, else None."""
    m = re.fullmatch(rb"[ \t\n\v\f\r]*([+-]?)(?:0[xX](?=[0-9a-fA-F]))?([0-9a-fA-F]+)", digits)
    if not m:
        return None
    value = int(m.group(2), 16)
    return 1 << 32 if m.group(1) == b"-" and value else value  # (unsigned: -1 wraps)


def _flash_drive(path):
    """CIRCUITPY's bytes in a whole flash file (the Pico's drive: 1 MB from 0x100000)."""
    from tools import uf2
    _, offset, size = uf2.board_facts("raspberry_pi_pico")
    with open(path, "rb") as f:
        f.seek(offset)
        return f.read(size - offset)


def build_uf2(dest, settings=None, change_tree=None):
    """This tree's one-file UF2 for the Pico, as `make uf2` writes it (tools/uf2.py), with
    the fixed version the goldens are made with, settings.toml values from settings and
    change_tree(tree) applied (a test breaks a file on purpose); returns its path."""
    from tools import drive, uf2
    return uf2.build(os.path.join(dest, "california-speed.uf2"), version=drive.FIXED_VERSION,
                     settings=settings, change=change_tree)


class ScriptError(ValueError):
    """A key script the build's keys cannot play: the message names its line."""


class Killed(RuntimeError):
    """The chip twin's node was ended by a signal (signum)."""

    def __init__(self, signum):
        self.signum = signum
        try:
            name = signal.Signals(signum).name
        except ValueError:
            name = "signal %d" % signum
        super().__init__("the chip twin (node) was killed by %s" % name)


class ChipRun:
    """What the chip did: console lines, I2C writes, key edges, PWM changes, main-loop
    passes (watchdog feeds), all in ns of simulated time; t0 is the first full frame."""

    def __init__(self, lines, address, width=128, height=64):
        self.console, self.i2c, self.keys, self.pwm = [], [], [], []
        self.reads = []  # the matrix build: (ns, key, down) as the keypad's scan read them
        self.t0 = None
        self.feeds, self.pcs, self.end, self.why = [], {}, 0, ""
        self.asleep_at_feed, self.wall_ms = [], 0  # ns slept (WFI) by each feed; wall ms
        self.flash_counts, self.flash_log = {}, []  # the flash chip's commands (flash.mjs)
        self.scans = []  # (ns, pin): the first GPIO read after each key edge
        self.clocks = []  # (ns, Hz): clk_sys as the firmware set it
        self.dormant = None  # (ns, ns or None): the crystal went DORMANT (deep sleep), woke
        self.reset = None  # the reset after the wake: what the next boot keeps (run.mjs)
        for ln in lines:
            e = json.loads(ln)
            k = e["k"]
            if k == "con":
                self.console.append((e["t"], e["s"]))
            elif k == "i2c":
                self.i2c.append((e["t"], e["end"], e["a"], e["ack"], bytes.fromhex(e["d"])))
            elif k == "key":  # (a matrix key's pin: (row pin, column pin))
                self.keys.append((e["t"], _pin(e["pin"]), e["down"]))
            elif k == "read":
                self.reads.append((e["t"], e["key"], e["down"]))
            elif k == "pwm":
                self.pwm.append((e["t"], e["hz"], e["duty"]))
            elif k == "t0":
                self.t0 = e["t"]
            elif k == "feed":
                self.feeds, self.asleep_at_feed = e["t"], e["z"]
            elif k == "pc":
                self.pcs = {kind: {int(a): n for a, n in e[kind].items()}
                            for kind in ("refresh", "big", "other")}
            elif k == "scan":
                self.scans.append((e["t"], _pin(e["pin"])))
            elif k == "flash":
                self.flash_counts, self.flash_log = e["counts"], e["log"]
            elif k == "clock":
                self.clocks.append((e["t"], e["hz"]))
            elif k == "dormant":
                self.dormant = (e["t"], e["woke"])
            elif k == "reset":
                self.reset = e
            elif k == "end":
                self.end, self.why = e["t"], e["why"]
                self.wall_ms = e["wall_ms"]
        self.address, self.width, self.height = address, width, height

    def oled_at(self, ms):
        """The SSD1306 after every write that ended by ms after t0."""
        oled = VirtualSSD1306(self.width, self.height, self.address)
        limit = self.t0 + ms * 1e6
        for t, end, a, ack, data in self.i2c:
            if end > limit:
                break
            if ack and a == self.address:
                oled.write(data)
        return oled

    def text(self):
        return "\n".join(s for _, s in self.console)

    def cpu_hz(self, ns=None):
        """clk_sys at ns (default: the end), as the firmware set it (125 MHz until then)."""
        return ([f for t, f in self.clocks if ns is None or t <= ns] or [125e6])[-1]

    def awake(self, start_ms, end_ms=None):
        """The share of the time from start_ms to end_ms after t0 (feed to feed) that the
        core was awake, running instructions, rather than waiting for an interrupt."""
        import bisect
        a = bisect.bisect_left(self.feeds, self.t0 + start_ms * 1e6)
        b = (len(self.feeds) if end_ms is None
             else bisect.bisect_right(self.feeds, self.t0 + end_ms * 1e6)) - 1
        if b <= a:
            raise ValueError("no main-loop passes between %s and %s ms" % (start_ms, end_ms))
        span = self.feeds[b] - self.feeds[a]
        return 1 - (self.asleep_at_feed[b] - self.asleep_at_feed[a]) / span

    def speed(self):
        """Simulated seconds per wall second over the whole run (boot included)."""
        return self.end / 1e6 / max(1, self.wall_ms)

    def read_down(self, start_ms=0):
        """[(ms after t0, key)] of each matrix key the keypad's scan read going down."""
        return [((t - self.t0) / 1e6, key) for t, key, down in self.reads
                if down and t >= self.t0 + start_ms * 1e6]


def _pin(pin):
    return tuple(pin) if isinstance(pin, list) else pin


def board_nets(path=NETS):
    """The printed board's wiring, as make pcb reads it back from the copper (nets.json):
    {key number: (row GPIO, column GPIO)} of the matrix's switches (-1: the pad reaches no
    GPIO) and the GPIO of "MENU", "SDA", "SCL" and "piezo". A ValueError in one line naming
    the file if it is not that."""
    try:
        nets = files.read_json(path, "nets")
    except files.FileProblem as e:
        raise ValueError(str(e))

    def wrong(what):
        return ValueError("%s: %s" % (path, what))

    def gp(where, name):
        if name == "":
            return -1
        if not (isinstance(name, str) and re.fullmatch(r"GP([0-9]|1[0-9]|2[0-9])", name)):
            raise wrong("%s reaches %s, not one GPIO (GP0..GP29)" % (where, config.shown(name)))
        return int(name[2:])
    if not isinstance(nets, dict):
        raise ValueError("%s is %s, not the board's nets ({keys, MENU, SDA, SCL, piezo}; "
                         "make pcb writes them)" % (path, _kind(nets)))
    for part in ("keys", "MENU", "SDA", "SCL", "piezo"):
        if part not in nets:
            raise wrong("no %r: make pcb writes the whole file" % part)
    wired = {part: gp(part, nets[part]) for part in ("MENU", "SDA", "SCL", "piezo")}
    for part, pin in wired.items():
        if pin < 0:
            raise wrong("%s reaches no GPIO" % part)
    if not isinstance(nets["keys"], dict):
        raise wrong("keys is %s, not {switch: {key, row, column}}" % _kind(nets["keys"]))
    count = len(keymap_of("matrix")) - 1  # (the matrix's keys; MENU is on its own pin)
    keys = {}
    for name, e in nets["keys"].items():
        where = "keys.%s" % name
        if not isinstance(e, dict):
            raise wrong("%s is %s, not {key, row, column}" % (where, _kind(e)))
        lacks = [field for field in ("key", "row", "column") if field not in e]
        if lacks:
            raise wrong("%s has no %r (a switch is {key, row, column})" % (where, lacks[0]))
        if type(e["key"]) is not int or not 0 <= e["key"] < count:
            raise wrong("%s's key is %s, not a key number 0..%d" % (where, config.shown(e["key"]),
                                                                    count - 1))
        keys[e["key"]] = (gp(where + "'s row", e["row"]), gp(where + "'s column", e["column"]))
    missing_keys = [k for k in range(count) if k not in keys]
    if missing_keys:
        raise wrong("no switch is key %d (each of the matrix's %d keys has one; make pcb "
                    "writes them all)" % (missing_keys[0], count))
    wired["keys"] = keys
    return wired


def _kind(value):
    """What a JSON value is, in words."""
    for kind, words in ((bool, "true or false"), (dict, "an object"), (list, "a list"),
                        (str, "text"), ((int, float), "a number")):
        if isinstance(value, kind):
            return words
    return "null"


def _wiring(values, faults, board=None):
    """(the GPIO of each key in key-number order, the job's "keys" and "matrix"): on the
    direct build a pin per key, as settings.toml says; on the matrix build a key is the
    (row pin, column pin) its switch reaches on the board (board: board_nets(), by default
    the committed board's) and MENU (the last key) its own pin. The diode matrix the
    firmware scans is on settings.toml's rows and columns: a switch the board joins to
    another pin is read as the key at its pins' crossing, or not at all.
    faults: {key: "missing" or "reversed"}."""
    def gp(name):
        return int(name[2:])
    if keys_of(values) == "direct":
        if faults:
            raise ValueError("faults are the matrix build's: this UF2 is the direct build")
        keys = [gp(p) for p in config.key_pins(values)]
        return keys, keys, None
    rows, columns = ([gp(p) for p in pins] for pins in config.matrix_pins(values))
    for key, fault in (faults or {}).items():
        if fault not in FAULTS or key not in range(len(rows) * len(columns)):
            raise ValueError("a matrix key's fault is a key 0..%d and one of %s, not %r: %r"
                             % (len(rows) * len(columns) - 1, ", ".join(FAULTS), key, fault))
    board = board or board_nets()
    wires = [list(board["keys"][k]) for k in range(len(rows) * len(columns))] + [board["MENU"]]
    return wires, wires[-1:], {"rows": rows, "columns": columns,
                               "faults": {str(k): f for k, f in (faults or {}).items()}}


def run(script="", *, uf2=None, settings=None, display=True, after_ms=500, boot_ms=20000,
        profile=False, usb=True, work=None, change_tree=None, flash=None, flash_out=None,
        flash_timing="typ", reflash=True, nvm=None, faults=None, entropy=None, nets=NETS,
        after_reset=None):
    """Boot a Pico's UF2 and play a key script (make play's format, times from the first
    full frame; the key names of the build the UF2's settings.toml says); returns a ChipRun.
    uf2: the file (default: this tree's, made by build_uf2 with settings and change_tree;
    settings={"CS_KEYS": "matrix"} makes the matrix build). usb=False runs it with no USB
    host (on batteries): the console is then not heard. flash: a 2 MB flash image to start
    from (a board switched off and on again), the UF2 written over it as the boot ROM
    writes a file dragged onto RPI-RP2 unless reflash is False; flash_out: where the flash
    goes at the end; flash_timing: the flash chip's busy times, "typ" or "max" (W25Q16JV).
    nvm: the 4 KB nvm sector's bytes, put in after the UF2 (saved_settings()). faults: the
    matrix build's keys built wrong, {key number: "missing" (no diode) or "reversed"}.
    entropy: a 32-bit number whose stream the ring oscillator's random bit follows
    (twins/chip/js/errata.mjs), so the first deal is its own; None: the bit rp2040js reads,
    the same on every run (the first match is always seed 564724698, the goldens').
    nets: the matrix build's board (nets.json: board_nets), which wires its keys, MENU, the
    OLED and the piezo. after_reset: a ChipRun that ended in the reset after a wake from
    deep sleep (its .reset): this run is the boot that follows, from the flash, SRAM and
    watchdog scratch it left, the buttons it held still held, the script's times from the
    reset (not the first frame)."""
    from twins.desktop.keypad import load_script
    if after_reset is not None and after_reset.reset is None:
        raise ValueError("that run did not end in the reset after a wake from deep sleep (%s)"
                         % after_reset.why)
    if after_reset is not None:
        flash, reflash = "", False  # (the flash it left: written below)
    as_it_is = (bool(flash) or after_reset is not None) and not reflash  # the flash's own
    problem = missing(own_uf2=uf2 is not None or as_it_is)
    if problem:
        raise boardvm.ToolchainError(problem)
    _npm_ready()
    _, rom = toolchain()
    with tempfile.TemporaryDirectory() as tmp:
        kept = os.path.join(tmp, "reset")  # the flash and SRAM a reset leaves (run.mjs)
        if after_reset is not None:
            flash = kept + ".before"
            for end, data in ((".before", after_reset.reset["flash"]),
                              (".sram", after_reset.reset["sram"])):
                with open(kept + end, "wb") as f:
                    f.write(data)
        if uf2 is None and not as_it_is:
            uf2 = build_uf2(work or tmp, settings, change_tree)
        problem = check_uf2(uf2) if not as_it_is else ""
        if problem:
            raise ValueError(problem)
        values = settings_of(flash if as_it_is else uf2)
        names = key_names(keys_of(values))
        try:
            events = load_script(script, names, MAX_MS, len(names))
        except ValueError as e:
            raise ScriptError(str(e))
        board = board_nets(nets) if keys_of(values) == "matrix" else {}
        wires, buttons, matrix = _wiring(values, faults, board)
        pins = {part: board.get(part, int(values[setting][2:])) for part, setting in
                (("SDA", "CS_I2C_SDA"), ("SCL", "CS_I2C_SCL"), ("piezo", "CS_PIEZO"))}
        job = {"bootrom": rom, "uf2": None if as_it_is else os.path.abspath(uf2),
               "flash": os.path.abspath(flash) if flash else None,
               "flash_out": os.path.abspath(flash_out) if flash_out else None,
               "flash_timing": flash_timing,
               "sda": pins["SDA"], "scl": pins["SCL"],
               "address": values["CS_I2C_ADDRESS"], "display": display,
               "keys": buttons, "matrix": matrix, "piezo": pins["piezo"],
               "events": [[ms, wires[key], 1 if down else 0] for ms, key, down in events],
               "after_ms": max([ms for ms, _, _ in events] or [0]) + after_ms,
               "max_ms": boot_ms, "profile": profile, "usb": usb, "entropy": entropy,
               "reset_out": kept}
        if after_reset is not None:
            job["after_reset"] = {"sram": kept + ".sram", "scratch": after_reset.reset["scratch"],
                                  "reason": after_reset.reset["reason"]}
            job["held"] = after_reset.reset["low"]
        if nvm is not None:
            job["nvm"] = os.path.join(tmp, "nvm.bin")
            with open(job["nvm"], "wb") as f:
                f.write(nvm)
        path = os.path.join(tmp, "job.json")
        with open(path, "w") as f:
            json.dump(job, f)
        p = subprocess.run(["node", os.path.join(NODE_DIR, "run.mjs"), path],
                           capture_output=True, text=True, cwd=NODE_DIR)
        left = {}
        if os.path.exists(kept + ".flash"):
            for end in ("flash", "sram"):
                with open(kept + "." + end, "rb") as f:
                    left[end] = f.read()
    if p.returncode < 0:
        raise Killed(-p.returncode)
    if p.returncode != 0:  # node's error line, not its closing "Node.js v20..."
        said = [ln for ln in p.stderr.splitlines() if re.match(r"\w*Error\b", ln)]
        raise RuntimeError("the chip twin stopped: " + (said or p.stderr.strip().splitlines()
                                                        or ["exit %d" % p.returncode])[0])
    r = ChipRun(p.stdout.splitlines(), values["CS_I2C_ADDRESS"])
    if r.reset is not None:
        r.reset.update(left)
    return r


def elf_functions(path):
    """[(start, end, name)] of the function symbols of an ARM ELF32 file, sorted."""
    import struct
    with open(path, "rb") as f:
        elf = f.read()
    if elf[:4] != b"\x7fELF" or elf[4] != 1:
        raise ValueError("%s is not a 32-bit ELF file" % path)
    shoff, = struct.unpack_from("<I", elf, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x2E)
    sections = [struct.unpack_from("<IIIIIIIIII", elf, shoff + i * shentsize)
                for i in range(shnum)]
    out = []
    for sec in sections:
        if sec[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sec[6]]
        for at in range(sec[4], sec[4] + sec[5], 16):
            name, value, size, info = struct.unpack_from("<IIIB", elf, at)
            if info & 15 == 2 and size:  # STT_FUNC
                end = elf.index(b"\0", strtab[4] + name)
                out.append((value & ~1, (value & ~1) + size,
                            elf[strtab[4] + name:end].decode("ascii", "replace")))
    return sorted(out)


# Where a pass spends the CPU: by function name, first match wins.
_WHERE = (("asleep (waiting for an interrupt)", ("<asleep>",)),
          ("USB serial to the computer", ("tud_", "tu_", "dcd_", "usbd_", "cdcd_", "rp2usb_",
                                          "bufctrl_", "handle_hw_buff", "usb_")),
          ("I2C: waiting on the bus", ("i2c_", "busio_i2c", "check_single_timeout",
                                       "busy_wait")),
          ("displayio: drawing dirty areas", ("displayio", "busdisplay", "tilegrid", "bitmap",
                                              "palette", "area", "colorconverter",
                                              "displaycore", "fill_area", "refresh")),
          ("keypad scan", ("keypad", "keys_")),
          ("Python: the firmware's bytecode and runtime", ("mp_", "gc_", "fun_", "mpz_",
                                                           "qstr", "vstr", "m_", "py_",
                                                           "aeabi_", "bytecode", "map_")))


def cpu_split(hist, functions):
    """{what: share} of a PC histogram, by the _WHERE groups (the rest is "other")."""
    import bisect
    starts = [f[0] for f in functions]
    totals = {}
    for pc, cycles in hist.items():
        name = "<asleep>"
        if pc >= 0:
            i = bisect.bisect_right(starts, pc) - 1
            name = functions[i][2] if i >= 0 and pc < functions[i][1] else "?"
        what = "other (supervisor, USB, keypad scan, ...)"
        for label, stems in _WHERE:
            if any(stem in name for stem in stems):
                what = label
                break
        totals[what] = totals.get(what, 0) + cycles
    whole = sum(totals.values()) or 1
    return {what: n / whole for what, n in totals.items()}


def desktop(seed, keys="direct", nvm=None, hz=None):
    """The desktop twin (twins/desktop) as the chip is built: (the handheld, its App).
    keys: the build (settings.toml's CS_KEYS); nvm: the nvm sector it starts with
    (saved_settings()); hz: the I2C clock."""
    from firmware.app import App
    from twins.desktop import virtual
    settings = {"CS_I2C_HZ": hz} if hz else {}
    if keys != "direct":
        settings["CS_KEYS"] = keys
    hw = virtual.init(seed=seed, start_ms=virtual.BOOT_TICKS, settings=settings or None)
    if nvm is not None:
        hw.flash.data[:] = nvm  # (as the board was left: read by the App as it starts)
    return hw, App(hw)


TOGETHER = ("column", "apart", "corners")  # keys pressed at one instant (match_script)


def _together(kind, piles, key, name):
    """Keys of coverable piles to press at one instant, or None. kind "column": one of A's
    and one of B's in the same column of the matrix; "apart": one each in two columns;
    "corners": two of A's in one matrix row and one of B's in the column of one of them,
    three corners of a rectangle (the fourth is the key a matrix without diodes would
    also read). A pile is pressed once; the spots are the matrix build's for the keys'
    names, whichever build plays."""
    from hardware.keymap import MATRIX_KEYMAP
    from tools.keynames import key_named
    width = len(str(pinmap.default("CS_MATRIX_COLUMNS")).split(","))

    def spot(player, pile):
        return divmod(key_named(name[key(player, pile)], MATRIX_KEYMAP), width)
    for pa in piles:
        (ra, ca) = spot(0, pa)
        for pb in piles:
            rb, cb = spot(1, pb)
            if pb == pa or kind == "column" and cb != ca or kind == "apart" and cb == ca:
                continue
            if kind != "corners":
                return [key(0, pa), key(1, pb)]
            for pa2 in piles:
                r2, c2 = spot(0, pa2)
                if pa2 not in (pa, pb) and r2 == ra and c2 > ca and cb in (ca, c2):
                    return [key(0, pa), key(0, pa2), key(1, pb)]
    return None


def match_script(seed, covers=20, gap=450, limit_ms=90000, keys="direct", nvm=None,
                 together=0):
    """A 2-player match through the menus, played on the desktop twin with the deal of
    seed: at least `covers` covers, a foul, a collision, a stall and the end of a game
    (and the next deal), and `together` moments when the players press at one instant
    (TOGETHER's kinds in turn, each a cover of every key's pile), or limit_ms. keys, nvm:
    the desktop's build and its saved settings (desktop()). Returns (script text,
    checkpoints in ms, counts of each press result; with each cover's time in "cover_at"
    and its pile's pixels in "cover_box", "piles" a row, and "together": (ms, kind, key
    names) of each moment)."""
    import engine
    from engine import game as game_mod
    from hardware.keymap import pile_of, player_of, role_of
    from hardware.seats import KEYS_A_ROW
    from tools.keynames import name_of
    hw, app = desktop(seed, keys, nvm)
    name = {k: name_of(k, hw.keymap) for k in range(len(hw.keymap))}
    start = {v: k for k, v in name.items()}["A3"]  # RIGHT on 2 PLAYERS; any key: next deal
    counts = {"covered": 0, "foul": 0, "collision": 0, "stall": 0, "games": 0,
              "cover_at": [], "cover_box": [], "piles": 0, "together": []}
    lines, checks = [], []
    press = game_mod.Game.press
    results = {engine.COVERED: "covered", engine.FOUL: "foul", engine.COLLISION: "collision"}

    def counted(self, player, pile, now):
        r = press(self, player, pile, now)
        if r in results:
            counts[results[r]] += 1
        if r == engine.COVERED:
            counts["cover_at"].append(pressed[-1])
            counts["cover_box"].append(cell_box(app.table, pile))
        return r

    def run_to(ms):
        while hw.elapsed < ms:
            before = app.match.game.phase
            app.step()
            if app.match.game.phase == engine.STALL and before != engine.STALL:
                counts["stall"] += 1

    def key(player, pile):
        n = app.match.game.rules.piles_per_row
        for k in range(len(hw.keymap)):
            r = role_of(k, hw.keymap)
            if player_of(r) == player and pile_of(r, n, KEYS_A_ROW[keys != "direct"]) == pile:
                return k
        raise AssertionError("no key for player %d pile %d" % (player, pile))

    pressed = [0]

    def tap(t, *keys, settle=300):
        pressed.append(t)
        for k in keys:
            hw.buttons.tap(k, hw.ms(t), 80)
            lines.append("%d %s tap 80" % (t, name[k]))
        checks.append(t + settle)

    def at_once(t, piles):
        """TOGETHER's next kind, if the table offers it now (else a later moment will)."""
        kind = TOGETHER[len(counts["together"]) % len(TOGETHER)]
        chosen = _together(kind, piles, key, name)
        if chosen:
            tap(t, *chosen)
            counts["together"].append((t, kind, [name[k] for k in chosen]))
            return True
        return False

    game_mod.Game.press = counted
    try:
        t = 400
        tap(t, start, settle=1100)  # the deal takes a while
        run_to(t + 1200)
        t += 1200
        counts["piles"] = app.match.game.rules.piles_per_row
        player = 0
        while t < limit_ms:
            g = app.match.game
            done = (counts["covered"] >= covers and counts["foul"] and counts["collision"]
                    and counts["stall"] and counts["games"]
                    and len(counts["together"]) >= together)
            if done or g.phase == engine.MATCH_OVER:
                break
            if g.phase == engine.GAME_OVER:  # any key deals the next game
                counts["games"] += 1
                t += 1500
                run_to(t)
                tap(t, start, settle=1100)
                run_to(t + 1200)
                t += 1200
                continue
            if g.phase == engine.PLAY:
                n = g.rules.piles_per_row
                piles = [p for p in range(2 * n) if g.coverable(p)]
                now = hw.ms(t)
                free = not g.locked(0, now) and not g.locked(1, now)
                if not counts["foul"] and counts["covered"] >= 3:
                    idle = [p for p in range(2 * n) if not g.coverable(p)]
                    if idle and not g.locked(0, now):
                        tap(t, key(0, idle[0]))
                elif piles and not counts["collision"] and counts["covered"] >= 6:
                    # B presses the pile A covers 40 ms after A: too late on both twins (a
                    # press at the same instant is a coin toss, and the chip's scanner may
                    # stamp two GPIO edges a scan apart)
                    tap(t, key(0, piles[0]))
                    run_to(t + 40)
                    tap(t + 40, key(1, piles[0]))
                elif len(counts["together"]) < together and free and at_once(t, piles):
                    pass
                elif piles:
                    if g.locked(player, now):
                        player = 1 - player
                    tap(t, key(player, piles[0]))
                    player = 1 - player
                else:
                    checks.append(t + 300)
            run_to(t + gap)
            t += gap
    finally:
        game_mod.Game.press = press
    checks.append(t + 300)
    return "\n".join(lines) + "\n", checks, counts


def desktop_run(script, seed, checkpoints, hz=None, keys="direct", nvm=None):
    """The desktop twin on the same script: (its glass at each checkpoint, in ms since the
    app started; the I2C bytes it sent after its first frame, up to the last). keys, nvm:
    its build and saved settings (desktop())."""
    from tools.keynames import name_of
    from twins.desktop.keypad import load_script
    hw, app = desktop(seed, keys, nvm, hz)
    names = {name_of(k, hw.keymap): k for k in range(len(hw.keymap))}
    hw.buttons.schedule(load_script(script, names, MAX_MS, len(names)), offset_ms=hw.ms(0))
    app.step()
    first = hw.bus.bytes_sent
    frames = []
    for ms in checkpoints:
        while hw.elapsed < ms:
            app.step()
        frames.append(hw.oled.frame())
    return frames, hw.bus.bytes_sent - first


def nvm_commands(run):
    """The run's flash commands that touch the nvm sector (write enables: the one before
    each of them), in order; a write status touches none."""
    out, pending = [], None
    for e in run.flash_log:
        if e["cmd"] == "wren":
            pending = e
            continue
        touches = "addr" in e and e["addr"] < NVM_END and e["addr"] + e.get("bytes", PAGE) > \
            NVM_START
        if touches:
            if pending is not None:
                out.append(pending)
            out.append(e)
        pending = None
    return out


def counted(commands):
    """'N page programs, M erases' of a list of flash commands."""
    programs = sum(e["cmd"] == "program" for e in commands)
    erases = sum(e["cmd"] == "erase" for e in commands)
    return "%d page program%s, %d erase%s" % (programs, "" if programs == 1 else "s", erases,
                                           "" if erases == 1 else "s")


def seed_of(run):
    """The seed of the first match the chip dealt (its console says it)."""
    for _, line in run.console:
        m = re.match(r"match: seed (\d+)", line)
        if m:
            return int(m.group(1))
    raise RuntimeError("the chip dealt no match:\n" + run.text())


def press_to_glass(run, presses, boxes):
    """For each press (ms after t0) and the box (x0, y0, x1, y1) of the pile it covers: ns
    from the GPIO edge to the last I2C byte of the first refresh after it that changes the
    pixels in that box (the pass that shows the cover)."""
    import bisect
    feeds = run.feeds
    out = []
    for ms, (x0, y0, x1, y1) in zip(presses, boxes):
        edge = min((t for t, _, down in run.keys if down and t >= run.t0 + ms * 1e6 - 1e3),
                   default=None)
        if edge is None:
            continue
        oled = run.oled_at((edge - run.t0) / 1e6)

        def box():
            f = oled.frame()
            return [f[y * run.width + x0:y * run.width + x1] for y in range(y0, y1)]
        before = box()
        writes = [w for w in run.i2c if w[0] >= edge and w[3] and w[2] == run.address]
        i = 0
        while i < len(writes):
            j = bisect.bisect_right(feeds, writes[i][0])
            end_of_pass = feeds[j] if j < len(feeds) else float("inf")
            last = None
            while i < len(writes) and writes[i][0] < end_of_pass:
                oled.write(writes[i][4])
                last = writes[i][1]
                i += 1
            if box() != before:
                out.append(last - edge)
                break
    return out


def cell_box(table, pile):
    """The pixels (x0, y0, x1, y1) a pile's card is drawn in, from the table's layout."""
    from firmware import glyphs
    c = table.cells[pile]
    return (min(c.rank.x, c.suit.x), min(c.rank.y, c.suit.y),
            max(c.rank.x + glyphs.RANK_W, c.suit.x + glyphs.SUIT_W),
            max(c.rank.y + glyphs.RANK_H, c.suit.y + glyphs.SUIT_H))


def _stats(values):
    v = sorted(values)
    if not v:
        return {}
    return {"n": len(v), "mean": sum(v) / len(v), "median": v[len(v) // 2],
            "p95": v[min(len(v) - 1, int(len(v) * 0.95))], "max": v[-1]}


def pass_times(run, start_ms):
    """Main-loop passes (watchdog feed to feed, ns) in the menu before start_ms and in play
    after it, those that sent I2C bytes apart."""
    feeds = [t for t in run.feeds if t >= run.t0]
    writes = [t for t, _, _, _, _ in run.i2c]
    import bisect
    groups = {"menu, idle": [], "play, idle": [], "play, refreshing": []}
    start = run.t0 + start_ms * 1e6
    for a, b in zip(feeds, feeds[1:]):
        sent = bisect.bisect_left(writes, b) > bisect.bisect_left(writes, a)
        if b < start:
            if not sent:
                groups["menu, idle"].append(b - a)
        elif a > start + 1500e6:  # after the deal
            groups["play, refreshing" if sent else "play, idle"].append(b - a)
    return {k: _stats(v) for k, v in groups.items()}


def figures(covers=50, frequencies=(400000, 1000000), progress=print, keys="direct",
            usb=True):
    """The chip figures of docs/BENCH.md: boot, heap, passes, press to glass, CPU split.

    The match is played with no USB host (a handheld on batteries) at each I2C clock, and
    once more at the first with the USB console connected (unless usb is False), for its
    heap lines and to see what serving the computer costs. keys: the build ("matrix": the
    same presses by the diode matrix; the glass compared with the desktop's direct build,
    which plays the same 4 piles a row)."""
    elf = (toolchain()[0] or "")[:-4] + ".elf"
    functions = elf_functions(elf) if os.path.isfile(elf) else None
    build = {} if keys == "direct" else {"CS_KEYS": keys}
    progress("  chip: boot and the seed of the first deal")
    boot = run("400 A3 tap 80\n", after_ms=600, settings=build or None)
    seed = seed_of(boot)
    free = {}
    script, checks, counts = match_script(seed, covers=covers, limit_ms=180000)
    out = {"boot_ms": boot.t0 / 1e6, "free": free, "seed": seed, "counts": counts, "runs": {},
           "keys": keys}
    for hz, usb in [(hz, False) for hz in frequencies] + [(frequencies[0], True)] * usb:
        progress("  chip: a match of %d covers at %d Hz, %s, the %s build" % (
            counts["covered"], hz, "USB console connected" if usb else "no USB host", keys))
        r = run(script, settings=dict(build, CS_I2C_HZ=hz), after_ms=800, usb=usb,
                profile=functions is not None)
        for _, line in (boot.console + r.console if usb else ()):
            for key, stem in (("after boot", "ready: "), ("at a match's start", "match: "),
                              ("after a game", "game over: ")):
                if line.startswith(stem) and "bytes free" in line:
                    free[key] = min(free.get(key, 1 << 30), int(line.split()[-3]))
        frames, desktop_bytes = desktop_run(script, seed, checks, hz)
        entry = {"press_to_glass": _stats(press_to_glass(r, counts["cover_at"],
                                                                counts["cover_box"])),
                 "passes": pass_times(r, 400),
                 "bytes": sum(len(x[4]) + 1 for x in r.i2c if x[0] >= r.t0 and x[3]),
                 "desktop_bytes": desktop_bytes,
                 "glass": sum(r.oled_at(ms).frame() == want for ms, want in
                              zip(checks, frames)),
                 "checks": len(checks)}
        if functions is not None:
            entry["cpu"] = {kind: cpu_split(h, functions) for kind, h in r.pcs.items()}
        entry["stats_saves"] = counted(nvm_commands(r))
        out["runs"][(hz, usb)] = entry
    return out


POWER_MENU_MS, POWER_OFF_AFTER_MS = 10000, 60000  # the menu left alone; SLEEP at 1 minute
CLOCKS_MHZ = (125, 96, 64, 48)  # settings.toml's CS_CPU_MHZ choices, fastest first


def clocks(mhz=CLOCKS_MHZ, covers=50, hz=400000, progress=print):
    """The direct build's match of `covers` covers by GPIO at I2C hz with no USB host, once
    at each CPU clock (settings.toml's CS_CPU_MHZ): {MHz: {"press_to_glass": _stats, "longest"
    pass in play (ns), "awake" in play, "hz": the clock the chip ran, "glass": checkpoints
    equal to the desktop twin's, "checks"}}."""
    seed = seed_of(run("400 A3 tap 80\n", after_ms=600))
    script, checks, counts = match_script(seed, covers=covers, limit_ms=180000)
    frames = desktop_run(script, seed, checks, hz)[0]
    out = {}
    for m in mhz:
        progress("  chip: a match of %d covers at %d MHz, I2C at %d kHz, no USB host"
                 % (counts["covered"], m, hz // 1000))
        r = run(script, settings={"CS_CPU_MHZ": m, "CS_I2C_HZ": hz}, usb=False, after_ms=800)
        passes = pass_times(r, 400)
        out[m] = {"press_to_glass": _stats(press_to_glass(r, counts["cover_at"],
                                                          counts["cover_box"])),
                  "longest": max(passes[k].get("max", 0) for k in ("play, idle",
                                                                   "play, refreshing")),
                  "awake": r.awake(400 + 1500, counts["cover_at"][-1]), "hz": r.cpu_hz(),
                  "glass": sum(r.oled_at(ms).frame() == want for ms, want in zip(checks, frames)),
                  "checks": len(checks)}
    return out


def chosen_clock(measured, limit_ns=16e6):
    """The lowest clock of clocks()' figures whose press to glass p95 is within limit_ns
    and whose glass is the desktop twin's at every checkpoint; None if none is."""
    good = [m for m, f in measured.items() if f["press_to_glass"]["p95"] <= limit_ns
            and f["glass"] == f["checks"]]
    return min(good) if good else None


def deep_sleep_ms():
    """How long after the screen goes off the firmware sleeps DORMANT (firmware/app.py)."""
    from firmware import app
    return app._DEEP_SLEEP_AFTER_MS


def power(covers=20, progress=print):
    """How much of the time the core is awake (not waiting for an interrupt), and at which
    clock, on the direct build at 400 kHz with no USB host: in the menu left alone, in a
    2-player match by GPIO, and with the screen off (SLEEP set to 1 minute) until the deep
    sleep ten minutes later; then MENU wakes it. With each run's simulated seconds per wall
    second, press to glass in the match, and the deep sleep's figures: when the crystal
    stopped (s after the screen went off), clk_sys as it stopped, MENU's press to the
    wake's first frame (ms), and whether that frame was the menu as it was."""
    progress("  chip: boot and the seed of the first deal")
    seed = seed_of(run("400 A3 tap 80\n", after_ms=600))
    out = {"seed": seed}
    progress("  chip: the menu, left alone for %d s" % (POWER_MENU_MS // 1000))
    menu = run("", after_ms=POWER_MENU_MS, usb=False)
    out["menu"] = {"awake": menu.awake(1000), "speed": menu.speed(), "hz": menu.cpu_hz()}
    script, _, counts = match_script(seed, covers=covers, limit_ms=180000)
    progress("  chip: a match of %d covers" % counts["covered"])
    play = run(script, after_ms=800, usb=False)
    from lab import battery
    lit = [battery.lit_percent(play.oled_at(ms).frame()) for ms in counts["cover_at"]]
    out["play"] = {"awake": play.awake(400 + 1500, counts["cover_at"][-1]),
                   "lit": sum(lit) / len(lit), "hz": play.cpu_hz(),
                   "speed": play.speed(), "covers": counts["covered"],
                   "press_to_glass": _stats(press_to_glass(play, counts["cover_at"],
                                                           counts["cover_box"]))}
    dark = POWER_OFF_AFTER_MS + deep_sleep_ms()
    progress("  chip: nobody presses a key for %d s (the screen goes off at %d s, the deep "
             "sleep %d s later), then MENU" % ((dark + 30000) // 1000, POWER_OFF_AFTER_MS
                                               // 1000, deep_sleep_ms() // 1000))
    off = run("%d MENU down\n" % (dark + 30000), after_ms=2000, usb=False,
              nvm=saved_settings(sleep=3))
    out["screen off"] = {"awake": off.awake(POWER_OFF_AFTER_MS + 2000, dark - 1000),
                         "speed": off.speed(), "hz": off.cpu_hz(off.t0 + dark * 1e6 - 1e9)}
    if off.reset is None:
        raise RuntimeError("the chip did not sleep and wake: " + off.why)
    progress("  chip: the boot after the wake")
    wake = run("300 MENU up\n", after_reset=off, usb=False, after_ms=4000)  # (boot: 2.6 s)
    out["dormant"] = {"after_off_s": (off.dormant[0] - off.t0) / 1e9 - POWER_OFF_AFTER_MS / 1e3,
                      "hz": off.cpu_hz(off.dormant[0] + 1),
                      "wake_ms": (wake.t0 + off.reset["t"] - off.dormant[1]) / 1e6,
                      "menu": wake.oled_at(400).frame() == off.oled_at(1000).frame()}
    return out


def print_power():
    """make chip ARGS=--power: power() printed."""
    f = power(progress=lambda line: print(line, file=sys.stderr))
    ms = {k: v / 1e6 for k, v in f["play"]["press_to_glass"].items() if k != "n"}
    print("the direct build, I2C at 400 kHz, no USB host (chip twin: rp2040js)")
    for what in ("menu", "play", "screen off"):
        print("%-12s awake %5.1f %% of the time at %.0f MHz; %.2f simulated s per wall s"
              % (what, 100 * f[what]["awake"], f[what]["hz"] / 1e6, f[what]["speed"]))
    d = f["dormant"]
    print("deep sleep   DORMANT %.1f s after the screen went off (clk_sys %.0f MHz as it "
          "stopped); MENU to the %s in %.0f ms" % (d["after_off_s"], d["hz"] / 1e6,
                                                    "menu as it was" if d["menu"] else
                                                    "first frame (not the menu as it was)",
                                                    d["wake_ms"]))
    print("press to glass mean %.1f ms, 95th percentile %.1f ms, worst %.1f ms (%d covers)"
          % (ms["mean"], ms["p95"], ms["max"], f["play"]["press_to_glass"]["n"]))
    from lab import battery
    mhz = f["play"]["hz"] / 1e6
    print("3 AAA cells: about %.0f hours of play (%.0f %% of the glass lit), %.0f days "
          "asleep (published currents, lab/battery.py)"
          % (battery.hours(f["play"]["awake"], f["play"]["lit"], mhz), f["play"]["lit"],
             battery.standby_days()))
    return 0


def print_figures(keys, hz=400000):
    """make chip --figures: figures() of one build at one I2C clock, no USB host, printed."""
    f = figures(frequencies=(hz,), progress=lambda line: print(line, file=sys.stderr),
                keys=keys, usb=False)
    entry = f["runs"][(hz, False)]
    ms = {k: v / 1e6 for k, v in entry["press_to_glass"].items() if k != "n"}
    play = entry["passes"]["play, idle"]
    print("the %s build, seed %d: a 2-player match of %d covers by GPIO, I2C at %d kHz, no "
          "USB host" % (keys, f["seed"], f["counts"]["covered"], hz // 1000))
    print("press to glass                mean %.1f ms, 95th percentile %.1f ms, worst %.1f ms "
          "(%d covers)" % (ms["mean"], ms["p95"], ms["max"], entry["press_to_glass"]["n"]))
    print("main-loop pass in play, idle  median %.2f ms" % (play.get("median", 0) / 1e6))
    print("glass                         the desktop twin's at %d of %d checkpoints"
          % (entry["glass"], entry["checks"]))
    return 0 if entry["glass"] == entry["checks"] else 1


def main(argv=None):
    """make chip; Ctrl-C or node killed is one line, exit status 128 + the signal."""
    try:
        with tempfile.TemporaryDirectory() as tmp:
            return _main(argv, tmp)
    except KeyboardInterrupt:
        print("make chip: stopped (Ctrl-C)", file=sys.stderr)
        return 128 + signal.SIGINT
    except Killed as e:
        print("make chip: error: %s" % e, file=sys.stderr)
        return 128 + e.signum


def _main(argv, tmp):
    ap = Parser(prog="make chip", description=__doc__.splitlines()[0])
    ap.add_argument("--script", metavar="FILE", help="key script (make play's format)")
    ap.add_argument("--png", metavar="FILE", type=output_file, help="save the final glass")
    ap.add_argument("--scale", type=bounded(1, 16), default=4, help="PNG scale (default 4)")
    ap.add_argument("--after", type=bounded(0, MAX_MS, " ms"), default=500,
                    help="run this long after the last key (default 500)")
    ap.add_argument("--bus-log", metavar="FILE", type=output_file,
                    help="write every I2C write (ns, address, hex)")
    ap.add_argument("--no-display", action="store_true", help="nothing answers on the bus")
    ap.add_argument("--uf2", metavar="FILE",
                    help="boot this Raspberry Pi Pico UF2 (default: this tree's, as make uf2 "
                         "writes it)")
    ap.add_argument("--flash", metavar="FILE",
                    help="the chip's whole 2 MB flash: read at the start (a new file: an erased "
                         "chip), written back at the end, so the board can be switched off and "
                         "on again; with --uf2 the file is flashed over it, as a file dragged "
                         "onto RPI-RP2, and without, it boots what the flash holds")
    ap.add_argument("--flash-timing", choices=("typ", "max"), default="typ",
                    help="the flash chip's busy times: the W25Q16JV's typical (default) or "
                         "maximum")
    ap.add_argument("--entropy", metavar="N", type=bounded(0, 0xFFFFFFFF),
                    help="the ring oscillator's random bit follows N's stream, so the chip "
                         "deals its own matches, the same for the same N (default: the bit "
                         "rp2040js reads, the same on every run)")
    ap.add_argument("--keys", choices=BUILDS,
                    help="the key build of this tree's UF2: direct (a pin per key, the default) "
                         "or matrix (a 4 x 6 diode matrix, Long Speed); a --uf2 file says its "
                         "own")
    ap.add_argument("--nets", metavar="FILE", default=NETS,
                    help="the matrix build's board: the nets.json make pcb reads back from a "
                         "board's copper (default hardware/pcb/nets.json, the committed board)")
    ap.add_argument("--figures", action="store_true",
                    help="instead of a script: a 2-player match of 50 covers by GPIO at 400 kHz "
                         "with no USB host, and its press to glass (mean, 95th percentile, "
                         "worst) and glass against the desktop twin's (a few minutes)")
    ap.add_argument("--power", action="store_true",
                    help="instead of a script: how much of the time the core is awake in the "
                         "menu, in a match and with the screen off, the twin's speed, press to "
                         "glass, and the hours of play on 3 AAA cells (a few minutes)")
    args = ap.parse_args(argv)
    if args.flash:
        problem = flash_problem(args.flash)
        if problem:
            fail("make chip", "--flash " + problem)
    fresh = bool(args.flash) and blank_flash(args.flash)
    held = bool(args.flash) and os.path.isfile(args.flash) and os.path.getsize(args.flash) > 0
    if args.keys and (args.uf2 or args.flash and not fresh):
        fail("make chip", "--keys makes this tree's UF2 for a build; the %s says its own "
                          "(its settings.toml's CS_KEYS)" % ("--uf2 file" if args.uf2 else
                                                               "flash given with --flash"))
    if args.figures and args.power:
        fail("make chip", "--figures or --power: one at a time")
    if (args.figures or args.power) and (args.uf2 or args.flash or args.script or args.png
                                         or args.bus_log or args.no_display):
        fail("make chip", "--%s plays its own runs on this tree's UF2: no --uf2, --flash, "
                          "--script, --png, --bus-log or --no-display"
             % ("figures" if args.figures else "power"))
    if args.nets != NETS and (args.figures or args.power):
        fail("make chip", "--nets wires a script's run; --figures and --power use the "
                          "committed board")
    if args.power and args.keys not in (None, "direct"):
        fail("make chip", "--power measures the direct build")
    text = ""
    if args.script is not None:
        try:
            text = files.read_text(args.script, "script")
        except files.FileProblem as e:
            fail("make chip", "--script %s" % e)
    uf2 = args.uf2
    if uf2 is not None:
        problem = files.input_problem(uf2) or check_uf2(uf2)
        if problem:
            fail("make chip", "--uf2 " + problem)
    if args.nets != NETS:
        try:
            board_nets(args.nets)
        except ValueError as e:
            fail("make chip", "--nets %s" % e)
        booted = uf2 or (args.flash if held and not fresh else None)
        if (keys_of(settings_of(booted)) if booted else args.keys or "direct") != "matrix":
            fail("make chip", "--nets wires the matrix build (the printed board): this run is "
                              "the direct build (add --keys matrix)")
    problem = missing(own_uf2=bool(args.uf2) or (bool(args.flash) and not fresh))
    if problem:
        fail("make chip", problem)
    if args.figures:
        return print_figures(args.keys or "direct")
    if args.power:
        return print_power()
    from tools.drive import DriveError
    from tools.uf2 import UF2Error
    if uf2 is None and (fresh or not args.flash):  # this tree's, as make uf2 writes it
        try:
            uf2 = build_uf2(tmp, {"CS_KEYS": args.keys} if args.keys else None)
        except (UF2Error, DriveError) as e:
            fail("make chip", str(e))
        except OSError as e:  # (the temporary folder's disk)
            fail("make chip", "cannot build this tree's UF2 (%s)" % files.cannot_write(tmp, e))
    keep = os.path.realpath(args.flash) + ".chip-tmp" if args.flash else None  # at the end
    try:
        r = run(text, uf2=uf2, display=not args.no_display, after_ms=args.after,
                flash=args.flash if held else None,
                reflash=bool(args.uf2) or fresh or not args.flash, flash_out=keep,
                flash_timing=args.flash_timing, entropy=args.entropy, nets=args.nets)
        if keep:
            try:
                os.replace(keep, os.path.realpath(args.flash))  # (a link is followed)
            except OSError as e:
                fail("make chip", "cannot write the flash back to %s: %s"
                     % (args.flash, e.strerror or e))
            print("flash                         %s (2 MB, written back)" % args.flash)
    except ScriptError as e:
        fail("make chip", "--script %s %s" % (args.script, e))
    except Killed:
        raise
    except (ValueError, RuntimeError) as e:  # (each names its file)
        fail("make chip", str(e))
    finally:
        if keep and os.path.exists(keep):
            os.remove(keep)
    for _, line in r.console:
        if line:
            print("console: " + line)
    if r.t0 is None:
        print("no full frame reached the glass (%s)" % r.why)
        return 1
    print("boot to the first full frame  %.0f ms simulated" % (r.t0 / 1e6))
    print("I2C writes                    %d (%d bytes)" % (len(r.i2c), sum(len(x[4]) for x in r.i2c)))
    if args.bus_log:
        files.write_or_fail(args.bus_log, "".join(
            "%d %d 0x%02x %s %s\n" % (t, end, a, "ack" if ack else "nack", data.hex())
            for t, end, a, ack, data in r.i2c).encode(), "make chip")
    if args.png:
        try:
            with files.replacing(args.png) as temp:
                r.oled_at((r.end - r.t0) / 1e6).to_image(args.scale).save(temp, "PNG")
        except OSError as e:
            fail("make chip", files.cannot_write(args.png, e))
        print("glass                         " + args.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
