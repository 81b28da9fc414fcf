"""The NOR flash's rule (programming only clears bits, erasing sets 0xFF) is written twice,
once a runtime: in the chip twin's flash chip (tools/chipjs/flash.mjs) and in the desktop
twin (hardware/virtual program, erase). The same vectors keep them equal."""
import json
import os
import shutil
import subprocess

import pytest

from hardware import virtual
from tools import chip

VECTORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "flash_vectors.json")
CASES = json.load(open(VECTORS))["cases"]


def _python(case):
    flash = bytearray(bytes.fromhex(case["fill"]) * case["size"])
    for at, data in case.get("set", []):
        flash[at:at + len(data) // 2] = bytes.fromhex(data)
    for op, addr, arg in case["ops"]:
        if op == "program":
            virtual.program(flash, addr, bytes.fromhex(arg))
        else:
            virtual.erase(flash, addr, arg)
    return [flash[at:at + len(data) // 2].hex() for at, data in case["expect"]]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_desktop_twins_flash_follows_the_vectors(case):
    assert _python(case) == [data for _, data in case["expect"]]


@pytest.mark.skipif(shutil.which("node") is None, reason="the chip twin: node is missing")
def test_the_chip_twins_flash_chip_follows_the_same_vectors():
    p = subprocess.run(["node", os.path.join(chip.NODE_DIR, "vectors.mjs"), VECTORS],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got == [[data for _, data in c["expect"]] for c in CASES]
    assert got == [_python(c) for c in CASES]
