"""Stand-ins for CircuitPython's C modules have exactly the board's names and parameters.

Every public name of a stand-in (the board VM's, twins/boardvm/board/, and the desktop
twin's objects that play keypad, nvm and busio) must be in circuitpython-stubs 10.3, and
every function they share must take the same parameters. Where the stubs and the C code
disagree, the C code is the board: those few places are listed in STUB_ERRATA with the
source that says so, and nowhere else is a difference allowed.
"""
import ast
import os

import pytest

from tools.boardcode import ROOT
STANDINS = os.path.join(ROOT, "twins", "boardvm", "board")
SITE = os.path.dirname(os.path.dirname(pytest.__file__))


def _stub_path(module):
    if module == "board":  # the Pico's own board module
        return os.path.join(SITE, "board_definitions", "raspberry_pi_pico", "__init__.pyi")
    head, _, rest = module.partition(".")
    return os.path.join(SITE, head + "-stubs", *(rest.split(".") if rest else []),
                        "__init__.pyi")


MODULES = ("board", "busio", "busdisplay", "displayio", "i2cdisplaybus", "keypad",
           "microcontroller", "nvm", "pwmio", "supervisor", "traceback", "watchdog",
           "alarm", "alarm.pin", "fontio", "terminalio", "bitmaptools")

# (module, qualified name): why the stand-in differs from the stub, and the source.
STUB_ERRATA = {
    ("traceback", "print_exception"): "value and tb are optional in C (shared-bindings/"
                                      "traceback/__init__.c: MP_OBJ_NULL defaults)",
    ("traceback", "format_exception"): "same as print_exception",
    ("alarm.pin", "PinAlarm.__init__"): "value is keyword-only in C (shared-bindings/alarm/"
                                        "pin/PinAlarm.c: MP_ARG_KW_ONLY | MP_ARG_REQUIRED)",
    ("keypad", "KeyMatrix.__init__"): "columns_to_anodes, interval, max_events and "
                                      "debounce_threshold are keyword-only in C (shared-"
                                      "bindings/keypad/KeyMatrix.c: MP_ARG_KW_ONLY)",
}
# Dunders every CircuitPython object has, which stubs do not list. (The stubs give
# __exit__(self); C takes the protocol's three arguments, so its parameters are not compared.)
ALWAYS = {"__init__", "__repr__", "__enter__", "__exit__", "__slots__"}


def _params(fn):
    """[(name, kind, has_default)] with kind 'pos', 'kw', '*' or '**' (self dropped);
    MicroPython has no positional-only syntax, so those count as 'pos'."""
    a = fn.args
    pos = a.posonlyargs + a.args
    defaults = [False] * (len(pos) - len(a.defaults)) + [True] * len(a.defaults)
    out = [(p.arg, "pos", d) for p, d in zip(pos, defaults)]
    out += [(p.arg, "kw", d is not None) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
    if a.vararg:
        out.append(("*", "*", False))
    if a.kwarg:
        out.append(("**", "**", False))
    return [p for p in out if p[0] not in ("self", "cls")]


def _members(tree):
    """{name: node} of a module: functions, classes (with {member: node}), assignments."""
    out = {}
    for n in tree.body:
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            out[n.name] = n
        elif isinstance(n, ast.Assign):
            for t in n.targets:
                for name in ([t] if not isinstance(t, ast.Tuple) else t.elts):
                    if isinstance(name, ast.Name):
                        out[name.id] = n
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            out[n.target.id] = n
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            for a in n.names:
                out[(a.asname or a.name).split(".")[0]] = n
    return out


def _class_members(cls, tree=None):
    """{name: node} of a class: methods, properties, class attributes, `self.x = ...`
    assignments in its methods, and `Class.X = ...` assignments after it; with the tree,
    the members of its base classes defined there too (a stand-in's private _Scanner)."""
    out = {}
    for n in cls.body:
        if isinstance(n, ast.FunctionDef):
            out.setdefault(n.name, n)
            for sub in ast.walk(n):
                if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store) \
                        and isinstance(sub.value, ast.Name) and sub.value.id == "self":
                    out.setdefault(sub.attr, sub)
        elif isinstance(n, (ast.Assign, ast.AnnAssign)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    out[t.id] = n
    for n in (tree.body if tree else []):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) \
                        and t.value.id == cls.name:
                    out[t.attr] = n
    for base in cls.bases:  # (its own members first: they override the base's)
        for n in (tree.body if tree else []):
            if isinstance(n, ast.ClassDef) and isinstance(base, ast.Name) and n.name == base.id:
                for name, node in _class_members(n, tree).items():
                    out.setdefault(name, node)
    return out


def _public(name):
    return not name.startswith("_") or name in ALWAYS or (name.startswith("__") and
                                                         name.endswith("__"))


def _compare_function(where, mine, stub, errata_key):
    if errata_key in STUB_ERRATA or where.endswith(".__exit__"):
        return []
    if not isinstance(stub, ast.FunctionDef) or not isinstance(mine, ast.FunctionDef):
        return []
    a, b = _params(mine), _params(stub)
    if a != b:
        return ["%s: parameters %s, the stubs say %s" % (where, a, b)]
    return []


