"""make bundle (tools/bundle.py): the Project Bundle zip, as a user unzips it and as
CircuitPython's own VM boots its folder.

The zip of .mpy files needs CircuitPython's mpy-cross and the match needs its VM
(CIRCUITPYTHON and CIRCUITPY_MPY_CROSS; .ci/run sets them): without them those tests are
skipped and counted in one line. The refusals and the zip of .py source need neither.
Every run writes into a temporary folder, never into the repository's dist/.
"""
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import time
import zipfile

import pytest

from firmware import lang, lang_en
from tools import boardcode
from twins.boardvm import boardvm, soak
from twins.desktop import glass

ROOT = boardcode.ROOT
MISSING = boardvm.missing()
toolchain = pytest.mark.skipif(bool(MISSING), reason="CircuitPython's own VM: " + MISSING)
TOP = "CircuitPython 10.x/"
MANIFEST = ".california-speed.json"
RESULTS = {lang_en.YOU_WIN, lang_en.YOU_LOSE, lang_en.DRAW, lang_en.MATCH_WON,
           lang_en.MATCH_LOST}
CARD = re.compile(r"(10|[2-9JQKA])[cdhs]\Z")


def make_bundle(*args, cwd, env=None):
    """`python -m tools.bundle ARGS` run in the folder cwd, as a user runs it."""
    env = dict(os.environ if env is None else env, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "tools.bundle"] + list(args), cwd=str(cwd),
                          env=env, capture_output=True, text=True, timeout=600)


def contents(path):
    """{name in the zip: bytes}, in the zip's order."""
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(the zip, its version, what the command printed): a `make bundle` with no
    arguments, in a folder of its own, so into that folder's dist/."""
    where = tmp_path_factory.mktemp("work")
    p = make_bundle(cwd=where)
    assert p.returncode == 0, p.stderr
    version = boardcode.version()
    path = where / "dist" / ("california-speed-%s-cp10-bundle.zip" % version)
    assert path.is_file(), (os.listdir(where), p.stdout)
    return path, version, p.stdout


@toolchain
def test_the_zip_is_the_drive_under_circuitpython_10x_with_a_readme(built):
    path, version, printed = built
    entries = contents(path)
    assert entries and all(name.startswith(TOP) for name in entries), list(entries)
    files = [name[len(TOP):] for name in entries]
    assert files == sorted(files)
    for want in ("code.py", "settings.toml", "README.txt", MANIFEST,
                 "lib/adafruit_displayio_ssd1306.mpy", "lib/adafruit_ticks.mpy",
                 "lib/adafruit_display_text/label.mpy", "engine/game.mpy", "firmware/app.mpy",
                 "firmware/version.mpy", "hardware/pico.mpy"):
        assert want in files, want
    assert [f for f in files if f.endswith(".py")] == ["code.py"]  # the packages as .mpy
    for f in files:
        if f.endswith(".mpy"):
            assert entries[TOP + f][:2] == b"C\x06", f  # CircuitPython's .mpy
    # nothing of the twins' scaffolding: CircuitPython writes its own boot_out.txt
    assert not [f for f in files if f.endswith("boot_out.txt") or ".bundle" in f
                or "virtual" in f], files
    with open(os.path.join(ROOT, "settings.toml"), "rb") as f:
        assert entries[TOP + "settings.toml"] == f.read()
    lines = printed.splitlines()
    assert lines[-1].startswith("Wrote dist/%s (%s bytes, %d files)" % (
        path.name, format(path.stat().st_size, ","), len(files))), lines


