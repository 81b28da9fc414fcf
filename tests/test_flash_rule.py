"""The NOR flash's rule (programming only clears bits, erasing sets 0xFF) is written twice,
once a runtime: in the chip twin's flash chip (tools/chipjs/flash.mjs) and in Python
(hardware/models/norflash.py: the desktop twin's nvm and the board VM's bench, on CPython
and in CircuitPython's VM). The same vectors keep them equal."""
import json
import os
import shutil
import subprocess

import pytest

from hardware.models import norflash
from tests.vm.flash_rule import apply
from tools import boardvm, chip

VECTORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "flash_vectors.json")
CASES = json.load(open(VECTORS))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_python_model_follows_the_vectors(case):
    assert apply(case, norflash) == [data for _, data in case["expect"]]


@pytest.mark.skipif(shutil.which("node") is None, reason="the chip twin: node is missing")
def test_the_chip_twins_flash_chip_follows_the_same_vectors():
    p = subprocess.run(["node", os.path.join(chip.NODE_DIR, "vectors.mjs"), VECTORS],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got == [[data for _, data in c["expect"]] for c in CASES]
    assert got == [apply(c, norflash) for c in CASES]


@pytest.mark.skipif(bool(boardvm.missing()), reason="CircuitPython's own VM: " + boardvm.missing())
def test_the_python_model_follows_the_vectors_in_circuitpythons_vm():
    # where the board VM's bench runs it
    r = boardvm.run_guest("tests/vm/flash_rule.py", prelude="VECTORS = %r\n" % VECTORS,
                          heap="2M", timeout=120)
    assert r.lines("CASE") == [[data for _, data in c["expect"]] for c in CASES], r.output
