"""The chip twin (twins/chip/chip.py): the one UF2 a classroom flashes (make uf2: CircuitPython
10.3's own Pico image and the deployed drive) boots in the rp2040js emulator and runs the
unchanged firmware; keys arrive as GPIO edges, the glass is decoded from the I2C bytes.
Its glass must equal the desktop twin's, step by step. Skipped, with one counted reason,
where node or the toolchain files are missing (.ci/run provides them)."""
import os
import re

import pytest

import places

from lab import chipbench, chipnvm
from twins.chip import chip, flash
from twins.desktop.scripted import desktop_run, match_script
from tools import mpy
from twins.desktop.scenes import frame_diff as _diff, golden as _golden

REASON = chip.missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason="the chip twin: %s" % REASON)


def _seed(run):
    seeds = [int(m.group(1)) for _, line in run.console
             for m in [re.match(r"match: seed (\d+)", line)] if m]
    assert seeds, run.text()
    return seeds[0]


@pytest.fixture(scope="module")
def booted(flashed):
    """Boot that file, show the menu, start a 2-player match (for its seed)."""
    return chip.run("400 A3 tap 80\n", uf2=flashed, after_ms=600)


@pytest.fixture(scope="module")
def played(booted, flashed, tmp_path_factory):
    """The match, pressed by GPIO with no USB host (as on batteries): 50 covers, over the
    end of a game and the deal of the next. The flash it leaves is run.flash_file."""
    seed = _seed(booted)
    script, checks, counts = match_script(seed, covers=50)
    after = str(tmp_path_factory.mktemp("played") / "flash.bin")
    run = chip.run(script, uf2=flashed, usb=False, flash_out=after, after_ms=checks[-1] - max(
        int(line.split()[0]) for line in script.splitlines()) + 100)
    run.flash_file = after
    return run, seed, script, checks, counts


def test_the_chip_boots_the_one_file_and_says_its_version_first(booted):
    said = [line for _, line in booted.console if line]
    assert "California Speed dev" in said, booted.text()
    assert said.index("California Speed dev") < min(
        i for i, line in enumerate(said) if line.startswith("ready: "))


def test_boot_reaches_the_main_menu_and_it_equals_the_desktop_golden(booted):
    assert booted.t0 is not None, booted.why + "\n" + booted.text()
    assert 500e6 < booted.t0 < 15000e6  # ns: boot to the first full frame
    got = booted.oled_at(300).frame()
    want = _golden("menu")
    assert got == want, _diff(got, want)


def test_a_scripted_match_by_gpio_shows_what_the_desktop_twin_shows_at_every_step(played):
    run, seed, script, checks, counts = played
    assert counts["covered"] >= 50 and counts["foul"] and counts["collision"] \
        and counts["stall"] and counts["games"], counts
    desktop = desktop_run(script, seed, checks)[0]
    for ms, want in zip(checks, desktop):
        got = run.oled_at(ms).frame()
        assert got == want, "at %d ms after the first frame:\n%s" % (ms, _diff(got, want))
    presses = [k for k in run.keys if k[2]]
    assert len(presses) == script.count("tap")


def test_the_first_cover_of_a_match_is_one_short_pass(played):
    """It once also re-sent both hidden banners' areas (1.5 KB that changed no pixel, a
    125 ms pass): displayio keeps a hidden TileGrid's area from a full-frame refresh."""
    import bisect
    run, seed, script, checks, counts = played
    edge = next(t for t, _, down in run.keys if down and t >= run.t0 + counts["cover_at"][0] * 1e6
                - 1e3)
    feeds = run.feeds
    starts = [x[0] for x in run.i2c]
    i = bisect.bisect_left(feeds, edge)
    for a, b in zip(feeds[i:], feeds[i + 1:]):
        writes = run.i2c[bisect.bisect_left(starts, a):bisect.bisect_left(starts, b)]
        if writes:
            break
    sent = sum(len(w[4]) for w in writes)
    assert sent <= 200, sent
    assert b - a <= 20e6, "the first cover's pass took %.1f ms" % ((b - a) / 1e6)


