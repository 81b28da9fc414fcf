"""The simulation lab: its CSV, its summary, its plots, bad arguments and interruption."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tools import mpy, sim, simpair


def _run(*args):
    return subprocess.run([sys.executable, "-m", "tools.sim"] + list(args), cwd=mpy.ROOT,
                          capture_output=True, text=True, timeout=300)


def test_a_small_study_writes_csv_summary_and_plots(tmp_path):
    r = _run("--games", "6", "--levels", "CASUAL,SHARP", "--variants", "standard,quick-3",
             "--handicap-games", "4", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    rows = sim.read_csv(tmp_path / "games.csv")
    assert len(rows) == 6 * 4 + 12 * 2 + len(sim.GAPS_MS) * len(sim.HANDICAPS) * 4
    for name in ("game_length", "per_game_counts", "variants", "win_rate_by_seat",
                 "win_rate_by_reaction", "handicap"):
        assert (tmp_path / (name + ".png")).stat().st_size > 5000, name
    assert "100%" in r.stderr  # the progress bar reached the end


def test_the_summary_matches_the_csv(tmp_path):
    r = _run("--games", "5", "--levels", "ROOKIE,LIGHTNING", "--variants", "standard,doubles",
             "--handicap-games", "0", "--out", str(tmp_path), "--no-plots")
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
                    str(tmp_path / d), "--no-plots", "--handicap-games", "2").returncode == 0
    assert (tmp_path / "a" / "games.csv").read_bytes() == (tmp_path / "b" / "games.csv").read_bytes()


def test_one_process_or_two_write_the_same_rows_and_summary(tmp_path):
    out = {}
    for jobs in ("1", "2"):
        d = tmp_path / jobs
        r = _run("--games", "3", "--levels", "QUICK", "--variants", "suit", "--handicap-games",
                 "2", "--no-plots", "--out", str(d), "--jobs", jobs)
        assert r.returncode == 0, r.stderr
        assert "games on %s process" % jobs in r.stderr
        with open(d / "summary.json") as f:
            summary = json.load(f)
        del summary["games_per_second"]
        out[jobs] = ((d / "games.csv").read_bytes(), summary, r.stdout.splitlines()[:-1])
    assert out["1"] == out["2"]
    assert len(sim.read_csv(tmp_path / "2" / "games.csv")) == 3 + 6 + 2 * 25


def test_bad_jobs_get_a_clear_usage_error(tmp_path):
    for jobs, word in (("0", "must be 1..256 processes, not 0"), ("-1", "must be 1..256"),
                       ("x", "'x' is not a whole number"), ("100000", "must be 1..256")):
        r = _run("--jobs", jobs, "--games", "1", "--out", str(tmp_path))
        assert r.returncode == 2, (jobs, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("make sim: error: argument --jobs: ") \
            and word in lines[0], (jobs, r.stderr)


def test_bad_arguments_get_a_clear_usage_error(tmp_path):
    for args, word in ((["--games", "0"], "must be 1.."), (["--games", "x"], "whole number"),
                       (["--levels", "FAST"], "levels are"), (["--variants", "tiny"], "variants are"),
                       (["--seed", "-1"], "--seed"), (["--frobnicate"], "unrecognized"),
                       (["--seed", "600000000"], "--seed must be 0..536852711 for these 18200"),
                       (["--handicap-games", "-2"], "must be 0..")):
        r = _run(*args, "--out", str(tmp_path))
        assert r.returncode == 2 and word in r.stderr, (args, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("make sim: error:"), r.stderr


def test_games_has_an_upper_bound(tmp_path):
    # (--out cannot be made: a --games let through fails on it at once, instead of playing
    # for years)
    (tmp_path / "file").write_text("")
    for games in ("10000001", "4" + "0" * 21):
        r = _run("--games", games, "--out", str(tmp_path / "file" / "out"))
        assert r.returncode == 2, r.stderr
        assert r.stderr.strip().splitlines() == [
            "make sim: error: argument --games: must be 1..10000000 games a pairing, not %s "
            "(see --help)" % games], r.stderr


def test_the_handicap_study_deals_the_faster_bot_more_cards_and_sums_up_the_csv(tmp_path):
    r = _run("--games", "1", "--levels", "SHARP", "--variants", "standard",
             "--handicap-games", "6", "--out", str(tmp_path), "--no-plots")
    assert r.returncode == 0, r.stderr
    rows = [x for x in sim.read_csv(tmp_path / "games.csv") if x["study"] == "handicap"]
    assert len(rows) == len(sim.GAPS_MS) * len(sim.HANDICAPS) * 6
    for x in rows:  # the faster seat is the one dealt the extra cards, in either seat
        faster_is_a = x["reaction_a_ms"] < x["reaction_b_ms"]
        assert x["handicap"] == (1 if faster_is_a else -1) * abs(x["handicap"])
        assert abs(x["reaction_a_ms"] - x["reaction_b_ms"]) in sim.GAPS_MS
    assert {x["reaction_a_ms"] < x["reaction_b_ms"] for x in rows} == {True, False}
    with open(tmp_path / "summary.json") as f:
        summary = json.load(f)
    cell = [x for x in rows if abs(x["reaction_a_ms"] - x["reaction_b_ms"]) == 180
            and abs(x["handicap"]) == 8]
    slower_won = sum(x["winner"] == ("A" if x["reaction_a_ms"] > x["reaction_b_ms"] else "B")
                     for x in cell)
    assert summary["handicap"]["180"]["slower_wins"]["8"] == round(slower_won / len(cell), 4)
    assert summary["handicap"]["180"]["games"]["8"] == 6
    assert "handicap, 180 ms slower" in r.stdout
    assert sim.plan_size(1, [3], ["standard"], 6) == len(list(sim.plan(1, [3], ["standard"],
                                                                       1, 6)))
    # the standard study's figures leave the handicap games out
    assert summary["variants"]["standard"]["games"] == 1 + 2  # levels, then variants


def test_a_slowed_bot_reacts_later_by_exactly_the_gap():
    from engine import Game, Rules
    from engine.bot import Bot
    g = Game(Rules(), 3)
    plain, slow = Bot(g, 0, 3, 9), sim.slowed(Bot(g, 0, 3, 9), 180)
    assert [d + 180 for d in plain._delays] == slow._delays


def test_an_interrupted_run_keeps_what_it_wrote(tmp_path):
    # (SIGINT as a terminal delivers it: a job started in the background inherits it
    # ignored, and Python then never raises KeyboardInterrupt)
    p = subprocess.Popen([sys.executable, "-m", "tools.sim", "--games", "100000", "--out",
                          str(tmp_path), "--no-plots"], cwd=mpy.ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
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


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_keeps_the_rows_written_so_far_in_order_and_prints_no_traceback(tmp_path, jobs):
    # Ctrl-C in a terminal: SIGINT to every process of the foreground group, the pool's
    # workers too
    p = subprocess.Popen([sys.executable, "-m", "tools.sim", "--games", "100000", "--out",
                          str(tmp_path), "--no-plots", "--jobs", jobs], cwd=mpy.ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    csv_path = tmp_path / "games.csv"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None:
        if csv_path.exists() and csv_path.stat().st_size > 20000:
            break
        time.sleep(0.1)
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    rows = sim.read_csv(csv_path)
    assert len(rows) > 100
    assert [r["seed"] for r in rows] == list(range(1, len(rows) + 1))  # plan order, no gap
    with open(tmp_path / "summary.json") as f:
        assert json.load(f)["games"] == len(rows)


def test_the_simulator_plays_at_least_a_thousand_games_a_second_or_reports_it():
    # Speed is reported by make bench, not asserted (shared machines are noisy); this
    # only checks that the measurement itself works.
    rate = sim.games_per_second(200)
    assert rate > 0


def _simpair_trees(under):
    """The repository's worktrees under a folder (a test's own: other runs may have theirs)."""
    out = subprocess.run(["git", "-C", mpy.ROOT, "worktree", "list", "--porcelain"],
                         capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if str(under) in line]


def _needs_the_baseline():
    try:
        simpair.resolve(simpair.BASELINE)
    except simpair.NotMeasured as e:
        pytest.skip(str(e))


def test_simpair_without_the_commit_says_it_measured_nothing(tmp_path):
    r = subprocess.run([sys.executable, "-m", "tools.simpair", "--commit", "0000000"],
                       cwd=mpy.ROOT, capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, TMPDIR=str(tmp_path)))
    assert r.returncode == 2 and r.stdout == "", r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "error: not measured: " in lines[0], r.stderr
    assert _simpair_trees(tmp_path) == [] and os.listdir(tmp_path) == []


def test_simpair_measures_old_and_new_alternately_and_removes_its_worktree(tmp_path):
    _needs_the_baseline()
    heard = []
    m = simpair.measure(rounds=2, games=50, log=heard.append, tmp=str(tmp_path))
    assert len(m["old"]) == len(m["now"]) == 2 and min(m["old"] + m["now"]) > 0
    assert m["ratio"] > 0 and [h.split(":")[1].split()[0] for h in heard] == [
        simpair.BASELINE, "this", simpair.BASELINE, "this"]
    text = "\n".join(simpair.report(m))
    assert "median" in text and "this tree / %s: " % simpair.BASELINE in text
    assert _simpair_trees(tmp_path) == [] and os.listdir(tmp_path) == []


def test_simpair_worktree_goes_on_an_error_too(tmp_path):
    _needs_the_baseline()
    with pytest.raises(RuntimeError):
        with simpair.Worktree(simpair.BASELINE, tmp=str(tmp_path)) as path:
            assert os.path.isfile(os.path.join(path, "engine", "game.py"))
            assert _simpair_trees(tmp_path)
            raise RuntimeError("stop")
    assert _simpair_trees(tmp_path) == [] and os.listdir(tmp_path) == []


def test_simpair_ctrl_c_removes_the_worktree_and_prints_one_line(tmp_path):
    _needs_the_baseline()
    p = subprocess.Popen([sys.executable, "-m", "tools.simpair", "--rounds", "50", "--games",
                          "100000"], cwd=mpy.ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True,
                         env=dict(os.environ, TMPDIR=str(tmp_path)),
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None and not _simpair_trees(tmp_path):
        time.sleep(0.05)
    time.sleep(0.5)  # into the first run
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130 and out == "", err
    assert err.strip().splitlines() == [
        "python -m tools.simpair: interrupted, not measured (the temporary worktree is "
        "removed)"], err
    assert _simpair_trees(tmp_path) == [] and os.listdir(tmp_path) == []


def test_bench_writes_the_pair_with_e02d551_and_the_all_core_figure():
    from tools import bench
    pair = {"commit": "e02d551", "head": "abc1234", "rounds": 4, "games": 1000,
            "old": [1100.0] * 4, "now": [1200.0] * 4, "old_median": 1100.0,
            "now_median": 1200.4, "ratio": 1.0912}
    f = {"fast": 1234.4, "slow": 20.2, "pair": pair, "not_paired": "", "cores": 2,
         "one": 1800.0, "all": 3400.0, "study_games": 40}
    assert bench.sim_rows(f) == [
        ("bot-against-bot games per second, one core", "1,234",
         "20 (a 1 ms fixed-step clock)", ">= 1,000"),
        ("the same, paired with e02d551 (4 rounds, each e02d551 then now, 1,000 games a run)",
         "1,200", "1,100 at e02d551 (now / e02d551: 1.09)", ">= e02d551's"),
        ("make sim games per second, all 2 cores (--jobs 2)", "3,400",
         "1,800 on one core (--jobs 1)", "report")]
    rows = bench.sim_rows(dict(f, pair=None, not_paired="commit e02d551 is not in this clone"))
    assert rows[1] == ("the same, paired with e02d551",
                       "not measured: commit e02d551 is not in this clone", "-", ">= e02d551's")
    text = bench.render([("Simulation", ("figure", "measured", "baseline", "target"), rows,
                          "")])
    assert "| the same, paired with e02d551 | not measured: commit e02d551" in text
    # and the measurements behind them run (small; figures are only reported, not judged)
    f = bench.sim_figures(games=50, pair_rounds=1, pair_games=50, study_games=1,
                          study_rounds=1)
    assert min(f["fast"], f["slow"], f["one"], f["all"]) > 0 and f["cores"] >= 1
    assert f["pair"] is None or (f["pair"]["ratio"] > 0 and f["pair"]["commit"] == "e02d551")
    assert len(bench.sim_rows(f)) == 3
