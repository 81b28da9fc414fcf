"""CircuitPython's own tools and the RP2040 boot ROM, found in one place: each from its
environment variable when that is set (.ci/run sets them from the shared toolchain), else
from the folder `make toolchain` fetched them into (tools/fetch.py), else not at all.

    CIRCUITPYTHON        the unix port, which the board VM twin runs (never fetched)
    CIRCUITPY_MPY_CROSS  CircuitPython's mpy-cross (its .mpy files start with 'C')
    CIRCUITPY_UF2        CircuitPython's image for the Raspberry Pi Pico
    RP2040_BOOTROM       the RP2040's boot ROM, bootrom-b1.bin
    CALIFORNIA_SPEED_TOOLCHAIN  the folder make toolchain writes (default .toolchain/ in
                         the project), laid out as ../shared/toolchain is

Without them the callers skip, fall back or say so; with a wrong path they fail.
"""
import os
import re
import subprocess
import sys

ENV_VM = "CIRCUITPYTHON"
ENV_MPY = "CIRCUITPY_MPY_CROSS"
ENV_UF2 = "CIRCUITPY_UF2"
ENV_ROM = "RP2040_BOOTROM"
ENV_DIR = "CALIFORNIA_SPEED_TOOLCHAIN"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DIR = os.path.join(ROOT, ".toolchain")
# The CircuitPython release make toolchain fetches: the one requirements.txt's
# circuitpython-stubs describe (a test holds the two together).
VERSION = "10.3.1"
MAJOR = 10
PICO = "raspberry_pi_pico"
BOOTROM_SHA256 = "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"  # RP2040 B1
HOWTO = ("set CIRCUITPYTHON to CircuitPython 10's unix port and CIRCUITPY_MPY_CROSS to its "
         "mpy-cross, or make toolchain for the mpy-cross "
         "(docs/TWINS.md: 'CircuitPython's own VM')")


class ToolchainError(Exception):
    """A toolchain path is set but does not work."""


def folder():
    """Where make toolchain keeps what it fetched."""
    return os.environ.get(ENV_DIR) or DEFAULT_DIR


def fetched(what, board=PICO):
    """The path make toolchain gives a file in folder() ("uf2" of a board, "mpy-cross",
    "bootrom"), whether or not it is there: the layout of ../shared/toolchain."""
    if what == "uf2":
        return os.path.join(folder(), "circuitpython", "board", board + ".uf2")
    if what == "mpy-cross":
        exe = ".exe" if sys.platform == "win32" else ""
        return os.path.join(folder(), "circuitpython", "bin", "mpy-cross" + exe)
    if what == "bootrom":
        return os.path.join(folder(), "rp2040", "bootrom-b1.bin")
    raise ValueError(what)


def _found(var, what, board=PICO):
    """$var when it is set (a variable wins, even naming nothing), else the fetched file
    when it is there, else None."""
    path = os.environ.get(var) if var else None
    if path:
        return path
    path = fetched(what, board)
    return path if os.path.isfile(path) else None


def firmware(board=PICO):
    """CircuitPython's image for a board: $CIRCUITPY_UF2 for the Pico, else make
    toolchain's; None when there is neither."""
    return _found(ENV_UF2 if board == PICO else None, "uf2", board)


def bootrom():
    """The RP2040 boot ROM: $RP2040_BOOTROM, else make toolchain's; None when neither."""
    return _found(ENV_ROM, "bootrom")


def chip_files():
    """(the Pico's UF2, the boot ROM) that the chip twin boots, each an existing file or
    None (what twins/chip/chip.py's toolchain() returns)."""
    return tuple(p if p and os.path.isfile(p) else None for p in (firmware(), bootrom()))


def _tool(var):
    path = os.environ.get(var)
    if not path:
        return None
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise ToolchainError("%s=%s is not an executable file" % (var, path))
    return path


def interpreter():
    """CircuitPython's unix port, or None when CIRCUITPYTHON is not set."""
    return _tool(ENV_VM)


