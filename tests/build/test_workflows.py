"""GitHub's workflows (.github/workflows/): ci.yml runs .ci/run on every push, release.yml
makes a release and publishes the page on a version tag. actionlint (pinned in
requirements.txt) checks them as GitHub would read them, and every make target they name
is one the Makefile has."""
import os
import re
import shlex
import subprocess
import sys

import pytest

from tools.boardcode import ROOT

WORKFLOWS = os.path.join(ROOT, ".github", "workflows")
ACTIONLINT = os.path.join(os.path.dirname(sys.executable), "actionlint")


def text(name):
    with open(os.path.join(WORKFLOWS, name)) as f:
        return f.read()


def makefile_targets():
    """Every target the Makefile has a rule for."""
    with open(os.path.join(ROOT, "Makefile")) as f:
        rules = re.findall(r"^([A-Za-z0-9_. -]+?)\s*:(?!=)", f.read(), re.M)
    return {t for rule in rules for t in rule.split() if not t.startswith(".")}


def make_targets_named(script):
    """The targets of every make command in a workflow that runs this Makefile (a line's
    command, or one after run:, && or ;; one with -C or -f runs another's); its options and
    VAR=value arguments are not targets."""
    named = []
    for line in script.splitlines():
        m = re.match(r"\s*(?:-\s+)?(?:run:\s*)?(?:.*?(?:&&|;)\s*)?make\s+(.*)", line)
        if not m or line.strip().startswith("#"):
            continue
        words = []
        for word in shlex.split(m.group(1)):
            if word in ("&&", ";", "||", "|"):
                break
            words.append(word)
        if not {"-C", "-f"} & set(words):
            named += [w for w in words if not w.startswith("-") and "=" not in w]
    return named


def test_actionlint_finds_nothing_wrong_with_the_workflows():
    assert os.access(ACTIONLINT, os.X_OK), "actionlint is not installed: pip install -r " \
                                           "requirements.txt"
    found = sorted(f for f in os.listdir(WORKFLOWS) if f.endswith(".yml"))
    assert found == ["ci.yml", "release.yml"]
    r = subprocess.run([ACTIONLINT, "-no-color"] + [os.path.join(WORKFLOWS, f) for f in found],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout == "", r.stdout + r.stderr


def test_actionlint_does_find_a_broken_workflow(tmp_path):
    """(so that its silence above means something)"""
    broken = tmp_path / "broken.yml"
    broken.write_text(text("ci.yml").replace("runs-on: ubuntu-latest", "runs-on: ubuntu-latest\n"
                                             "    needs: nothing-by-that-name"))
    r = subprocess.run([ACTIONLINT, "-no-color", str(broken)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 1 and "nothing-by-that-name" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("name", ["ci.yml", "release.yml"])
def test_every_make_target_a_workflow_names_is_in_the_makefile(name):
    named = make_targets_named(text(name))
    assert named, "no make command found in %s" % name
    assert set(named) <= makefile_targets(), sorted(set(named) - makefile_targets())


def test_the_target_finder_sees_targets_and_not_their_arguments():
    assert make_targets_named('run: make toolchain ARGS="--dir ../x"\n  make pcb\n') == \
        ["toolchain", "pcb"]
    assert make_targets_named("apt-get install make gcc\n") == []  # (a package, not a command)
    assert make_targets_named("cd x && make web-serve --no-print-directory\n") == ["web-serve"]
    assert make_targets_named("make -C /tmp/circuitpython/ports/unix -j2 $flags\n") == []
    assert {"toolchain", "release", "uf2", "test"} <= makefile_targets()


def test_ci_runs_dot_ci_run_on_every_push_with_the_toolchain_beside_the_checkout():
    ci = text("ci.yml")
    assert re.search(r"^on:\n  push:\n", ci, re.M)  # every push, no branch filter
    assert re.search(r"^\s+run: bash \.ci/run$", ci, re.M)
    assert 'make toolchain ARGS="--dir ../shared/toolchain"' in ci
    assert "../shared/toolchain/circuitpython/bin/" in ci  # the unix port, where .ci/run looks
    with open(os.path.join(ROOT, ".ci", "run")) as f:
        run = f.read()
    assert '$toolchain/circuitpython/bin/circuitpython32' in run


def test_release_runs_on_a_version_tag_attaches_the_files_and_publishes_the_page():
    release = text("release.yml")
    assert re.search(r"^on:\n  push:\n    tags: \[\"v\*\"\]$", release, re.M)
    steps = ["make toolchain", "make release", "files: dist/release/*",
             "actions/upload-pages-artifact", "actions/deploy-pages"]
    at = [release.find(s) for s in steps]
    assert -1 not in at and at == sorted(at), dict(zip(steps, at))
