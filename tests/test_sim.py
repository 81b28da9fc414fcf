"""The simulation lab: its CSV, its summary, its plots, bad arguments and interruption."""
import json
import os
import signal
import subprocess
import sys
import time

from tools import mpy, sim


def _run(*args):
    return subprocess.run([sys.executable, "-m", "tools.sim"] + list(args), cwd=mpy.ROOT,
                          capture_output=True, text=True, timeout=300)


def test_a_small_study_writes_csv_summary_and_plots(tmp_path):
    r = _run("--games", "6", "--levels", "CASUAL,SHARP", "--variants", "standard,quick-3",
             "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    rows = sim.read_csv(tmp_path / "games.csv")
    assert len(rows) == 6 * 4 + 12 * 2
    for name in ("game_length", "per_game_counts", "variants", "win_rate_by_seat",
                 "win_rate_by_reaction"):
        assert (tmp_path / (name + ".png")).stat().st_size > 5000, name
    assert "100%" in r.stderr  # the progress bar reached the end


def test_the_summary_matches_the_csv(tmp_path):
    r = _run("--games", "5", "--levels", "ROOKIE,LIGHTNING", "--variants", "standard,doubles",
             "--out", str(tmp_path), "--no-plots")
    assert r.returncode == 0, r.stderr
    rows = sim.read_csv(tmp_path / "games.csv")
    with open(tmp_path / "summary.json") as f:
        summary = json.load(f)
    assert summary["games"] == len(rows)
    std = [x for x in rows if x["variant"] == "standard" and x["level_a"] == x["level_b"]]
    s = summary["variants"]["standard"]
    assert s["games"] == len(std)
    assert abs(s["length_s_mean"] - sum(x["length_ms"] for x in std) / 1000 / len(std)) < 0.01
    assert abs(s["a_wins"] - sum(x["winner"] == "A" for x in std) / len(std)) < 1e-3
    lightning_vs_rookie = [x for x in rows if x["level_a"] == "LIGHTNING"
                           and x["level_b"] == "ROOKIE"]
    diff = str(sim.LEVELS[4][1] - sim.LEVELS[0][1])
    assert summary["by_reaction_diff"][diff] == round(
        sum(x["winner"] == "A" for x in lightning_vs_rookie) / len(lightning_vs_rookie), 4)
    # and the printed table says the same
    assert "standard" in r.stdout and "%5.1f" % s["length_s_median"] in r.stdout


def test_the_same_seed_gives_the_same_csv(tmp_path):
    for d in ("a", "b"):
        assert _run("--games", "3", "--levels", "QUICK", "--variants", "suit", "--out",
                    str(tmp_path / d), "--no-plots").returncode == 0
    assert (tmp_path / "a" / "games.csv").read_bytes() == (tmp_path / "b" / "games.csv").read_bytes()


def test_bad_arguments_get_a_clear_usage_error(tmp_path):
    for args, word in ((["--games", "0"], "at least 1"), (["--games", "x"], "whole number"),
                       (["--levels", "FAST"], "levels are"), (["--variants", "tiny"], "variants are"),
                       (["--seed", "-1"], "--seed"), (["--frobnicate"], "unrecognized")):
        r = _run(*args, "--out", str(tmp_path))
        assert r.returncode == 2 and word in r.stderr, (args, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("make sim: error:"), r.stderr


def test_an_interrupted_run_keeps_what_it_wrote(tmp_path):
    p = subprocess.Popen([sys.executable, "-m", "tools.sim", "--games", "100000", "--out",
                          str(tmp_path), "--no-plots"], cwd=mpy.ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    csv_path = tmp_path / "games.csv"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if csv_path.exists() and csv_path.stat().st_size > 20000:
            break
        time.sleep(0.1)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert "interrupted: kept the" in err
    rows = sim.read_csv(csv_path)
    assert len(rows) > 100
    with open(tmp_path / "summary.json") as f:
        summary = json.load(f)
    assert summary["interrupted"] and summary["games"] == len(rows)


def test_the_simulator_plays_at_least_a_thousand_games_a_second_or_reports_it():
    # Speed is reported by make bench, not asserted (shared machines are noisy); this
    # only checks that the measurement itself works.
    rate = sim.games_per_second(200)
    assert rate > 0
