"""The device experience through the virtual handheld (tests/twins/desktop/handheld.py): menus, saved
settings and statistics, sound, sleep, self-test, solo play, crash recovery and the
watchdog, as the glass, the buzzer, the console and the nvm show them."""
import sys

import pytest

from engine import Rules
from engine.ticks import ticks_add
from firmware import fields_en, lang, settings as settings_mod
from firmware.runner import run
from handheld import A, B, BOOTED, PAUSE_HOLD, RESULT_GUARD, SEEN, Hand
from twins.desktop import virtual
from tools.keynames import key_named
from twins.desktop import glass, scenes

NEARLY_FULL = 256  # bytes left in the nvm's log (of 4,096) when it is nearly full


def _hand(nvm=None, **options):
    """A handheld switched on, past the moment keys count as held at power-up."""
    h = Hand(nvm=nvm, **options)
    h.run_until(BOOTED)
    return h


def _settings(h):
    h.choose(lang.words.MAIN[3])  # SETTINGS, in the language spoken
    assert h.screen == "settings"


def _statistics(h):
    """The statistics page, {label: value}, opened from the main menu."""
    h.choose("STATISTICS")
    assert h.screen == "statistics"
    return h.items()


def _chosen(h):
    """Each setting as the settings page shows it, in page order: the number of its
    choice among the language's words for them (the words, for a time handicap)."""
    shown = list(h.items().values())
    choices = [words for _label, words in lang.fields()]
    assert len(shown) == len(choices), shown
    return [words.index(v) if v in words else v for v, words in zip(shown, choices)]


@pytest.mark.parametrize("i", range(len(fields_en.FIELDS)))  # (a line for each)
def test_each_setting_changes_on_its_line_and_shows_the_same_after_power_off(i, tmp_path):
    h = _hand(str(tmp_path / "nvm.bin"))
    _settings(h)
    before = _chosen(h)
    label, words = fields_en.FIELDS[i]
    h.set(label, h.items()[label])  # the arrow on its line, nothing changed yet
    default = h.arrowed()[1]
    h.tap("A3")  # RIGHT: its next choice
    shown, changed = h.arrowed()
    assert shown == label and changed != default
    h.tap("MENU")  # back: saved
    assert h.hw.flash.erases == 0
    again = h.power_cycle()
    again.run_until(BOOTED)
    _settings(again)
    before[i] = words.index(changed) if changed in words else changed
    assert _chosen(again) == before  # this one changed, and only this one


def test_settings_take_effect_as_they_change_and_the_match_is_dealt_with_them():
    h = _hand()
    _settings(h)
    h.set("PILES", "3 A ROW")
    h.set("SOUND", "OFF")
    h.set("CONTRAST", "LOWEST")
    assert h.hw.oled.contrast == 8  # the glass at its dimmest
    h.heard()
    h.set("FLIP SCREEN", "ON")
    assert h.faces == B  # turned round, though A pressed
    h.tap("MENU")
    h.choose("2 PLAYERS")
    h.run(500)
    turned = glass.turned(h.glass)  # A's row is at the far edge of the glass, turned
    assert glass.piles_per_row(turned) == 3 and glass.info(turned, A).startswith("\u25af")
    assert h.heard() == []  # sound off: no key clicks, and the deal made no sound


def test_a_corrupt_or_out_of_range_settings_record_falls_back_and_says_so(tmp_path):
    from firmware.store import Log
    nvm = virtual.Flash(str(tmp_path / "nvm.bin")).nvm
    bad = bytearray(settings_mod.Settings().encode())
    bad[1] = 99  # match length: no such choice
    Log(nvm).put(settings_mod.SETTINGS_KIND, bytes(bad))
    h = _hand(str(tmp_path / "nvm.bin"))
    assert any("wins is out of range" in line for line in h.console)
    _settings(h)
    assert h.items()["MATCH"] == "FIRST TO 2"  # the default


