"""CircuitPython's own tools, found through two environment variables (.ci/run sets them
from the shared toolchain): its unix port, which the board VM twin runs, and its mpy-cross,
which compiles what goes onto the board (make deploy, make uf2, the bundle).

    CIRCUITPYTHON        the unix port, e.g. .../circuitpython/bin/circuitpython32
    CIRCUITPY_MPY_CROSS  CircuitPython's mpy-cross (its .mpy files start with 'C')

Without them the callers skip or say so; with a wrong path they fail.
"""
import os
import subprocess

ENV_VM = "CIRCUITPYTHON"
ENV_MPY = "CIRCUITPY_MPY_CROSS"
HOWTO = ("set CIRCUITPYTHON to CircuitPython 10's unix port and CIRCUITPY_MPY_CROSS to its "
         "mpy-cross (README: 'CircuitPython's own VM')")


class ToolchainError(Exception):
    """A toolchain path is set but does not work."""


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


def mpy_cross():
    """CircuitPython's mpy-cross, or None when CIRCUITPY_MPY_CROSS is not set."""
    path = _tool(ENV_MPY)
    if path is not None:
        out = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
        if "CircuitPython" not in out:
            raise ToolchainError("%s=%s is not CircuitPython's mpy-cross (it says %r)"
                                 % (ENV_MPY, path, out.strip()))
    return path


def missing():
    """'' when both tools are set, else a one-line reason and how to get them."""
    unset = [v for v in (ENV_VM, ENV_MPY) if not os.environ.get(v)]
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


def library_bundle(dest):
    """A folder with lib/ holding deploy's LIBRARIES compiled from the pinned packages
    (what deploy --bundle takes): the board gets the libraries the desktop runs."""
    import importlib.util
    from tools.deploy import LIBRARIES
    compiler = mpy_cross()
    lib = os.path.join(dest, "lib")
    os.makedirs(lib, exist_ok=True)
    for name in LIBRARIES:
        spec = importlib.util.find_spec(name)  # not imported: Blinka would talk
        if spec.submodule_search_locations:  # a package: each of its modules
            package = list(spec.submodule_search_locations)[0]
            os.makedirs(os.path.join(lib, name), exist_ok=True)
            for f in sorted(os.listdir(package)):
                if f.endswith(".py"):
                    compile_mpy(os.path.join(package, f),
                                os.path.join(lib, name, f[:-3] + ".mpy"), compiler)
        else:
            compile_mpy(spec.origin, os.path.join(lib, name + ".mpy"), compiler)
    return dest