def _passes(run, after_ms):
    """(start in ms after t0, length in ms) of every main-loop pass that starts after_ms."""
    feeds = [t for t in run.feeds if t >= run.t0 + after_ms * 1e6]
    return [((a - run.t0) / 1e6, (b - a) / 1e6) for a, b in zip(feeds, feeds[1:])]


def test_no_pass_during_play_takes_more_than_20_ms(played):
    """Each pass draws one pile, one message line or half a banner, so a key waits at most
    one short pass; a game's result and the next deal come the same way. (The deal at
    400 ms is one full frame: a new screen, like the menus.)"""
    run = played[0]
    passes = _passes(run, 1200)
    assert len(passes) > 1000
    longest = max(passes, key=lambda p: p[1])
    assert longest[1] <= 20, "a pass of %.1f ms at %.0f ms" % (longest[1], longest[0])


def test_press_to_glass_is_within_16_ms_at_the_95th_percentile(played):
    run, seed, script, checks, counts = played
    ns = chipbench.press_to_glass(run, counts["cover_at"], counts["cover_box"])
    assert len(ns) == counts["covered"]
    stats = chipbench.spread(ns)
    assert stats["p95"] <= 16e6, sorted(round(t / 1e6, 1) for t in ns)


def test_the_core_sleeps_between_the_passes_of_a_match(played):
    """A pass with nothing to do sleeps (time.sleep: the core waits for an interrupt) until
    the next note or 3 ms: the keypad scans on, the glass still follows within 16 ms."""
    run, seed, script, checks, counts = played
    assert chipbench.awake(run, 1900, counts["cover_at"][-1]) < 0.6


@pytest.fixture(scope="module")
def resting(flashed):
    """Nobody presses a key: the menu, then the screen off after the SLEEP setting's
    minute, as on batteries."""
    return chip.run("", uf2=flashed, usb=False, after_ms=chipbench.POWER_OFF_AFTER_MS + 6000,
                    nvm=flash.saved_settings(sleep=3))


def test_left_alone_the_core_sleeps_most_of_the_time_and_more_with_the_screen_off(resting):
    off = chipbench.POWER_OFF_AFTER_MS
    menu, dark = chipbench.awake(resting, 1000, off - 1000), chipbench.awake(resting, off + 1000)
    assert menu < 0.5 and dark < 0.2 and dark < menu / 2, (menu, dark)
    assert not any(resting.oled_at(off + 5000).frame())  # (the screen is off)
    assert any(resting.oled_at(off - 1000).frame())


def test_the_self_test_names_every_button_pressed_by_gpio(flashed):
    from twins.desktop.play import KEY_NAMES
    lines = ["%d A1 tap 80" % (400 + 300 * i) for i in range(6)]  # DOWN to SELF TEST
    lines.append("2000 A3 tap 80")
    t, checks = 4500, []
    for name in sorted(KEY_NAMES, key=KEY_NAMES.get):
        if name == "MENU":
            continue
        lines.append("%d %s tap 80" % (t, name))
        checks.append(t + 250)
        t += 400
    script = "\n".join(lines) + "\n"
    run = chip.run(script, uf2=flashed, after_ms=400)
    desktop = desktop_run(script, 1, checks)[0]
    frames = [run.oled_at(ms).frame() for ms in checks]
    info = slice(8 * 128, 16 * 128)  # "I2C 3C 400K  MEM 98K": a desktop has no gc.mem_free
    for ms, got, want in zip(checks, frames, desktop):
        got, want = bytearray(got), bytearray(want)
        assert any(got[info])
        got[info] = want[info] = bytes(8 * 128)
        assert got == want, "at %d ms:\n%s" % (ms, _diff(got, want))
    assert len(set(frames)) == len(frames)  # each key press changed the key screen


