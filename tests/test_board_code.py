"""Board code stays in the CircuitPython subset and uses the CircuitPython API correctly."""
import ast
import os
import subprocess
import sys

from tools import mpy

ROOT = mpy.ROOT
FORBIDDEN_IMPORTS = {"typing", "dataclasses", "enum", "abc", "functools", "copy", "asyncio"}


def _board_trees():
    for rel in mpy.board_files():
        with open(os.path.join(ROOT, rel)) as f:
            yield rel, ast.parse(f.read(), rel)


def test_board_code_type_checks_against_circuitpython_stubs():
    files = mpy.board_files()
    assert "hardware/pico.py" in files and "firmware/app.py" in files
    r = subprocess.run([sys.executable, "-m", "mypy", "--config-file",
                        os.path.join(ROOT, "mypy.ini")] + files,
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Success" in r.stdout


def test_board_code_avoids_modules_the_board_lacks():
    for rel, tree in _board_trees():
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
    for rel, tree in _board_trees():
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
