"""The glass at every clock (issue 49): the direct build's scripted 2-player match of 50 covers
(twins/desktop/scripted.py), pressed by GPIO with no USB host at each CPU clock settings.toml's
CS_CPU_MHZ allows, shows the desktop twin's glass at every checkpoint. A slower chip draws
later, never something else. One desktop run for every clock, one chip match a clock.
Skipped, with one counted reason, where node or the toolchain files are missing (.ci/run
provides them)."""
import pytest

from hardware import pinmap
from twins.chip import chip
from twins.desktop.scenes import frame_diff
from twins.desktop.scripted import desktop_run, match_script

REASON = chip.missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason="the chip twin: %s" % REASON)

CLOCKS_MHZ = next(s[4] for s in pinmap.SETTINGS if s[0] == "CS_CPU_MHZ")
I2C_HZ = 400000


@pytest.fixture(scope="module")
def match(flashed):
    """The first match's seed, heard from the chip; the script of a match with that deal,
    its checkpoints and counts, and the desktop twin's glass at each checkpoint."""
    seed = chip.seed_of(chip.run("400 A3 tap 80\n", uf2=flashed, after_ms=600))
    script, checks, counts = match_script(seed, covers=50, limit_ms=180000)
    return script, checks, counts, desktop_run(script, seed, checks, I2C_HZ)[0]


def test_the_setting_allows_more_than_one_clock():
    assert len(CLOCKS_MHZ) > 1 and 125 in CLOCKS_MHZ, CLOCKS_MHZ


@pytest.mark.parametrize("mhz", CLOCKS_MHZ)
def test_the_glass_is_the_desktop_twins_at_every_checkpoint(match, mhz):
    script, checks, counts, frames = match
    # the match deals, stalls and redeals, ends a game and deals the next
    assert counts["covered"] >= 50 and counts["stall"] and counts["games"], counts
    assert len(frames) == len(checks) > 50
    run = chip.run(script, settings={"CS_CPU_MHZ": mhz, "CS_I2C_HZ": I2C_HZ}, usb=False,
                   after_ms=800)
    assert run.cpu_hz() == mhz * 1e6, run.why
    wrong = [(ms, got, want) for ms, want in zip(checks, frames)
             for got in [run.oled_at(ms).frame()] if got != want]
    if wrong:
        ms, got, want = wrong[0]
        pytest.fail("at %d MHz the glass differs at %d of %d checkpoints; at %d ms after the "
                    "first frame ('+' lit on the chip only, '-' on the desktop only):\n%s"
                    % (mhz, len(wrong), len(checks), ms, frame_diff(got, want)))
