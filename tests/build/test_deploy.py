"""tools/deploy.py against a temporary directory laid out like a CIRCUITPY drive.

Never a real drive, never the network: every run passes its own mount-point candidates
(or --to), circup is replaced, and the project is a temporary copy of the board files.
"""
import errno
import hashlib
import json
import os
import shutil
import subprocess
import sys

import pytest

from tools import deploy, licences

ROOT = deploy.ROOT
LIB = "lib/adafruit_displayio_ssd1306.mpy"
# Everything a bundle gives for deploy.LIBRARIES: a module, a package, and a module.
LIBS = (LIB, "lib/adafruit_display_text/__init__.mpy",
        "lib/adafruit_display_text/bitmap_label.mpy", "lib/adafruit_ticks.mpy")
BOOT_OUT = ("Adafruit CircuitPython 10.3.0 on 2026-11-20; Raspberry Pi Pico with rp2040\n"
            "Board ID:raspberry_pi_pico\n")
THEIR_CODE = b"print('someone else was here')\n"
SETTINGS = b'CS_I2C_ADDRESS = 0x3C\nCS_I2C_HZ = 400000\n'


@pytest.fixture(autouse=True)
def no_circup(monkeypatch):
    """No test may find or run a real circup (it would use the network), and the packages
    go as .py unless a test gives --mpy-cross (the .mpy tests are in test_board_vm.py)."""
    monkeypatch.setattr(deploy, "find_circup", lambda: None)
    monkeypatch.delenv(deploy.MPY_CROSS_ENV, raising=False)
    monkeypatch.setenv("CALIFORNIA_SPEED_TOOLCHAIN", os.path.join(ROOT, "no-such-folder"))

    def refuse(cmd):
        raise AssertionError("circup must not run here: %r" % cmd)
    monkeypatch.setattr(deploy, "run_circup", refuse)