def test_no_display_at_the_address_says_so_and_retries_without_a_reset(flashed):
    run = chip.run("", uf2=flashed, display=False, boot_ms=9000)
    said = [line for _, line in run.console if "No display at I2C address 0x3c" in line]
    assert len(said) >= 2, run.text()
    assert "found: nothing" in said[0]
    assert run.t0 is None and "watchdog" not in run.text()
    assert not any(line.startswith("Adafruit CircuitPython") for _, line in run.console[1:]) \
        or sum(line.startswith("Adafruit CircuitPython") for _, line in run.console) <= 1


def _break_the_kit(tree):
    """The glyph kit's module, replaced by one that fails as it is imported."""
    import os
    import tempfile
    from twins.boardvm import boardvm
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "ui.py")
        with open(src, "w") as f:
            f.write("raise RuntimeError('glyph kit broken on purpose')\n")
        boardvm.compile_mpy(src, os.path.join(tree, "firmware", "ui.mpy"))


@pytest.mark.skipif(chip.boardvm.missing() != "", reason="the board VM: %s"
                    % chip.boardvm.missing())
def test_a_broken_glyph_kit_shows_the_error_screen_as_the_board_vm_draws_it(tmp_path):
    """The real board's terminalio, fontio and bitmaptools against the board VM's
    stand-ins: the same broken tree shows the same error screen on both."""
    from twins.boardvm import boardvm
    run = chip.run("", boot_ms=15000, after_ms=4000, change_tree=_break_the_kit)
    said = run.text()
    assert "California Speed stopped: RuntimeError('glyph kit broken on purpose',)" in said, said
    assert "soft reboot" in said and "could not start" not in said, said  # started again
    assert run.t0 is not None, run.why + "\n" + said
    got = run.oled_at((run.end - run.t0) / 1e6).frame()  # the glass at the end
    assert got.count(1) > 500  # five lines of text
    tree = boardvm.build_tree(str(tmp_path / "CIRCUITPY"))
    _break_the_kit(tree)
    vm = boardvm.run(tree, script="3000 shot error\n3100 end\n", heap="256K", max_boots=5)
    want = vm.shots["error"]
    assert got == want, _diff(got, want)


# ---- the memory on CircuitPython's own nvm path, the flash chip's commands counted ----

@pytest.fixture(scope="module")
def memory(tmp_path_factory):
    """A Pico flashed and booted, its memory nearly full (lab/chipnvm.py): LOCKOUT changed
    by GPIO and saved, then the settings page opened again (its compaction)."""
    work = str(tmp_path_factory.mktemp("memory"))
    start, games = chipnvm.first_flash(work)
    after = os.path.join(work, "after.bin")
    run = chip.run(chipnvm.CHANGE, flash=start, reflash=False, flash_out=after,
                   after_ms=600)
    return work, start, after, run, games


def test_a_save_is_page_programs_and_a_compaction_is_one_erase(memory):
    _, _, _, run, _ = memory
    cmds = [e["cmd"] for e in chipnvm.nvm_commands(run)]
    # the setting's save: a write enable and a page program, no erase; then the compaction:
    # one sector erase, and the sector's 16 pages programmed again; nothing else
    assert cmds == ["wren", "program", "wren", "erase"] + ["wren", "program"] * 16, cmds
    erase = [e for e in chipnvm.nvm_commands(run) if e["cmd"] == "erase"][0]
    assert (erase["addr"], erase["bytes"]) == (chipnvm.NVM_START, 4096)


def test_a_setting_saved_by_gpio_survives_a_power_cycle_and_a_reflash(memory, flashed):
    _, _, after, _, games = memory
    assert chipnvm.read_back(after)[:2] == (chipnvm.SAVED_LOCKOUT, str(games))
    # the one-file UF2 dragged onto RPI-RP2 again, over the used flash
    assert chipnvm.read_back(after, uf2=flashed)[:2] == (chipnvm.SAVED_LOCKOUT, str(games))


