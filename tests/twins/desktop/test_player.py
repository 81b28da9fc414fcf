"""The handheld as its players meet it, through tests/twins/desktop/handheld.py: what the glass shows,
what the console says, what is kept through power-off, when something goes wrong."""
import os
import shutil

import pytest

from firmware import fields_fr, fields_pt
from handheld import BOOTED, Hand
from twins.desktop import glass


def _settings(h):
    h.choose("SETTINGS")
    assert h.screen == "settings"


def _memory_folder_breaks(folder, how):
    """No save can land in the folder any more."""
    if how == "gone":
        shutil.rmtree(folder)
    else:
        os.chmod(folder, 0o555)


def _memory_folder_mends(folder, how):
    if how == "gone":
        folder.mkdir()
    else:
        os.chmod(folder, 0o755)


@pytest.mark.parametrize("how", ["gone", "read-only"])
def test_a_save_that_fails_is_said_and_play_goes_on_and_the_next_save_writes_it(tmp_path, how):
    if how == "read-only" and os.geteuid() == 0:
        pytest.skip("a read-only folder does not stop root (CI runs as root: 'gone' does)")
    folder = tmp_path / "memory"
    folder.mkdir()
    h = Hand(nvm=str(folder / "nvm.bin"))
    h.run_until(BOOTED)
    _settings(h)
    h.choose("PILES")  # 3 A ROW
    _memory_folder_breaks(folder, how)
    h.tap("MENU")  # back: the save fails
    assert h.screen == "menu"
    said = [line for line in h.console if "not saved" in line]
    assert len(said) == 1 and "kept until the next save" in said[0], h.console
    h.choose("2 PLAYERS")  # play goes on, with the new setting
    assert h.screen == "play" and glass.piles_per_row(h.glass) == 3
    h.hold("MENU", 700)
    h.choose("QUIT MATCH")
    _memory_folder_mends(folder, how)
    _settings(h)
    h.choose("SOUND")  # OFF
    h.tap("MENU")  # this save lands, and carries the change that was not saved
    assert len([line for line in h.console if "not saved" in line]) == 1
    again = h.power_cycle()
    again.run_until(BOOTED)
    _settings(again)
    assert _value(again, "PILES") == "3 A ROW"  # both changes survived power-off
    assert _value(again, "SOUND") == "OFF"


def _value(h, label):
    """A setting's value as its line on the settings page shows it."""
    h.to(label)
    line = [line for line in h.lines if line.startswith("\u2192" + label)][0]
    return line[1 + len(label):].strip()


def _typed(h, taps, *keys, gap=70):
    """Keys typed in the terminal front end, gap ms apart (its real-time clock, here the
    handheld's simulated one)."""
    from twins.desktop.play import KEYBOARD
    for ch in keys:
        taps.typed(h.hw, KEYBOARD[ch])
        h.run(gap)
    h.run(200)


def test_quick_repeated_taps_in_the_terminal_all_count():
    from twins.desktop.play import Taps
    h = Hand()
    h.run_until(BOOTED)
    taps = Taps(h.hw)
    _typed(h, taps, "x", "x", "v")  # DOWN, DOWN (70 ms later), RIGHT: CPU LEVEL steps
    assert h.screen == "menu" and h.lines[3].split() == ["\u2192CPU", "LEVEL", "SHARP"]
    _typed(h, taps, "z", "z", "v")  # UP, UP, RIGHT: 2 PLAYERS
    assert h.screen == "play"
    h.run(500)
    _typed(h, taps, " ", " ")  # MENU twice, quickly: the match pauses
    assert h.screen == "pause"


def _chosen(h):
    """The main menu's item the arrow is on."""
    assert h.screen == "menu", h.screen
    return [line[1:].split("  ")[0] for line in h.lines if line.startswith("\u2192")][0]


@pytest.mark.parametrize("item", ["SETTINGS", "STATISTICS", "HOW TO PLAY", "SELF TEST"])
def test_the_main_menu_comes_back_to_the_item_left(item):
    h = Hand()
    h.run_until(BOOTED)
    h.choose(item)
    if item == "SELF TEST":
        h.hold("MENU", 1700)  # hold MENU to leave it
    else:
        h.tap("MENU")
    assert _chosen(h) == item


def test_the_main_menu_comes_back_to_the_match_kind_left():
    h = Hand()
    h.run_until(BOOTED)
    h.choose("VS COMPUTER")
    assert h.screen == "play"
    h.hold("MENU", 700)  # pause
    h.choose("QUIT MATCH")
    assert _chosen(h) == "VS COMPUTER"


def test_the_self_test_says_which_version_runs():
    import sys
    h = Hand(held=["MENU"])  # MENU held at power-up: the self-test, no key changed since
    h.run_until(screen="selftest")
    runtime = "%s %d.%d.%d" % ((sys.implementation.name.upper(),) + sys.version_info[:3])
    assert h.text(7) == "DEV  " + runtime  # the repo's own version.py (the font is capitals)


def test_settings_toml_presets_the_language_until_one_is_chosen_on_the_handheld(tmp_path):
    from firmware import lang_fr, lang_pt, settings
    sound, language = settings.KEYS.index("sound"), settings.KEYS.index("language")
    nvm = str(tmp_path / "nvm.bin")
    h = Hand(nvm=nvm, settings={"CS_LANGUAGE": "fr"})
    h.run_until(BOOTED)
    h.choose(lang_fr.MAIN[3])  # RÉGLAGES
    h.choose(fields_fr.FIELDS[sound][0])  # another setting changes, and is saved
    h.tap("MENU")
    again = Hand(nvm=nvm, settings={"CS_LANGUAGE": "pt"})  # the class presets Portuguese
    again.run_until(BOOTED)
    assert again.text(1) == "\u2192" + lang_pt.MAIN[0]  # the preset still speaks
    again.choose(lang_pt.MAIN[3])
    assert _value(again, fields_pt.FIELDS[sound][0]) == fields_pt.FIELDS[sound][1][1]  # kept
    again.choose(fields_pt.FIELDS[language][0])  # LANGUAGE chosen on the handheld: English
    again.tap("MENU")  # saved; the handheld starts afresh in it
    last = Hand(nvm=nvm, settings={"CS_LANGUAGE": "fr"})
    last.run_until(BOOTED)
    assert last.text(1) == "\u21922 PLAYERS"  # the handheld's choice wins from now on
