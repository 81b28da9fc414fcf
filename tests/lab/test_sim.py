"""The simulation lab: its CSV, its summary, its plots, bad arguments and interruption."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

import places

from engine.bot import LEVELS
from firmware.settings import Settings
from lab import simpair, simplay, simstats, simstudies
from tools import mpy


def _run(*args, auto="1", long="2"):
    """make sim with these arguments; a small AUTO HANDICAP study (one family a gap)
    unless auto is None, and a small Long Speed study (long games a level) unless long is
    None."""
    more = ["--auto-families", auto] if auto is not None else []
    more += ["--long-games", long] if long is not None else []
    return subprocess.run([sys.executable, "-m", "lab.sim"] + list(args) + more,
                          cwd=mpy.ROOT, capture_output=True, text=True, timeout=300)


def _confirmed_in_rounds(confirm, games):
    """The confirmation's rows: every gap at least once, at most CONFIRM_TRIES times, games
    games at each of its settings (so rows of a run that tried again are checked too)."""
    per = {}
    for x in confirm:
        assert x["study"] == "confirm"
        gap = abs(x["reaction_a_ms"] - x["reaction_b_ms"])
        per.setdefault(gap, {}).setdefault(abs(x["handicap_ms"]), []).append(x)
    assert sorted(per) == list(simplay.GAPS_MS)
    for gap, tried in per.items():
        assert 1 <= len(tried) <= simstats.CONFIRM_TRIES
        assert all(len(xs) == games for xs in tried.values())


def test_a_small_study_writes_csv_summary_and_plots(tmp_path):
    r = _run("--games", "6", "--levels", "CASUAL,SHARP", "--variants", "standard,quick-3",
             "--handicap-games", "4", "--confirm-games", "6", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    rows = simplay.read_csv(tmp_path / "games.csv")
    scan = [x for x in rows if x["study"] != "confirm"]
    assert len(scan) == 6 * 4 + 12 * 2 + len(simplay.GAPS_MS) * (
        len(simplay.HANDICAPS) + len(simplay.DELAYS)) * 4
    _confirmed_in_rounds(rows[len(scan):], 6)
    for name in ("game_length", "per_game_counts", "variants", "win_rate_by_seat",
                 "win_rate_by_reaction", "handicap"):
        assert (tmp_path / (name + ".png")).stat().st_size > 5000, name
    assert "100%" in r.stderr  # the progress bar reached the end
    auto = json.loads((tmp_path / "summary.json").read_text())["auto"]
    assert sorted(auto, key=int) == [str(g) for g in simplay.GAPS_MS]
    assert all(a["families"] == 1 for a in auto.values())
    assert r.stdout.count("AUTO HANDICAP, ") == len(simplay.GAPS_MS)


def test_the_summary_matches_the_csv(tmp_path):
    r = _run("--games", "5", "--levels", "ROOKIE,LIGHTNING", "--variants", "standard,doubles",
             "--handicap-games", "0", "--out", str(tmp_path), "--no-plots")
    assert r.returncode == 0, r.stderr
    rows = simplay.read_csv(tmp_path / "games.csv")
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
    diff = str(LEVELS[4][1] - LEVELS[0][1])
    assert summary["by_reaction_diff"][diff] == round(
        sum(x["winner"] == "A" for x in lightning_vs_rookie) / len(lightning_vs_rookie), 4)
    # and the printed table says the same
    assert "standard" in r.stdout and "%5.1f" % s["length_s_median"] in r.stdout


def test_the_same_seed_gives_the_same_csv(tmp_path):
    for d in ("a", "b"):
        assert _run("--games", "3", "--levels", "QUICK", "--variants", "suit", "--out",
                    str(tmp_path / d), "--no-plots", "--handicap-games", "2",
                    "--confirm-games", "4").returncode == 0
    assert (tmp_path / "a" / "games.csv").read_bytes() == (tmp_path / "b" / "games.csv").read_bytes()


def test_one_process_or_two_write_the_same_rows_and_summary(tmp_path):
    out = {}
    for jobs in ("1", "2"):
        d = tmp_path / jobs
        r = _run("--games", "3", "--levels", "QUICK", "--variants", "suit", "--handicap-games",
                 "2", "--confirm-games", "6", "--no-plots", "--out", str(d), "--jobs", jobs)
        assert r.returncode == 0, r.stderr
        assert "games on %s process" % jobs in r.stderr
        with open(d / "summary.json") as f:
            summary = json.load(f)
        del summary["games_per_second"]
        out[jobs] = ((d / "games.csv").read_bytes(), summary, r.stdout.splitlines()[:-1])
    assert out["1"] == out["2"]
    rows = simplay.read_csv(tmp_path / "2" / "games.csv")
    scan = [x for x in rows if x["study"] != "confirm"]
    assert len(scan) == 3 + 6 + 2 * 5 * (5 + len(simplay.DELAYS))
    _confirmed_in_rounds(rows[len(scan):], 6)


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
                       # (the confirmation plays up to 3 settings a gap: 3 x 5 x 1600 games;
                       # the AUTO HANDICAP study 5 gaps x 60 families x 40 matches; the Long
                       # Speed study 3 variants x (5 levels + 3 gaps x 2) x 1000 games)
                       (["--seed", "600000000"], "--seed must be 0..536581711 for up to 289200"),
                       (["--seed", "536581712"], "--seed must be 0..536581711 for up to 289200"),
                       (["--seed", "536605712", "--confirm-games", "0"],
                        "--seed must be 0..536605711 for up to 265200"),
                       (["--seed", "536617712", "--confirm-games", "0", "--auto-families", "0"],
                        "--seed must be 0..536617711 for up to 253200"),
                       (["--seed", "536650712", "--confirm-games", "0", "--auto-families", "0",
                         "--long-games", "0"], "--seed must be 0..536650711 for up to 220200"),
                       (["--long-only", "--long-games", "0"], "--long-only with --long-games 0"),
                       (["--long-games", "-1"], "must be 0.."),
                       (["--auto-families", "-1"], "must be 0.."),
                       (["--handicap-games", "-2"], "must be 0.."),
                       (["--confirm-games", "x"], "whole number")):
        r = _run(*args, "--out", str(tmp_path), auto=None, long=None)
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
             "--handicap-games", "6", "--confirm-games", "2", "--out", str(tmp_path),
             "--no-plots")
    assert r.returncode == 0, r.stderr
    rows = [x for x in simplay.read_csv(tmp_path / "games.csv") if x["study"] == "handicap"]
    assert len(rows) == len(simplay.GAPS_MS) * len(simplay.HANDICAPS) * 6
    for x in rows:  # the faster seat is the one dealt the extra cards, in either seat
        faster_is_a = x["reaction_a_ms"] < x["reaction_b_ms"]
        assert x["handicap"] == (1 if faster_is_a else -1) * abs(x["handicap"])
        assert abs(x["reaction_a_ms"] - x["reaction_b_ms"]) in simplay.GAPS_MS
    assert {x["reaction_a_ms"] < x["reaction_b_ms"] for x in rows} == {True, False}
    with open(tmp_path / "summary.json") as f:
        summary = json.load(f)
    cell = [x for x in rows if abs(x["reaction_a_ms"] - x["reaction_b_ms"]) == 180
            and abs(x["handicap"]) == 8]
    slower_won = sum(x["winner"] == ("A" if x["reaction_a_ms"] > x["reaction_b_ms"] else "B")
                     for x in cell)
    assert summary["handicap"]["180"]["slower_wins"]["8"] == round(slower_won / len(cell), 4)
    assert summary["handicap"]["180"]["games"]["8"] == 6
    assert "card handicap, 180 ms slower" in r.stdout
    assert simplay.plan_size(1, [3], ["standard"], 6) == len(list(simplay.plan(1, [3], ["standard"],
                                                                       1, 6)))
    assert all(x["handicap_ms"] == 0 for x in rows)  # the card study holds no press back
    # the standard study's figures leave the handicap games out
    assert summary["variants"]["standard"]["games"] == 1 + 2  # levels, then variants


def test_a_slowed_bot_reacts_later_by_exactly_the_gap():
    from engine import Game, Rules
    from engine.bot import Bot
    g = Game(Rules(), 3)
    plain, slow = Bot(g, 0, 3, 9), simplay.slowed(Bot(g, 0, 3, 9), 180)
    assert [d + 180 for d in plain._delays] == slow._delays


def test_an_interrupted_run_keeps_what_it_wrote(tmp_path):
    p = subprocess.Popen([sys.executable, "-m", "lab.sim", "--games", "100000", "--out",
                          str(tmp_path), "--no-plots"], cwd=mpy.ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=places.as_at_a_terminal)
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
    rows = simplay.read_csv(csv_path)
    assert len(rows) > 100
    with open(tmp_path / "summary.json") as f:
        summary = json.load(f)
    assert summary["interrupted"] and summary["games"] == len(rows)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_keeps_the_rows_written_so_far_in_order_and_prints_no_traceback(tmp_path, jobs):
    # Ctrl-C in a terminal: SIGINT to every process of the foreground group, the pool's
    # workers too
    p = subprocess.Popen([sys.executable, "-m", "lab.sim", "--games", "100000", "--out",
                          str(tmp_path), "--no-plots", "--jobs", jobs], cwd=mpy.ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True,
                         preexec_fn=places.as_at_a_terminal)
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
    rows = simplay.read_csv(csv_path)
    assert len(rows) > 100
    assert [r["seed"] for r in rows] == list(range(1, len(rows) + 1))  # plan order, no gap
    with open(tmp_path / "summary.json") as f:
        assert json.load(f)["games"] == len(rows)


def test_the_simulator_plays_at_least_a_thousand_games_a_second_or_reports_it():
    # Speed is reported by make bench, not asserted (shared machines are noisy); this
    # only checks that the measurement itself works.
    rate = simplay.games_per_second(200)
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
    r = subprocess.run([sys.executable, "-m", "lab.simpair", "--commit", "0000000"],
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
    p = subprocess.Popen([sys.executable, "-m", "lab.simpair", "--rounds", "50", "--games",
                          "100000"], cwd=mpy.ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True,
                         env=dict(os.environ, TMPDIR=str(tmp_path)),
                         preexec_fn=places.as_at_a_terminal)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None and not _simpair_trees(tmp_path):
        time.sleep(0.05)
    time.sleep(0.5)  # into the first run
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130 and out == "", err
    assert err.strip().splitlines() == [
        "python -m lab.simpair: interrupted, not measured (the temporary worktree is "
        "removed)"], err
    assert _simpair_trees(tmp_path) == [] and os.listdir(tmp_path) == []


def test_bench_writes_the_pair_with_e02d551_and_the_all_core_figure():
    from lab import bench
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


# ---- the time handicap study ----

def test_the_offered_delays_are_the_settings_own():
    from firmware import settings
    offered = getattr(settings, "DELAYS_MS", None) or tuple(sorted(
        {abs(v) for key, choices, _ in settings.FIELDS if key == "handicap_ms"
         for v in choices if v}))
    assert simplay.DELAYS == (0,) + offered == (0,) + simplay.DELAYS_MS
    assert offered == tuple(range(5, 501, 5))  # (what the study's figures were made with)


def test_a_plan_with_two_delays_has_a_row_per_gap_delay_and_game_seats_alternating():
    games = list(simplay.plan(1, [3], ["standard"], 10, 4, delays=(0, 40)))
    assert len(games) == simplay.plan_size(1, [3], ["standard"], 4, (0, 40)) == \
        1 + 2 + len(simplay.GAPS_MS) * (len(simplay.HANDICAPS) + 2) * 4
    assert [g[2] for g in games] == list(range(10, 10 + len(games)))  # a seed each, in order
    cards = [g for g in games if g[0] == "handicap"]
    delays = [g for g in games if g[0] == "delay"]
    assert len(cards) == len(simplay.GAPS_MS) * len(simplay.HANDICAPS) * 4
    assert all(g[8] == 0 for g in cards)  # the card study at 0 ms
    assert [(g[5] or g[6], abs(g[8])) for g in delays[::4]] == [
        (gap, d) for gap in simplay.GAPS_MS for d in (0, 40)]
    lv = simplay.HANDICAP_LEVEL
    for i, (study, variant, seed, la, lb, sa, sb, h, ms) in enumerate(delays):
        assert (variant, la, lb, h) == ("standard", lv, lv, 0)
        if i % 2 == 0:  # the faster bot in seat A: A's presses are held (positive)
            assert sa == 0 and sb in simplay.GAPS_MS and ms >= 0
        else:  # in seat B: B's (negative)
            assert sb == 0 and sa in simplay.GAPS_MS and ms <= 0
    assert {g[8] for g in delays} == {0, 40, -40}


def test_a_planned_delay_game_holds_the_faster_seat_presses():
    for game in (("delay", "standard", 5, 3, 3, 0, 50, 0, 85),
                 ("delay", "standard", 6, 3, 3, 50, 0, 0, -85)):
        r = simplay.play_planned(game)
        assert r["handicap_ms"] == game[8] and r["handicap"] == 0
        faster_is_a = r["reaction_a_ms"] < r["reaction_b_ms"]
        assert (r["handicap_ms"] > 0) == faster_is_a
        assert abs(r["reaction_a_ms"] - r["reaction_b_ms"]) == 50
    from engine import Rules
    g, _ = simplay.play_game(Rules(wins_needed=1, handicap_ms=85), 5, 3, 3, 0, 50)
    assert g.rules.handicap_ms == 85


def test_the_confirmation_plays_the_chosen_delay_with_the_count_asked_from_fresh_seeds():
    games = list(simplay.confirm_plan({300: 390, 25: 40}, 6, 1000))
    assert len(games) == 12
    assert [g[2] for g in games] == list(range(1000, 1012))
    assert [g[0] for g in games] == ["confirm"] * 12
    assert [(g[5] or g[6], abs(g[8])) for g in games] == [(25, 40)] * 6 + [(300, 390)] * 6
    assert [g[8] > 0 and g[6] > 0 for g in games] == [True, False] * 6  # seats alternate
    assert [g[8] < 0 and g[5] > 0 for g in games] == [False, True] * 6


def test_the_study_confirms_each_gap_fairest_delay_after_the_scan(tmp_path):
    r = _run("--games", "1", "--levels", "SHARP", "--variants", "standard",
             "--handicap-games", "2", "--confirm-games", "6", "--seed", "7", "--jobs", "2",
             "--out", str(tmp_path), "--no-plots")
    assert r.returncode == 0, r.stderr
    rows = simplay.read_csv(tmp_path / "games.csv")
    scan = [x for x in rows if x["study"] != "confirm"]
    confirm = rows[len(scan):]  # the confirmation comes last
    assert len(scan) == simplay.plan_size(1, [3], ["standard"], 2)
    assert [x["seed"] for x in rows] == list(range(7, 7 + len(rows)))  # fresh seeds
    chosen = simstats.chosen_delays(scan)
    assert sorted(chosen) == list(simplay.GAPS_MS) and set(chosen.values()) <= set(simplay.DELAYS)
    assert simstats.next_delays(scan) == chosen  # the first round
    want, todo = list(scan), chosen  # the rounds, replayed: each from the rows before it
    while todo:
        want += [simplay.play_planned(g) for g in simplay.confirm_plan(todo, 6, 7 + len(want))]
        todo = simstats.next_delays(want)
    assert rows == want
    _confirmed_in_rounds(confirm, 6)
    with open(tmp_path / "summary.json") as f:
        summary = json.load(f)
    for gap, d in chosen.items():
        cell = summary["handicap_ms"][str(gap)]
        assert cell["fairest"] == d == cell["confirmations"][0]["delay_ms"]
        for c in cell["confirmations"]:
            assert c["games"] == 6 and c["delay_ms"] in simplay.DELAYS
            mine = [x for x in confirm if abs(x["reaction_a_ms"] - x["reaction_b_ms"]) == gap
                    and abs(x["handicap_ms"]) == c["delay_ms"]]
            won = sum(x["winner"] == ("A" if x["reaction_a_ms"] > x["reaction_b_ms"] else "B")
                      for x in mine)
            assert c["slower_wins"] == round(won / 6, 4) and len(mine) == 6
            assert c["low"] <= c["slower_wins"] <= c["high"]
            assert c["in_band"] == (0.45 <= c["slower_wins"] <= 0.55)
        assert cell["confirmed"] in cell["confirmations"]
        assert len(cell["slower_wins"]) == len(simplay.DELAYS)
        c = cell["confirmed"]
        assert "%s, slower wins %.1f%%" % ("EVEN" if c["delay_ms"] == 0 else "%d ms"
                                          % c["delay_ms"], 100 * c["slower_wins"]) in r.stdout
    assert "time handicap, 180 ms slower" in r.stdout and "100%" in r.stderr


def test_an_older_csv_without_handicap_ms_reads_as_0(tmp_path):
    old = [f for f in simplay.FIELDS if f != "handicap_ms"]
    path = tmp_path / "games.csv"
    with open(path, "w") as f:
        f.write(",".join(old) + "\n")
        f.write("handicap,standard,3,SHARP,SHARP,410,390,8,A,30000,50,1,2,0,0,0,3\n")
        f.write("levels,standard,4,SHARP,SHARP,390,390,0,B,31000,52,0,3,0,0,2,0\n")
    rows = simplay.read_csv(path)
    assert [x["handicap_ms"] for x in rows] == [0, 0] and rows[0]["handicap"] == 8
    s = simstats.summarize(rows)
    assert s["handicap"]["20"]["slower_wins"] == {"8": 1.0} and s["handicap_ms"] == {}
    assert s["auto_step"] is None


def _synthetic(gap, pts_per_ms, cross, games=200, confirm=None):
    """Rows of a delay scan whose slower bot's win rate rises pts_per_ms a ms through 50%
    at cross (0 to 100% outside), exactly; and a confirmation (delay, wins, games)."""
    rows = []
    for d in simplay.DELAYS:
        rate = min(1.0, max(0.0, 0.5 + pts_per_ms / 100 * (d - cross)))
        wins = round(rate * games)
        for i in range(games):
            rows.append({"study": "delay", "reaction_a_ms": 390, "reaction_b_ms": 390 + gap,
                         "handicap_ms": d, "winner": "B" if i < wins else "A"})
    if confirm:
        d, wins, n = confirm
        for i in range(n):
            rows.append({"study": "confirm", "reaction_a_ms": 390 + gap, "reaction_b_ms": 390,
                         "handicap_ms": -d, "winner": "A" if i < wins else "B"})
    return rows


def test_the_summary_fits_the_slope_through_20_to_80_percent_and_suggests_a_step():
    rows = _synthetic(50, 1.5, 100, confirm=(100, 800, 1600)) + _synthetic(180, 1.0, 250)
    s = simstats.delay_summary(rows)
    a, b = s["50"], s["180"]
    assert a["slope_pts_per_ms"] == 1.5 and a["slope_fit_ms"] == [80, 120]
    assert a["local_slope_pts_per_ms"] == 1.5
    assert a["fairest"] == 100 and b["fairest"] == 250
    assert a["step_ms"] == 5 and b["step_ms"] == 10  # 10 points / 1.5 = 6.7 ms; / 1.0 = 10
    assert b["slope_pts_per_ms"] == 1.0 and b["slope_fit_ms"] == [220, 280]
    c = a["confirmed"]
    assert (c["delay_ms"], c["games"], c["slower_wins"], c["in_band"]) == (100, 1600, 0.5, True)
    assert abs(c["low"] - 0.4755) < 0.001 and abs(c["high"] - 0.5245) < 0.001
    assert b["confirmed"] is None
    step = simstats.auto_step(s)
    assert (step["step_ms"], step["slope_pts_per_ms"], step["gap_ms"]) == (5, 1.5, 50)
    assert step["exact_ms"] == 6.7
    assert step["steps_ms"] == {"50": 5, "180": 10} and step["band_pts"] == 10
    assert step["local"]["steps_ms"] == {"50": 5, "180": 10}  # (straight lines: the same)
    assert simstats.auto_step({}) is None
    assert simstats.summarize(rows)["auto_step"] == step


def test_a_confirmation_outside_the_band_says_so():
    s = simstats.delay_summary(_synthetic(25, 2.0, 40, confirm=(40, 1000, 1600)))
    assert s["25"]["confirmed"]["slower_wins"] == 0.625
    assert s["25"]["confirmed"]["in_band"] is False


def test_the_fairest_delay_pools_each_setting_with_its_neighbours():
    pct = {0: 10, 5: 50, 10: 30, 15: 48, 20: 70}  # 5 ms: 50% by chance, its neighbours not
    cells = {d: [p, 100] for d, p in pct.items()}
    assert simstats.fairest_delay(cells) == 15
    assert simstats.fairest_delay({0: [10, 100], 5: [90, 100]}) == 0  # a tie: the smaller
    assert simstats.fairest_delay({}) is None


def test_slope_and_step_without_enough_points():
    assert simstats.slope([(0, 0.0), (5, 0.5), (10, 1.0)]) == (None, [5])
    assert simstats.step_for(None) is None and simstats.step_for(0.0) is None
    assert simstats.step_for(0.1) == 100 and simstats.step_for(4.0) == 5
    assert simstats.step_for(0.8) == 15
    lo, hi = simstats.wilson(0, 20)
    assert lo == 0.0 and 0.1 < hi < 0.2


def _confirm_rows(gap, tried):
    """Confirmation rows of a gap: (delay, slower bot's wins, games) each, in order."""
    rows = []
    for d, wins, n in tried:
        rows += [{"study": "confirm", "reaction_a_ms": 390, "reaction_b_ms": 390 + gap,
                  "handicap_ms": d, "winner": "B" if i < wins else "A"} for i in range(n)]
    return rows


def test_a_setting_off_the_band_is_followed_by_its_neighbour_towards_even():
    scan = _synthetic(50, 1.5, 100) + _synthetic(300, 1.0, 392)
    assert simstats.next_delays(scan) == {50: 100, 300: 390}
    # 50 ms: in the band, done; 300 ms: 44% at 390 ms, so 395 ms (a longer delay) next
    rows = scan + _confirm_rows(50, [(100, 50, 100)]) + _confirm_rows(300, [(390, 44, 100)])
    assert simstats.next_delays(rows) == {300: 395}
    # too far: 56% at 395, but 390 was played: no setting of the grid is in the band
    assert simstats.next_delays(rows + _confirm_rows(300, [(395, 56, 100)])) == {}
    # over the band at first: a shorter delay; and no more than CONFIRM_TRIES settings
    high = scan + _confirm_rows(300, [(390, 60, 100)])
    assert simstats.next_delays(high) == {300: 385}
    assert simstats.next_delays(high + _confirm_rows(300, [(385, 58, 100), (380, 57, 100)])) == {}
    assert simstats.next_delays(high, tries=1) == {}
    # the figure reported: the first in the band, or else the closest to 50%
    s = simstats.delay_summary(rows + _confirm_rows(300, [(395, 52, 100)]))["300"]
    assert [c["delay_ms"] for c in s["confirmations"]] == [390, 395]
    assert s["confirmed"]["delay_ms"] == 395 and s["confirmed"]["in_band"]
    s = simstats.delay_summary(rows + _confirm_rows(300, [(395, 57, 100)]))["300"]
    assert s["confirmed"]["delay_ms"] == 390 and not s["confirmed"]["in_band"]


def test_help_names_the_handicap_study_options():
    r = _run("--help", auto=None, long=None)
    assert r.returncode == 0, r.stderr
    text = " ".join(r.stdout.split())  # (argparse wraps to the terminal's width)
    assert "--confirm-games" in text and "off 45-55%" in text
    assert "%d delays the handheld offers" % len(simplay.DELAYS_MS) in text


def test_auto_handicap_brings_a_family_near_even_and_the_study_is_reproducible():
    one = simstudies.auto_study(3, 11, jobs=1)
    assert one == simstudies.auto_study(3, 11, jobs=2)  # (the same whatever the processes)
    assert sorted(one, key=int) == [str(g) for g in simplay.GAPS_MS]
    for gap, cell in one.items():
        assert cell["families"] == 3 and cell["matches"] == simstudies.AUTO_MATCHES
        assert 0 <= cell["slower_wins_first"] <= 1 and 0 <= cell["slower_wins_after"] <= 1
    # After its first matches AUTO holds the faster player back about as far as the scan
    # says evens them out: the further apart, the longer the delay.
    ms = [one[str(g)]["ms_median_after"] for g in simplay.GAPS_MS]
    assert ms == sorted(ms) and ms[0] > 0 and ms[-1] >= 300


def test_an_auto_family_moves_handicap_as_the_handheld_does():
    matches = simstudies.auto_family((300, 0, 5))
    assert len(matches) == simstudies.AUTO_MATCHES
    assert matches[0][1:] == (0, 0)  # from EVEN
    s = Settings()
    s.choose("auto", 1)
    for (slower_won, ms, cards), nxt in zip(matches, matches[1:]):
        s.match_won(1 if slower_won else 0)
        assert (s.value("handicap_ms"), s.value("handicap")) == nxt[1:]


# ---- the Long Speed study ----

def test_the_long_plan_plays_each_variant_at_each_level_and_gap_with_fresh_seeds():
    games = list(simstudies.long_plan(4, 100))
    assert len(games) == simstudies.long_size(4) == 3 * (5 + 2 * 3) * 4
    assert [g[2] for g in games] == list(range(100, 100 + len(games)))
    assert [g[1] for g in games[::len(games) // 3]] == ["standard", "long-5", "long-6"]
    assert simstudies.LONG_VARIANTS == ("standard", "long-5", "long-6")
    assert [simplay.VARIANTS[v].get("piles_per_row", 4)
            for v in simstudies.LONG_VARIANTS] == [4, 5, 6]
    for variant in simstudies.LONG_VARIANTS:
        mine = [g for g in games if g[1] == variant]
        equal = [g for g in mine if g[0] == "long"]
        assert [(g[3], g[4], g[5], g[6]) for g in equal[::4]] == [
            (lv, lv, 0, 0) for lv in range(len(LEVELS))]
        gaps = [g for g in mine if g[0] == "long-gap"]
        assert [g[5] or g[6] for g in gaps[::8]] == list(simstudies.LONG_GAPS_MS)
        lv = simplay.HANDICAP_LEVEL
        for i, (_, _, _, la, lb, sa, sb, h, ms) in enumerate(gaps):
            assert (la, lb, h, ms) == (lv, lv, 0, 0)  # both SHARP, no handicap of any kind
            assert (sa, sb) == ((sa, 0) if i & 1 else (0, sb))  # the slower seat alternates
    two = list(simstudies.long_plan(2, 1, levels=[2, 3]))
    assert len(two) == simstudies.long_size(2, [2, 3]) == 3 * (2 + 2 * 3) * 2


def _long_row(variant, study, level, length_s, covers, stalls, winner, slow_a=0, slow_b=0):
    return {"study": study, "variant": variant, "level_a": level, "level_b": level,
            "reaction_a_ms": 560 + slow_a, "reaction_b_ms": 560 + slow_b, "handicap": 0,
            "length_ms": int(length_s * 1000), "covers": covers, "stalls": stalls,
            "dead_deals": 0, "deadlock": 0, "winner": winner}


def test_the_long_summary_counts_what_the_rows_say():
    rows = [_long_row("long-6", "long", "QUICK", s, 30, 0, "A") for s in range(10, 20)]
    rows += [_long_row("long-6", "long", "QUICK", 1800, 3, 0, "unfinished")]
    rows += [_long_row("standard", "long", "QUICK", 60, 100, 10, "B")] * 4
    # 25 ms: the slower bot (B, then A) wins 2 of 8; a draw is not a win
    for i, w in enumerate("BAAAABBB"):
        slow = (0, 25) if i < 4 else (25, 0)
        rows.append(_long_row("long-6", "long-gap", "SHARP", 12, 30, 0, w, *slow))
    rows.append(_long_row("long-6", "long-gap", "SHARP", 12, 30, 0, "draw", 0, 25))
    s = simstudies.long_summary(rows)
    assert list(s) == ["standard", "long-6"]  # (in LONG_VARIANTS order; long-5 played none)
    q = s["long-6"]["levels"]["QUICK"]
    assert q["games"] == 11 and q["unfinished"] == round(1 / 11, 4)
    assert (q["length_s_p10"], q["length_s_median"], q["length_s_p90"]) == (11, 15, 19)
    assert q["s_per_cover"] == round(sum(range(10, 20)) / 300, 3)  # the finished games only
    assert q["stalls_mean"] == 0 and q["covers_mean"] == round(303 / 11, 2)
    st = s["standard"]["levels"]["QUICK"]
    assert st["stalls_mean"] == 10 and st["s_per_cover"] == 0.5  # (60 s less 10 stalls of 1 s)
    assert st["unfinished"] == 0 and s["standard"]["slower_wins"] == {}
    g = s["long-6"]["slower_wins"]["25"]
    assert (g["games"], g["slower_wins"]) == (9, round(2 / 9, 4))
    assert g["low"] < g["slower_wins"] < g["high"]
    assert (g["low"], g["high"]) == tuple(round(x, 4) for x in simstats.wilson(2, 9))
    assert simstudies.long_summary([]) == {}


def test_a_small_long_study_is_plausible_and_long_speed_stalls_less():
    s = simstudies.long_study(8, 5000, jobs=1)
    assert list(s) == list(simstudies.LONG_VARIANTS)
    for variant, v in s.items():
        assert list(v["levels"]) == simplay.LEVEL_NAMES
        assert list(v["slower_wins"]) == [str(g) for g in simstudies.LONG_GAPS_MS]
        for c in v["levels"].values():
            assert c["games"] == 8
            assert 0 < c["length_s_p10"] <= c["length_s_median"] <= c["length_s_p90"]
            assert c["covers_mean"] >= 20  # (at least one player's 26 cards less a row)
        for c in v["slower_wins"].values():
            assert c["games"] == 16 and c["low"] <= c["slower_wins"] <= c["high"]
        # slower bots spend longer on a cover, whatever the piles
        per = [c["s_per_cover"] for c in v["levels"].values()]
        assert per == sorted(per, reverse=True), (variant, per)
    stalls = {v: _mean_of(s[v]["levels"], "stalls_mean") for v in s}
    covers = {v: _mean_of(s[v]["levels"], "covers_mean") for v in s}
    # Two more piles a row: a match nearly always, so hardly a stall and fewer covers
    assert stalls["standard"] > 3 > 1 > stalls["long-5"] >= stalls["long-6"] - 0.2
    assert covers["standard"] > covers["long-5"] > covers["long-6"]


def _mean_of(levels, key):
    return sum(c[key] for c in levels.values()) / len(levels)


def test_long_only_plays_the_whole_study_long_speed_games(tmp_path):
    common = ("--games", "1", "--levels", "SHARP", "--variants", "standard",
              "--handicap-games", "2", "--confirm-games", "2", "--seed", "9", "--jobs", "2")
    whole, alone = tmp_path / "whole", tmp_path / "alone"
    r = _run(*common, "--out", str(whole), long="3")
    assert r.returncode == 0, r.stderr
    r2 = _run(*common, "--out", str(alone), "--long-only", long="3")
    assert r2.returncode == 0, r2.stderr
    w = json.loads((whole / "summary.json").read_text())
    a = json.loads((alone / "summary.json").read_text())
    assert a["long"] == w["long"] and a["games"] == simstudies.long_size(3)
    assert set(a) == {"long", "games", "games_per_second", "interrupted"}
    assert not (alone / "games.csv").exists()  # (the other studies are not played)
    for d in (whole, alone):
        assert (d / "long_speed.png").stat().st_size > 5000
    # its printed lines are the whole study's
    lines = [x for x in r2.stdout.splitlines() if x.startswith(("standard ", "long-"))]
    assert len(lines) == 3 * (len(LEVELS) + 1) and all(x in r.stdout for x in lines)
    # the seeds after the AUTO HANDICAP study's: the last game's plan, replayed
    scan = simplay.plan_size(1, [3], ["standard"], 2)
    seed = 9 + scan + simstats.CONFIRM_TRIES * 5 * 2 + 5 * 1 * simstudies.AUTO_MATCHES
    last = list(simstudies.long_plan(3, seed))[-1]
    assert last[:2] == ("long-gap", "long-6") and last[2] == seed + simstudies.long_size(3) - 1