def mpy_cross_version(path, timeout=60, name=None):
    """What `path --version` says (its first line), or ToolchainError when it does not
    run on this machine (name: how to call it, default the path)."""
    name = name or path
    try:
        p = subprocess.run([path, "--version"], capture_output=True, text=True,
                           timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise ToolchainError("%s: --version did not answer in %d s" % (name, timeout))
    except OSError as e:
        raise ToolchainError("%s does not run on this machine (%s)"
                             % (name, (e.strerror or str(e)).lower()))
    return (p.stdout.strip().splitlines() or [""])[0]


def check_mpy_cross(path, name=None):
    """The CircuitPython version of the mpy-cross at path ("10.3.1"), or ToolchainError
    in one line: it does not run here, is not CircuitPython's, or is of another major.
    name: how to call it in the message (default the path)."""
    name = name or path
    said = mpy_cross_version(path, name=name)
    m = re.match(r"CircuitPython (\d+)\.(\S+) ", said)
    if not m:
        raise ToolchainError("%s is not CircuitPython's mpy-cross (it says %r): CircuitPython "
                             "refuses MicroPython's .mpy files" % (name, said))
    if int(m.group(1)) != MAJOR:
        raise ToolchainError("%s is CircuitPython %s's mpy-cross; the board needs %d.x .mpy "
                             "files" % (name, m.group(1), MAJOR))
    return "%s.%s" % (m.group(1), m.group(2))


def mpy_cross(path=None):
    """CircuitPython's mpy-cross, checked: path when given (--mpy-cross), else
    $CIRCUITPY_MPY_CROSS, else make toolchain's; None when there is none of them."""
    if path:
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise ToolchainError("--mpy-cross %s is not an executable file" % path)
        name = path
    else:
        path = _tool(ENV_MPY)
        name = "%s=%s" % (ENV_MPY, path)
        if path is None:
            path = fetched("mpy-cross")
            if not os.path.isfile(path):
                return None
            name = "%s (make toolchain's)" % path
    check_mpy_cross(path, name)
    return path


def missing():
    """'' when the unix port is set and an mpy-cross is found, else a one-line reason and
    how to get them."""
    unset = [] if os.environ.get(ENV_VM) else [ENV_VM]
    if not os.environ.get(ENV_MPY) and not os.path.isfile(fetched("mpy-cross")):
        unset.append(ENV_MPY)
    if not unset:
        return ""
    return "%s not set: %s" % (" and ".join(unset), HOWTO)


def compile_mpy(src, dst, compiler=None, source=None):
    """src.py -> dst.mpy with CircuitPython's mpy-cross, naming its source `source` in
    tracebacks (default: src's file name); raises with mpy-cross's message."""
    compiler = compiler or mpy_cross()
    p = subprocess.run([compiler, "-o", dst, "-s", source or os.path.basename(src), src],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("mpy-cross rejects %s: %s" % (src, (p.stderr or p.stdout).strip()))


def library_bundle(dest, names, compiler=None, use_mpy=True):
    """A folder with lib/ holding the libraries names (deploy's LIBRARIES) from the pinned
    packages (what deploy --bundle takes): the board gets the libraries the desktop runs.
    Compiled to .mpy by compiler (default: mpy_cross()), or, with use_mpy False, by
    compiler if one is given and else copied as .py source."""
    import importlib.util
    import shutil
    if use_mpy:
        compiler = compiler or mpy_cross()
        if compiler is None:
            raise RuntimeError("no CircuitPython mpy-cross to compile them with")

    def put(src, dst):
        if compiler:
            compile_mpy(src, dst[:-3] + ".mpy", compiler)
        else:
            shutil.copyfile(src, dst)
    lib = os.path.join(dest, "lib")
    os.makedirs(lib, exist_ok=True)
    for name in names:
        spec = importlib.util.find_spec(name)  # not imported: Blinka would talk
        if spec.submodule_search_locations:  # a package: each of its modules
            package = list(spec.submodule_search_locations)[0]
            os.makedirs(os.path.join(lib, name), exist_ok=True)
            for f in sorted(os.listdir(package)):
                if f.endswith(".py"):
                    put(os.path.join(package, f), os.path.join(lib, name, f))
        else:
            put(spec.origin, os.path.join(lib, name + ".py"))
    return dest