def test_the_statistics_after_a_match_survive_and_were_saved_without_an_erase(played):
    run = played[0]
    cmds = [e["cmd"] for e in chipnvm.nvm_commands(run)]
    assert "program" in cmds and "erase" not in cmds, cmds
    lockout, games, _ = chipnvm.read_back(run.flash_file)
    assert lockout == chipnvm.DEFAULT_LOCKOUT and int(games) >= 1


def test_power_cuts_in_a_save_and_a_compaction_lose_nothing_but_in_the_window(memory):
    """A sample of the cut points (make chipnvm cuts at all of them): a save loses
    nothing; a compaction's cut from its erase until the records are programmed again
    returns the defaults, but 0.1% into the erase, where only the statistics go and the
    console says so; nothing else is ever read."""
    work, start, _, run, games = memory
    with open(start, "rb") as f:
        first = f.read()
    log = chipnvm.nvm_commands(run)
    got = {}
    for name, i, f in chipnvm.sample(log):
        path = os.path.join(work, "cut.bin")
        with open(path, "wb") as out:
            out.write(chipnvm.flash_at(first, run.flash_log, log[i], f))
        got[(i, name)] = chipnvm.outcome(chipnvm.read_back(path), games)
    assert {o[:2] for o in got.values()} <= {("before", "kept"), ("saved", "kept"),
                                             ("saved", "default"), ("default", "default")}, got
    save, erase = 1, 3
    assert got[(save - 1, "wren")][:2] == got[(save, "program 0%")][:2] == ("before", "kept")
    assert got[(save, "program 100%")][:2] == got[(erase, "erase 0%")][:2] == ("saved", "kept")
    assert got[(erase, "erase 0.1%")] == (
        "saved", "default", "statistics: the newest saved record cannot be read; using defaults")
    assert got[(erase, "erase 100%")][:2] == ("default", "default")
    assert got[(len(log) - 1, "program 100%")][:2] == ("saved", "kept")


def test_make_chipnvm_cuts_where_the_bytes_differ_and_at_each_records_end(memory):
    """The sweep's cut points: no two in a row leave the same bytes (a write enable, or a
    page programmed as it was, is cut nowhere else), and a page program is cut where the
    app's own loading reads its sector differently and a byte short of it, so the
    compaction's window is known to the byte."""
    from lab import nvmcheck
    _, start, _, run, _ = memory
    with open(start, "rb") as f:
        first = f.read()
    log = chipnvm.nvm_commands(run)
    points = chipnvm.cut_points(first, run.flash_log, log)
    sectors = [image[chipnvm.NVM_START:chipnvm.NVM_END] for _, _, _, image in points]
    assert all(a != b for a, b in zip(sectors, sectors[1:]))
    assert len(points) < 30, [p[:2] for p in points]
    compacted = [p for p in points if p[1] == 5]  # the compaction's first page
    reads = [nvmcheck.read_back(image[chipnvm.NVM_START:chipnvm.NVM_END])
             for _, _, _, image in compacted]
    for n in range(1, len(compacted)):  # each change of what is read has its byte before
        if reads[n] != reads[n - 1]:
            ahead = int(compacted[n][0].split()[1])
            assert compacted[n - 1][0] == "program %d B" % (ahead - 1), compacted[n - 1][:2]
    assert len({r for r in reads}) >= 3, reads  # nothing, the settings, then both


def _make_chip(*args, timeout=300):
    """make chip's command line (python -m twins.chip.chip), run to its end."""
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "twins.chip.chip"] + list(args), cwd=mpy.ROOT,
                          capture_output=True, text=True, timeout=timeout)


