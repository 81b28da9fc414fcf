"""The battery gauge on the desktop twin, given cells (Hand(cells=volts); None: on USB, the
default, which draws every golden frame as before): the main menu's title and the self-test
show the charge left, a match on low cells starts with a warning, and nearly flat cells
start no compaction of the nvm log, which keeps every value it held."""
import pytest

from firmware import lang_en, lang_fr, lang_pt
from firmware.settings import Settings
from firmware.store import Log
from firmware import match, store
from lab.battery import FLAT_PERCENT, LOW_PERCENT, percent
from handheld import BOOTED, Hand
from twins.desktop import glass

TITLE = "CALIFORNIA SPEED"


def _title_after(h, volts):
    h.hw.cells_v = volts
    h.tap("A1")  # DOWN: the main menu is drawn again
    return h.lines[0]


def test_the_title_shows_the_charge_from_full_to_flat_and_nothing_on_usb():
    h = Hand()
    h.run_until(BOOTED)
    assert h.lines[0] == "  " + TITLE
    shown = [_title_after(h, v) for v in (4.7, 4.2, 3.75, 3.3, 2.85, 2.55, 2.4, 2.0)]
    assert shown == [TITLE + " 100%", TITLE + " 100%", TITLE + "  80%", TITLE + "  45%",
                     TITLE + "  15%", TITLE + "   4%", TITLE + "   0%", TITLE + "   0%"]
    assert _title_after(h, None) == "  " + TITLE  # USB plugged in again
    assert _title_after(h, 1.2) == "  " + TITLE  # under the Pico's 1.8 V: no reading


@pytest.mark.parametrize("code, words", [("en", lang_en), ("fr", lang_fr), ("pt", lang_pt)])
def test_a_match_on_low_cells_starts_with_a_warning_for_a_second_or_so(code, words):
    h = Hand(cells=2.85, lang=code)  # 15 % left
    assert percent(2850) == LOW_PERCENT == match._LOW
    h.run_until(BOOTED)
    dealt = h.tap("A3")  # 2 PLAYERS
    assert h.message(0) == h.message(1) == words.LOW_CELLS
    h.run_until(dealt + 1700)
    assert h.message(0) == h.message(1) == ""
    h.hold("MENU", 1200)  # paused, and back to the same match: not said again
    h.tap("A3")
    assert h.screen == "play" and h.message(0) == ""


@pytest.mark.parametrize("volts", [None, 2.87])  # (16 % left)
def test_a_match_on_usb_or_on_cells_with_charge_starts_without_one(volts):
    h = Hand(cells=volts)
    h.run_until(BOOTED)
    h.tap("A3")
    assert h.screen == "play" and h.message(0) == h.message(1) == ""


def _self_test(volts, **options):
    h = Hand(cells=volts, held=("MENU",), **options)
    h.run(1000)
    h.release("MENU")
    h.run(3000)
    assert h.screen == "selftest"
    return glass.text_at(h.glass, 1, 31, 18).strip()


@pytest.mark.parametrize("settings", [None, {"CS_KEYS": "matrix"}])
def test_the_self_test_shows_the_cells_between_the_rows_of_keys(settings):
    assert _self_test(3.3, settings=settings) == "CELLS  45%"
    assert _self_test(3.3, settings=settings, lang="pt") == "PILHAS  45%"
    assert _self_test(None, settings=settings) == ""  # on USB the picture is as it was


def _nearly_full(path):
    """The memory of a handheld whose settings say SOUND OFF, its log then filled with
    records of a kind nobody reads until fewer bytes are left than a save needs."""
    h = Hand(nvm=path)
    h.run_until(BOOTED)
    h.choose("SETTINGS")
    h.set("SOUND", "OFF")
    h.tap("MENU")  # saved
    data = bytearray(open(path, "rb").read())
    log = Log(data, fold=lambda kind: Settings("en", None).base())
    while log.size - log.end >= 16:
        log.put(99, b"\0" * min(200, log.size - log.end - 5 - 16 + 1))
    open(path, "wb").write(data)
    return log.size - log.end


def test_nearly_flat_cells_start_no_compaction_and_the_memory_keeps_what_it_held(tmp_path):
    path = str(tmp_path / "nvm.bin")
    assert _nearly_full(path) < 16
    h = Hand(nvm=path, cells=2.58)  # 4 % left
    assert percent(2580) < FLAT_PERCENT == store._FLAT
    h.run_until(BOOTED)
    changes = 0  # CONTRAST changed and saved, until a save needs a compaction
    while True:
        assert changes < 40, h.console
        h.choose("SETTINGS")  # (opening it would tidy the log: not on these cells)
        h.set("CONTRAST", "HIGH" if h.items()["CONTRAST"] == "MEDIUM" else "MEDIUM")
        said = len(h.console)
        h.tap("MENU")
        changes += 1
        if any("not saved" in line for line in h.console[said:]):
            break
    assert h.hw.flash.erases == 0
    assert h.console[-1] == ("nvm: not saved (RuntimeError('cells nearly flat: no "
                             "compaction')); kept until the next save")
    saved = "MEDIUM" if (changes - 1) % 2 else "HIGH"  # the last change the log took
    after = Hand(nvm=path)  # switched off, and on again on USB power
    after.run_until(BOOTED)
    after.choose("SETTINGS")
    items = after.items()
    assert items["SOUND"] == "OFF" and items["CONTRAST"] == saved  # nothing lost
    after.set("CONTRAST", "HIGH" if saved == "MEDIUM" else "MEDIUM")
    after.tap("MENU")  # on USB power the save compacts the log
    assert after.hw.flash.erases == 1
    again = Hand(nvm=path)
    again.run_until(BOOTED)
    again.choose("SETTINGS")
    items = again.items()
    assert items["SOUND"] == "OFF" and items["CONTRAST"] != saved
