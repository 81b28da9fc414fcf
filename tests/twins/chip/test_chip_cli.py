"""make chip's command line: a bad input or output path is refused in one line, with exit
status 2, before anything runs. Most never start the emulator, so they need neither node nor
the toolchain: the toolchain's variables are left out, and a check that came too late would
meet "the chip twin needs ..." first. Those that boot the chip (NEEDS_CHIP) are skipped
where node or the toolchain is missing (.ci/run provides them)."""
import json
import os

import pytest

import places
from twins.chip import chip, flash
from twins.desktop.scenes import frame_diff, golden

TOOLCHAIN = ("CIRCUITPY_UF2", "RP2040_BOOTROM", "CIRCUITPY_MPY_CROSS", "CIRCUITPYTHON")
REASON = chip.missing()
NEEDS_CHIP = pytest.mark.skipif(REASON is not None, reason="the chip twin: %s" % REASON)


def _chip(*args):
    """make chip with no toolchain: no variable, and make toolchain's folder an empty one."""
    env = {k: v for k, v in os.environ.items() if k not in TOOLCHAIN}
    env["CALIFORNIA_SPEED_TOOLCHAIN"] = os.path.join(places.ROOT, "tests", "no-such-folder")
    return places.run(["twins.chip.chip"] + list(args), env=env, timeout=60)


def _refused(r, *words):
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1, r.stderr
    assert lines[0].startswith("make chip: error:") and "Traceback" not in r.stderr
    assert "needs" not in lines[0]  # not the toolchain's complaint: the path came first
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert r.stdout == ""


@pytest.mark.parametrize("flag", ["--png", "--bus-log"])
def test_an_output_that_is_a_folder_is_refused_before_the_run(tmp_path, flag):
    folder = tmp_path / "shots"
    folder.mkdir()
    _refused(_chip(flag, str(folder)), flag, str(folder), "is a folder")
    assert os.listdir(folder) == []


@pytest.mark.parametrize("flag", ["--png", "--bus-log"])
def test_an_output_in_a_missing_folder_is_refused_before_the_run(tmp_path, flag):
    path = tmp_path / "no" / "out.png"
    _refused(_chip(flag, str(path)), flag, str(tmp_path / "no"), "does not exist")
    assert not (tmp_path / "no").exists()