@toolchain
def test_the_manifest_lists_exactly_the_drive_files_with_their_sha256(built):
    path, _, _ = built
    entries = contents(path)
    listed = json.loads(entries[TOP + MANIFEST])["files"]
    drive = {name[len(TOP):]: data for name, data in entries.items()
             if name not in (TOP + MANIFEST, TOP + "README.txt")}
    assert sorted(listed) == sorted(drive)
    for rel, data in drive.items():
        assert listed[rel] == {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


@toolchain
def test_two_builds_a_year_apart_by_the_clock_are_the_same_bytes(built, tmp_path,
                                                                   monkeypatch, capsys):
    from tools import bundle
    path, version, _ = built
    clock = time.gmtime
    monkeypatch.setattr(time, "gmtime", lambda secs=None: clock(
        time.time() + 366 * 86400 if secs is None else secs))
    again = tmp_path / "again.zip"
    assert bundle.main(["--out", str(again)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("Wrote %s " % again)
    assert again.read_bytes() == path.read_bytes()
    # dated by the commit, every entry and the manifest, never by the clock
    commit = int(subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%ct"],
                                capture_output=True, text=True).stdout)
    with zipfile.ZipFile(path) as z:
        dates = {info.date_time for info in z.infolist()}
        manifest = json.loads(z.read(TOP + MANIFEST))
    year, month, day, hour, minute, second = clock(commit)[:6]
    assert dates == {(year, month, day, hour, minute, second - second % 2)}  # (zip: 2 s)
    assert manifest["updated"] == time.strftime("%Y-%m-%dT%H:%M:%SZ", clock(commit))


@toolchain
def test_the_readme_says_in_plain_words_what_to_copy_and_how(built):
    path, version, _ = built
    entries = contents(path)
    text = entries[TOP + "README.txt"].decode("utf-8")
    assert text.startswith("CALIFORNIA SPEED %s - FOR CIRCUITPYTHON 10" % version)
    assert "California Speed %s" % version in text  # the console's first line
    assert "{" not in text and "`" not in text and "#" not in text  # plain text
    assert max(len(line) for line in text.splitlines()) <= 72
    tops = {name[len(TOP):].split("/")[0] for name in entries} - {"README.txt"}
    for name in tops:  # code.py, settings.toml, lib, engine, firmware, hardware, manifest
        assert re.search(r"(^|[\s,(])%s\b" % re.escape(name), text), name
    for must in ("circuitpython.org/board/raspberry_pi_pico/", "BOOTSEL", "RPI-RP2",
                 "CIRCUITPY", "115200", "/dev/ttyACM0", "/dev/cu.usbmodem", "COM",
                 "Mu editor", "docs/BUILD.md"):
        assert must in text, must
    presets = re.findall(r'CS_LANGUAGE = "(\w+)"', text)
    assert set(presets) == set(lang.CODES)  # the language settings.toml takes


@toolchain
def test_the_unzipped_folder_boots_in_circuitpythons_vm_and_plays_a_match(built, tmp_path):
    path, version, _ = built
    with zipfile.ZipFile(path) as z:
        z.extractall(tmp_path)
    folder = str(tmp_path / "CircuitPython 10.x")
    s = soak.Script(1000)
    soak.set_quick_matches(s)  # a match of one game, matching by rank or suit: seconds
    s.tap(soak.RIGHT)  # 2 PLAYERS
    rng = random.Random(1)
    s.mash(1000, rng)
    s.shot("play")
    for n in range(30):  # both players press piles until the game has ended
        s.mash(500, rng)
        s.shot("later-%02d" % n)
    s.end()
    r = boardvm.run(folder, script=s.text(), heap="256K", timeout=300)
    assert r.done and not r.exceptions and not r.said("died"), r.output[-3000:]
    assert r.console()[0] == "California Speed " + version
    play = r.shots["play"]
    assert glass.piles_per_row(play) == 4
    cards = glass.piles(play)
    assert len(cards) == 8 and all(CARD.match(c) for c in cards), cards
    later = [name for name in sorted(r.shots) if name.startswith("later-")]
    shown = [(glass.banner(r.shots[n], 0), glass.banner(r.shots[n], 1)) for n in later]
    results = [pair for pair in shown if pair[0] is not None]
    assert results, "no shot shows a game's result"
    assert results[0][0] in RESULTS and results[0][1] in RESULTS, results[0]
    # a match of one game: its result is the match's, the other seat's the opposite
    assert results[0] in ((lang_en.MATCH_WON, lang_en.MATCH_LOST),
                          (lang_en.MATCH_LOST, lang_en.MATCH_WON),
                          (lang_en.DRAW, lang_en.DRAW)), results[0]


def test_bad_arguments_are_refused_in_one_line_and_nothing_is_written(tmp_path):
    folder = tmp_path / "a-folder"
    folder.mkdir()
    out = str(tmp_path / "bundle.zip")
    for args, said in ((["--out", str(folder)], "is a folder"),
                       (["--out", str(tmp_path / "no-such" / "b.zip")], "does not exist"),
                       (["--version", "v" * 13, "--out", out], "--version"),
                       (["--version", "has space", "--out", out], "--version")):
        p = make_bundle(*args, cwd=tmp_path)
        lines = p.stderr.splitlines()
        assert p.returncode == 2 and p.stdout == "", (args, p.stdout, p.stderr)
        assert len(lines) == 1 and lines[0].startswith("make bundle: error: "), (args, lines)
        assert said in lines[0] and "Traceback" not in p.stderr, (args, lines)
    assert os.listdir(tmp_path) == ["a-folder"] and os.listdir(folder) == []


def test_a_file_named_dist_is_said_and_left_as_it_was(tmp_path):
    (tmp_path / "dist").write_text("mine\n")
    p = make_bundle(cwd=tmp_path)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.splitlines() == ["make bundle: error: dist is not a folder: move it "
                                     "away, or give --out FILE"]
    assert os.listdir(tmp_path) == ["dist"] and (tmp_path / "dist").read_text() == "mine\n"


def without_toolchain(tmp_path):
    """A fresh clone's environment: no CIRCUITPY_MPY_CROSS, and an empty make toolchain
    folder of its own; (env, that folder)."""
    folder = tmp_path / "toolchain"
    folder.mkdir()
    env = {k: v for k, v in os.environ.items() if k != boardvm.ENV_MPY}
    return dict(env, CALIFORNIA_SPEED_TOOLCHAIN=str(folder)), folder


def test_without_any_mpy_cross_the_folder_carries_py_source_said_with_its_cost(tmp_path):
    env, _ = without_toolchain(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    p = make_bundle("--version", "v1.0", cwd=work, env=env)
    assert p.returncode == 0, p.stderr
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("make bundle: no CircuitPython mpy-cross"), \
        p.stderr
    for words in ("make toolchain", "--mpy-cross PATH", ".py source",
                  "over 120 KB of the Pico's 186 KB free", "89 KB from .mpy"):
        assert words in lines[0], (words, lines[0])
    names = contents(work / "dist" / "california-speed-v1.0-cp10-bundle.zip")
    assert TOP + "engine/game.py" in names and TOP + "lib/adafruit_ticks.py" in names
    assert not [n for n in names if n.endswith(".mpy")]


@pytest.mark.skipif(boardvm.mpy_cross() is None, reason="CircuitPython's mpy-cross: %s"
                    % boardvm.HOWTO)
def test_mpy_cross_given_or_fetched_compiles_the_packages(tmp_path):
    env, folder = without_toolchain(tmp_path)
    zips = []
    for how in ("given", "fetched"):
        work = tmp_path / how
        work.mkdir()
        if how == "fetched":
            (folder / "circuitpython" / "bin").mkdir(parents=True)
            os.symlink(boardvm.mpy_cross(), folder / "circuitpython" / "bin" / "mpy-cross")
        p = make_bundle("--version", "v1.0", *(["--mpy-cross", boardvm.mpy_cross()]
                                               if how == "given" else []), cwd=work, env=env)
        assert p.returncode == 0 and p.stderr == "", p.stderr
        zips.append(work / "dist" / "california-speed-v1.0-cp10-bundle.zip")
        names = contents(zips[-1])
        assert TOP + "engine/game.mpy" in names and TOP + "engine/game.py" not in names
    assert zips[0].read_bytes() == zips[1].read_bytes()


def test_an_mpy_cross_that_is_missing_or_not_circuitpythons_is_one_line(tmp_path):
    env, _ = without_toolchain(tmp_path)
    fake = tmp_path / "mpy-cross"
    fake.write_text("#!/bin/sh\necho 'MicroPython v1.27.0 on 2025-12-09; mpy-cross emitting "
                    "mpy v6.3'\n")
    fake.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    for given, says in ((tmp_path / "none", "no such file"),
                        (fake, "is not CircuitPython's mpy-cross")):
        p = make_bundle("--mpy-cross", str(given), cwd=work, env=env)
        lines = p.stderr.splitlines()
        assert p.returncode == 2 and len(lines) == 1 and "Traceback" not in p.stderr, p.stderr
        assert lines[0].startswith("make bundle: error: ") and says in lines[0], lines
    assert os.listdir(work) == []


@toolchain
def test_an_mpy_cross_of_another_circuitpython_is_refused_in_one_line(tmp_path):
    other = tmp_path / "mpy-cross"
    other.write_text('#!/bin/sh\nif [ "$1" = --version ]; then\n'
                     '  echo "CircuitPython 9.2.1 on 2025-01-01; mpy-cross emitting mpy v6"\n'
                     '  exit 0\nfi\nexec "%s" "$@"\n' % boardvm.mpy_cross())
    other.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    p = make_bundle(cwd=work, env=dict(os.environ, **{boardvm.ENV_MPY: str(other)}))
    lines = p.stderr.splitlines()
    assert p.returncode == 2 and len(lines) == 1, p.stderr
    assert "CircuitPython 9's mpy-cross" in lines[0] and "10.x" in lines[0], lines
    assert os.listdir(work) == []
