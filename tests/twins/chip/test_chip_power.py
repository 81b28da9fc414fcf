"""Deep sleep and the CPU clock on the chip twin (twins/chip: CircuitPython's own Pico image
in rp2040js, DORMANT and the clock modelled in twins/chip/js/errata.mjs). Left alone with
no USB host, the handheld turns the screen off after its SLEEP minutes and ten minutes later
stops the crystal (DORMANT); a key wakes it through a reset, and the boot that follows
keeps the flash, SRAM and watchdog scratch the silicon keeps. Skipped, with one counted
reason, where node or the toolchain files are missing (.ci/run provides them)."""
import pytest

from hardware import pinmap
from lab.chipnvm import nvm_commands
from twins.chip import chip
from twins.chip.flash import NVM_END, NVM_START, saved_settings

REASON = chip.missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason="the chip twin: %s" % REASON)

SLEEP_MS = 60000 + 600000  # SLEEP 1 minute, then the firmware's ten minutes
WAKE_MS = SLEEP_MS + 30000  # MENU pressed half a minute into the deep sleep
SAVED = saved_settings(sleep=3, flip=1)  # the glass upside down: a setting one can see


@pytest.fixture(scope="module")
def asleep(flashed):
    """Nobody presses a key for eleven minutes, on batteries; then MENU goes down."""
    return chip.run("%d MENU down\n" % WAKE_MS, uf2=flashed, usb=False, after_ms=2000,
                    nvm=SAVED)


@pytest.fixture(scope="module")
def woken(asleep):
    """The boot after the wake's reset: MENU let go 300 ms after it."""
    return chip.run("300 MENU up\n", after_reset=asleep, usb=False, after_ms=3000)


def _nvm(image):
    return image[NVM_START:NVM_END]


def test_left_alone_the_chip_goes_dormant_ten_minutes_after_the_screen_goes_off(asleep):
    assert asleep.dormant is not None, asleep.why
    went, woke = ((t - asleep.t0) / 1e6 for t in asleep.dormant)
    assert SLEEP_MS - 100 < went < SLEEP_MS + 1000, went
    assert WAKE_MS <= woke < WAKE_MS + 1, woke  # the press restarts the crystal at once
    assert not any(asleep.oled_at(SLEEP_MS - 1000).frame())  # (the screen was off)
    assert asleep.cpu_hz(asleep.dormant[0] + 1) == 12e6  # clk_sys on the crystal, PLLs off
    assert asleep.reset is not None and asleep.why == "reset after the wake from deep sleep"
    assert asleep.reset["low"] == [int(pinmap.default("CS_MENU")[2:])]  # MENU still held


def test_menu_wakes_it_to_the_main_menu_with_its_saved_settings(asleep, woken):
    from twins.desktop.scenes import golden
    assert woken.t0 is not None, woken.why
    menu = woken.oled_at(400).frame()
    assert menu == asleep.oled_at(1000).frame()  # the menu as it was before the sleep
    assert menu != golden("menu")  # upside down: FLIP, saved, was read again
    assert (woken.t0 + asleep.reset["t"] - asleep.dormant[1]) / 1e6 < 1500  # press to frame
    assert woken.dormant is None  # MENU held at the wake is not the self-test, and no sleep


def test_the_sleep_and_the_wake_lose_no_save(asleep, woken):
    assert _nvm(asleep.reset["flash"]) == SAVED
    assert nvm_commands(asleep) == [] and nvm_commands(woken) == []


def test_a_key_held_through_the_wakes_boot_is_ignored_and_the_console_says_so(asleep):
    run = chip.run("300 A3 down\n2500 A3 up\n", after_reset=asleep, after_ms=1000)
    assert run.t0 is not None, run.why
    assert any("was down at power-up; ignored until released" in line
               for _, line in run.console), run.text()


def test_the_chip_runs_at_the_clock_settings_toml_asks_for(flashed):
    run = chip.run("", uf2=flashed, after_ms=300)
    assert run.cpu_hz() == pinmap.default("CS_CPU_MHZ") * 1e6
    slow = chip.run("", settings={"CS_CPU_MHZ": 48}, after_ms=300)
    assert slow.cpu_hz() == 48e6


def test_a_clock_settings_toml_cannot_have_is_said_and_the_default_taken():
    run = chip.run("", settings={"CS_CPU_MHZ": 50}, after_ms=300)
    assert "settings.toml: CS_CPU_MHZ = '50' is not valid" in run.text(), run.text()
    assert run.cpu_hz() == pinmap.default("CS_CPU_MHZ") * 1e6
