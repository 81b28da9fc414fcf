"""make uf2 (tools/uf2.py): one file a classroom drags onto RPI-RP2: CircuitPython's image
for the board and the CIRCUITPY drive exactly as make deploy writes it, never the nvm
sector; and the checks that read any UF2 back."""
import json
import os
import struct
import subprocess
import sys

import pytest

import places
from twins.boardvm import boardvm
from tools import drive, uf2
from tools.boardcode import ROOT

NEEDS_MPY = pytest.mark.skipif(boardvm.mpy_cross() is None,
                               reason="CircuitPython's mpy-cross: %s" % boardvm.HOWTO)
PICO_UF2 = os.environ.get("CIRCUITPY_UF2")
NEEDS_PICO = pytest.mark.skipif(not (PICO_UF2 and boardvm.mpy_cross()),
                                reason="the Pico's CircuitPython image: CIRCUITPY_UF2 and "
                                       "CIRCUITPY_MPY_CROSS not set (.ci/run sets them)")


def _firmware(path, board, banner=None, size=64 * 1024):
    """A small stand-in for CircuitPython's image of a board (the Pico W's and Pico 2's
    are not in the toolchain): the board's family, and the banner CircuitPython's image
    carries, in size bytes from the start of flash."""
    import folder2uf2
    family, _, _ = uf2.board_facts(board)
    chip = "rp2350a" if family != uf2.board_facts("raspberry_pi_pico")[0] else "rp2040"
    banner = banner or ("Adafruit CircuitPython 10.3.0 on 2026-11-30; %s with %s"
                        % (uf2.BOARDS[board], chip))
    image = (b"\0" * 1024 + banner.encode() + b"\0").ljust(size, b"\xa5")
    folder2uf2.write_uf2(str(path), image, uf2.XIP_BASE, family)
    return str(path)


