"""What the handheld's nvm keeps (lab/nvmcheck.py, docs/NVM.md), on the app's own code:
no save erases, compactions at least 10x rarer per game than a record per game, and a
power cut at any point of a compaction reads the saved values or the defaults."""
from lab import nvmcheck


def test_no_save_erases_and_compactions_are_over_ten_times_rarer_per_game():
    w = nvmcheck.wear(2500, seed=3)
    tally, record = w["tally"], w["record"]
    assert tally["save_erases"] == 0
    assert tally["read_back"] == (True, True)
    assert record["compactions"] >= 25  # the format before: a 49-byte record a game
    assert tally["compactions"] >= 1  # the tally does fill the sector, and folds
    assert record["compactions"] >= 10 * tally["compactions"], w


def test_a_power_cut_at_every_point_of_a_compaction_reads_saved_values_or_defaults():
    rows, used = nvmcheck.power_cuts(seed=2, seeds=3)
    outcomes = {r[2:] for r in rows}
    assert all(o in ("kept", "earlier", "default", "part, said") for pair in outcomes
               for o in pair)
    assert not any("part" in r[2] for r in rows)  # settings: all or nothing
    program = [r for r in rows if r[0] == "program"]
    assert all(r[2:] == ("kept", "kept") for r in program if r[1] >= used)
    assert all(r[2:] != ("kept", "kept") for r in program if r[1] < used)
    erase = [r for r in rows if r[0] == "erase"]
    assert all(r[2:] == ("kept", "kept") for r in erase if r[1] == 0)
    assert all(r[2:] == ("default", "default") for r in erase if r[1] >= 0.05)
    runs, window = nvmcheck.summary(rows)
    assert nvmcheck.ERASE_MS[0] < window[0] < nvmcheck.ERASE_MS[0] + nvmcheck.PAGE_MS[0]


def test_a_cut_early_in_the_erase_can_take_the_statistics_alone_and_the_report_says_when():
    rows, used = nvmcheck.power_cuts(seed=2, seeds=3)
    assert any(r[0] == "erase" and r[2] == "kept" and r[3] != "kept" for r in rows)
    lost = nvmcheck.losses(rows)
    assert 0 < lost["both"] < 0.1 and 0 < lost["settings"] < lost["stats"] == used
    program = {r[1]: r[2:] for r in rows if r[0] == "program"}
    assert program[lost["settings"] - 1] == ("default", "default")
    assert program[lost["settings"]] == program[lost["stats"] - 1] == ("kept", "default")
    assert program[lost["stats"]] == ("kept", "kept")


def test_the_report_runs_and_fails_in_words(capsys):
    assert nvmcheck.main(["--games", "200"]) == 0
    out = capsys.readouterr().out
    assert "saves that erased: 0" in out and "0 read part of a value without saying so" in out
    assert "loses the settings and statistics; from then until the statistics record is" in out
    assert "the statistics alone" in out
    import pytest
    with pytest.raises(SystemExit) as e:
        nvmcheck.main(["--games", "7"])
    assert e.value.code == 2
    assert "--games" in capsys.readouterr().err