def test_the_statistics_page_counts_a_won_match_and_shows_it_again_after_power_off(tmp_path):
    h = _hand(str(tmp_path / "nvm.bin"), decks=scenes.ONE_LEFT, rules=Rules(wins_needed=1))
    h.choose("2 PLAYERS")
    h.tap("A0", at=h.now + 300)  # A covers with the last card and wins the match
    h.run(1200)
    assert (h.banner(A), h.banner(B)) == ("MATCH WON!", "MATCH LOST")
    again = h.power_cycle()
    again.run_until(BOOTED)
    st = _statistics(again)
    assert (st["MATCHES"], st["GAMES"], st["WINS A"], st["WINS B"], st["DRAWS"],
            st["STREAK"]) == ("1", "1", "1", "0", "0", "A X1"), st
    assert st["FASTEST WIN"] == st["LONGEST"] != "-"
    assert 0.3 <= _seconds(st["AVG COVER"]) <= 1.0  # the one cover, some 400 ms after the deal


def _seconds(shown):
    """'0.4 S' as 0.4."""
    return float(shown.split()[0])


def _log_end(flash):
    """Where the nvm's log ends (its next save goes), read from the stored bytes."""
    from firmware.store import Log
    return Log(bytearray(flash.data)).end


def test_saves_never_erase_the_flash_and_it_is_erased_only_to_compact_a_nearly_full_log(
        tmp_path):
    from firmware.stats import Stats, STATS_KIND
    from firmware.store import Log
    path = str(tmp_path / "nvm.bin")
    log, played = Log(virtual.Flash(path).nvm), Stats()  # a memory of many games
    while log.size - log.end > 900:  # (room for some 15 more games, each one a record)
        played.game(2, 100)
        log.put(STATS_KIND, played.encode())
    h = _hand(path)
    flash = h.hw.flash
    assert flash.erases == 0
    writes = []  # each pass that wrote to the nvm: (erases, the log's end before, after)
    last = [flash.writes, flash.erases, _log_end(flash)]

    def look(h):
        if flash.writes != last[0]:
            end = _log_end(flash)
            writes.append((flash.erases - last[1], last[2], end))
            last[:] = [flash.writes, flash.erases, end]
    h.watch(look)

    def saved(since, what):
        """The first write since is a save that erased nothing; so is every other one, or
        else a compaction (an erase, the log shorter after it) of a nearly full log."""
        assert writes[since:], "nothing saved: " + what
        erased, before, after = writes[since]
        assert not erased and after >= before, "a save erased: " + what
        for erased, before, after in writes[since + 1:]:
            assert not erased and after >= before or erased == 1 and after < before and \
                len(flash.data) - before < NEARLY_FULL, (what, erased, before, after)

    h.choose("2 PLAYERS")
    for game in range(20):
        if game % 8 == 7:  # now and then, a setting saved: the CPU level steps
            h.hold("MENU", PAUSE_HOLD)
            h.choose("QUIT MATCH")
            since = len(writes)
            h.choose("CPU LEVEL")
            h.choose("2 PLAYERS")  # (a moment to tidy)
            saved(since, "the CPU level, before game %d" % game)
        h.run(200)
        h.tap("A0")  # a cover, or a foul
        h.run(20 * game)  # each game longer than the last: a record, saved whole
        h.hold("MENU", PAUSE_HOLD)
        since = len(writes)
        h.choose("DECLARE DRAW")
        assert h.screen == "result"
        h.tap("A1", at=h.now + RESULT_GUARD)  # the next game
        assert h.screen == "play"
        saved(since, "game %d" % game)
    compactions = [w for w in writes if w[0]]
    assert compactions and len(compactions) == flash.erases, writes
    statistics, settings = _statistics_and_settings(h)
    again = h.power_cycle()
    again.run_until(BOOTED)
    assert _statistics_and_settings(again) == (statistics, settings)


