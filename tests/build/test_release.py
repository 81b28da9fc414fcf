"""make release (tools/release.py), and the files a fresh clone gets with make toolchain.

A fresh clone of this tree (its committed files and the changes in the working tree, none
of the ignored) with no toolchain variable set: make toolchain fetches the shared
toolchain's own files (CIRCUITPY_UF2, CIRCUITPY_MPY_CROSS, RP2040_BOOTROM; .ci/run sets
them) from a server on 127.0.0.1 laid out as the real sites are (tests/build/
test_toolchain_fetch.py says how), and make uf2, bundle, deploy, web and release then find
them there. Make runs with this test's own Python environment (VENV=...), not a new one.
"""
import hashlib
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

import places
from test_toolchain_fetch import NEEDS_SHARED, Site, bootrom_ts, mpy_path, shared_version, \
    uf2_path, ROM_PATH, SHARED, env
from tools import uf2
from tools.boardcode import ROOT

VENV = os.path.dirname(os.path.dirname(sys.executable))
NEEDS_NODE = pytest.mark.skipif(not (shutil.which("node") and shutil.which("npm")),
                                reason="make web: node and npm")


def clone_of_this_tree(where):
    """A git clone of this repository with the working tree's changes on it (what a commit
    of it would hold), without anything ignored (no .venv, dist/, .toolchain/)."""
    subprocess.run(["git", "clone", "--quiet", ROOT, str(where)], check=True)
    listed = subprocess.run(["git", "status", "--porcelain", "-z", "--untracked-files=all"],
                            cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    for entry in filter(None, listed):
        state, rel = entry[:2].decode(), os.fsdecode(entry[3:])
        src, dst = os.path.join(ROOT, rel), os.path.join(str(where), rel)
        if "D" in state or not os.path.lexists(src):
            if os.path.lexists(dst):
                os.remove(dst)
        elif os.path.isfile(src):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
    return where


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    """(the clone, make's arguments, the server, the toolchain's version)."""
    if not all(SHARED.values()):
        pytest.skip("the shared toolchain's UF2, mpy-cross and boot ROM: CIRCUITPY_UF2, "
                    "CIRCUITPY_MPY_CROSS, RP2040_BOOTROM (.ci/run sets them)")
    top = tmp_path_factory.mktemp("fresh")
    where = clone_of_this_tree(top / "california-speed")
    ready = top / "venv-ready"  # make's stamp: the environment is set up already
    ready.touch()
    version = shared_version()
    routes = {uf2_path("raspberry_pi_pico", version): open(SHARED["uf2"], "rb").read(),
              mpy_path(version): open(SHARED["mpy-cross"], "rb").read(),
              ROM_PATH: bootrom_ts(open(SHARED["bootrom"], "rb").read())}
    site = Site(routes)
    yield where, ["VENV=" + VENV, "STAMP=" + str(ready)], site, version
    site.close()


def make(clone, target, *args, timeout=900, **more):
    where, settings, _, _ = clone
    command = ["make", "--no-print-directory", "-C", str(where), target] + settings
    if args:
        command.append("ARGS=" + " ".join(args))
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              env=env(**more), stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("make %s did not end in %d s" % (target, timeout))


@pytest.fixture(scope="module")
def fetched(clone):
    """make toolchain in the clone, from the server named by the variable."""
    where, _, site, version = clone
    r = make(clone, "toolchain", "--version", version, TOOLCHAIN_MIRROR=site.url)
    assert r.returncode == 0, r.stderr
    for what, rel in (("uf2", "circuitpython/board/raspberry_pi_pico.uf2"),
                      ("mpy-cross", "circuitpython/bin/mpy-cross"),
                      ("bootrom", "rp2040/bootrom-b1.bin")):
        assert (where / ".toolchain" / rel).read_bytes() == open(SHARED[what], "rb").read()
    git = subprocess.run(["git", "status", "--porcelain", "--ignored", ".toolchain"],
                         cwd=str(where), capture_output=True, text=True).stdout
    assert git.startswith("!! .toolchain/"), git  # ignored: never committed
    return clone


def version_of(where):
    return subprocess.run([sys.executable, "-c", "from tools import boardcode; "
                           "print(boardcode.version())"], cwd=str(where), capture_output=True,
                          text=True, check=True).stdout.strip()


@NEEDS_SHARED
def test_a_fresh_clone_makes_the_uf2_bundle_and_a_deploy_with_no_variable_set(fetched,
                                                                             tmp_path):
    where = fetched[0]
    version = version_of(where)
    r = make(fetched, "uf2")
    assert r.returncode == 0 and "no CircuitPython mpy-cross" not in r.stderr, r.stderr
    made = where / "dist" / ("california-speed-%s-raspberry_pi_pico-cp10.uf2"
                             % version)
    assert uf2.circuitpython_of(str(made)) == uf2.circuitpython_of(SHARED["uf2"])
    drive = uf2.drive_files(str(made))
    assert "engine/game.mpy" in drive and "lib/adafruit_ticks.mpy" in drive
    r = make(fetched, "bundle")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    with zipfile.ZipFile(where / "dist" / ("california-speed-%s-cp10-bundle.zip" % version)) as z:
        assert "CircuitPython 10.x/engine/game.mpy" in z.namelist()
    board = tmp_path / "CIRCUITPY"
    board.mkdir()
    (board / "boot_out.txt").write_text("Adafruit CircuitPython %s on 2026-11-30; Raspberry Pi "
                                        "Pico with rp2040\n" % fetched[3])
    r = make(fetched, "deploy", "--to", str(board), "--no-libs")
    assert r.returncode == 0, r.stderr
    assert "Packages: compiled to .mpy by CircuitPython %s" % fetched[3] in r.stdout
    assert (board / "engine" / "game.mpy").is_file()


@NEEDS_SHARED
@NEEDS_NODE
def test_a_fresh_clone_makes_the_page_with_no_variable_set(fetched):
    where = fetched[0]
    r = make(fetched, "web")
    assert r.returncode == 0, r.stderr[-2000:]
    page = where / "dist" / "web"
    assert (page / "index.html").is_file() and (page / "california-speed.uf2").is_file()
    assert (page / "bootrom-b1.bin").read_bytes() == open(SHARED["bootrom"], "rb").read()


def sums_of(folder):
    """{name: SHA-256} as the folder's SHA256SUMS says, checked against the files."""
    listed = {}
    for line in (folder / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split("  ", 1)
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name
        listed[name] = digest
    assert sorted(listed) == sorted(n for n in os.listdir(folder) if n != "SHA256SUMS")
    return listed


@NEEDS_SHARED
@NEEDS_NODE
def test_a_fresh_clone_makes_the_release_with_no_variable_set(fetched):
    where = fetched[0]
    version = version_of(where)
    r = make(fetched, "release")
    assert r.returncode == 0, r.stderr[-2000:]
    folder = where / "dist" / "release"
    names = sums_of(folder)
    v = "california-speed-" + version
    expected = {v + "-raspberry_pi_pico-cp10.uf2", v + "-raspberry_pi_pico-matrix-cp10.uf2",
                v + "-cp10-bundle.zip", v + "-web.zip", v + "-bom.csv",
                v + "-pcb-front.png", v + "-pcb-back.png", v + "-case-top.stl",
                v + "-case-bottom.stl", v + "-case-door.stl", v + "-case-caps.stl"}
    assert expected <= set(names), sorted(expected - set(names))
    assert all(n.startswith(v + "-") for n in names)
    with zipfile.ZipFile(folder / (v + "-web.zip")) as z:
        assert "index.html" in z.namelist() and "bootrom-b1.bin" in z.namelist()
    # make pcb has not run in the clone: its files are named, not waited for
    assert "dist/pcb/california-speed-gerbers.zip" in r.stdout


@NEEDS_SHARED
def test_two_releases_of_one_commit_are_the_same_bytes(fetched, tmp_path):
    parts = "--only", "uf2,bundle,bom,pcb,case"
    one = make(fetched, "release", *parts, "--out", str(tmp_path / "one"))
    two = make(fetched, "release", *parts, "--out", str(tmp_path / "two"))
    assert one.returncode == 0 and two.returncode == 0, (one.stderr, two.stderr)
    assert (tmp_path / "one" / "SHA256SUMS").read_bytes() == \
        (tmp_path / "two" / "SHA256SUMS").read_bytes()
    assert len(sums_of(tmp_path / "one")) == 10  # 2 UF2s, the bundle, the BOM, 2 pictures, 4 STLs


@NEEDS_SHARED
def test_a_release_that_fails_leaves_the_last_one_as_it_was(fetched, tmp_path):
    out = tmp_path / "release"
    assert make(fetched, "release", "--only", "bom", "--out", str(out)).returncode == 0
    before = places.files_in(out)
    broken = tmp_path / "broken.uf2"
    broken.write_bytes(b"not a UF2\n")
    r = make(fetched, "release", "--only", "bom,uf2", "--out", str(out),
             CIRCUITPY_UF2=str(broken))  # (a variable still wins)
    said = [ln for ln in r.stderr.splitlines() if not ln.startswith("make: ***")]  # (make's)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert said[-1].startswith("make release: error: ") and "is not a UF2 file" in said[-1]
    assert places.files_in(out) == before
    assert sorted(os.listdir(tmp_path)) == ["broken.uf2", "release"]  # no temporary folder


def test_what_make_release_cannot_do_is_one_line_before_any_work(tmp_path):
    empty = tmp_path / "no-toolchain"
    empty.mkdir()
    (tmp_path / "file").write_text("mine\n")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine\n")
    for args, words in (
            (["--only", "uf2,sound"], ["--only", "the parts are"]),
            (["--only", "bom", "--out", str(tmp_path / "file")], ["is not a folder"]),
            (["--only", "bom", "--out", str(tmp_path / "mine")],
             ["holds files make release did not write"]),
            (["--only", "bundle", "--out", str(tmp_path / "r")],
             ["mpy-cross", "make toolchain fetches it"]),
            (["--only", "bom", "--version", "far too long a name"], ["--version"])):
        r = places.run(["tools.release"] + args,
                       env=env(CALIFORNIA_SPEED_TOOLCHAIN=str(empty)), timeout=120)
        places.one_line(r, *words)
    assert places.files_in(tmp_path) == {"file": 5, "mine/notes.txt": 5}
