"""The firmware on CircuitPython's own VM: the board's interpreter, with stand-ins for its C modules.

CircuitPython 10's unix port (32-bit, like the RP2040) runs code.py from a CIRCUITPY tree
built exactly as `make deploy` writes it, with the bench in front: the stand-ins for board,
busio, displayio, keypad, microcontroller, ... and the bench that drives them
(twins/boardvm/board/; vmbench.py: clock, buttons from a key script, the OLED, nvm,
watchdog), with the chips' models they share with the desktop twin (twins/models/),
all compiled to .mpy side by side. The scripts that boot the firmware there (twins/boardvm/vm/:
vmboot.py, vmprobe.py) are this tool's: they import firmware, which nothing under
hardware/ does. The toolchain is found as tools/toolchain.py says.
"""
import os
import re
import shutil
import subprocess
import tempfile

from tools.boardcode import ROOT
# (the toolchain's paths and compiler, which make deploy uses too)
from tools.toolchain import (ENV_MPY, ENV_VM, HOWTO, ToolchainError,  # noqa: F401
                             compile_mpy, interpreter, library_bundle, missing, mpy_cross)

STANDINS = os.path.join(ROOT, "twins", "boardvm", "board")
MODELS = os.path.join(ROOT, "twins", "models")
GUESTS = os.path.join(ROOT, "twins", "boardvm", "vm")  # vmboot.py, vmprobe.py: run as source


def build_tree(dest, use_mpy=True):
    """The CIRCUITPY drive at dest, as deploy writes it (tools/drive.py), with the fixed
    version the goldens are made with; returns dest."""
    from tools import drive
    return drive.write(dest, version=drive.FIXED_VERSION, use_mpy=use_mpy)


FONT_FILE = "terminalio_font.bin"


def terminal_font():
    """The board's terminalio.FONT as the fontio stand-in reads it: width and height, then
    a 1-bit displayio.Bitmap of printable ASCII (32..126), one 6 x 12 tile each in a row,
    rows padded to 32-bit words, lowest bit first. Drawn from the Terminus font (ter-u12n)
    that the pinned Blinka ships, the font CircuitPython builds terminalio from, read by
    adafruit_bitmap_font as Blinka reads it."""
    import importlib.util
    from adafruit_bitmap_font import bitmap_font
    resources = list(importlib.util.find_spec("displayio").submodule_search_locations)[0]
    font = bitmap_font.load_font(os.path.join(resources, "resources", "ter-u12n.bdf"))
    w, h, x0, y0 = font.get_bounding_box()
    first, count = 32, 95
    stride = (w * count + 31) // 32 * 4
    data = bytearray(2 + stride * h)
    data[0], data[1] = w, h
    for tile in range(count):
        g = font.get_glyph(first + tile)
        top = (h + y0) - (g.height + g.dy)  # rows from the tile's top to the glyph's
        for gy in range(g.height):
            for gx in range(g.width):
                x, y = g.dx - x0 + gx, top + gy
                if g.bitmap[gx, gy] and 0 <= x < w and 0 <= y < h:
                    x += tile * w
                    data[2 + y * stride + x // 8] |= 1 << (x % 8)
    return bytes(data)


def bench_dir(dest):
    """The stand-ins and the chips' models (top-level modules beside them: ssd1306,
    debounce, norflash) compiled to .mpy in dest (less of the heap goes to the bench),
    with the board's built-in font and vmboot.py beside them.

    Each module's source is named by its module name ("keypad", not "keypad.py"): a
    name the VM interns anyway, where a file name would be one more interned name that
    the board, whose modules are C, does not have (see the soak's names test)."""
    compiler = mpy_cross()
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(dest, FONT_FILE), "wb") as f:
        f.write(terminal_font())
    for base, _, files in os.walk(STANDINS):
        rel = os.path.relpath(base, STANDINS)
        if "__pycache__" in rel:
            continue
        os.makedirs(os.path.join(dest, rel), exist_ok=True)
        for name in files:
            if name.endswith(".py"):
                module = ".".join([p for p in rel.split(os.sep) if p != "."]
                                  + ([] if name == "__init__.py" else [name[:-3]]))
                compile_mpy(os.path.join(base, name),
                            os.path.join(dest, rel, name[:-3] + ".mpy"), compiler, module)
    for name in os.listdir(MODELS):
        if name.endswith(".py") and name != "__init__.py":
            compile_mpy(os.path.join(MODELS, name), os.path.join(dest, name[:-3] + ".mpy"),
                        compiler, name[:-3])
    shutil.copy(os.path.join(GUESTS, "vmboot.py"), os.path.join(dest, "vmboot.py"))
    return dest