def _first_deal(flashed, keys, *args):
    r = _make_chip("--uf2", flashed, "--script", keys, "--after", "600", *args)
    assert r.returncode == 0, r.stdout + r.stderr
    return int(re.search(r"console: match: seed (\d+)", r.stdout).group(1))


def test_entropy_deals_the_same_first_match_for_one_number_and_another_for_another(flashed,
                                                                                   tmp_path):
    """--entropy N: the ring oscillator's random bit follows N's stream (os.urandom reads
    it), so a run deals its own matches, again for the same N."""
    keys = tmp_path / "deal.keys"
    keys.write_text("400 A3 tap 80\n")
    one = _first_deal(flashed, str(keys), "--entropy", "1")
    assert _first_deal(flashed, str(keys), "--entropy", "1") == one
    assert _first_deal(flashed, str(keys), "--entropy", "2") != one


def test_an_erased_flash_file_boots_the_trees_uf2_and_keeps_it(tmp_path):
    """2 MB of 0xFF is a fresh chip, as an empty file: it ran nothing for minutes."""
    erased = tmp_path / "ff.bin"
    erased.write_bytes(b"\xff" * flash.FLASH_BYTES)
    r = _make_chip("--script", os.path.join(mpy.ROOT, "docs", "screenshot.keys"),
                   "--flash", str(erased))
    assert r.returncode == 0 and "boot to the first full frame" in r.stdout, r.stdout + r.stderr
    assert "(2 MB, written back)" in r.stdout
    assert flash.looks_like_flash(erased.read_bytes()) and not flash.blank_flash(str(erased))


def test_a_flash_whose_program_runs_off_ends_at_once_in_a_line(tmp_path):
    """A boot stage 2 the boot ROM takes (its CRC right) and nothing after it: the core
    runs off the end of memory, where the silicon faults; rp2040js would run on up the
    address space at a twentieth of its speed, and the 20 s cap came after 7 minutes."""
    boot2 = bytes(252) + flash.boot2_crc(bytes(252)).to_bytes(4, "little")
    image = tmp_path / "flash.bin"
    image.write_bytes(boot2 + b"\xff" * (flash.FLASH_BYTES - 256))
    r = _make_chip("--flash", str(image), timeout=120)
    assert r.returncode == 1 and r.stderr == "", r.stderr
    assert r.stdout.splitlines()[-1].startswith(
        "no full frame reached the glass (the core ran off to 0x"), r.stdout


def _running(flashed, *args):
    """make chip started in a session of its own (as a terminal's foreground job), and its
    node, once it runs."""
    import subprocess
    import sys
    import time
    p = subprocess.Popen([sys.executable, "-m", "twins.chip.chip", "--uf2", flashed, "--after",
                          "600000"] + list(args), cwd=mpy.ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True,
                         preexec_fn=places.as_at_a_terminal)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with open("/proc/%d/task/%d/children" % (p.pid, p.pid)) as f:
            for pid in f.read().split():
                with open("/proc/%s/cmdline" % pid, "rb") as c:
                    if b"run.mjs" in c.read():
                        return p, int(pid)
        time.sleep(0.2)
    p.kill()
    pytest.fail("make chip started no node: %s" % (p.communicate(),))


def test_ctrl_c_is_one_line_and_exit_status_130_and_the_flash_is_not_written(flashed,
                                                                            tmp_path):
    import signal
    flash = tmp_path / "flash.bin"
    p, node = _running(flashed, "--flash", str(flash))
    os.killpg(p.pid, signal.SIGINT)  # (what Ctrl-C sends the foreground job)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130 and err.splitlines() == ["make chip: stopped (Ctrl-C)"], err
    assert os.listdir(tmp_path) == []


def test_node_killed_is_one_line_naming_the_signal(flashed):
    import signal
    p, node = _running(flashed)
    os.kill(node, signal.SIGKILL)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 128 + signal.SIGKILL, err
    assert err.splitlines() == ["make chip: error: the chip twin (node) was killed by SIGKILL"]
