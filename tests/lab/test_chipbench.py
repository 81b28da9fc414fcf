"""make chip's measurements (lab/chipbench.py, the command make chip runs): --figures and
--power refuse in one line, before anything runs, what their own runs cannot take, and
print their figures; any other run is the chip twin's (twins/chip/chip.py), handed over
as it is. None of these starts the emulator: the toolchain's variables are left out."""
import os
import subprocess

import places
from lab import chipbench
from twins.chip import chip

TOOLCHAIN = ("CIRCUITPY_UF2", "RP2040_BOOTROM", "CIRCUITPY_MPY_CROSS", "CIRCUITPYTHON")


def _run(module, *args):
    """python -m module with these arguments and no toolchain."""
    env = {k: v for k, v in os.environ.items() if k not in TOOLCHAIN}
    env["CALIFORNIA_SPEED_TOOLCHAIN"] = os.path.join(places.ROOT, "tests", "no-such-folder")
    return places.run([module] + list(args), env=env, timeout=60)


def _make_chip(*args):
    return _run("lab.chipbench", *args)


def _refused(r, *words):
    places.one_line(r, "make chip: error:", *words)
    assert "needs" not in r.stderr  # (not the toolchain's complaint: the arguments came first)
    assert r.stdout == ""


def test_make_chip_runs_the_labs_command_with_its_arguments():
    # (under make test, MAKEFLAGS may carry -w: ask for no directory lines whatever the caller's)
    r = subprocess.run(["make", "--no-print-directory", "-n", "chip",
                        "ARGS=--keys matrix --figures"], cwd=places.ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1].endswith("-m lab.chipbench --keys matrix --figures"), \
        r.stdout


def test_figures_and_power_play_their_own_runs_so_a_script_or_a_file_is_refused(tmp_path):
    for flag in ("--figures", "--power"):
        for extra in (["--script", "x.keys"], ["--uf2", "x.uf2"],
                      ["--png", str(tmp_path / "a.png")], ["--no-display"]):
            _refused(_make_chip(flag, *extra), flag, "plays its own runs")
    _refused(_make_chip("--figures", "--power"), "--figures or --power")
    _refused(_make_chip("--power", "--keys", "matrix"), "--power", "the direct build")
    junk = tmp_path / "nets.json"
    junk.write_text("{}")
    _refused(_make_chip("--figures", "--nets", str(junk)), "--nets", "the committed board")
    assert os.listdir(tmp_path) == ["nets.json"]


def test_without_the_toolchain_a_measurement_says_what_it_needs():
    r = _make_chip("--figures")
    places.one_line(r, "make chip: error:", "the chip twin needs", "RP2040_BOOTROM")


def test_any_other_run_is_the_chip_twins_and_refused_as_it_refuses_it(tmp_path):
    folder = tmp_path / "shots"
    folder.mkdir()
    for args in (["--png", str(folder)], ["--keys", "diodes"], ["--entropy", "-1"],
                 ["--uf2", str(tmp_path / "none.uf2")], ["--flash", str(folder)]):
        mine, twins = _make_chip(*args), _run("twins.chip.chip", *args)
        _refused(mine)
        assert (mine.returncode, mine.stderr) == (twins.returncode, twins.stderr), args
    assert os.listdir(folder) == []


def test_the_chip_twin_alone_offers_no_measurement():
    """python -m twins.chip.chip runs; measuring is make chip's (the lab's)."""
    for flag in ("--figures", "--power"):
        places.one_line(_run("twins.chip.chip", flag), "make chip: error:",
                        "unrecognized arguments: " + flag)