@pytest.fixture
def project(tmp_path):
    """A copy of the board files and a settings.toml (the repo's, else the test's own)."""
    proj = tmp_path / "project"
    for rel in deploy.board_files(ROOT) + ["twins/desktop/virtual.py", "tools/cards.py"]:
        (proj / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(os.path.join(ROOT, rel), proj / rel)
    repo_settings = os.path.join(ROOT, "settings.toml")
    if os.path.isfile(repo_settings):
        shutil.copyfile(repo_settings, proj / "settings.toml")
    else:
        (proj / "settings.toml").write_bytes(SETTINGS)
    return proj


@pytest.fixture
def drive(tmp_path):
    d = tmp_path / "media" / "CIRCUITPY"
    (d / "lib").mkdir(parents=True)
    (d / "boot_out.txt").write_text(BOOT_OUT)
    (d / "notes.txt").write_text("my notes\n")
    (d / "code.py").write_bytes(THEIR_CODE)
    return d


@pytest.fixture
def bundle(tmp_path):
    b = tmp_path / "adafruit-circuitpython-bundle-10.x-mpy-20261120"
    (b / "lib").mkdir(parents=True)
    (b / "lib" / "adafruit_display_text").mkdir()
    for rel in LIBS:
        (b / rel).write_bytes(b"C\x06fake " + rel.encode())
    return b


@pytest.fixture
def run(project, drive, bundle, capsys):
    """run(*args, candidates=[drive]) -> (exit code, stdout, stderr); --bundle unless told not."""
    def go(*args, candidates=None, libs=True):
        argv = list(args)
        if libs and "--no-libs" not in argv and "--bundle" not in argv:
            argv += ["--bundle", str(bundle)]
        code = deploy.main(argv, candidates=[str(drive)] if candidates is None else candidates,
                           root=str(project))
        out, err = capsys.readouterr()
        return code, out, err
    return go


def tree(d):
    """{relative path: bytes} of every file under d, and the directories (None)."""
    out: dict = {}
    for folder, dirs, files in os.walk(d):
        rel = os.path.relpath(folder, d)
        out[rel + "/"] = None
        for f in files:
            out[os.path.join(rel, f)] = open(os.path.join(folder, f), "rb").read()
    return out


def manifest(drive):
    return json.loads((drive / deploy.MANIFEST).read_text())["files"]


def expected(project, version="dev"):
    """{drive path: bytes} of what the project puts on the drive (its firmware/version.py
    saying the build's version: 'dev' for a project that is no git checkout)."""
    from tools import boardcode
    out = {}
    for rel in deploy.board_files(str(project)):
        out["code.py" if rel == "firmware/code.py" else rel] = (project / rel).read_bytes()
    out[boardcode.VERSION_FILE] = boardcode.version_source(version).encode()
    out["settings.toml"] = (project / "settings.toml").read_bytes()
    out["LICENSES.txt"] = licences.drive_text().encode()
    return out


def leftovers(drive):
    return [p for p in tree(drive) if p.endswith(deploy.TMP_SUFFIX)]


def test_one_rule_says_which_files_are_board_code():
    from tools import boardcode, mpy
    listed = mpy.board_files()
    assert deploy.board_files(ROOT) == listed == boardcode.board_files()
    assert "firmware/code.py" in listed and not any("virtual" in rel for rel in listed)
    # desktop-only: the twins, their models of the chips and the stand-ins, the typed
    # contract, the engine's desktop helpers
    for rel in ("hardware/contract.py", "tools/record.py", "tools/cards.py",
                "twins/boardvm/board/keypad.py", "twins/desktop/keypad.py",
                "twins/models/ssd1306.py"):
        assert os.path.isfile(os.path.join(ROOT, rel)) and rel not in listed, rel
    assert "engine/bot.py" in listed and "hardware/pico.py" in listed


def test_the_drive_carries_the_licences_of_what_is_on_it(run, drive):
    code, out, err = run()
    assert code == 0, err
    text = (drive / "LICENSES.txt").read_text()
    with open(os.path.join(ROOT, "LICENSE")) as f:
        assert text.startswith("== California Speed") and f.read().strip() in text
    for lib in ("adafruit_displayio_ssd1306", "adafruit_display_text", "adafruit_ticks"):
        assert "(lib/%s) ==" % lib in text
    assert text.count("Permission is hereby granted") == 4
    assert text.count("for Adafruit Industries") >= 3  # each library's own copyright line


def test_first_deploy_copies_everything_verified_with_manifest(run, drive, project, bundle):
    code, out, err = run()
    assert code == 0, err
    want = expected(project)
    for rel, data in want.items():
        assert (drive / rel).read_bytes() == data, rel
    for rel in LIBS:
        assert (drive / rel).read_bytes() == (bundle / rel).read_bytes()
    assert not (drive / "firmware" / "code.py").exists()
    assert not list((drive / "hardware").glob("virtual*"))
    files = manifest(drive)
    assert set(files) == set(want) | set(LIBS)
    for rel, e in files.items():
        data = (drive / rel).read_bytes()
        assert e == {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    # the user's files: untouched; someone else's code.py: saved before it was replaced
    assert (drive / "notes.txt").read_text() == "my notes\n"
    assert (drive / "boot_out.txt").read_text() == BOOT_OUT
    assert (drive / "code.py.bak").read_bytes() == THEIR_CODE
    assert "CircuitPython 10.3.0" in out
    assert "%d copied" % (len(want) + len(LIBS)) in out and "verified" in out
    assert "restarts by itself when code.py changes" in out and "serial console" in out
    assert leftovers(drive) == []


def test_second_deploy_copies_nothing(run, drive):
    assert run()[0] == 0
    before = tree(drive)
    code, out, _ = run()
    assert code == 0
    assert "Done: 0 copied (0 bytes)" in out and "0 removed" in out
    assert "copied  " not in out
    assert tree(drive) == before


def test_changed_project_file_is_copied(run, drive, project):
    run()
    rules = project / "engine" / "rules.py"
    rules.write_bytes(b"# changed\n" + rules.read_bytes())
    code, out, _ = run()
    assert code == 0
    assert "copied  engine/rules.py (update" in out and "Done: 1 copied" in out
    assert (drive / "engine" / "rules.py").read_bytes().startswith(b"# changed\n")
    assert manifest(drive)["engine/rules.py"]["sha256"] == hashlib.sha256(
        (project / "engine" / "rules.py").read_bytes()).hexdigest()


def test_dry_run_changes_nothing_and_prints_the_plan(run, drive, project):
    before = tree(drive)
    code, out, _ = run("--dry-run")
    assert code == 0
    assert tree(drive) == before
    assert ("would copy    code.py (not what deploy last wrote there; the old one is saved as "
            "code.py.bak") in out
    assert "would copy    %s (new" % LIB in out
    assert "would copy    engine/game.py (new" in out
    # after a deploy: a change, a file that left the project
    (project / "engine" / "extra.py").write_text("X = 1\n")
    run()
    (project / "engine" / "extra.py").unlink()
    (project / "engine" / "rng.py").write_text("# new rng\n")
    before = tree(drive)
    code, out, _ = run("--dry-run")
    assert code == 0 and tree(drive) == before
    assert "would copy    engine/rng.py (update" in out
    assert "would skip    engine/game.py (unchanged" in out
    assert "would remove  engine/extra.py" in out
    assert "Dry run: 1 to copy" in out and "1 to remove" in out


def test_settings_edited_on_the_board_are_kept_unless_replace_settings(run, drive, project):
    run()
    (project / "settings.toml").write_bytes(SETTINGS + b"CS_KEY_INTERVAL_MS = 6\n")
    code, out, _ = run()  # not edited on the board: updated
    assert code == 0 and "copied  settings.toml (update" in out
    (drive / "settings.toml").write_bytes(b"CS_I2C_ADDRESS = 0x3D\n")
    (project / "settings.toml").write_bytes(SETTINGS + b"CS_KEY_INTERVAL_MS = 7\n")
    code, out, _ = run()
    assert code == 0
    assert (drive / "settings.toml").read_bytes() == b"CS_I2C_ADDRESS = 0x3D\n"
    assert "kept    settings.toml (edited on the board" in out and "--replace-settings" in out
    code, out, _ = run()  # still kept on the next run
    assert (drive / "settings.toml").read_bytes() == b"CS_I2C_ADDRESS = 0x3D\n"
    code, out, _ = run("--replace-settings")
    assert code == 0
    assert (drive / "settings.toml").read_bytes() == (project / "settings.toml").read_bytes()
    assert (drive / "settings.toml.bak").read_bytes() == b"CS_I2C_ADDRESS = 0x3D\n"


def test_settings_on_the_drive_that_deploy_did_not_write_are_kept(run, drive):
    (drive / "settings.toml").write_bytes(b"CIRCUITPY_WIFI_SSID = \"home\"\n")
    code, out, _ = run()
    assert code == 0 and "kept    settings.toml" in out
    assert (drive / "settings.toml").read_bytes() == b"CIRCUITPY_WIFI_SSID = \"home\"\n"
    assert "settings.toml" not in manifest(drive)


def test_not_a_circuitpy_drive_is_refused_unless_force(run, drive):
    (drive / "boot_out.txt").unlink()
    before = tree(drive)
    code, _, err = run("--to", str(drive), candidates=[])
    assert code == 1 and "no boot_out.txt" in err and "--force" in err
    assert tree(drive) == before
    code, out, err = run("--to", str(drive), "--force", candidates=[])
    assert code == 0, err
    assert (drive / "engine" / "game.py").exists()


def test_to_a_missing_directory(run, tmp_path):
    code, _, err = run("--to", str(tmp_path / "nowhere"), candidates=[])
    assert code == 1 and "is not a directory" in err


def test_no_drive_found(run, tmp_path):
    code, out, err = run(candidates=[])
    assert code == 1
    assert "no CIRCUITPY drive found" in err and "USB data cable" in err and "--to PATH" in err
    empty = tmp_path / "mnt" / "CIRCUITPY"
    empty.mkdir(parents=True)  # a mount point without the board
    code, _, err = run(candidates=[str(empty), str(tmp_path / "absent")])
    assert code == 1 and "%s has no boot_out.txt" % empty in err


def test_several_drives_are_refused_and_listed(run, drive, tmp_path):
    other = tmp_path / "Volumes" / "CIRCUITPY 1"
    other.mkdir(parents=True)
    (other / "boot_out.txt").write_text(BOOT_OUT)
    before = tree(drive)
    code, _, err = run(candidates=[str(drive), str(other)])
    assert code == 1
    assert "several CircuitPython drives" in err and str(drive) in err and str(other) in err
    assert "--to PATH" in err and tree(drive) == before and not (other / "code.py").exists()


def test_one_drive_among_candidates_is_found(run, drive, tmp_path):
    code, out, _ = run(candidates=[str(tmp_path / "absent"), str(drive)])
    assert code == 0 and "Board: %s" % drive in out


def test_missing_bundle_or_library(run, drive, tmp_path):
    before = tree(drive)
    code, _, err = run("--bundle", str(tmp_path / "no-bundle"))
    assert code == 1 and "bundle directory" in err and "does not exist" in err
    empty = tmp_path / "adafruit-circuitpython-bundle-10.x-mpy-empty"
    (empty / "lib").mkdir(parents=True)
    code, _, err = run("--bundle", str(empty))
    assert code == 1 and "adafruit_displayio_ssd1306 and adafruit_display_text and " \
        "adafruit_ticks are not in the bundle" in err
    (empty / "lib" / "adafruit_ticks.py").write_text("")
    (empty / "lib" / "adafruit_display_text").mkdir()
    (empty / "lib" / "adafruit_display_text" / "__init__.py").write_text("")
    code, _, err = run("--bundle", str(empty))
    assert code == 1 and "adafruit_displayio_ssd1306 is not in the bundle" in err
    assert tree(drive) == before


def test_no_circup_and_no_bundle(run, drive):
    before = tree(drive)
    code, _, err = run(libs=False)
    assert code == 1
    assert "circup is not on PATH" in err and "--bundle" in err and "Nothing was copied" in err
    assert "adafruit-circuitpython-bundle-10.x-mpy" in err  # the bundle of CircuitPython 10
    assert tree(drive) == before
    (drive / LIB).write_bytes(b"already there")
    code, out, err = run(libs=False)
    assert code == 1 and "circup is not on PATH" in err  # one of three is not enough
    (drive / "lib" / "adafruit_display_text").mkdir()
    (drive / "lib" / "adafruit_ticks.mpy").write_bytes(b"already there")
    code, out, _ = run(libs=False)
    assert code == 0 and "already on the drive; not updated" in out


def test_circup_installs_the_library(run, drive, monkeypatch):
    calls = []
    monkeypatch.setattr(deploy, "find_circup", lambda: "circup")

    def fake_circup(cmd):
        calls.append(cmd)
        return True
    monkeypatch.setattr(deploy, "run_circup", fake_circup)
    code, out, _ = run(libs=False)
    assert code == 0
    assert calls == [["circup", "--path", str(drive), "install", "adafruit_displayio_ssd1306",
                      "adafruit_display_text", "adafruit_ticks"]]
    code, out, _ = run("--dry-run", libs=False)
    assert len(calls) == 1 and "would run     circup --path" in out


def test_circup_failing_is_reported(run, drive, monkeypatch):
    monkeypatch.setattr(deploy, "find_circup", lambda: "circup")
    monkeypatch.setattr(deploy, "run_circup", lambda cmd: False)
    code, _, err = run(libs=False)
    assert code == 1
    assert "circup failed" in err and "were NOT installed" in err and "not copied (0)" in err
    assert (drive / "engine" / "game.py").exists()


def test_no_libs(run, drive, bundle):
    code, out, _ = run("--no-libs")
    assert code == 0 and "not installed (--no-libs)" in out
    assert os.listdir(drive / "lib") == []
    run()
    code, out, _ = run("--no-libs")  # does not remove the library installed before
    assert code == 0 and (drive / LIB).exists() and LIB in manifest(drive)


def failing_write(n, err, once=False):
    """A _write that writes n files, then half of the next one and raises err (and, with
    once, succeeds again afterwards: removing the half-written temp file freed its space)."""
    count = [0]

    def write(f, data):
        count[0] += 1
        if count[0] > n and not (once and count[0] > n + 1):
            f.write(data[:len(data) // 2])
            raise OSError(err, os.strerror(err))
        f.write(data)
    return write


def test_drive_full_mid_way(run, drive, project, bundle, monkeypatch, tmp_path):
    stamped = deploy.stamp(str(project), "dev", str(tmp_path))
    order = [dest for dest, _ in deploy.sources(str(project),
                                                [(rel, str(bundle / rel)) for rel in LIBS],
                                                stamped=stamped)]
    monkeypatch.setattr(deploy, "_write", failing_write(5, errno.ENOSPC, once=True))
    code, out, err = run()
    assert code == 1
    assert "writing %s: the drive is full" % order[5] in err
    assert "copied (5): %s" % ", ".join(order[:5]) in err
    assert "not copied (%d): %s" % (len(order) - 5, ", ".join(order[5:])) in err
    assert leftovers(drive) == []
    assert not (drive / order[5]).exists()  # never half-written under its real name
    assert (drive / "code.py").read_bytes() == THEIR_CODE
    assert sorted(manifest(drive)) == sorted(order[:5])  # the manifest: what did get copied
    monkeypatch.setattr(deploy, "_write", lambda f, data: f.write(data))
    code, out, _ = run()  # space freed: the rest goes on
    assert code == 0 and "Done: %d copied" % (len(order) - 5) in out
    assert sorted(manifest(drive)) == sorted(order)


def test_drive_full_for_the_manifest_too(run, drive, monkeypatch):
    monkeypatch.setattr(deploy, "_write", failing_write(3, errno.ENOSPC))
    code, out, err = run()
    assert code == 1
    assert "writing the manifest" in err and "copied (3):" in err
    assert leftovers(drive) == [] and not (drive / deploy.MANIFEST).exists()


def test_read_only_drive(run, drive, monkeypatch):
    before = tree(drive)
    monkeypatch.setattr(deploy, "_write", failing_write(0, errno.EROFS))
    code, _, err = run()
    assert code == 1
    assert "the drive is read-only" in err and "copied (0): nothing" in err
    assert leftovers(drive) == []
    assert {k: v for k, v in tree(drive).items() if v is not None} == {
        k: v for k, v in before.items() if v is not None}


def test_drive_vanishes(run, drive, monkeypatch):
    def vanish(f, data):
        shutil.rmtree(drive)
        raise OSError(errno.EIO, os.strerror(errno.EIO))
    monkeypatch.setattr(deploy, "_write", vanish)
    code, _, err = run()
    assert code == 1 and "the drive is gone" in err and "not copied" in err
    assert not drive.exists()  # the manifest did not recreate it
    assert "The drive went away" in err


def test_leftover_temporary_files_are_cleaned_up(run, drive):
    (drive / "engine").mkdir()
    (drive / "engine" / (".game.py" + deploy.TMP_SUFFIX)).write_bytes(b"half")
    (drive / ".notes.txt.tmp").write_bytes(b"not ours")
    assert run()[0] == 0
    assert leftovers(drive) == [] and (drive / ".notes.txt.tmp").exists()


def test_files_that_left_the_project_are_removed_only_if_unchanged(run, drive, project):
    (project / "engine" / "extra.py").write_text("EXTRA = 1\n")
    (project / "firmware" / "old.py").write_text("OLD = 1\n")
    (project / "firmware" / "gone.py").write_text("GONE = 1\n")
    assert run()[0] == 0
    assert {"engine/extra.py", "firmware/old.py"} <= set(manifest(drive))
    for rel in ("engine/extra.py", "firmware/old.py", "firmware/gone.py"):
        (project / rel).unlink()
    (drive / "firmware" / "old.py").write_text("OLD = 2  # changed on the board\n")
    (drive / "firmware" / "gone.py").unlink()
    (drive / "engine" / "mine.py").write_text("MINE = 1\n")  # never deploy's
    code, out, _ = run()
    assert code == 0
    assert not (drive / "engine" / "extra.py").exists()
    assert "removed engine/extra.py" in out and "1 removed" in out
    assert (drive / "firmware" / "old.py").read_text() == "OLD = 2  # changed on the board\n"
    assert "left    firmware/old.py" in out and "changed on the board" in out
    assert (drive / "engine" / "mine.py").exists() and (drive / "notes.txt").exists()
    assert not {"engine/extra.py", "firmware/old.py", "firmware/gone.py"} & set(manifest(drive))
    code, out, _ = run()
    assert (drive / "firmware" / "old.py").exists() and "firmware/old.py" not in out


def test_old_circuitpython_warns(run, drive):
    (drive / "boot_out.txt").write_text(
        "Adafruit CircuitPython 8.2.10 on 2024-01-01; Raspberry Pi Pico with rp2040\n")
    code, out, _ = run()
    assert code == 0 and "the board runs CircuitPython 8; the firmware is made for 10.x" in out


def test_usage_errors_exit_2(run, capsys, tmp_path):
    assert deploy.main(["--bogus"], candidates=[]) == 2
    assert deploy.main(["--no-libs", "--bundle", str(tmp_path)], candidates=[]) == 2
    assert deploy.main(["--to"], candidates=[]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and all(ln.startswith("make deploy: error:") for ln in err), err


def test_help_runs_as_a_module():
    p = subprocess.run([sys.executable, "-m", "tools.deploy", "--help"], cwd=ROOT,
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 0
    for option in ("--to", "--dry-run", "--force", "--replace-settings", "--bundle", "--no-libs"):
        assert option in p.stdout
    assert "Exit codes" in p.stdout


def test_verification_catches_a_bad_copy(run, drive, monkeypatch):
    def corrupt(f, data):
        f.write(data.replace(b"def ", b"dof ") if data.startswith(b'"""') else data)
    monkeypatch.setattr(deploy, "_write", corrupt)
    code, _, err = run()
    assert code == 1 and "verifying engine/game.py: what was read back differs" in err
    assert "engine/game.py" not in manifest(drive) and LIB in manifest(drive)


@pytest.mark.parametrize("manifest", [b"{not json", b"[" * 100000 + b"]" * 100000,
                                      b'{"files": {}, "pad": "' + b"x" * (5 << 20) + b'"}'],
                         ids=["broken", "nested 100,000 deep", "over 4 MB"])
def test_a_dry_run_on_a_drive_with_an_unreadable_manifest_changes_nothing(run, drive, manifest):
    run()
    (drive / deploy.MANIFEST).write_bytes(manifest)
    before = tree(drive)
    code, out, err = run("--dry-run", "--no-libs")
    assert code == 0 and "Traceback" not in out + err, out + err
    said = [ln for ln in out.splitlines() if "is unreadable" in ln]
    assert len(said) == 1 and "it would be kept as" in said[0], out
    assert "Nothing was changed" in out and tree(drive) == before


def test_a_manifest_that_is_not_a_file_is_left_as_it_is(run, drive):
    (drive / deploy.MANIFEST).mkdir()
    code, out, err = run("--no-libs")
    assert "Traceback" not in out + err and "not a file deploy wrote: left as it is" in out
    assert (drive / deploy.MANIFEST).is_dir()


def test_an_unreadable_manifest_removes_nothing(run, drive, project):
    (project / "engine" / "extra.py").write_text("X = 1\n")
    run()
    (project / "engine" / "extra.py").unlink()
    (drive / deploy.MANIFEST).write_text("{not json")
    code, out, _ = run()
    assert code == 0 and "is unreadable" in out
    assert (drive / "engine" / "extra.py").exists()  # nothing removed
    kept = [p for p in os.listdir(drive) if p.startswith(deploy.MANIFEST + ".unreadable-")]
    assert len(kept) == 1 and (drive / kept[0]).read_text() == "{not json"  # kept aside
    # its own files are known by their content: in the new manifest, and no .bak piles up
    assert "engine/game.py" in manifest(drive)
    baks = [p for p in tree(drive) if ".bak" in p]
    (project / "engine" / "game.py").write_text("# a new game\n")
    code, out, _ = run()
    assert code == 0 and "copied  engine/game.py (update" in out
    assert [p for p in tree(drive) if ".bak" in p] == baks


def test_a_manifest_entry_outside_the_drive_is_never_touched(run, drive, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"the host's own file\n")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "x.txt").write_bytes(b"also the host's\n")
    (drive / "lib" / "link").symlink_to(outside)
    run()
    doc = json.loads((drive / deploy.MANIFEST).read_text())
    sha = lambda p: deploy.entry(p.read_bytes())  # noqa: E731
    doc["files"]["../victim.txt"] = sha(victim)
    doc["files"][str(victim)] = sha(victim)
    doc["files"]["lib/link/x.txt"] = sha(outside / "x.txt")
    (drive / deploy.MANIFEST).write_text(json.dumps(doc))
    code, out, _ = run()
    assert code == 0
    assert victim.read_bytes() == b"the host's own file\n"
    assert (outside / "x.txt").read_bytes() == b"also the host's\n"
    for rel in ("'../victim.txt'", repr(str(victim)), "'lib/link/x.txt'"):
        assert "lists %s, which is not a file inside the drive: ignored" % rel in out
    assert not {"../victim.txt", str(victim), "lib/link/x.txt"} & set(manifest(drive))


def test_a_drive_unmounted_mid_copy_leaves_the_host_mount_point_alone(run, drive, monkeypatch):
    writes = []
    real = deploy._write

    def unmount_on_the_third(f, data):
        writes.append(1)
        if len(writes) == 3:  # the drive goes; its mount point stays, an empty folder
            for name in os.listdir(drive):
                path = drive / name
                shutil.rmtree(path) if path.is_dir() else path.unlink()
            raise OSError(errno.ENOENT, os.strerror(errno.ENOENT))
        real(f, data)
    monkeypatch.setattr(deploy, "_write", unmount_on_the_third)
    code, out, err = run()
    assert code == 1 and "the drive is gone" in err and "The drive went away" in err
    assert "Done:" not in out
    assert os.listdir(drive) == []  # no manifest, no folders written into the host


def test_without_circuitpythons_mpy_cross_the_packages_go_as_source_and_it_says_why(run, drive):
    code, out, _ = run()
    assert code == 0
    assert "Packages: as .py source: no CircuitPython mpy-cross" in out
    assert (drive / "engine" / "game.py").exists() and not (drive / "engine" / "game.mpy").exists()


def test_an_mpy_cross_that_is_not_circuitpythons_is_refused(run, drive, tmp_path):
    fake = tmp_path / "mpy-cross"
    fake.write_text("#!/bin/sh\necho 'MicroPython v1.27.0 on 2025-12-09; mpy-cross emitting mpy v6.3'\n")
    fake.chmod(0o755)
    before = tree(drive)
    code, _, err = run("--mpy-cross", str(fake))
    assert code == 1 and "is not CircuitPython's mpy-cross" in err and "Nothing was copied" in err
    assert tree(drive) == before


@pytest.mark.parametrize("folder", ["lib", "engine", "firmware", "hardware",
                                    "lib/adafruit_display_text"])
def test_a_file_where_a_folder_should_be_is_named_and_nothing_is_changed(run, drive, folder):
    if folder == "lib":
        shutil.rmtree(drive / "lib")
    (drive / folder).write_bytes(b"not a folder\n")
    before = tree(drive)
    for args in ((), ("--dry-run",)):
        code, out, err = run(*args)
        assert code == 1, out
        assert err.splitlines() == ["deploy: error: %s on the drive is a file, not a folder: "
                                    "rename or remove it. Nothing was copied" % folder]
        assert tree(drive) == before  # no manifest, no backup, nothing


def test_a_folder_where_a_file_should_be_is_named_and_nothing_is_changed(run, drive):
    (drive / "code.py").unlink()
    (drive / "code.py").mkdir()
    (drive / "engine" / "game.py").mkdir(parents=True)
    before = tree(drive)
    code, _, err = run()
    assert code == 1
    assert err.splitlines() == ["deploy: error: engine/game.py on the drive is a folder, not a "
                                "file: rename or remove it; code.py on the drive is a folder, "
                                "not a file: rename or remove it. Nothing was copied"]
    assert tree(drive) == before


def test_a_file_named_lib_is_named_before_circup_runs(run, drive, monkeypatch):
    shutil.rmtree(drive / "lib")
    (drive / "lib").write_bytes(b"")
    monkeypatch.setattr(deploy, "find_circup", lambda: "circup")  # run_circup: refused
    before = tree(drive)
    code, _, err = run(libs=False)
    assert code == 1 and "lib on the drive is a file, not a folder" in err
    assert tree(drive) == before


def _board_line(out):
    return [ln for ln in out.splitlines() if ln.startswith("Board: ")]


def test_a_boot_out_txt_that_is_not_text_is_said_so_not_echoed(run, drive):
    (drive / "boot_out.txt").write_bytes(b"\x00\x01\x02\x03PK\x03\x04" + bytes(range(256)))
    code, out, _ = run()
    assert code == 0
    assert _board_line(out) == ["Board: %s (boot_out.txt is not text)" % drive]
    assert "\x00" not in out and "\x03" not in out


def test_boot_out_txt_is_shown_printable(run, drive):
    (drive / "boot_out.txt").write_bytes(b"Adafruit CircuitPython 10.3.0 on 2026-11-30;\x1b[2J "
                                         b"Raspberry Pi Pico \xff with rp2040\r\nBoard ID:x\n")
    code, out, _ = run("--dry-run")
    assert code == 0
    assert _board_line(out) == ["Board: %s (Adafruit CircuitPython 10.3.0 on 2026-11-30;\\x1b"
                                "[2J Raspberry Pi Pico \\xff with rp2040)" % drive]
    assert "the firmware is made for" not in out  # still read as CircuitPython 10


def test_a_long_boot_out_txt_line_is_cut(run, drive):
    (drive / "boot_out.txt").write_bytes(b"Adafruit CircuitPython 10.3.0 " + b"x" * 5000)
    code, out, _ = run("--dry-run")
    line = "Adafruit CircuitPython 10.3.0 " + "x" * (deploy.BOOT_OUT_SHOWN - 30) + "..."
    assert code == 0 and _board_line(out) == ["Board: %s (%s)" % (drive, line)]


def test_the_drive_carries_the_version_it_was_made_from(run, drive, project):
    from tools import boardcode
    code, out, _ = run("--version", "v1.2")
    assert code == 0 and "Version: v1.2" in out
    assert (drive / "firmware" / "version.py").read_text() == boardcode.version_source("v1.2")
    assert "firmware/version.py" in manifest(drive)  # a later deploy knows its own file
    code, out, _ = run()  # no --version: from git; the project copy is none: "dev"
    assert code == 0 and "Version: dev" in out
    assert "copied  firmware/version.py (update" in out


def test_a_version_that_the_self_test_cannot_show_is_refused(run):
    for bad in ("a" * 13, "has space", ""):
        code, _, err = run("--version", bad)
        assert code == 2 and "--version" in err, (bad, err)


def test_the_version_comes_from_git():
    from tools import boardcode
    made = boardcode.version(ROOT)
    sha = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=7", "HEAD"],
                         capture_output=True, text=True).stdout.strip()
    tags = subprocess.run(["git", "-C", ROOT, "tag"], capture_output=True, text=True).stdout
    assert made.rstrip("+") in ([sha] + tags.split() if sha else ["dev"])
    assert boardcode.version(os.path.dirname(ROOT) + "/no-such-folder") == "dev"


def test_a_build_dated_by_source_date_epoch_writes_that_date_in_the_manifest(run, drive,
                                                                            monkeypatch):
    monkeypatch.setenv(deploy.SOURCE_DATE_EPOCH, "1700000000")
    assert run()[0] == 0
    doc = json.loads((drive / deploy.MANIFEST).read_text())
    assert doc["updated"] == "2023-11-14T22:13:20Z"