def run_guest(path, prelude="", heap="1M", timeout=600):
    """Run a guest script of the repo (tests/twins/boardvm/vm/*.py) in CircuitPython's VM, with ROOT set
    to the project; returns a twins.boardvm.mpvm.VMResult (output, exit code)."""
    from twins.boardvm.mpvm import VMResult
    with open(os.path.join(ROOT, path)) as f:
        code = "ROOT = %r\n" % ROOT + prelude + f.read()
    p = subprocess.run([interpreter(), "-X", "heapsize=" + heap, "-c", code],
                       capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    return VMResult(p.stdout + p.stderr, p.returncode)


class Run:
    """What the runs printed, parsed: figures (the bench's counters at the end), heap
    samples, events, shots and exceptions; `boots` is how many times code.py started."""

    def __init__(self, output, returncode, state, flash=b"", out_dir=None):
        self.output = output
        self.returncode = returncode
        self.figures = {k: int(v) for k, v in state.items()  # (not the bytes kept as hex)
                        if k not in ("contact", "sleep_memory", "oled")
                        and re.match(r"-?[0-9]+\Z", v)}
        self.flash = flash
        self.ended = state.get("why", "")
        self.heap = {}
        self.reboots = []  # live heap at the start of each later code.py run
        self.minutes = []
        self.events = []
        self.shots = {}
        self.exceptions = []
        self.name_blocks = []  # [(when, qstr pools)] at each start's first pass and end
        for line in output.splitlines():
            if line.startswith("qstr pool: n_pool=") and self.name_blocks:
                when, _ = self.name_blocks[-1]
                self.name_blocks[-1] = (when, int(line.split("=")[1].split(",")[0]))
                continue
            w = line.split(" ", 2)
            if w[0] != "BENCH" or len(w) < 3:
                continue
            rest = w[2]
            if w[1] == "event":
                t, text = rest.split(" ", 1)
                self.events.append((int(t), text))
            elif w[1] == "exception":
                self.exceptions.append(rest)
            elif w[1] == "heap":
                k, v = rest.split()
                if k == "reboot":
                    self.reboots.append(int(v))
                else:
                    self.heap[k] = int(v)
            elif w[1] == "names":
                self.name_blocks.append((rest, -1))
            elif w[1] == "heap_minute":
                m, v = rest.split()
                self.minutes.append((int(m), int(v)))
        self.done = self.ended == "stop" and returncode == 0
        self.nvm_copies = []  # the flash after each nvm write, in order
        if out_dir is not None:
            names = os.listdir(out_dir)
            for name in names:
                if name.startswith("shot-"):
                    with open(os.path.join(out_dir, name), "rb") as f:
                        self.shots[name[5:-4]] = frame_from_pages(f.read())
            for n in sorted(int(name[4:-4]) for name in names if name.startswith("nvm-")):
                with open(os.path.join(out_dir, "nvm-%d.bin" % n), "rb") as f:
                    self.nvm_copies.append(f.read())

    def name_pools(self):
        """[(qstr pools at a start's first pass, at its end)] for each start of code.py that
        ran a pass and ended with the bench's names line."""
        pairs, started = [], None
        for when, pools in self.name_blocks:
            if when == "started":
                started = pools
            elif started is not None:
                pairs.append((started, pools))
                started = None
        return pairs

    def said(self, text):
        """The events whose text contains text."""
        return [e for e in self.events if text in e[1]]

    def console(self):
        """The lines the firmware printed (everything that is not the bench's: its BENCH
        lines and the VM's "qstr pool:" lines that follow its names lines)."""
        return [ln for ln in self.output.splitlines()
                if not ln.startswith(("BENCH ", "qstr pool: "))]


def frame_from_pages(pages):
    """SSD1306 pages (8 x 128 bytes, bit 0 = top) -> 128*64 bytes of 1/0, row-major,
    the layout of VirtualSSD1306.frame()."""
    out = bytearray(128 * 64)
    for y in range(64):
        for x in range(128):
            out[y * 128 + x] = (pages[(y >> 3) * 128 + x] >> (y & 7)) & 1
    return bytes(out)


def board_path(bench):
    """The VM's module path: the stand-ins, then the drive as the board has it ('' and
    lib, the VM running in the tree). A module's file name is kept in the heap, so the
    tree is found by relative names, as short as the board's ("firmware/app.mpy", not
    the temporary folder's full path: that would cost the heap a few hundred bytes more
    for every extra ten characters of it)."""
    return ":".join([bench, "", "lib"])


def run(tree, *, script="", heap="120K", stop_at=-1, seed=1, pass_ms=3, display=True,
        probe=False, timeout=900, bench=None, max_boots=200, settings=None):
    """Boot tree/code.py in CircuitPython's VM with the stand-ins, again after every reset
    (a fresh process, so a fresh heap, each time), until the script ends; returns a Run.

    script: the bench's key script text (see twins/boardvm/board/vmbench.py).
    settings: a settings.toml's text that os.getenv reads instead of the tree's (e.g.
    'CS_KEYS = "matrix"\n' boots the matrix build; key_contacts says where its keys are)."""
    vm = interpreter()
    if vm is None:
        raise ToolchainError(missing())
    outputs, code = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        bench = bench or bench_dir(os.path.join(tmp, "bench"))
        script_path = os.path.join(tmp, "script.keys")
        state_path = os.path.join(tmp, "state")
        out_dir = os.path.join(tmp, "out")
        os.makedirs(out_dir)
        with open(script_path, "w") as f:
            f.write(script)
        env = dict(os.environ, MICROPYPATH=board_path(bench))
        options = ["state=" + state_path, "out=" + out_dir, "script=" + script_path,
                   "stop_at=%d" % stop_at, "seed=%d" % seed, "pass_ms=%d" % pass_ms,
                   "display=%d" % display, "probe=%d" % probe]
        if settings is not None:
            settings_path = os.path.join(tmp, "settings.toml")
            with open(settings_path, "w") as f:
                f.write(settings)
            options.append("settings=" + settings_path)
        options_path = os.path.join(tmp, "options")  # (vmboot.py: not on its command line)
        with open(options_path, "w") as f:
            f.write("".join(o + "\n" for o in options))
        argv = [vm, "-X", "heapsize=" + heap, os.path.join(bench, "vmboot.py"), options_path]
        for _ in range(max_boots):
            p = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tree,
                               timeout=timeout)
            outputs.append(p.stdout + p.stderr)
            code = p.returncode
            if code != 0 or "BENCH next " not in p.stdout or "BENCH next stop" in p.stdout:
                break
        state, flash = {}, b""
        if os.path.exists(state_path):
            with open(state_path) as f:
                state = dict(line.rstrip("\n").split(" ", 1) for line in f if " " in line)
            with open(state_path + ".flash", "rb") as f:
                flash = f.read()
        return Run("".join(outputs), code, state, flash, out_dir)


