"""make bench ARGS="--only SECTION": one section measured again and put in place of its own
in docs/BENCH.md, the rest of the report as it was."""
import subprocess
import sys

from lab import bench
from tools.boardcode import ROOT

REPORT = ("# figures\n\nMade by make bench.\n\n## Engine\n\n| a |\n|---|\n| 1 |\n\nold note\n\n"
          "## Keys and main loop\n\n| b |\n|---|\n| 2 |\n")


def test_a_section_measured_again_replaces_its_own_and_leaves_the_others():
    out = bench.splice(REPORT, [("Engine", ["a"], [["9"]], "new note", "engine")])
    assert out.startswith("# figures\n\nMade by make bench.\n\n## Engine\n\n| a |\n|---|\n| 9 |"
                          "\n\nnew note\n\n(This section: `make bench ARGS=\"--only engine\"` on ")
    assert "old note" not in out and "| 1 |" not in out
    assert out.endswith("## Keys and main loop\n\n| b |\n|---|\n| 2 |\n\n")


def test_a_section_the_report_lacks_goes_at_its_end():
    out = bench.splice(REPORT, [("Power", ["c"], [["3"]], "", "chip_power")])
    assert out.index("## Keys and main loop") < out.index("## Power\n\n| c |")
    assert "| 1 |" in out and "| 2 |" in out


def _bench(*args):
    return subprocess.run([sys.executable, "-m", "lab.bench"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_only_a_section_there_is_and_a_report_there_is_before_anything_is_measured(tmp_path):
    p = _bench("--only", "speed")
    assert p.returncode == 2 and "invalid choice: 'speed'" in p.stderr and "chip_power" in p.stderr
    p = _bench("--only", "loop", "--out", str(tmp_path / "none.md"))
    assert p.returncode == 2 and "cannot be read" in p.stderr and "[1/1]" not in p.stderr
    assert list(tmp_path.iterdir()) == []
