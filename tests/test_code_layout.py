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
    kinds = {n: getattr(keyfilter, n) for n in ("_PRESS", "_RELEASE", "_BOUNCE", "_HOLD",
                                                "_LONG", "_TEST", "_WAKE", "_NOTE")}
    assert len(set(kinds.values())) == 8
    assert _copies_agree(kinds) >= 10


def test_the_screens_number_the_actions_as_the_app_does():
    """Each screen writes the actions it returns again as const(); they must agree with
    firmware/__init__.py's, which the app reads."""
    import firmware
    actions = {n: getattr(firmware, n) for n in dir(firmware)
               if n.startswith("_") and n[1:].isupper() and isinstance(getattr(firmware, n), int)}
    assert "_NOTHING" in actions and "_TO_MENU" in actions
    assert len(set(actions.values())) == len(actions)
    assert _copies_agree(actions) >= 30
