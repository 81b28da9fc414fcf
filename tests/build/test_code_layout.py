"""The code's shape, as issue 24 left it for the next engineer: one press takes one road
(the key filter, then the screen on show, then the app), each rule about the keys and each
limit of the seats lives in one place, and no board function outgrows a screen."""
import ast
import os
import re

from firmware import app, crash, howto, keyfilter, match, menus, runner, selftest
from tools import mpy

ROOT = mpy.ROOT


def _source(rel):
    with open(os.path.join(ROOT, rel)) as f:
        return f.read()


def _defined(name):
    """The board files that assign name at module level."""
    found = []
    for rel in mpy.board_files():
        for node in ast.parse(_source(rel)).body:
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == name for t in node.targets):
                found.append(rel)
    return found


def test_no_board_function_is_longer_than_50_lines():
    long = []
    for rel in mpy.board_files():
        for node in ast.walk(ast.parse(_source(rel))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > 50:
                    long.append("%s %s: %d lines" % (rel, node.name, lines))
    assert not long, long


def test_the_app_is_a_dispatcher_of_at_most_15_methods_and_250_lines():
    tree = ast.parse(_source("firmware/app.py"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "App")
    methods = [n.name for n in cls.body if isinstance(n, ast.FunctionDef)]
    assert len(methods) <= 15, methods
    assert cls.end_lineno - cls.lineno + 1 <= 250


def test_each_key_rule_and_seat_limit_is_defined_once():
    for name in ("_BOUNCE_MS", "_BOOT_MS", "_HELD_MS", "_PAUSE_HOLD_MS", "_EXIT_HOLD_MS"):
        assert _defined(name) == ["firmware/keyfilter.py"], name
    for name in ("PILES_A_ROW", "PILE_CHOICES", "FACING"):
        assert _defined(name) == ["hardware/seats.py"], name
    # MENU is told from a pile button by its role in one place: the key map's nav_of().
    menu_tests = [rel for rel in mpy.board_files()
                  if re.search(r"== ROLE_MENU", _source(rel))]
    assert menu_tests == ["hardware/keymap.py"], menu_tests


def _copies_agree(names):
    """How many of the screens' and the app's copies of names there are; each must equal
    the original."""
    seen = 0
    for module in (app, crash, howto, match, menus, runner, selftest):
        for name, value in names.items():
            if hasattr(module, name):
                assert getattr(module, name) == value, (module.__name__, name)
                seen += 1
    return seen


def test_the_screens_number_the_meanings_as_the_filter_does():
    """Each screen writes the kinds of meaning it reads again as const() (a name the board
    keeps costs one of its few interned names): they must agree with the filter's."""
    kinds = {n: getattr(keyfilter, n) for n in ("_M_PRESS", "_M_RELEASE", "_M_BOUNCE", "_M_HOLD",
                                                "_M_LONG", "_M_TEST", "_M_WAKE", "_M_NOTE")}
    assert len(set(kinds.values())) == 8
    assert _copies_agree(kinds) >= 10


def test_the_screens_number_the_actions_as_the_app_does():
    """Each screen writes the actions it returns again as const(); they must agree with
    firmware/__init__.py's, which the app reads."""
    import firmware
    actions = {n: getattr(firmware, n) for n in dir(firmware)
               if n.startswith("_") and n[1:].isupper() and isinstance(getattr(firmware, n), int)}
    assert all(n.startswith("_A_") for n in actions), actions
    assert "_A_NOTHING" in actions and "_A_TO_MENU" in actions
    assert len(set(actions.values())) == len(actions)
    assert _copies_agree(actions) >= 30


def _imports(rel):
    """The project modules a file imports, at the top or inside a function, but not under
    `if False:` (names for the type checker only)."""
    package = rel[:-3].replace("/", ".").rsplit(".", 1)[0]
    found = set()

    def walk(node):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Constant) and \
                node.test.value is False:
            return
        if isinstance(node, ast.ImportFrom):  # from X import a: module X, or X.a
            parts = package.split(".")
            base = ".".join(parts[:len(parts) - node.level + 1] + [node.module or ""]) \
                if node.level else node.module
            base = base.strip(".")
            found.add(base)
            found.update(base + "." + a.name for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        for child in ast.iter_child_nodes(node):
            walk(child)
    walk(ast.parse(_source(rel)))
    return found


def _circles(rels):
    """Each circle of imports among the given files, as a list of modules."""
    mods = {rel[:-3].replace("/", "."): rel for rel in rels}
    mods.update({m[:-len(".__init__")]: rel for m, rel in list(mods.items())
                 if m.endswith(".__init__")})
    graph = {m: {i for i in _imports(rel) if i in mods and mods[i] != rel}
             for m, rel in mods.items() if not m.endswith(".__init__")}
    graph = {m: {i[:-len(".__init__")] if i.endswith(".__init__") else i for i in deps}
             for m, deps in graph.items()}
    circles, done = [], set()

    def visit(m, path):
        if m in path:
            circles.append(path[path.index(m):] + [m])
            return
        if m in done or m not in graph:
            return
        for d in sorted(graph[m]):
            visit(d, path + [m])
        done.add(m)
    for m in sorted(graph):
        visit(m, [])
    return circles


def test_no_two_board_modules_import_each_other():
    """store reads its own log through storeload, and both take the log's bytes from
    firmware/logfmt.py: storeload imports nothing back from store."""
    assert _circles(mpy.board_files()) == []
    assert "firmware.store" not in _imports("firmware/storeload.py")
    assert "firmware.logfmt" in _imports("firmware/store.py") & _imports("firmware/storeload.py")


def _bench_graph():
    """The board VM's bench as its modules import each other: the stand-ins
    (twins/boardvm/board/, a package folder's modules by dotted name) and the chips' models
    (twins/models/), all top-level modules beside each other in the VM, so `import keypad`
    or `from scanner import Scanner` names a file of the bench (twins/boardvm/boardvm.py
    bench_dir), `__import__("keymatrix")` as much as an import statement. CPython's
    relative imports of the models (`from .debounce import`) count as the same module."""
    board, models = "twins/boardvm/board/", "twins/models/"
    files = {}
    for rel in _tracked("twins/boardvm/board", "twins/models"):
        if rel.endswith(".py") and not rel.endswith("__init__.py"):
            files[rel[len(board if rel.startswith(board) else models):-3].replace("/", ".")] = rel
    graph = {}
    for name, rel in files.items():
        deps = set()
        called = {n.args[0].value for n in ast.walk(ast.parse(_source(rel)))
                  if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "__import__"
                  and n.args and isinstance(n.args[0], ast.Constant)}  # __import__("x")
        for i in _imports(rel) | called:
            i = i[len("twins.models."):] if i.startswith("twins.models.") else i
            while i and i not in files:
                i = i.rpartition(".")[0]
            if i and i != name:
                deps.add(i)
        graph[name] = deps
    return graph


def test_no_two_modules_of_the_board_vm_bench_import_each_other():
    """keypad.py's KeyMatrix loads KeyMatrix.py, which builds on the key-scanner model
    (twins/models/keymatrix.py over scanner.py), never on keypad.py."""
    graph = _bench_graph()
    assert {"keypad", "KeyMatrix", "scanner", "keymatrix", "debounce"} <= set(graph)
    assert "scanner" in graph["keypad"] and "keymatrix" in graph["KeyMatrix"]
    circles, done = [], set()

    def visit(m, path):
        if m in path:
            circles.append(path[path.index(m):] + [m])
        elif m not in done:
            for d in sorted(graph.get(m, ())):
                visit(d, path + [m])
            done.add(m)
    for m in sorted(graph):
        visit(m, [])
    assert circles == []
    graph["scanner"] = graph["scanner"] | {"keypad"}  # (the check sees a circle made)
    done.clear()
    visit("keypad", [])
    assert circles and all("scanner" in c and c[0] == c[-1] for c in circles), circles


def test_each_screen_owns_its_start_and_end_and_the_app_names_none():
    """Match, Result, Menus, SelfTest and HOW TO PLAY each have enter(app) and leave(app)
    (their heap lending is theirs); the app opens a screen by _go() and asks no screen
    what class it is."""
    from firmware import howto, match, menus, selftest
    for cls in (match.Match, match.Result, menus.Menus, selftest.SelfTest, howto.HowTo):
        for name in ("enter", "leave", "key", "advance"):
            assert callable(getattr(cls, name, None)), (cls.__name__, name)
        assert isinstance(cls.on_sleep, int), cls.__name__
    source = _source("firmware/app.py")
    names = ("Match", "Result", "Menus", "SelfTest", "HowTo")
    assert not re.search(r"isinstance|is (not )?self\.(howto|selftest|result)\b", source)
    assert not [n for n in names if re.search(r"\b%s\b" % n, source.split("class App")[1])
                and n not in ("Match", "Result", "Menus")]  # (built once, in __init__)
    assert source.count("self.screen = ") == 2  # __init__ and _go


def _tracked(*folders):
    """The files git keeps or would add under folders (each on disk), else every file."""
    import subprocess
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard",
                          "--"] + list(folders), cwd=ROOT, capture_output=True,
                         text=True).stdout.split()
    return [rel for rel in out if os.path.isfile(os.path.join(ROOT, rel))] or [
        os.path.relpath(os.path.join(d, f), ROOT).replace(os.sep, "/")
        for folder in folders
        for d, _, names in os.walk(os.path.join(ROOT, folder)) for f in names
        if "__pycache__" not in d and "node_modules" not in d]


