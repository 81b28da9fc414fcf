"""Board code stays in the CircuitPython subset and uses the CircuitPython API correctly."""
import ast
import glob
import os
import subprocess
import sys

from tools import mpy

ROOT = mpy.ROOT
FORBIDDEN_IMPORTS = {"typing", "dataclasses", "enum", "abc", "functools", "copy", "asyncio"}


def _trees(rels):
    for rel in rels:
        with open(os.path.join(ROOT, rel)) as f:
            yield rel, ast.parse(f.read(), rel)


def _board_trees():
    return _trees(mpy.board_files())


def _python_under(folder):
    return sorted(os.path.relpath(p, ROOT).replace(os.sep, "/") for p in
                  glob.glob(os.path.join(ROOT, folder, "**", "*.py"), recursive=True))


# The chips' models run in CircuitPython's VM beside the stand-ins (twins/boardvm/boardvm.py compiles
# them with CircuitPython's mpy-cross): not board code, but the board's subset all the same.
MODELS = _python_under("twins/models")


def _mypy(files, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file",
                           os.path.join(ROOT, "mypy.ini"), "--disallow-untyped-defs",
                           "--no-incremental"] + files, cwd=cwd, capture_output=True, text=True)


def test_board_code_type_checks_against_circuitpython_stubs():
    files = mpy.board_files()
    assert "hardware/pico.py" in files and "firmware/app.py" in files
    r = _mypy(files + ["hardware/contract.py"])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Success" in r.stdout


def test_every_target_meets_the_written_contract():
    """hardware/contract.py against the Pico target (also the board VM's, on its stand-ins)
    and the virtual handheld: tests/build/targets_typecheck.py assigns each to the contract."""
    r = _mypy(["tests/build/targets_typecheck.py"])
    assert r.returncode == 0 and "Success" in r.stdout, r.stdout + r.stderr


def _targets_tree(tmp_path):
    """A copy at tmp_path of what tests/build/targets_typecheck.py type-checks: the board
    code, the contract, the virtual handheld and the models it runs on, and mypy.ini."""
    import shutil
    for rel in mpy.board_files() + ["hardware/contract.py", "twins/desktop/virtual.py",
                                    "twins/desktop/keypad.py", "twins/desktop/ssd1306.py",
                                    "tests/build/targets_typecheck.py", "mypy.ini"]:
        os.makedirs(tmp_path / os.path.dirname(rel), exist_ok=True)
        shutil.copyfile(os.path.join(ROOT, rel), tmp_path / rel)
    shutil.copytree(os.path.join(ROOT, "twins", "models"), tmp_path / "twins" / "models")


def test_a_contract_member_a_target_lacks_fails_the_check(tmp_path):
    _targets_tree(tmp_path)
    contract = tmp_path / "hardware" / "contract.py"
    contract.write_text(contract.read_text().replace(
        "    def random_seed(self) -> int:", "    def battery(self) -> int: ...\n\n"
        "    def random_seed(self) -> int:"))
    r = _mypy(["tests/build/targets_typecheck.py"], cwd=str(tmp_path))
    assert r.returncode != 0
    assert r.stdout.count('missing following "Target" protocol member') == 2, r.stdout


def test_a_shell_member_the_app_lacks_fails_the_check(tmp_path):
    """Screens name hardware/contract.py's Shell, not the App: what a screen may use of the
    app is written there, and mypy holds the App to it (tests/build/targets_typecheck.py)."""
    _targets_tree(tmp_path)
    assert _mypy(["tests/build/targets_typecheck.py"], cwd=str(tmp_path)).returncode == 0
    contract = tmp_path / "hardware" / "contract.py"
    contract.write_text(contract.read_text().replace(
        "    def show(self, screen: Screen, player: int) -> None:",
        "    def battery(self) -> int: ...\n\n"
        "    def show(self, screen: Screen, player: int) -> None:"))
    r = _mypy(["tests/build/targets_typecheck.py"], cwd=str(tmp_path))
    assert r.returncode != 0 and 'missing following "Shell" protocol member' in r.stdout, \
        r.stdout
    for rel in ("firmware/match.py", "firmware/menus.py", "firmware/howto.py",
                "firmware/selftest.py"):  # (the app/screens annotation circle is gone)
        assert "firmware.app" not in open(os.path.join(ROOT, rel)).read(), rel


def test_the_nvm_readers_touch_no_private_name_of_another_module():
    """firmware/storeload.py returns what it read (the Log assigns it) and restore.py takes
    what it needs as arguments: neither reads or writes another module's _names."""
    import ast
    for rel in ("firmware/storeload.py", "firmware/restore.py"):
        tree = ast.parse(open(os.path.join(ROOT, rel)).read())
        touched = sorted({n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
                          and n.attr.startswith("_") and not n.attr.startswith("__")}
                         | {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                            for a in n.names if a.name.startswith("_")})
        assert touched == [], (rel, touched)


def test_the_typecheck_catches_a_call_the_board_lacks(tmp_path):
    # CircuitPython 10's WatchDogTimer has feed, timeout and mode, and no deinit().
    import shutil
    for rel in mpy.board_files() + ["hardware/contract.py", "mypy.ini"]:
        os.makedirs(tmp_path / os.path.dirname(rel), exist_ok=True)
        shutil.copyfile(os.path.join(ROOT, rel), tmp_path / rel)
    sleep = tmp_path / "hardware" / "sleep.py"
    text = sleep.read_text()
    assert "dog.mode = None" in text
    sleep.write_text(text.replace("dog.mode = None", "dog.deinit()"))
    r = _mypy(["hardware/sleep.py"], cwd=str(tmp_path))
    assert r.returncode != 0 and '"WatchDogTimer" has no attribute "deinit"' in r.stdout, r.stdout


def test_board_code_avoids_modules_the_board_lacks():
    assert "twins/models/ssd1306.py" in MODELS
    for rel, tree in list(_board_trees()) + list(_trees(MODELS)):
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module.split(".")[0]]
            bad = FORBIDDEN_IMPORTS.intersection(names)
            assert not bad, "%s:%d imports %s" % (rel, node.lineno, bad)


def test_constants_are_folded_by_the_compiler():
    # `_X = const(1)` folds; `micropython.const(1)` and annotated consts do not.
    for rel, tree in list(_board_trees()) + list(_trees(MODELS)):
        for node in ast.walk(tree):
            if isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.Call) \
                    and getattr(node.value.func, "id", "") == "const":
                raise AssertionError("%s:%d: annotated const" % (rel, node.lineno))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "const":
                raise AssertionError("%s:%d: micropython.const() is not folded"
                                     % (rel, node.lineno))


def test_no_viper_or_native_code():
    for rel, tree in _board_trees():
        for node in ast.walk(tree):
            for d in getattr(node, "decorator_list", []):
                text = ast.unparse(d)
                assert "viper" not in text and "native" not in text, "%s: %s" % (rel, text)


def test_nothing_under_hardware_imports_firmware_or_tools():
    """The arrows run from firmware down to hardware, never back: what boots the firmware
    in a VM or a twin lives in tools/ (twins/boardvm/vm/ for CircuitPython's VM), and hardware
    needs none of the desktop programs either."""
    for rel, tree in _trees(_python_under("hardware")):
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__" \
                    and node.args and isinstance(node.args[0], ast.Constant):
                names = [str(node.args[0].value)]
            assert not [n for n in names if n.split(".")[0] in ("firmware", "tools")], \
                "%s:%d imports %s" % (rel, node.lineno, names)