def _statistics_and_settings(h):
    """The statistics page and the settings page, from a match or the main menu."""
    if h.screen != "menu":
        h.hold("MENU", PAUSE_HOLD)
        h.choose("QUIT MATCH")
    statistics = _statistics(h)
    h.tap("MENU")
    _settings(h)
    settings = h.items()
    h.tap("MENU")
    return statistics, settings


def _match(h):
    """Two players: the match dealt, its cards seen."""
    h.choose("2 PLAYERS")
    h.run(SEEN)
    assert h.screen == "play"


def test_holding_menu_shows_the_pause_page_and_resume_brings_the_table_back():
    h = _hand(decks=scenes.DECKS)
    _match(h)
    h.hold("MENU", PAUSE_HOLD)
    assert h.screen == "pause" and h.text(0) == "PAUSED"
    h.choose("RESUME")
    assert h.screen == "play" and h.piles[0] == "5c"


def test_a_double_press_of_menu_shows_the_pause_page_too():
    h = _hand(decks=scenes.DECKS)
    _match(h)
    h.tap("MENU", settle=40)
    h.tap("MENU", settle=40)
    assert h.screen == "pause"


def test_a_draw_declared_on_the_pause_page_shows_draw_and_counts_one():
    h = _hand(decks=scenes.DECKS)
    _match(h)
    h.hold("MENU", PAUSE_HOLD)
    h.heard()
    h.choose("DECLARE DRAW")
    assert h.screen == "result" and (h.banner(A), h.banner(B)) == ("DRAW", "DRAW")
    assert h.heard()[-1:] == ["DRAW"]
    h.hold("MENU", PAUSE_HOLD, at=h.now + RESULT_GUARD)  # the next game; then pause
    h.choose("QUIT MATCH")
    st = _statistics(h)
    assert (st["GAMES"], st["DRAWS"], st["MATCHES"]) == ("1", "1", "0")


def test_quit_match_on_the_pause_page_shows_the_main_menu():
    h = _hand(decks=scenes.DECKS)
    _match(h)
    h.hold("MENU", PAUSE_HOLD)
    h.choose("QUIT MATCH")
    assert h.screen == "menu" and h.text(0) == "CALIFORNIA SPEED"


def test_solo_the_computer_plays_b_until_a_person_presses_one_of_bs_keys():
    h = _hand()
    h.choose("VS COMPUTER")
    assert h.screen == "play"
    h.run(4000)
    assert "COVER_B" in h.heard() and h.screen == "play"  # nobody pressed B's keys
    h.tap("B1")  # a second person presses one of B's keys: seat B is theirs now
    h.heard()
    h.run(4000)
    assert "COVER_B" not in h.heard()  # the computer plays no more


def _computer_plays(h):
    """How the match against the computer goes in its first 8 s, as the glass shows it:
    every change of the table and of B's info line."""
    h.choose("VS COMPUTER")
    seen = []
    for _ in range(80):
        h.run(100)
        now = (h.info(B), tuple(h.piles))
        if not seen or seen[-1] != now:
            seen.append(now)
    return seen


def test_the_cpu_level_chosen_in_the_main_menu_is_the_computers_in_the_next_match():
    h = _hand(decks=scenes.DECKS)
    h.to("CPU LEVEL")
    h.tap("A3")
    assert h.text(3).endswith("SHARP")
    sharp = _computer_plays(h)
    on_the_settings_page = _hand(decks=scenes.DECKS)  # SHARP chosen as CPU in SETTINGS
    _settings(on_the_settings_page)
    on_the_settings_page.set("CPU", "SHARP")
    on_the_settings_page.tap("MENU")
    assert _computer_plays(on_the_settings_page) == sharp
    assert _computer_plays(_hand(decks=scenes.DECKS)) != sharp  # QUICK plays otherwise


