"""The battery gauge on the chip twin: CircuitPython's own image reads VSYS through
rp2040js's ADC (channel 3, GP29: a third of VSYS) and VBUS_SENSE (GP24), while the cells'
voltage falls over the run (twins/chip/js/board.mjs wirePower); on USB power, no gauge."""
import pytest

from lab.battery import percent
from twins.chip import chip
from twins.desktop import glass

MISSING = chip.missing()
pytestmark = pytest.mark.skipif(bool(MISSING), reason="the chip twin: " + str(MISSING))
TITLE = "CALIFORNIA SPEED"
FALL_MS = 60000  # the cells go from 4.3 V to 2.3 V over the run's first minute
BOOT_MS = 5000  # the chip starts at most this long before the first frame


def _vsys(ms):
    """VSYS ms after the chip started (the script's times are from the first frame)."""
    return 4.3 - 2.0 * max(0, min(1, ms / FALL_MS))


def _title(run, ms):
    return glass.page(run.oled_at(ms).frame())[0]


def test_the_title_follows_the_cells_from_full_to_flat_and_shows_nothing_on_usb(flashed):
    taps = list(range(2000, FALL_MS + 5000, 5000))  # DOWN, DOWN, ...: the page is redrawn
    script = "".join("%d A1 tap 80\n" % t for t in taps)
    run = chip.run(script, uf2=flashed, cells=(4.3, 2.3, FALL_MS), after_ms=500)
    shown = [_title(run, t + 300) for t in taps]
    assert all(line.startswith(TITLE + " ") and line.endswith("%") for line in shown), shown
    left = [int(line[len(TITLE):-1]) for line in shown]
    assert left[0] == 100 and left[-1] == 0, left
    assert left == sorted(left, reverse=True), left  # falling, never rising
    for t, value in zip(taps, left):  # each within the curve's span over its 4 s reading
        assert percent(int(_vsys(t + 300 + BOOT_MS) * 1000)) - 1 <= value <= \
            percent(int(_vsys(t - 4000) * 1000)) + 1, (t, value)
    usb = chip.run("2000 A1 tap 80\n", uf2=flashed, after_ms=500)
    assert _title(usb, 2300) == "  " + TITLE
