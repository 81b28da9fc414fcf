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

make chip runs lab/chipbench.py, which measures with --figures and --power and hands any
other run to this module (python -m twins.chip.chip runs it alone); the UF2 and the flash
are prepared by twins/chip/flash.py.

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

from hardware import config
from tools import files
from tools.keynames import BUILDS
from twins.chip.flash import blank_flash, build_uf2, check_uf2, flash_problem, settings_of
from twins.desktop.play import MAX_MS
from twins.desktop.ssd1306 import VirtualSSD1306
from twins.boardvm import boardvm
from tools.cli import Parser, bounded, fail, output_file

HERE = os.path.dirname(os.path.abspath(__file__))
NODE_DIR = os.path.join(HERE, "js")
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
        after_reset=None, cells=None):
    """Boot a Pico's UF2 and play a key script (make play's format, times from the first
    full frame; the key names of the build the UF2's settings.toml says); returns a ChipRun.
    uf2: the file (default: this tree's, made by build_uf2 with settings and change_tree;
    settings={"CS_KEYS": "matrix"} makes the matrix build). usb=False runs it with no USB
    host (on batteries): the console is then not heard. flash: a 2 MB flash image to start
    from (a board switched off and on again), the UF2 written over it as the boot ROM
    writes a file dragged onto RPI-RP2 unless reflash is False; flash_out: where the flash
    goes at the end; flash_timing: the flash chip's busy times, "typ" or "max" (W25Q16JV).
    nvm: the 4 KB nvm sector's bytes, put in after the UF2 (flash.py's saved_settings()).
    faults: the matrix build's keys built wrong, {key number: "missing" (no diode) or
    "reversed"}.
    entropy: a 32-bit number whose stream the ring oscillator's random bit follows
    (twins/chip/js/errata.mjs), so the first deal is its own; None: the bit rp2040js reads,
    the same on every run (the first match is always seed 564724698, the goldens').
    nets: the matrix build's board (nets.json: board_nets), which wires its keys, MENU, the
    OLED and the piezo. after_reset: a ChipRun that ended in the reset after a wake from
    deep sleep (its .reset): this run is the boot that follows, from the flash, SRAM and
    watchdog scratch it left, the buttons it held still held, the script's times from the
    reset (not the first frame).
    cells: (from_v, to_v, over_ms): on 3 AAA cells, VSYS falling from from_v to to_v volts
    over the run's first over_ms ms (twins/chip/js/board.mjs wirePower); None: on USB power."""
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
               "reset_out": kept,
               "cells": None if cells is None else dict(zip(("from", "to", "over_ms"), cells))}
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


def seed_of(run):
    """The seed of the first match the chip dealt (its console says it)."""
    for _, line in run.console:
        m = re.match(r"match: seed (\d+)", line)
        if m:
            return int(m.group(1))
    raise RuntimeError("the chip dealt no match:\n" + run.text())


def main(argv=None):
    """make chip's run of a key script (python -m twins.chip.chip; make chip itself runs
    lab/chipbench.py, which adds the measurements and hands a run to boot_and_play)."""
    return stopped_in_a_line(lambda tmp: boot_and_play(parser().parse_args(argv), tmp))


def stopped_in_a_line(work):
    """work(a temporary folder)'s exit status; Ctrl-C or node killed is one line, exit
    status 128 + the signal."""
    try:
        with tempfile.TemporaryDirectory() as tmp:
            return work(tmp)
    except KeyboardInterrupt:
        print("make chip: stopped (Ctrl-C)", file=sys.stderr)
        return 128 + signal.SIGINT
    except Killed as e:
        print("make chip: error: %s" % e, file=sys.stderr)
        return 128 + e.signum


def parser():
    """make chip's command line: the flags of a run."""
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
    return ap


def boot_and_play(args, tmp):
    """The run args ask for (parser()'s), its UF2 built in tmp; its exit status."""
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
    print("I2C writes                    %d (%d bytes)"
          % (len(r.i2c), sum(len(x[4]) for x in r.i2c)))
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