def test_sounds_differ_by_event_and_sound_off_silences_them():
    h = _hand(decks="5c 9d Jh 2s 7c 8c / 5d Kc 3h 8s 4c 6c")
    _match(h)
    h.run(500)
    log = h.hw.buzzer.log

    def tones_after(action):
        start = len(log)
        action()
        return [hz for _, hz in log[start:] if hz]

    cover_a = tones_after(lambda: h.tap("A0", settle=240))
    foul_b = tones_after(lambda: h.tap("B1", settle=540))  # B presses 9d: a foul
    stall = tones_after(lambda: h.tap("B0", settle=540))  # B covers the pending 5d: stall
    assert cover_a and foul_b and stall
    assert cover_a != foul_b and max(foul_b) < min(cover_a)  # a low buzz, a high click
    assert len(stall) >= 3  # a chime
    h.hold("MENU", PAUSE_HOLD)
    h.choose("QUIT MATCH")
    _settings(h)
    h.set("SOUND", "OFF")
    h.tap("MENU")

    def play():
        h.choose("2 PLAYERS")
        for key in ("A0", "A1", "B0", "B1", "A2", "B2"):
            h.tap(key, settle=300)
        h.run(2000)
    assert tones_after(play) == []


def test_each_players_cover_clicks_differently():
    from firmware import sound
    assert sound.COVER_A != sound.COVER_B


def _sleep_after_a_minute(h):
    _settings(h)
    h.set("SLEEP", "1 MIN")
    h.tap("MENU")


def test_idle_turns_the_glass_dark_and_a_key_lights_it_without_acting():
    h = _hand()
    _sleep_after_a_minute(h)
    h.to("2 PLAYERS")  # RIGHT would deal a match
    h.run(59000)
    assert h.screen == "menu"
    h.run(2000)
    assert h.screen == "off" and not h.hw.oled.is_on  # the display is asleep
    h.tap("A3")  # wakes; does not start a match
    assert h.screen == "menu" and h.hw.oled.is_on and h.arrowed()[0] == "2 PLAYERS"


def test_a_match_left_alone_pauses_then_goes_dark_then_asks_for_deep_sleep():
    h = _hand(decks=scenes.DECKS)
    _sleep_after_a_minute(h)
    _match(h)
    h.run(61000)
    assert h.screen == "off" and not h.hw.oled.is_on
    assert h.hw.deep_sleeps == 0
    h.run(600000)
    assert h.hw.deep_sleeps == 1  # asked once; the desktop cannot, so the glass stays dark
    assert h.screen == "off"
    h.tap("A2")  # LEFT: wakes, to the pause page it went dark on
    assert h.screen == "pause"


def test_menu_held_at_power_up_opens_the_self_test_and_holding_it_leaves():
    h = Hand(held=["MENU"])
    h.run_until(2000)
    assert h.screen == "selftest"
    assert "SWEEP" in h.heard()  # the buzzer's sweep through every note
    h.release("MENU")
    h.press("Af1", at=h.now + 100)
    h.run(500)
    assert h.text(7) == "A FAR 2 DOWN"
    h.release("Af1")
    h.hold("MENU", 1700, at=h.now + 10)
    assert h.screen == "menu"


def test_a_key_held_at_power_up_that_is_not_menu_is_ignored_until_released():
    h = Hand(held=["A3"])  # RIGHT held at power-up (e.g. a shorted button)
    h.run_until(1500)
    assert h.screen == "menu" and h.arrowed()[0] == "2 PLAYERS"  # it did not deal a match
    said = [line for line in h.console if "down at power-up" in line]
    assert said == ["key 3 (A NEAR 4) was down at power-up; ignored until released"]
    # Naming it did not bring the self-test's code into the heap for the session (3 KB).
    assert "firmware.selftest" not in sys.modules
    h.release("A3")
    h.tap("A3", at=h.now + 100)
    assert h.screen == "play"