def test_an_output_under_a_file_is_refused_before_the_run(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("mine\n")
    _refused(_chip("--bus-log", str(notes / "bus.txt")), str(notes), "is not a folder")
    assert notes.read_text() == "mine\n"


def test_an_output_that_is_a_device_is_refused_before_the_run():
    _refused(_chip("--png", os.devnull), os.devnull, "is not a file")


def test_an_output_in_a_read_only_folder_is_refused_before_the_run(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if os.access(str(folder), os.W_OK):
            pytest.skip("this user may write into a read-only folder (root)")
        _refused(_chip("--png", str(folder / "chip.png")), "--png", "cannot write")
        assert os.listdir(folder) == []
    finally:
        folder.chmod(0o700)


def test_an_existing_file_is_accepted_and_left_as_it_was(tmp_path):
    png = tmp_path / "chip.png"
    png.write_bytes(b"an old picture")
    r = _chip("--png", str(png), "--bus-log", str(tmp_path / "bus.txt"))
    assert r.returncode == 2 and "the chip twin needs" in r.stderr  # the paths were fine
    assert png.read_bytes() == b"an old picture" and not (tmp_path / "bus.txt").exists()


def test_an_output_folder_that_goes_away_during_the_run_is_one_line(tmp_path, monkeypatch,
                                                                    capsys):
    import shutil
    out = tmp_path / "out"
    out.mkdir()

    def run(text, **options):  # the emulator's run, during which the folder is removed
        shutil.rmtree(out)
        lines = [{"k": "con", "t": 5, "s": "ready"}, {"k": "t0", "t": 1e9},
                 {"k": "end", "t": 2e9, "why": "done", "wall_ms": 1000}]
        return chip.ChipRun([json.dumps(e) for e in lines], 0x3C)
    monkeypatch.setattr(chip, "missing", lambda **_: None)
    monkeypatch.setattr(chip, "build_uf2", lambda dest, settings: "tree.uf2")
    monkeypatch.setattr(chip, "run", run)
    with pytest.raises(SystemExit) as stop:
        chip.main(["--bus-log", str(out / "bus.txt")])
    printed = capsys.readouterr()
    assert stop.value.code == 2 and "console: ready" in printed.out
    assert printed.err.splitlines() == ["make chip: error: cannot write %s: no such file or "
                                        "folder" % (out / "bus.txt")]


def _uf2(path, family, banner):
    """A small UF2 of a given family whose firmware carries CircuitPython's banner."""
    import folder2uf2
    from tools import uf2
    blocks = folder2uf2.image_blocks((b"\0" * 256 + banner.encode() + b"\0").ljust(8192, b"\0"),
                                     uf2.XIP_BASE)
    folder2uf2.write_uf2_blocks(str(path), blocks, family)
    return str(path)


@pytest.mark.parametrize("board,family,says", [
    ("Raspberry Pi Pico 2 with rp2350a", 0xE48BFF59, "RP2350"),
    ("Raspberry Pi Pico W with rp2040", 0xE48BFF56, "for the Raspberry Pi Pico W"),
])
def test_a_uf2_the_emulated_rp2040_cannot_run_is_refused_in_a_sentence(tmp_path, board,
                                                                         family, says):
    banner = "Adafruit CircuitPython 10.3.0 on 2026-11-30; " + board
    _refused(_chip("--uf2", _uf2(tmp_path / "x.uf2", family, banner)), "--uf2", says)


def test_a_file_that_is_no_uf2_is_refused_in_a_sentence(tmp_path):
    notes = tmp_path / "notes.uf2"
    notes.write_text("hello\n")
    _refused(_chip("--uf2", str(notes)), "is not a UF2 file")
    _refused(_chip("--uf2", str(tmp_path / "none.uf2")), "none.uf2: no such file")


def test_a_flash_file_that_is_not_a_picos_flash_is_refused_and_left_as_it_was(tmp_path):
    stranger = tmp_path / "photo.bin"
    stranger.write_bytes(bytes(range(256)) * 8192)  # 2 MB, but no boot stage 2 a Pico runs
    before = stranger.read_bytes()
    _refused(_chip("--flash", str(stranger)), "--flash", "is not a Pico's flash",
             "left as it is")
    small = tmp_path / "notes.txt"
    small.write_text("hello\n")
    _refused(_chip("--flash", str(small)), "--flash", "(6 bytes; one is 2,097,152 bytes")
    assert stranger.read_bytes() == before and small.read_text() == "hello\n"
    _refused(_chip("--flash", str(tmp_path)), "--flash", "is a folder")


def _booted_flash(path):
    """A 2 MB flash whose boot stage 2 the boot ROM runs (its CRC right), erased after it."""
    boot2 = bytes(252) + flash.boot2_crc(bytes(252)).to_bytes(4, "little")
    path.write_bytes(boot2 + b"\xff" * (flash.FLASH_BYTES - 256))
    return str(path)


def test_an_erased_or_a_booted_flash_is_taken():
    assert flash.looks_like_flash(b"\xff" * flash.FLASH_BYTES)
    boot2 = bytearray(256)
    boot2[252:] = flash.boot2_crc(bytes(252)).to_bytes(4, "little")  # its CRC right
    assert flash.looks_like_flash(bytes(boot2) + b"\xff" * (flash.FLASH_BYTES - 256))
    boot2[0] = 1
    assert not flash.looks_like_flash(bytes(boot2))


def test_a_key_build_that_is_not_one_is_refused_in_a_sentence():
    _refused(_chip("--keys", "diodes"), "--keys", "'diodes'", "'direct'", "'matrix'")


def test_keys_with_a_uf2_file_or_a_used_flash_is_refused_they_say_their_own_build(tmp_path):
    _refused(_chip("--keys", "matrix", "--uf2", str(tmp_path / "x.uf2")), "--keys",
             "the --uf2 file says its own", "CS_KEYS")
    _refused(_chip("--keys", "matrix", "--flash", _booted_flash(tmp_path / "flash.bin")),
             "--keys", "--flash")


def _fake_run(seen):
    def run(text, **options):
        seen.append(options)
        lines = [{"k": "t0", "t": 1e9}, {"k": "end", "t": 2e9, "why": "done", "wall_ms": 1000}]
        return chip.ChipRun([json.dumps(e) for e in lines], 0x3C)
    return run


def test_keys_matrix_builds_the_trees_uf2_for_the_matrix(monkeypatch, capsys):
    built, seen = [], []
    monkeypatch.setattr(chip, "missing", lambda **_: None)
    monkeypatch.setattr(chip, "build_uf2", lambda dest, settings: built.append(settings) or
                        os.path.join(dest, "tree.uf2"))
    monkeypatch.setattr(chip, "run", _fake_run(seen))
    assert chip.main(["--keys", "matrix"]) == 0
    assert chip.main([]) == 0
    assert built == [{"CS_KEYS": "matrix"}, None]
    assert [os.path.basename(o["uf2"]) for o in seen] == ["tree.uf2", "tree.uf2"]


def test_a_matrix_key_built_wrong_must_be_a_key_and_a_fault_the_model_knows():
    from hardware import pinmap
    values = {s[0]: s[2] for s in pinmap.SETTINGS}
    with pytest.raises(ValueError, match="the direct build"):
        chip._wiring(values, {0: "missing"})
    values["CS_KEYS"] = "matrix"
    wires, buttons, matrix = chip._wiring(values, {0: "missing", 23: "reversed"})
    assert wires[7] == [7, 17] and buttons == [14] and matrix["faults"] == {
        "0": "missing", "23": "reversed"}
    for faults in ({24: "missing"}, {3: "broken"}):
        with pytest.raises(ValueError, match="a key 0..23 and one of missing, reversed"):
            chip._wiring(values, faults)


def test_an_erased_flash_file_is_a_fresh_chip_it_gets_the_trees_uf2(tmp_path):
    """2 MB of 0xFF holds no boot stage 2: as an empty file, the tree's UF2 (CircuitPython's
    Pico image is needed to build it), and --keys chooses its build."""
    erased = tmp_path / "ff.bin"
    erased.write_bytes(b"\xff" * (2 * 1024 * 1024))
    for args in (["--flash", str(erased)], ["--keys", "matrix", "--flash", str(erased)]):
        r = _chip(*args)
        assert r.returncode == 2 and "the chip twin needs" in r.stderr, r.stderr
        assert "CIRCUITPY_UF2" in r.stderr and "CIRCUITPY_MPY_CROSS" in r.stderr, r.stderr
    assert erased.read_bytes() == b"\xff" * (2 * 1024 * 1024)


def test_a_flash_on_a_device_is_refused_before_the_run():
    _refused(_chip("--flash", "/dev/full"), "--flash", "/dev/full", "a device")


def test_a_flash_in_a_read_only_folder_is_refused_before_the_run(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        if os.geteuid() == 0:
            pytest.skip("root may write into a read-only folder")
        _refused(_chip("--flash", str(folder / "flash.bin")), "--flash", "cannot write the "
                 "flash back", "read-only")
        assert os.listdir(folder) == []
    finally:
        folder.chmod(0o700)


def test_a_flash_on_a_disk_without_2_mb_free_is_refused_before_the_run(tmp_path, monkeypatch,
                                                                       capsys):
    """(A full disk cannot be made here: the disk's free space is what the OS says.)"""
    import shutil
    full = shutil.disk_usage(str(tmp_path))._replace(free=4096)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: full)
    monkeypatch.setattr(chip, "run", lambda *a, **k: pytest.fail("the run started"))
    with pytest.raises(SystemExit) as stop:
        chip.main(["--flash", str(tmp_path / "flash.bin")])
    err = capsys.readouterr().err.splitlines()
    assert stop.value.code == 2 and len(err) == 1, err
    assert "--flash" in err[0] and "4,096 bytes free" in err[0] and "2,097,152" in err[0]
    assert os.listdir(tmp_path) == []


def test_a_uf2_that_is_a_folder_or_a_device_is_refused_in_a_sentence(tmp_path):
    _refused(_chip("--uf2", str(tmp_path)), "--uf2", "is a folder")
    _refused(_chip("--uf2", os.devnull), "--uf2", os.devnull, "a device")


def test_an_entropy_that_is_not_32_bits_is_refused():
    _refused(_chip("--entropy", "-1"), "--entropy", "0..4294967295")
    _refused(_chip("--entropy", "dice"), "--entropy", "'dice'")


def test_nets_that_are_not_a_boards_or_on_the_direct_build_are_refused_in_a_sentence(
        tmp_path):
    junk = tmp_path / "nets.json"
    junk.write_text("{}")
    _refused(_chip("--keys", "matrix", "--nets", str(tmp_path)), "--nets", "is a folder")
    _refused(_chip("--keys", "matrix", "--nets", str(junk)), "--nets", str(junk), "no 'keys'",
             "make pcb writes")
    _refused(_chip("--nets", "hardware/pcb/nets.json"), "--nets", "the direct build",
             "--keys matrix")


@pytest.mark.parametrize("flag", ["--script", "--uf2", "--nets"])
def test_an_input_that_never_ends_or_is_too_large_is_refused_unread(tmp_path, flag):
    """/dev/zero was read until the memory ran out, a pipe nobody writes waited for ever."""
    big = tmp_path / "big"
    if flag == "--nets":  # (JSON a board's nets could start with, then 1 MB of padding)
        big.write_text('{"MENU": "GP14", "pad": "%s"}' % ("x" * (1 << 20)))
    else:
        with open(big, "wb") as f:
            f.truncate((1 << 20 if flag == "--script" else 64 << 20) + 1)
    build = ["--keys", "matrix"] if flag == "--nets" else []
    for given, says in (("/dev/zero", "a device or a pipe"),
                        (places.fifo(tmp_path), "a device or a pipe"),
                        (str(big), "is larger than a %s may be (%s)" % (
                            {"--script": "script", "--uf2": "uf2", "--nets": "nets"}[flag],
                            "64 MB" if flag == "--uf2" else "1 MB"))):
        _refused(_chip(*build + [flag, given]), flag, given, says)


def _nets(tmp_path, change):
    """The committed board's nets.json with change(nets) made to it (None: a list instead),
    in tmp_path."""
    with open(chip.NETS) as f:
        nets = json.load(f)
    if change is None:
        nets = [nets]
    else:
        change(nets)
    path = tmp_path / "nets.json"
    path.write_text(json.dumps(nets))
    return str(path)


def test_nets_nested_too_deep_are_one_line_naming_the_file_and_the_line(tmp_path):
    """100,000 levels of JSON were a RecursionError's traceback."""
    deep = tmp_path / "deep.json"
    deep.write_text('{"keys": {},\n "MENU": ' + "[" * 100000 + "]" * 100000 + "}")
    _refused(_chip("--keys", "matrix", "--nets", str(deep)), "--nets", str(deep), "line 2",
             "nested more than 32 deep")


@pytest.mark.parametrize("change, says", [
    (None, "is a list, not the board's nets ({keys, MENU, SDA, SCL, piezo}"),
    (lambda n: n["keys"].update({"A near 1": ["GP6", "GP16"]}),
     "keys.A near 1 is a list, not {key, row, column}"),
    (lambda n: n.update(keys=list(n["keys"].values())),
     "keys is a list, not {switch: {key, row, column}}"),
    (lambda n: n["keys"]["A near 1"].pop("row"), "keys.A near 1 has no 'row'"),
    (lambda n: n["keys"]["A near 1"].update(key="one"),
     "keys.A near 1's key is 'one', not a key number 0..23"),
    (lambda n: n["keys"]["A near 1"].update(key=24), "keys.A near 1's key is 24, not a key"),
    (lambda n: n["keys"].pop("A near 1"), "no switch is key 0"),
])
def test_nets_of_the_wrong_shape_say_what_is_wrong_in_words(tmp_path, change, says):
    """They leaked Python's words ("lack list indices must be integers or slices, not str");
    a key without a switch said "None the board's nets have no switch for key 0" once the
    chip had been set up, and with --script it named the script, not the nets."""
    nets = _nets(tmp_path, change)
    script = tmp_path / "keys.txt"
    script.write_text("400 A3 tap 80\n")
    r = _chip("--keys", "matrix", "--nets", nets, "--script", str(script))
    _refused(r, "--nets", nets + (" " if change is None else ": ") + says)
    assert "keys.txt" not in r.stderr and "None" not in r.stderr


@NEEDS_CHIP
def test_a_script_that_the_build_cannot_play_names_the_script_and_its_line(tmp_path, flashed):
    """The script is read (bounded) before any work; its key names are the build's, known
    once the UF2 is: a name the build lacks is said at the script's line, before the chip
    starts."""
    script = tmp_path / "keys.txt"
    script.write_text("# a match\n400 A3 tap 80\n900 A5 tap 80\n")  # (A5: the matrix's)
    r = places.run(["twins.chip.chip", "--uf2", flashed, "--script", str(script)], timeout=120)
    places.one_line(r, "make chip: error: --script %s line 3: unknown key name 'A5'" % script)
    assert r.stdout == ""


def _glass(png):
    """A scale-1 PNG of the glass as VirtualSSD1306.frame() gives it."""
    from PIL import Image
    return bytes(1 if v > 127 else 0 for v in Image.open(png).convert("L").tobytes())


@NEEDS_CHIP
@pytest.mark.parametrize("settings, said", [
    ({"CS_KEYS_A": 5}, "CS_KEYS_A = '5' is not valid"),
    ({"CS_PIEZO": 15}, "CS_PIEZO = '15' is not valid"),
    ({"CS_KEYS": "matrix", "CS_MATRIX_ROWS": 7}, "CS_MATRIX_ROWS = '7' is not valid"),
    ({"CS_I2C_SDA": "GP99"}, "CS_I2C_SDA = 'GP99' is not valid"),
    ({"CS_I2C_ADDRESS": 5000}, "CS_I2C_ADDRESS = '5000' is not valid"),
    ({"CS_KEYS_A": "GP6,GP7"}, "CS_KEYS_A = 'GP6,GP7' is not valid"),
], ids=["keys-a-number", "piezo-a-number", "rows-a-number", "sda-no-pin", "address-5000",
        "keys-a-two-pins"])
def test_a_value_the_firmware_refuses_is_wired_as_the_firmware_runs_on_its_default(
        tmp_path, settings, said):
    """A real Pico boots on the default of a value its firmware refuses, and says so on its
    console; the twin was wired from the raw value instead: a traceback, a JavaScript error,
    an OLED answering at 5000 ("No display"), or keys "held at power-up" on pins the
    firmware does not use."""
    uf2 = chip.build_uf2(str(tmp_path), settings=settings)
    png = tmp_path / "glass.png"
    r = places.run(["twins.chip.chip", "--uf2", uf2, "--after", "200", "--png", str(png),
                    "--scale", "1"], timeout=300)
    assert r.returncode == 0 and "Traceback" not in r.stderr and "error" not in r.stderr, \
        r.stderr[-2000:]
    assert "console: settings.toml: " + said in r.stdout, r.stdout
    assert "No display" not in r.stdout and "down at power-up" not in r.stdout, r.stdout
    assert _glass(png) == golden("menu"), frame_diff(_glass(png), golden("menu"))


@NEEDS_CHIP
@pytest.mark.parametrize("flag, name", [("--png", "glass.png"), ("--bus-log", "bus.txt")])
def test_an_output_on_a_full_disk_is_one_line_and_no_file(tmp_path, flashed, flag, name):
    """They were left 0 bytes long."""
    folder = tmp_path / "out"
    folder.mkdir()
    seen = tmp_path / "seen"
    r = places.run(["twins.chip.chip", "--uf2", flashed, "--after", "0", flag,
                    str(folder / name)], prefix=places.full_disk(folder, seen=seen), timeout=300)
    places.one_line(r, "make chip: error: cannot write %s: the disk is full" % (folder / name))
    assert "boot to the first full frame" in r.stdout  # (the run was made, then the disk full)
    assert places.files_in(seen) == {"other": 64 * 1024}


@NEEDS_CHIP
@pytest.mark.parametrize("settings, says", [
    ("missing", "no such file"), ("a folder", "is a folder"),
    ("a link loop", "round in a circle"), ("not text", "line 2: not text (byte 0xff"),
])
def test_a_project_without_a_readable_settings_toml_boots_nothing(tmp_path, monkeypatch,
                                                                  capsys, settings, says):
    """The tree's UF2 carries the project's settings.toml (tools/drive.py): make chip says
    in one line why it cannot be built, naming the file, and starts no chip."""
    from tools import deploy
    toml = tmp_path / "settings.toml"
    if settings == "a folder":
        toml.mkdir()
    elif settings == "a link loop":
        toml.symlink_to("settings.toml")
    elif settings == "not text":
        toml.write_bytes(b'CS_KEYS = "matrix"\nCS_PIEZO = "\xff\xfe"\n')
    monkeypatch.setattr(deploy, "ROOT", str(tmp_path))  # (the project the drive comes from)
    monkeypatch.setattr(chip, "run", lambda *a, **k: pytest.fail("the chip was started"))
    with pytest.raises(SystemExit) as stop:
        chip.main(["--keys", "matrix"])
    err = capsys.readouterr().err.splitlines()
    assert stop.value.code == 2 and len(err) == 1, err
    assert err[0].startswith("make chip: error: %s" % toml) and says in err[0], err
