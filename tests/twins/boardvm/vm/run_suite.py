# Guest script: runs test functions inside a MicroPython or CircuitPython VM.
# The host puts `MODULES = [...]` (module names in tests/engine) and `ROOT = ...` (the
# project as the VM sees it) before this text.
# In the wasm VM a collection misses roots held only on the C/VM stack (loop iterators,
# temporaries), so automatic collection is off and gc.collect() runs only at module
# level, with everything live kept in globals and the loop driven by an index.
import gc
import sys

sys.path.insert(0, ROOT)  # noqa: F821 (set by the host: where the project is)
sys.path.insert(0, ROOT + "/tests/engine")  # noqa: F821
gc.disable()
_tests = []
for _modname in MODULES:  # noqa: F821 (set by the host)
    try:
        _mod = __import__(_modname)
    except Exception as _e:
        print("IMPORTFAIL", _modname, repr(_e))
        continue
    for _name in sorted(dir(_mod)):
        if _name.startswith("test_"):
            _tests.append((_modname, _name))
_i = 0
while _i < len(_tests):
    gc.collect()
    _modname, _name = _tests[_i]
    _i += 1
    try:
        getattr(sys.modules[_modname], _name)()
        print("PASS", _modname, _name)
    except Exception as _e:
        print("FAIL", _modname, _name, repr(_e))
print("DONE", len(_tests))
