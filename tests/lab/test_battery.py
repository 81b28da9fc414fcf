"""lab/battery.py: published currents turned into hours and days on 3 AAA cells."""
import pytest

from lab import battery


def test_a_lower_clock_draws_less_along_the_published_line():
    assert battery.clock_share(battery.FULL_MHZ) == 1
    assert battery.board_ma(0.5, 20) == pytest.approx(
        battery.board_ma(0.5) * 6.0 / 20.0)  # PR 7430's two points
    assert battery.board_ma(0.5, 48) < battery.board_ma(0.5, 64) < battery.board_ma(0.5)
    assert battery.hours(0.5, 15, 48) > battery.hours(0.5, 15)


def test_standby_is_the_dormant_current_and_the_range_brackets_it():
    low, high = battery.DORMANT_RANGE_MA
    days = battery.standby_days()
    assert battery.standby_days(high) < days < battery.standby_days(low)
    assert 25 < days < 35  # 1.3 mA at 5 V from 4.5 Wh


def test_a_day_of_use_drains_as_its_parts_add_up():
    steps = battery.day(1, 0.5, 15, 64, 0.1, 1)
    assert steps[0] == (0.0, steps[0][1], 100.0) and steps[-1][0] == 24
    assert [t for t, _, _ in steps] == sorted(t for t, _, _ in steps)
    play_ma, dormant_ma = steps[0][1], steps[-1][1]
    assert play_ma > 10 * dormant_ma
    used = sum((b[0] - a[0]) * a[1] for a, b in zip(steps[::2], steps[1::2]))
    assert steps[-1][2] == pytest.approx(100 - 100 * used / battery.AAA_MAH)


def test_the_day_is_drawn_as_a_png_the_same_each_time(tmp_path):
    steps = battery.day(1, 0.5, 15, 64, 0.1, 1)
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    battery.draw_day(steps, str(a), "a day")
    battery.draw_day(steps, str(b), "a day")
    assert a.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and a.read_bytes() == b.read_bytes()


def test_the_handhelds_gauge_follows_the_cells_published_curve():
    """hardware/cells.py, the board's table, gives what the datasheets' curve gives
    (lab/battery.py) at every millivolt from under the Pico's 1.8 V to USB's 4.7 V; full,
    half and empty read 100 %, about half and 0 %."""
    from hardware import cells
    from lab import battery
    assert [cells.percent(mv) for mv in range(1700, 4801)] == \
        [battery.percent(mv) for mv in range(1700, 4801)]
    full, half, empty = (round(battery.vsys(v) * 1000) for v in (1.50, 1.20, 0.90))
    assert cells.percent(full) == 100 and 40 <= cells.percent(half) <= 60
    assert cells.percent(empty) == 0 and cells.percent(1799) == -1