def key_contacts(settings=""):
    """What the bench's key script names each key of a settings.toml's build by, in key
    number order (hardware/keymap.py): the GPIO number of a button on its own pin, or
    'row.column' (two GPIO numbers) for a key of the matrix build's diode matrix."""
    from hardware import config, pinmap

    def getenv(key):
        for line in settings.splitlines():
            k, _, v = line.partition("=")
            if k.strip() == key:
                return v.split("#", 1)[0].strip().strip('"')
        return None

    values = config.read(getenv, lambda n: n if n in pinmap.GP_NAMES else None,
                         lambda _: None)
    gpio = lambda name: name[2:]  # noqa: E731  ("GP14" -> "14")
    if values["CS_KEYS"] != "matrix":
        return [gpio(n) for n in config.key_pins(values)]
    rows, columns = config.matrix_pins(values)
    keys = ["%s.%s" % (gpio(r), gpio(c)) for r in rows for c in columns]
    return keys + [gpio(values["CS_MENU"])]


def probe(tree, heap="256K"):
    """[(what, bytes)] of the heap: the board code a package at a time, then the app's
    objects one by one (twins/boardvm/vm/vmprobe.py)."""
    with tempfile.TemporaryDirectory() as tmp:
        bench = bench_dir(os.path.join(tmp, "bench"))
        shutil.copy(os.path.join(GUESTS, "vmprobe.py"), os.path.join(bench, "vmprobe.py"))
        os.makedirs(os.path.join(tmp, "out"))
        env = dict(os.environ, MICROPYPATH=board_path(bench))
        p = subprocess.run([interpreter(), "-X", "heapsize=" + heap,
                            os.path.join(bench, "vmprobe.py"), "tree=" + tree,
                            "out=" + os.path.join(tmp, "out")],
                           capture_output=True, text=True, env=env, cwd=tree, timeout=600)
    rows = [ln.split(" ", 1)[1].rsplit(" ", 1) for ln in p.stdout.splitlines()
            if ln.startswith("PROBE ")]
    if not rows or rows[-1][0] != "done":
        raise RuntimeError("the heap probe failed: %s" % (p.stdout + p.stderr)[-1500:])
    return [(what, int(n)) for what, n in rows[:-1]]


def fits(run_result):
    """True when a run went to the end of its script with no error but injected faults."""
    return run_result.done and all("bench fault" in e for e in run_result.exceptions)


def smallest_arena(tree, script, lo_kb=64, hi_kb=256, base=0, **options):
    """The smallest arena in KB, over base bytes (-X heapsize=base + KB * 1024; base: the
    bench's share, as the soak tests give it), bisected to 1 KB, in which the script runs to
    its end with no error; None if even hi_kb is too small."""
    def ok(kb):
        return fits(run(tree, script=script, heap=str(base + kb * 1024), **options))
    if not ok(hi_kb):
        return None
    while hi_kb - lo_kb > 1:
        mid = (lo_kb + hi_kb) // 2
        if ok(mid):
            hi_kb = mid
        else:
            lo_kb = mid
    return hi_kb