def test_an_unexpected_error_shows_the_error_screen_and_a_key_restarts():
    calls = {"n": 0}
    shown = []

    def fault_in_the_main_loop(hw):
        calls["n"] += 1
        if calls["n"] == 50:
            raise RuntimeError("simulated fault")
        if calls["n"] > 400:
            hw.stop = True
        if hw.restarts == 1 and not shown:  # restarted after the error: the screen is up
            shown.append(hw.oled.frame())
            hw.buttons.tap(key_named("A0"), ticks_add(hw.clock.now, 50))

    hw = run(virtual, seed=1, on_idle=fault_in_the_main_loop)
    said = "\n".join(hw.console_lines)
    assert "California Speed stopped: RuntimeError('simulated fault')" in said
    assert "Traceback" in said and "fault_in_the_main_loop" in said
    assert hw.restarts == 2  # after the error, then after the key: the app ran again
    assert calls["n"] > 400 and bytes(hw.sleep_memory[0:3]) != b"CS!"  # the note was taken
    assert shown and shown[0].count(1) > 300  # the screen was lit


def test_a_hang_is_ended_by_the_watchdog():
    h = _hand()

    def hang():
        while True:
            h.hw.busy(100)  # work that never returns to the main loop

    with pytest.raises(virtual.WatchdogReset):
        hang()
    assert any("watchdog" in line for line in h.console)


def test_the_main_loop_keeps_the_watchdog_fed():
    h = _hand()
    h.run(30000)  # well past 8 s: the loop feeds the watchdog every pass
    assert h.screen == "menu" and not [line for line in h.console if "watchdog" in line]


def test_the_nvm_of_make_play_is_kept_in_a_file(tmp_path):
    path = tmp_path / "nvm.bin"
    h = _hand(str(path))
    _settings(h)
    h.choose("MATCH")
    h.tap("MENU")  # back: saved
    assert path.exists() and path.stat().st_size == 4096


def test_a_handicap_setting_deals_the_stronger_seat_more_cards():
    h = _hand()
    for choice, (a, b) in (("A 500MS+6", (29, 23)), ("B 500MS+4", (24, 28)),
                           ("EVEN", (26, 26))):
        _settings(h)
        h.set("HANDICAP", choice, left=choice.startswith("B"))
        h.tap("MENU")
        _match(h)
        assert (h.cards(A) + 4, h.cards(B) + 4) == (a, b), choice  # 4 each on the table
        h.hold("MENU", PAUSE_HOLD)
        h.choose("QUIT MATCH")


def _handicap(h):
    """The HANDICAP line of the settings page, opened from the main menu."""
    _settings(h)
    shown = h.items()["HANDICAP"]
    h.tap("MENU")
    return shown


@pytest.mark.parametrize("auto", [True, False])
def test_auto_handicap_holds_the_winner_of_a_match_back_10_ms_next_match(auto, tmp_path):
    h = _hand(str(tmp_path / "nvm.bin"), decks="5c 9d Jh 2s 7c / 5d Kc 3h 8s 4c 6c")
    _settings(h)
    h.set("MATCH", "1 GAME")
    h.set("AUTO HANDICAP", "ON" if auto else "OFF")
    h.tap("MENU")
    _match(h)  # the cards are seen
    h.tap("A0", settle=1440)  # A covers with the last card: A wins the match
    assert h.banner(A) == "MATCH WON!"
    h.tap("A0", settle=240)  # back to the menu
    assert _handicap(h) == ("A 10MS" if auto else "EVEN")
    _match(h)  # the next match is dealt with it: A held back, as many cards each
    assert (h.info(A)[3] == "\u231b") == auto and h.info(B)[3] != "\u231b"
    assert h.cards(A) == h.cards(B)
    h.hold("MENU", PAUSE_HOLD)
    h.choose("QUIT MATCH")
    again = h.power_cycle()  # saved through power-off
    again.run_until(BOOTED)
    assert _handicap(again) == ("A 10MS" if auto else "EVEN")


