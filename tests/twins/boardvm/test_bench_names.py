"""The bench's own interned names: the board VM's stand-ins, the chips' models and the boot
script, which the board has in flash (its modules are C) or not at all. In the VM they
share the six blocks of names (1,260, twins/boardvm/board/vmbench.py names()) with the
firmware's, and the soak on either build fails once a seventh block comes (9 KB, from a
heap in pieces): so the bench keeps few of its own, nearer what the board holds.

Needs CIRCUITPYTHON and CIRCUITPY_MPY_CROSS (.ci/run sets them); without them every test
here is skipped.
"""
import os
import re

import pytest

from twins.boardvm import boardvm
from tests.twins.boardvm.test_board_vm_matrix import MATRIX

MISSING = boardvm.missing()
pytestmark = pytest.mark.skipif(bool(MISSING), reason="CircuitPython's own VM: " + MISSING)

# The names the VM holds with the bench booted and a code.py that does nothing (427 and 439
# now, analogio and digitalio loaded at boot as the other C modules are). They were 481 and
# 494 while the stand-ins named every pin of the board and kept helpers, aliases and
# private globals of their own: the matrix build's soak then peaked at 1,270 names with the
# battery gauge, a seventh block.
MOST = {"direct": 430, "matrix": 442}


@pytest.fixture(scope="module")
def idle_tree(tmp_path_factory):
    """A drive as deploy writes it, its code.py doing nothing."""
    tree = boardvm.build_tree(str(tmp_path_factory.mktemp("circuitpy") / "CIRCUITPY"))
    with open(os.path.join(tree, "code.py"), "w") as f:
        f.write("pass\n")
    return tree


@pytest.mark.parametrize("build", sorted(MOST))
def test_the_bench_interns_few_names_of_its_own(idle_tree, build):
    r = boardvm.run(idle_tree, script="1000 end\n", heap="256K",
                    settings=MATRIX if build == "matrix" else None)
    counts = [int(n) for n in re.findall(r"^qstr pool: n_pool=\d+, n_qstr=(\d+)", r.output,
                                         re.M)]
    assert counts, r.output[-2000:]
    assert max(counts) <= MOST[build], counts
