"""The chip's work a second (lab/chipbench.py, make chip ARGS=--work, make bench's chip_work
section): cycles per simulated second and per pass are read from a run's watchdog feeds,
the core's time asleep at each and its clock; --work refuses in one line, before anything
runs, a commit this clone lacks and the flags of other measurements."""
import os

import places
from lab import bench, chipbench

TOOLCHAIN = ("CIRCUITPY_UF2", "RP2040_BOOTROM", "CIRCUITPY_MPY_CROSS", "CIRCUITPYTHON")


class _Run:
    """What chipbench reads of a ChipRun: feeds (ns), the ns asleep by each, I2C writes."""

    def __init__(self, feeds, asleep, writes=(), hz=125e6):
        self.t0, self.feeds, self.asleep_at_feed = 0, feeds, asleep
        self.i2c = [(t, t + 1000, 0x3C, 1, b"\x40") for t in writes]
        self.hz = hz

    def cpu_hz(self, ns=None):
        return self.hz


def test_cycles_a_second_are_the_awake_time_at_the_clock():
    ms = 1000000
    # passes of 4 ms, each asleep 3 ms: awake a quarter of the time
    run = _Run([i * 4 * ms for i in range(11)], [i * 3 * ms for i in range(11)])
    assert chipbench.cycles_per_second(run, 0, 40) == 125e6 / 4
    run.hz = 48e6
    assert chipbench.cycles_per_second(run, 0, 40) == 12e6


def test_a_pass_that_sent_bytes_is_counted_apart_with_its_cycles():
    ms = 1000000
    run = _Run([0, 4 * ms, 8 * ms, 20 * ms], [0, 3 * ms, 6 * ms, 7 * ms], writes=[10 * ms])
    passes = chipbench.pass_cycles(run, 0)
    assert passes == {"idle": [125e3, 125e3], "drawing": [11 * 125e3]}


def _make_chip(*args):
    env = {k: v for k, v in os.environ.items() if k not in TOOLCHAIN}
    env["CALIFORNIA_SPEED_TOOLCHAIN"] = os.path.join(places.ROOT, "tests", "no-such-folder")
    return places.run(["lab.chipbench"] + list(args), env=env, timeout=60)


def test_the_part_ticks_spun_are_half_a_tick_a_sleep_at_the_clock_and_shown_beside_the_cycles():
    run = _Run([0], [0])
    # 250 sleeps a second, each spinning 15.5 of 32 subticks of a 1/1024 s tick
    spun = chipbench.spun_per_second(run, 500, 0, 2000)
    assert round(spun) == round(250 * 15.5 / 32768 * 125e6) == 14781952
    play = {"cycles": 2 * spun, "spun": spun, "passes": 250, "idle pass": None,
            "drawing pass": None}
    pair = {"covers": 1, "old": {}, "now": {}}
    for side in ("old", "now"):
        pair[side] = {"play": play, "menu": dict(play), "screen off": dict(play), "covers": 1}
        pair[side]["play"]["press_to_glass"] = {"mean": 1e7, "p95": 1e7, "max": 1e7}
    rows = {row[0]: row[1:] for row in chipbench.work_rows(pair)}
    assert rows["of which the last part-tick of each sleep spun awake, play (an estimate: "
                "0.47 ms a sleep)"] == ("14,781,952 (50%)", "14,781,952 (50%)",
                                        "the floor: CircuitPython's time.sleep")


def test_work_refuses_a_commit_the_clone_lacks_before_it_looks_for_the_toolchain():
    r = _make_chip("--work", "0000000")
    places.one_line(r, "make chip: error:", "--work", "not measured", "0000000",
                    "not in this clone")
    assert r.stdout == ""


def test_work_plays_its_own_runs_so_other_measurements_and_a_script_are_refused():
    for extra in (["--figures"], ["--power"], ["--script", "x.keys"], ["--uf2", "x.uf2"]):
        r = _make_chip("--work", "HEAD", *extra)
        places.one_line(r, "make chip: error:", "--work plays its own runs")
        assert r.stdout == ""


def test_make_bench_has_a_section_for_the_work_a_second():
    assert "chip_work" in bench.section_names()
    names = bench.section_names()
    assert names.index("chip") < names.index("chip_work") < names.index("chip_power")