def test_auto_handicap_off_changes_nothing():
    s = settings_mod.Settings()
    assert not s.match_won(0) and not s.match_won(1) and _scale(s) == (0, 0)


def _scale(s):
    return s.value("handicap_ms"), s.value("handicap")


def test_the_cpu_setting_offers_each_level_of_the_computer_player():
    from engine.bot import LEVELS
    i = settings_mod.KEYS.index("level")
    assert settings_mod.FIELDS[i][1] == tuple(range(len(LEVELS)))
    assert fields_en.FIELDS[i][1] == tuple(lv[0] for lv in LEVELS)


def test_a_damaged_newest_statistics_record_is_reported_and_an_older_one_used(tmp_path):
    from firmware.stats import Stats, STATS_KIND
    from firmware.store import Log
    flash = virtual.Flash(str(tmp_path / "nvm.bin"))
    log = Log(flash.nvm)
    old = Stats()
    old.game(0, 40000)
    log.put(STATS_KIND, old.encode())
    at = log.end
    new = Stats()
    for _ in range(3):
        new.game(1, 50000)
    log.put(STATS_KIND, new.encode())
    log.add(STATS_KIND, new.entry())
    flash.flip_bit(at + 5, 0)  # inside the newer record: its CRC fails
    h = _hand(str(tmp_path / "nvm.bin"))
    assert any("statistics: the newest saved record cannot be read; using an older one"
               in line for line in h.console), h.console
    st = _statistics(h)
    assert (st["GAMES"], st["WINS A"], st["WINS B"]) == ("1", "1", "0"), st  # the older one


def test_a_new_language_is_spoken_after_the_settings_page_closes_and_the_handheld_restarts(
        tmp_path):
    h = _hand(str(tmp_path / "nvm.bin"))
    _settings(h)
    h.set("LANGUAGE", "FRANÇAIS")  # chosen, not spoken yet: the page is still in English
    assert h.screen == "settings" and h.hw.restarts == 0
    h.tap("MENU")  # back: saved, and the handheld starts afresh in French
    assert h.hw.restarts == 1
    again = h.power_cycle()
    again.run_until(BOOTED)
    assert again.text(1) == "\u21922 JOUEURS"


def test_settings_toml_presets_the_language_until_one_is_chosen():
    h = _hand(settings={"CS_LANGUAGE": "pt"})
    assert "JOGADORES" in h.text(1)
    _settings(h)
    assert list(h.items().values())[-1] == "PORTUGUÊS"  # LANGUAGE, the page's last line
    bad = _hand(settings={"CS_LANGUAGE": "klingon"})
    assert bad.text(1) == "\u21922 PLAYERS"
    assert any("CS_LANGUAGE" in line for line in bad.console)


def test_the_error_screen_needs_nothing_of_the_glyph_kit(monkeypatch):
    """An error inside the app's own glyph kit still reaches the glass: the error screen
    is drawn with terminalio.FONT, and shows what the golden error screen shows."""
    from firmware import ui
    fault = ValueError("piles_per_row: must be an integer 3..6, not 9")  # the golden's

    def broken_kit(self):
        raise fault

    monkeypatch.setattr(ui.Kit, "__init__", broken_kit)
    frames = []

    def look_then_stop(hw):
        if hw.restarts == 1 and not frames:  # the error screen, after the restart
            frames.append(hw.oled.frame())
            hw.stop = True

    hw = run(virtual, seed=1, on_idle=look_then_stop)
    assert "California Speed stopped: %r" % (fault,) in hw.console_lines
    assert frames and frames[0] == scenes.golden("error"), scenes.frame_diff(frames[0],
                                                                            scenes.golden("error"))


def test_the_constant_indices_name_the_settings_they_stand_for():
    from firmware import menus
    assert menus._LEVEL == settings_mod.KEYS.index("level")
    assert settings_mod._HANDICAP == settings_mod.KEYS.index("handicap")
    assert settings_mod._MS == settings_mod.KEYS.index("handicap_ms")