def _make(*args):
    return subprocess.run([sys.executable, "-m", "tools.uf2"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def _refused(r, *words):
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and lines and lines[-1].startswith("make uf2: error:"), r.stderr
    assert "Traceback" not in r.stderr
    for word in words:
        assert word in lines[-1], (word, lines[-1])


def _drive_as_deploy_writes_it(tmp_path, version):
    tree = drive.write(str(tmp_path / "tree"), version=version)
    return {rel: open(os.path.join(tree, rel), "rb").read() for rel in drive.files(tree)}


def _check_one_file(path, board, tmp_path, version):
    """What every board's UF2 must be: numbered and shaped right, the firmware then the
    drive and nothing else, never the nvm sector, and the drive exactly deploy's."""
    family, offset, size = uf2.board_facts(board)
    assert uf2.problems(path, size) == [] and uf2.family(path) == family
    assert uf2.nvm_problems(path, board) == []
    runs = uf2.touched(path)
    assert runs[0][0] == 0 and runs[0][1] <= offset - uf2.NVM_SIZE  # the firmware
    assert all(start >= offset and end <= size for start, end in runs[1:])  # the drive
    files = uf2.drive_files(path, board)
    want = _drive_as_deploy_writes_it(tmp_path, version)
    ours = {rel: data for rel, data in files.items()
            if not rel.startswith((".Trash", ".fseventsd", ".metadata_never_index"))}
    manifest = ".california-speed.json"
    assert json.loads(ours.pop(manifest))["files"] == json.loads(want.pop(manifest))["files"]
    assert ours == want  # code.py, the .mpy packages, lib/, settings.toml
    assert "boot_out.txt" not in files and not [f for f in files if ".bundle" in f]
    assert version.encode() in files["firmware/version.mpy"]
    return files


@NEEDS_PICO
def test_make_uf2_writes_one_file_for_the_pico_with_the_drive_deploy_writes(tmp_path):
    out = tmp_path / "pico.uf2"
    r = _make("--version", "v1.0", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "the nvm sector is not touched" in r.stdout
    _check_one_file(str(out), "raspberry_pi_pico", tmp_path, "v1.0")
    cp_blocks = len(uf2.blocks(PICO_UF2))
    assert uf2.blocks(str(out))[:cp_blocks] != []  # CircuitPython's own blocks come first
    assert [b[6] for b in uf2.blocks(str(out))[:cp_blocks]] == [b[6] for b in
                                                                 uf2.blocks(PICO_UF2)]


@NEEDS_PICO
def test_the_default_name_carries_the_version_and_the_board():
    from tools import boardcode
    assert uf2.default_name("raspberry_pi_pico", "team/v1") == os.path.join(
        "dist", "california-speed-team-v1-raspberry_pi_pico-cp10.uf2")  # a tag with a '/'
    name = uf2.default_name("raspberry_pi_pico", boardcode.version())
    assert name == os.path.join("dist", "california-speed-%s-raspberry_pi_pico-cp10.uf2"
                                % boardcode.version())


@NEEDS_PICO
def test_make_uf2_keys_matrix_writes_the_matrix_builds_file_its_settings_say_so(tmp_path):
    """The same file but for settings.toml, whose CS_KEYS says "matrix" where the direct
    file's says "direct" (its line where it stands, under its comment)."""
    import tomllib
    files = {}
    for keys in ("direct", "matrix"):
        out = tmp_path / ("%s.uf2" % keys)
        r = _make("--keys", keys, "--version", "v1.0", "--out", str(out))
        assert r.returncode == 0, r.stderr
        assert "%s build" % keys in r.stdout and "the nvm sector is not touched" in r.stdout
        assert uf2.problems(str(out), uf2.board_facts("raspberry_pi_pico")[2]) == []
        files[keys] = uf2.drive_files(str(out))
    direct, matrix = (tomllib.loads(files[k].pop("settings.toml").decode()) for k in files)
    assert direct["CS_KEYS"] == "direct" and matrix.pop("CS_KEYS") == "matrix"
    del direct["CS_KEYS"]
    assert matrix == direct  # every other setting as it was
    assert files["matrix"] == files["direct"]  # the board code, lib/, the manifest


@NEEDS_PICO
def test_a_later_make_deploy_keeps_a_matrix_boards_settings(tmp_path):
    """The board flashed with the matrix file, then `make deploy` onto its CIRCUITPY: the
    project's settings.toml (the direct build's) does not replace the board's."""
    out = tmp_path / "matrix.uf2"
    assert _make("--keys", "matrix", "--version", "v1.0", "--out", str(out)).returncode == 0
    board = tmp_path / "CIRCUITPY"
    for rel, data in uf2.drive_files(str(out)).items():
        (board / rel).parent.mkdir(parents=True, exist_ok=True)
        (board / rel).write_bytes(data)
    (board / "boot_out.txt").write_text("Adafruit CircuitPython 10.3.0 on 2026-11-30; "
                                        "Raspberry Pi Pico with rp2040\n")
    before = (board / "settings.toml").read_bytes()
    r = subprocess.run([sys.executable, "-m", "tools.deploy", "--to", str(board), "--no-libs",
                        "--version", "v1.0"], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert "kept    settings.toml" in r.stdout
    assert (board / "settings.toml").read_bytes() == before and b'CS_KEYS = "matrix"' in before


def test_the_matrix_files_name_says_matrix_and_the_direct_files_name_is_as_it_was():
    assert uf2.default_name("raspberry_pi_pico", "v2", "matrix") == os.path.join(
        "dist", "california-speed-v2-raspberry_pi_pico-matrix-cp10.uf2")
    assert uf2.default_name("raspberry_pi_pico", "v2", "direct") == uf2.default_name(
        "raspberry_pi_pico", "v2") == os.path.join(
        "dist", "california-speed-v2-raspberry_pi_pico-cp10.uf2")


def test_a_key_build_that_is_not_one_is_refused_in_a_sentence(tmp_path):
    r = _make("--keys", "diodes", "--out", str(tmp_path / "x.uf2"))
    _refused(r, "--keys", "'diodes'", "'direct'", "'matrix'")
    assert not (tmp_path / "x.uf2").exists()


@NEEDS_MPY
@pytest.mark.parametrize("board", ["raspberry_pi_pico_w", "raspberry_pi_pico2"])
def test_the_pico_w_and_pico_2_get_their_drive_where_circuitpython_mounts_it(board, tmp_path):
    firmware = _firmware(tmp_path / "firmware.uf2", board)
    out = tmp_path / "one.uf2"
    r = _make("--board", board, "--firmware", firmware, "--version", "t", "--out", str(out))
    assert r.returncode == 0, r.stderr
    files = _check_one_file(str(out), board, tmp_path, "t")
    _, offset, _ = uf2.board_facts(board)
    assert uf2.touched(str(out))[1][0] == offset  # 0x181000 on the W, 0x100000 on the Pico 2
    assert "code.py" in files


@NEEDS_MPY
def test_a_firmware_of_another_family_major_or_board_is_refused_in_a_sentence(tmp_path):
    pico2 = _firmware(tmp_path / "pico2.uf2", "raspberry_pi_pico2")
    _refused(_make("--firmware", pico2, "--out", str(tmp_path / "x.uf2")),
             "RP2350", "not the Raspberry Pi Pico's RP2040")
    nine = _firmware(tmp_path / "nine.uf2", "raspberry_pi_pico",
                     "Adafruit CircuitPython 9.2.1 on 2025-01-01; Raspberry Pi Pico with rp2040")
    _refused(_make("--firmware", nine, "--out", str(tmp_path / "x.uf2")),
             "CircuitPython 9.2.1", "made for 10.x")
    w = _firmware(tmp_path / "w.uf2", "raspberry_pi_pico_w")
    _refused(_make("--firmware", w, "--out", str(tmp_path / "x.uf2")),
             "for the Raspberry Pi Pico W, not the Raspberry Pi Pico")
    other = _firmware(tmp_path / "other.uf2", "raspberry_pi_pico", "MicroPython v1.24")
    _refused(_make("--firmware", other, "--out", str(tmp_path / "x.uf2")),
             "does not say it is CircuitPython")
    big = _firmware(tmp_path / "big.uf2", "raspberry_pi_pico", size=0x100000)
    _refused(_make("--firmware", big, "--out", str(tmp_path / "x.uf2")), "nvm sector")
    assert not (tmp_path / "x.uf2").exists()


def test_what_is_not_a_uf2_or_a_missing_firmware_is_said_in_a_sentence(tmp_path):
    text = tmp_path / "notes.uf2"
    text.write_text("not a UF2\n")
    _refused(_make("--firmware", str(text), "--out", str(tmp_path / "x.uf2")),
             "is not a UF2 file")
    _refused(_make("--board", "raspberry_pi_pico_w", "--out", str(tmp_path / "x.uf2")),
             "no firmware for the Raspberry Pi Pico W", "--firmware")
    _refused(_make("--firmware", str(tmp_path / "none.uf2")), "no such file")
    os.mkfifo(tmp_path / "pipe.uf2")
    for given, says in ((tmp_path, "is a folder"), ("/dev/null", "a device or a pipe"),
                        (tmp_path / "pipe.uf2", "a device or a pipe")):
        _refused(_make("--firmware", str(given), "--out", str(tmp_path / "x.uf2")), says,
                 "--firmware %s" % given)
    _refused(_make("--out", str(tmp_path)), "is a folder")
    _refused(_make("--version", "far too long a name"), "--version")
    _refused(_make("--board", "esp32"), "--board")


@NEEDS_PICO
@pytest.mark.parametrize("place", ["full disk", "read-only folder"])
def test_a_uf2_that_cannot_be_written_whole_leaves_no_file(tmp_path, place):
    """A classroom must never find a cut-short UF2 to drag onto a Pico: on a full disk
    make uf2 says so and leaves nothing; a read-only folder is refused before any work."""
    folder = tmp_path / "usb-stick"
    folder.mkdir()
    seen = tmp_path / "seen"
    prefix = places.full_disk(folder, size_kb=256, seen=seen) if place == "full disk" else \
        places.read_only(folder)
    r = places.run(["tools.uf2", "--version", "v1.0", "--out", str(folder / "x.uf2")],
                   prefix=prefix, timeout=300)
    if place == "full disk":
        line = places.one_line(r, "make uf2: error: cannot write", "x.uf2", "the disk is full")
    else:
        line = places.one_line(r, "make uf2: error:", "read-only")
        assert "writing the CIRCUITPY drive" not in r.stderr  # refused before any work
    if place == "full disk":
        assert "no file was left" in line and places.files_in(seen) == {"other": 256 * 1024}
    assert places.files_in(folder) == {}


def test_a_uf2_or_firmware_that_never_ends_is_refused_unread(tmp_path):
    for given in ("/dev/zero", "/dev/urandom", places.fifo(tmp_path)):
        r = places.run(["tools.uf2", "--firmware", given, "--out", str(tmp_path / "x.uf2")],
                       timeout=60)
        places.one_line(r, "--firmware", "a device or a pipe")
    assert not (tmp_path / "x.uf2").exists()


@NEEDS_PICO
@pytest.mark.parametrize("settings", ["missing", "a folder", "a link loop", "not text"])
def test_a_project_without_a_readable_settings_toml_makes_no_uf2(tmp_path, settings):
    """The drive's settings.toml is the project's: a UF2 without it would boot on the
    firmware's defaults and nobody would be told."""
    import shutil
    project = tmp_path / "project"
    for part in ("engine", "firmware", "hardware", "tools"):
        shutil.copytree(os.path.join(ROOT, part), project / part,
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(os.path.join(ROOT, "LICENSE"), project)
    toml = project / "settings.toml"
    if settings == "a folder":
        toml.mkdir()
    elif settings == "a link loop":
        toml.symlink_to("settings.toml")
    elif settings == "not text":
        toml.write_bytes(b'CS_KEYS = "\xff\xfe"\n')
    r = places.run(["tools.uf2", "--version", "t", "--out", str(tmp_path / "x.uf2")],
                   cwd=str(project), timeout=300)
    places.one_line(r, "make uf2: error:", "settings.toml", "git checkout settings.toml",
                    {"missing": "no such file", "a folder": "is a folder",
                     "a link loop": "round in a circle", "not text": "line 1"}[settings])
    assert not (tmp_path / "x.uf2").exists()


@NEEDS_MPY
def test_a_drive_too_big_for_the_board_is_said_in_a_sentence(tmp_path):
    firmware = _firmware(tmp_path / "firmware.uf2", "raspberry_pi_pico")

    def add_a_big_file(tree):
        with open(os.path.join(tree, "music.wav"), "wb") as f:
            f.write(os.urandom(1100 * 1024))
    with pytest.raises(uf2.UF2Error, match="do not fit in the Raspberry Pi Pico's 1024 KB"):
        uf2.build(str(tmp_path / "x.uf2"), firmware=firmware, version="t",
                  change=add_a_big_file)


def _blocks(n, start=0, count=None, family=0xE48BFF56, addr=uf2.XIP_BASE, size=256):
    return b"".join(struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0x2000, addr + 256 * i, size,
                                start + i, count or n, family) + bytes(476)
                    + struct.pack("<I", 0x0AB16F30) for i in range(n))


@pytest.mark.parametrize("data,says", [
    (_blocks(3) + _blocks(2, addr=uf2.XIP_BASE + 0x1000), "numbered 0..4"),
    (_blocks(3, count=5), "it is cut short: its blocks say 5, it ends after 3"),
    (_blocks(3, count=5) + _blocks(2), "two UF2 files put together"),
    (_blocks(2) + _blocks(1, start=2, count=3, family=0xE48BFF59, addr=uf2.XIP_BASE + 0x800),
     "one family id"),
    (_blocks(2, size=200), "256 bytes"),
    (_blocks(2)[512:] + _blocks(1), "numbered"),
    (_blocks(2, addr=0x20000000), "outside"),
])
def test_the_checks_name_what_is_wrong_with_a_uf2(tmp_path, data, says):
    path = tmp_path / "x.uf2"
    path.write_bytes(data)
    wrong = uf2.problems(str(path), 2 * 1024 * 1024)
    assert wrong and any(says in w for w in wrong), wrong
    path.write_bytes(_blocks(4))
    assert uf2.problems(str(path), 2 * 1024 * 1024) == []


@NEEDS_MPY
def test_one_commit_makes_the_same_file_every_time(tmp_path):
    firmware = _firmware(tmp_path / "firmware.uf2", "raspberry_pi_pico")
    one = uf2.build(str(tmp_path / "1.uf2"), firmware=firmware, version="t")
    two = uf2.build(str(tmp_path / "2.uf2"), firmware=firmware, version="t")
    assert open(one, "rb").read() == open(two, "rb").read()


def test_without_folder2uf2_make_uf2_says_how_to_get_it(tmp_path):
    (tmp_path / "folder2uf2.py").write_text("raise ImportError('not here')\n")  # hides it
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    env.pop("CIRCUITPY_UF2", None)  # a fresh clone: no firmware either; the tool speaks first
    r = subprocess.run([sys.executable, "-m", "tools.uf2", "--out", str(tmp_path / "x.uf2")],
                       cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    _refused(r, "folder2uf2 is not installed", "requirements.txt")


def _without_toolchain(tmp_path, **more):
    """The environment of a fresh clone: no toolchain variable, and a make toolchain folder
    of its own (empty unless the test puts files there)."""
    folder = tmp_path / "toolchain"
    folder.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items()
           if k not in ("CIRCUITPY_UF2", "CIRCUITPY_MPY_CROSS", "RP2040_BOOTROM")}
    env.update(CALIFORNIA_SPEED_TOOLCHAIN=str(folder), **more)
    return env, folder


def _make_in(env, *args):
    return places.run(["tools.uf2"] + list(args), env=env, timeout=300)


def test_without_any_mpy_cross_the_drive_carries_py_source_said_with_its_cost(tmp_path):
    env, _ = _without_toolchain(tmp_path)
    firmware = _firmware(tmp_path / "firmware.uf2", "raspberry_pi_pico")
    out = tmp_path / "pico.uf2"
    r = _make_in(env, "--firmware", firmware, "--version", "v1.0", "--out", str(out))
    assert r.returncode == 0, r.stderr
    said = [ln for ln in r.stderr.splitlines() if "mpy-cross" in ln]
    assert len(said) == 1, r.stderr
    for words in ("make uf2: no CircuitPython mpy-cross", "make toolchain", "--mpy-cross PATH",
                  ".py source", "over 120 KB of the Pico's 186 KB free", "89 KB from .mpy"):
        assert words in said[0], (words, said[0])
    files = uf2.drive_files(str(out))
    assert "engine/game.py" in files and "lib/adafruit_ticks.py" in files
    assert not [f for f in files if f.endswith(".mpy")]


@NEEDS_MPY
def test_mpy_cross_given_or_fetched_compiles_the_drive(tmp_path):
    env, folder = _without_toolchain(tmp_path)
    firmware = _firmware(tmp_path / "firmware.uf2", "raspberry_pi_pico")
    given = _make_in(env, "--firmware", firmware, "--mpy-cross", boardvm.mpy_cross(),
                     "--version", "v1.0", "--out", str(tmp_path / "given.uf2"))
    assert given.returncode == 0 and "no CircuitPython mpy-cross" not in given.stderr, \
        given.stderr
    (folder / "circuitpython" / "bin").mkdir(parents=True)
    os.symlink(boardvm.mpy_cross(), folder / "circuitpython" / "bin" / "mpy-cross")
    fetched = _make_in(env, "--firmware", firmware, "--version", "v1.0",
                       "--out", str(tmp_path / "fetched.uf2"))
    assert fetched.returncode == 0 and "no CircuitPython mpy-cross" not in fetched.stderr
    for name in ("given.uf2", "fetched.uf2"):
        files = uf2.drive_files(str(tmp_path / name))
        assert "engine/game.mpy" in files and "engine/game.py" not in files, name
        assert "lib/adafruit_ticks.mpy" in files
    assert (tmp_path / "given.uf2").read_bytes() == (tmp_path / "fetched.uf2").read_bytes()


def test_an_mpy_cross_that_is_missing_or_not_circuitpythons_is_one_line(tmp_path):
    env, _ = _without_toolchain(tmp_path)
    firmware = _firmware(tmp_path / "firmware.uf2", "raspberry_pi_pico")
    out = tmp_path / "x.uf2"
    places.one_line(_make_in(env, "--firmware", firmware, "--mpy-cross",
                             str(tmp_path / "none"), "--out", str(out)),
                    "--mpy-cross", "no such file")
    fake = tmp_path / "mpy-cross"
    fake.write_text("#!/bin/sh\necho 'MicroPython v1.27.0 on 2025-12-09; mpy-cross emitting "
                    "mpy v6.3'\n")
    fake.chmod(0o755)
    places.one_line(_make_in(env, "--firmware", firmware, "--mpy-cross", str(fake),
                             "--out", str(out)), "is not CircuitPython's mpy-cross")
    assert not out.exists()


@NEEDS_MPY
@pytest.mark.parametrize("board", ["raspberry_pi_pico", "raspberry_pi_pico_w"])
def test_the_firmware_make_toolchain_fetched_is_found_and_a_variable_still_wins(board,
                                                                                tmp_path):
    env, folder = _without_toolchain(tmp_path)
    (folder / "circuitpython" / "board").mkdir(parents=True)
    _firmware(folder / "circuitpython" / "board" / (board + ".uf2"), board,
              "Adafruit CircuitPython 10.2.0 on 2026-11-30; %s with rp2040" % uf2.BOARDS[board])
    out = tmp_path / "x.uf2"
    r = _make_in(env, "--board", board, "--version", "v1.0", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "with CircuitPython 10.2.0 for the %s" % uf2.BOARDS[board] in r.stderr
    assert uf2.circuitpython_of(str(out))[0] == "10.2.0"
    if board == "raspberry_pi_pico":
        mine = _firmware(tmp_path / "mine.uf2", board)  # (10.3.0)
        r = _make_in(dict(env, CIRCUITPY_UF2=mine), "--version", "v1.0", "--out", str(out))
        assert r.returncode == 0 and uf2.circuitpython_of(str(out))[0] == "10.3.0", r.stderr


def test_with_no_firmware_anywhere_it_says_make_toolchain_fetches_it(tmp_path):
    env, _ = _without_toolchain(tmp_path)
    for args, board in (([], ""), (["--board", "raspberry_pi_pico2"],
                                   ' ARGS="--board raspberry_pi_pico2"')):
        r = _make_in(env, *args, "--out", str(tmp_path / "x.uf2"))
        places.one_line(r, "no firmware for the", "make toolchain%s fetches it" % board,
                        "--firmware PATH")
    assert not (tmp_path / "x.uf2").exists()