def test_the_folders_say_where_code_runs():
    """engine/, firmware/ and hardware/ hold board code (and hardware/ the physical build
    beside it): every .py there ships but the typed contract; the twins, the tools and the
    lab live apart, tools import no twin and no lab, and no two modules import each other."""
    board = set(mpy.board_files())
    for rel in _tracked("engine", "firmware", "hardware"):
        if rel.endswith(".py"):
            assert rel in board or rel == "hardware/contract.py", rel
        else:
            assert rel.startswith(("hardware/pcb/", "hardware/wiring", "hardware/bom.csv")), rel
    for rel in _tracked("tools"):
        if rel.endswith(".py"):
            assert not [i for i in _imports(rel) if i.startswith(("twins", "lab"))], rel
    python = [rel for rel in _tracked("engine", "firmware", "hardware", "tools", "twins", "lab")
              if rel.endswith(".py")]
    assert len(python) > 100 and _circles(python) == []
    for twin in ("models", "desktop", "boardvm", "chip"):
        assert os.path.isdir(os.path.join(ROOT, "twins", twin))
        assert os.path.isdir(os.path.join(ROOT, "tests", "twins", twin)), twin


def test_the_twins_run_and_measure_nothing_so_no_twin_imports_the_lab():
    """A measurement lives in lab/ (the chip's figures and power: lab/chipbench.py; its
    power cuts: lab/chipnvm.py); a twin imports nothing from there, at the top or inside a
    function."""
    twins = [rel for rel in _tracked("twins") if rel.endswith(".py")]
    assert len(twins) > 20
    assert {rel: sorted(i for i in _imports(rel) if i == "lab" or i.startswith("lab."))
            for rel in twins} == {rel: [] for rel in twins}


def test_menus_key_number_is_decided_where_the_scanners_are_merged():
    """The matrix build's MENU scanner follows the matrix's keys (hardware/pico.py's
    _make_keys, as the desktop twin's scanners): no screen or filter works out where MENU is."""
    for rel in mpy.board_files():
        assert not re.search(r"len\([\w.]*keymap\) - 1", _source(rel)), rel
    assert "(menu_keys, keys.key_count)" in _source("hardware/pico.py")