def test_a_run_through_make_chip_is_the_chip_twins_run(monkeypatch, capsys):
    seen = []

    def run(text, **options):
        seen.append(options)
        return chip.ChipRun(['{"k": "t0", "t": 1e9}',
                             '{"k": "end", "t": 2e9, "why": "done", "wall_ms": 1000}'], 0x3C)
    monkeypatch.setattr(chip, "missing", lambda **_: None)
    monkeypatch.setattr(chip, "build_uf2", lambda dest, settings: os.path.join(dest, "m.uf2"))
    monkeypatch.setattr(chip, "run", run)
    assert chipbench.main(["--keys", "matrix", "--after", "70"]) == 0
    assert [(os.path.basename(o["uf2"]), o["after_ms"]) for o in seen] == [("m.uf2", 70)]
    assert "boot to the first full frame  1000 ms simulated" in capsys.readouterr().out


def test_figures_print_press_to_glass_for_the_build_asked(monkeypatch, capsys):
    asked = []

    def figures(**options):
        asked.append(options)
        return {"seed": 7, "counts": {"covered": 52}, "runs": {(400000, False): {
            "press_to_glass": {"n": 52, "mean": 11.83e6, "median": 12e6, "p95": 12.5e6,
                               "max": 12.84e6},
            "passes": {"play, idle": {"median": 0.7e6}}, "glass": 60, "checks": 60}}}
    monkeypatch.setattr(chip, "missing", lambda **_: None)
    monkeypatch.setattr(chipbench, "figures", figures)
    assert chipbench.main(["--figures", "--keys", "matrix"]) == 0
    out = capsys.readouterr().out
    assert asked[0]["keys"] == "matrix" and asked[0]["frequencies"] == (400000,)
    assert "the matrix build, seed 7: a 2-player match of 52 covers" in out
    assert "mean 11.8 ms, 95th percentile 12.5 ms, worst 12.8 ms (52 covers)" in out
    assert "the desktop twin's at 60 of 60 checkpoints" in out


def test_power_prints_the_awake_shares_the_speed_and_the_hours_on_batteries(monkeypatch,
                                                                            capsys):
    monkeypatch.setattr(chip, "missing", lambda **_: None)
    monkeypatch.setattr(chipbench, "power", lambda **_: {
        "seed": 7, "menu": {"awake": 0.269, "speed": 1.25, "hz": 125e6},
        "play": {"awake": 0.381, "speed": 0.99, "lit": 25.0, "covers": 50, "hz": 125e6,
                 "press_to_glass": {"n": 50, "mean": 13.9e6, "median": 14e6, "p95": 14.9e6,
                                    "max": 15.4e6}},
        "screen off": {"awake": 0.083, "speed": 1.36, "hz": 125e6},
        "dormant": {"after_off_s": 600.2, "hz": 12e6, "wake_ms": 2618.4, "menu": True}})
    assert chipbench.main(["--power"]) == 0
    out = capsys.readouterr().out
    assert "menu         awake  26.9 % of the time at 125 MHz; 1.25 simulated s per wall s" \
        in out
    assert "screen off   awake   8.3 %" in out
    assert "DORMANT 600.2 s after the screen went off (clk_sys 12 MHz as it stopped); MENU " \
        "to the menu as it was in 2618 ms" in out
    assert "95th percentile 14.9 ms" in out
    assert "3 AAA cells: about 39 hours of play (25 % of the glass lit), 29 days asleep" in out


def test_the_awake_share_and_the_speed_are_read_from_the_runs_feeds():
    """Feeds at 1, 2, 3 and 4 s after t0 with 0.5 s, then 0.5 s more, then none slept."""
    run = chip.ChipRun(['{"k": "t0", "t": 0}',
                        '{"k": "feed", "t": [1e9, 2e9, 3e9, 4e9], "z": [0, 5e8, 1e9, 1e9]}',
                        '{"k": "end", "t": 4e9, "why": "done", "wall_ms": 2000}'], 0x3C)
    assert chipbench.awake(run, 1000, 3000) == 0.5
    assert chipbench.awake(run, 1000) == 1 - 1e9 / 3e9
    assert chipbench.speed(run) == 2.0
    assert chipbench.spread([3, 1, 2]) == {"n": 3, "mean": 2, "median": 2, "p95": 3, "max": 3}