def check_class(module, cls, stub_cls, tree):
    """Differences between a stand-in class and its stub class (errata by the stub's
    class name)."""
    problems = []
    mine, theirs = _class_members(cls, tree), _class_members(stub_cls)
    for name, node in mine.items():
        if not _public(name):
            continue
        if name not in theirs:
            if name not in ALWAYS:
                problems.append("%s.%s.%s is not in the stubs" % (module, cls.name, name))
            continue
        problems += _compare_function("%s.%s.%s" % (module, cls.name, name), node,
                                      theirs[name], (module, "%s.%s" % (stub_cls.name, name)))
    return problems


def check_module(module, source, stub_source):
    """Differences between a stand-in module's source and its stub."""
    tree, stub = ast.parse(source), ast.parse(stub_source)
    mine, theirs = _members(tree), _members(stub)
    problems = []
    for name, node in mine.items():
        if name.startswith("_") or isinstance(node, (ast.Import, ast.ImportFrom)) and \
                name not in theirs:
            if isinstance(node, (ast.Import, ast.ImportFrom)) and not name.startswith("_") \
                    and name not in ("sys", "array", "const") \
                    and not os.path.isdir(os.path.dirname(_stub_path(module + "." + name))):
                problems.append("%s imports %s under a public name" % (module, name))
            continue
        if name not in theirs:
            problems.append("%s.%s is not in the stubs" % (module, name))
        elif isinstance(node, ast.ClassDef) and isinstance(theirs[name], ast.ClassDef):
            problems += check_class(module, node, theirs[name], tree)
        else:
            problems += _compare_function("%s.%s" % (module, name), node, theirs[name],
                                          (module, name))
    return problems


# Parts of a module that the stand-in keeps in a file of its own, loaded on first use.
PARTS = {"keypad": ("KeyMatrix",)}


def _standin_source(module):
    parts = module.split(".")
    path = os.path.join(STANDINS, *parts) + ".py"
    if not os.path.exists(path):
        path = os.path.join(STANDINS, *parts, "__init__.py")
    with open(path) as f:
        source = f.read()
    for part in PARTS.get(module, ()):
        with open(os.path.join(STANDINS, part + ".py")) as f:
            source += "\n" + f.read()
    return source


def _stub_source(module):
    with open(_stub_path(module)) as f:
        return f.read()


@pytest.mark.parametrize("module", MODULES)
def test_board_vm_standin_has_the_boards_names_and_parameters(module):
    assert check_module(module, _standin_source(module), _stub_source(module)) == []


def test_the_checker_finds_an_extra_member_and_a_wrong_signature():
    stub = "class WatchDogTimer:\n    def feed(self) -> None: ...\n    mode: int\n"
    extra = "class WatchDogTimer:\n    def feed(self):\n        pass\n    def deinit(self):\n" \
            "        pass\n"
    assert check_module("watchdog", extra, stub) == [
        "watchdog.WatchDogTimer.deinit is not in the stubs"]
    wrong = "class WatchDogTimer:\n    def feed(self, now):\n        pass\n"
    assert len(check_module("watchdog", wrong, stub)) == 1
    assert check_module("x", "def helper():\n    pass\n", "") == ["x.helper is not in the stubs"]


def test_every_stub_gap_is_still_one():
    # An erratum that the stubs no longer need is dropped, not kept for ever.
    for (module, name), why in STUB_ERRATA.items():
        stub = ast.parse(_stub_source(module))
        mine = ast.parse(_standin_source(module))
        def find(tree, qual):
            node = tree
            for part in qual.split("."):
                node = (_class_members(node) if isinstance(node, ast.ClassDef)
                        else _members(node))[part]
            return node
        assert _params(find(mine, name)) != _params(find(stub, name)), (module, name, why)


# ---- the desktop twin's stand-ins (CPython): the objects the firmware meets as keypad's
# events, queue and scanner, microcontroller.nvm and busio.I2C. Tests and front ends drive
# them through objects of their own (Buttons, Flash, Bus), which are not checked here. ----

DESKTOP = (
    ("twins/desktop/keypad.py", "Event", "keypad", "Event"),
    ("twins/desktop/keypad.py", "EventQueue", "keypad", "EventQueue"),
    ("twins/desktop/keypad.py", "VirtualKeys", "keypad", "Keys"),
    ("twins/desktop/keypad.py", "VirtualKeyMatrix", "keypad", "KeyMatrix"),
    ("twins/desktop/virtual.py", "NVM", "nvm", "ByteArray"),
    ("twins/desktop/ssd1306.py", "VirtualI2C", "busio", "I2C"),
)


@pytest.mark.parametrize("path,name,module,stub_name", DESKTOP,
                         ids=["%s:%s" % (d[0], d[1]) for d in DESKTOP])
def test_desktop_twin_standin_has_the_boards_names_and_parameters(path, name, module,
                                                                  stub_name):
    with open(os.path.join(ROOT, path)) as f:
        tree = ast.parse(f.read())
    cls = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name][0]
    stub = ast.parse(_stub_source(module))
    stub_cls = [n for n in stub.body if isinstance(n, ast.ClassDef) and n.name == stub_name][0]
    assert check_class(module, cls, stub_cls, tree) == []
