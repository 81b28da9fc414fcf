"""The NOR flash's rule (programming only clears bits, erasing sets 0xFF) and the flash chip's
command state (WEL, busy, commands ignored while busy) are written twice, once a runtime:
in the chip twin's flash chip (twins/chip/js/flash.mjs) and in Python (the rule in
twins/models/norflash.py: the desktop twin's nvm and the board VM's bench, on CPython
and in CircuitPython's VM; the chip in twins/models/flashchip.py: make chipnvm's flash
after a power cut). The same vectors keep them equal."""
import json
import os
import shutil
import subprocess

import pytest

from twins.models import flashchip, norflash
from tests.twins.boardvm.vm.flash_rule import apply
from twins.boardvm import boardvm
from twins.chip import chip

VECTORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "flash_vectors.json")
CASES = json.load(open(VECTORS))["cases"]
CHIP = json.load(open(VECTORS))["chip"]


def run_chip(case):
    """The case's transactions on the Python chip: its answers, log and 'expect' bytes."""
    flash = bytearray(bytes.fromhex(case["fill"]) * case["size"])
    for at, data in case.get("set", []):
        flash[at:at + len(data) // 2] = bytes.fromhex(data)
    chip = flashchip.Chip(flash, case["timing"])
    answers = [chip.transaction(bytes.fromhex(data), t).hex() for t, data in case["transactions"]]
    log = [[e["cmd"], e["t"], e["end"], e.get("addr")] for e in chip.log]
    return {"answers": answers, "log": log,
            "expect": [flash[at:at + len(data) // 2].hex() for at, data in case["expect"]]}


def wanted(case):
    return {"answers": case["answers"], "log": case["log"],
            "expect": [data for _, data in case["expect"]]}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_python_model_follows_the_vectors(case):
    assert apply(case, norflash) == [data for _, data in case["expect"]]


@pytest.mark.parametrize("case", CHIP, ids=[c["name"] for c in CHIP])
def test_the_python_flash_chip_keeps_the_command_state_of_the_vectors(case):
    assert run_chip(case) == wanted(case)


@pytest.mark.skipif(shutil.which("node") is None, reason="the chip twin: node is missing")
def test_the_chip_twins_flash_chip_follows_the_same_vectors():
    p = subprocess.run(["node", os.path.join(chip.NODE_DIR, "vectors.mjs"), VECTORS],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got["cases"] == [[data for _, data in c["expect"]] for c in CASES]
    assert got["cases"] == [apply(c, norflash) for c in CASES]
    assert got["chip"] == [wanted(c) for c in CHIP]
    assert got["chip"] == [run_chip(c) for c in CHIP]


@pytest.mark.skipif(bool(boardvm.missing()), reason="CircuitPython's own VM: " + boardvm.missing())
def test_the_python_model_follows_the_vectors_in_circuitpythons_vm():
    # where the board VM's bench runs it
    r = boardvm.run_guest("tests/twins/boardvm/vm/flash_rule.py", prelude="VECTORS = %r\n" % VECTORS,
                          heap="2M", timeout=120)
    assert r.lines("CASE") == [[data for _, data in c["expect"]] for c in CASES], r.output
