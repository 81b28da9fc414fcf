"""The device experience through the virtual handheld: menus, saved settings and statistics,
sound, sleep, self-test, solo play, crash recovery and the watchdog."""
import pytest

import engine
from engine import Rules
from engine.ticks import ticks_add
from firmware import lang_en, settings as settings_mod
from firmware.app import App
from firmware.runner import run
from hardware import virtual
from hardware.keynames import key_named
from tools import scenes
from tools.play import parse_decks

UP, DOWN, LEFT, RIGHT = (key_named(n) for n in ("A0", "A1", "A2", "A3"))  # in the menus
MENU = key_named("MENU")


class Hand:
    """A handheld on a simulated clock, with keys pressed one at a time."""

    def __init__(self, nvm_path=None, decks=None, rules=None, **kw):
        self.hw = virtual.init(seed=1, nvm_path=nvm_path, **kw)
        self.app = App(self.hw, rules, decks=parse_decks(decks) if decks else None)
        self.run(400)

    def run(self, ms):
        end = self.hw.elapsed + ms
        while self.hw.elapsed < end:
            self.app.step()

    def tap(self, key, then=150):
        self.hw.buttons.tap(key, self.hw.clock.now, 60)
        self.run(then)

    def hold(self, key, ms):
        self.hw.buttons.press(key, self.hw.clock.now)
        self.run(ms)
        self.hw.buttons.release(key, self.hw.clock.now)
        self.run(100)

    def to_main_item(self, item):
        for _ in range(item):
            self.tap(DOWN)

    def text(self, row):
        """A line of the screen as drawn (read back from the tiles of the menu page)."""
        from firmware import glyphs
        line = self.app.menus.page.lines[row]
        return bytes(glyphs.FONT_CHARS[line.grid[i]] for i in range(21)).decode("latin-1").strip()


def _open_settings(h):
    h.to_main_item(3)
    h.tap(RIGHT)
    assert h.text(0) == "SETTINGS"


@pytest.mark.parametrize("i", range(len(lang_en.FIELDS)))  # (a line for each)
def test_each_setting_changes_from_the_menu_and_survives_power_off(i, tmp_path):
    path = str(tmp_path / "nvm.bin")
    h = Hand(path)
    _open_settings(h)
    default = h.app.settings.text(i)
    for _ in range(i):
        h.tap(DOWN)
    h.tap(RIGHT)
    changed = h.app.settings.text(i)
    assert changed != default
    assert h.text(1 + min(i, 5)).endswith(" " + changed)
    h.tap(MENU)  # back: saved
    assert h.hw.flash.erases == 0
    again = Hand(path)  # power off and on
    assert again.app.settings.text(i) == changed
    assert again.app.settings.index == h.app.settings.index


def test_settings_take_effect():
    h = Hand()
    s = h.app.settings
    s.index[settings_mod.KEYS.index("contrast")] = 3
    s.index[settings_mod.KEYS.index("sound")] = 1
    s.index[settings_mod.KEYS.index("flip")] = 1
    s.index[settings_mod.KEYS.index("piles")] = 1
    h.app.apply_settings()
    assert h.hw.oled.contrast == 8
    assert h.app.sound.muted
    assert h.hw.display.rotation == 180
    h.app.start_match(-1)
    assert h.app.match.game.rules.piles_per_row == 3
    log = len(h.hw.buzzer.log)
    h.run(500)
    assert len(h.hw.buzzer.log) == log  # muted: the deal made no sound


def test_a_corrupt_or_out_of_range_settings_record_falls_back_and_says_so(tmp_path):
    from firmware.store import Log
    nvm = virtual.Flash(str(tmp_path / "nvm.bin")).nvm
    bad = bytearray(settings_mod.Settings().encode())
    bad[1] = 99  # match length: no such choice
    Log(nvm).put(settings_mod.SETTINGS_KIND, bytes(bad))
    h = Hand(str(tmp_path / "nvm.bin"))
    assert h.app.settings.value("wins") == 2
    assert any("wins is out of range" in line for line in h.hw.console_lines)


def test_statistics_count_games_and_survive_power_off(tmp_path):
    path = str(tmp_path / "nvm.bin")
    h = Hand(path, decks=scenes.ONE_LEFT, rules=Rules(wins_needed=1))
    h.app.start_match(-1)
    h.run(400)
    h.tap(0)  # A covers with the last card and wins the match
    h.run(1200)
    assert h.app.state == App.RESULT
    again = Hand(path)
    st = again.app.stats
    assert (st.matches, st.games, st.wins_a, st.streak_seat, st.streak) == (1, 1, 1, 0, 1)
    assert st.covers == 1 and 300 <= st.average_cover_ms() <= 1000
    assert st.fastest_win_ms == st.longest_game_ms > 0
    again.to_main_item(4)
    again.tap(RIGHT)
    assert again.text(1).split() == ["MATCHES", "1"] and again.text(2).split() == ["GAMES", "1"]


def test_saves_never_erase_and_a_tidy_compacts_only_when_the_log_is_nearly_full():
    from firmware.app import _RESERVE
    h = Hand()
    app, flash = h.app, h.hw.flash
    tidied = 0
    for n in range(1500):
        app.stats.cover(700 + n % 900)
        app.stats.game(n % 3, 40000 + n)
        erases = flash.erases
        app.save_stats()
        if n % 50 == 0:
            app.settings.step(6, 1)
            app.settings_done(True)
        assert flash.erases == erases, "a save erased (game %d)" % n
        room = app.log.size - app.log.end
        app.tidy()  # the next game is dealt
        assert flash.erases == erases + (room < _RESERVE)
        tidied += room < _RESERVE
    assert tidied == app.log.compactions == flash.erases >= 1
    again = Hand()
    again.hw.flash.data[:] = flash.data
    again.app = App(again.hw)
    for name in ("games", "wins_a", "wins_b", "draws", "covers", "fastest_win_ms",
                 "longest_game_ms", "streak_seat", "streak"):
        assert getattr(again.app.stats, name) == getattr(app.stats, name), name
    assert abs(again.app.stats.average_cover_ms() - app.stats.average_cover_ms()) <= 50
    assert bytes(again.app.settings.index) == bytes(app.settings.index)


def _match(h, level=-1):
    h.app.start_match(level)
    h.run(300)
    assert h.app.state == App.PLAY


def test_holding_menu_pauses_and_resume_continues():
    h = Hand(decks=scenes.DECKS)
    _match(h)
    h.hold(MENU, 700)
    assert h.app.state == App.PAUSED and h.text(0) == "PAUSED"
    h.tap(RIGHT)  # RESUME
    assert h.app.state == App.PLAY


def test_a_double_press_of_menu_pauses_too():
    h = Hand(decks=scenes.DECKS)
    _match(h)
    h.tap(MENU, 100)
    h.tap(MENU, 100)
    assert h.app.state == App.PAUSED


def test_declaring_a_draw_from_the_pause_page():
    h = Hand(decks=scenes.DECKS)
    _match(h)
    h.hold(MENU, 700)
    h.tap(DOWN)
    h.tap(RIGHT)  # DECLARE DRAW
    assert h.app.state == App.RESULT
    assert h.app.match.game.game_result == engine.DRAW and h.app.stats.draws == 1


def test_quitting_a_match_from_the_pause_page():
    h = Hand(decks=scenes.DECKS)
    _match(h)
    h.hold(MENU, 700)
    h.tap(UP)
    h.tap(RIGHT)  # QUIT MATCH
    assert h.app.state == App.MENU and h.text(0) == "CALIFORNIA SPEED"


def test_solo_the_computer_plays_b_and_b_can_join_in():
    h = Hand()
    h.to_main_item(1)
    h.tap(RIGHT)  # VS COMPUTER
    assert h.app.state == App.PLAY and h.app.match.bot is not None
    h.run(4000)
    assert h.app.match.bot.presses > 0 and h.app.state == App.PLAY
    h.tap(8)  # a second person presses one of B's keys: seat B is theirs now
    assert h.app.match.bot is None


def test_the_cpu_level_is_chosen_in_the_main_menu():
    h = Hand()
    h.to_main_item(2)
    h.tap(RIGHT)
    assert h.text(3).endswith("SHARP")
    h.tap(UP)
    h.tap(RIGHT)
    assert h.app.match.bot is not None and h.app.match.bot._miss == 30  # SHARP's miss rate


def test_sounds_differ_by_event_and_mute_silences_them():
    h = Hand(decks="5c 9d Jh 2s 7c 8c / 5d Kc 3h 8s 4c 6c")
    _match(h)
    h.run(500)

    def tones_after(action):
        start = len(h.hw.buzzer.log)
        action()
        return [hz for _, hz in h.hw.buzzer.log[start:] if hz]

    cover_a = tones_after(lambda: h.tap(key_named("A0"), 300))
    foul_b = tones_after(lambda: h.tap(key_named("B1"), 600))  # B presses 9d: a foul
    stall = tones_after(lambda: h.tap(key_named("B0"), 600))  # B covers the pending 5d: stall
    assert cover_a and foul_b and stall
    assert cover_a != foul_b and max(foul_b) < min(cover_a)  # a low buzz, a high click
    assert len(stall) >= 3  # a chime
    h.app.sound.muted = True
    assert tones_after(lambda: h.run(2000)) == []


def test_each_players_cover_clicks_differently():
    from firmware import sound
    assert sound.COVER_A != sound.COVER_B


def test_idle_turns_the_screen_off_and_a_key_wakes_it_without_acting():
    h = Hand()
    h.app.settings.index[settings_mod.KEYS.index("sleep")] = 3  # 1 minute
    h.run(61000)
    assert h.app.state == App.SLEEP and not h.hw.oled.is_on
    h.tap(RIGHT)  # wakes; does not start a match
    assert h.app.state == App.MENU and h.hw.oled.is_on


def test_a_match_left_alone_pauses_then_sleeps_then_asks_for_deep_sleep():
    h = Hand(decks=scenes.DECKS)
    h.app.settings.index[settings_mod.KEYS.index("sleep")] = 3
    _match(h)
    h.run(61000)
    assert h.app.state == App.SLEEP and h.app.before_sleep == App.PAUSED
    h.run(600000)
    assert h.hw.deep_sleeps == 1  # asked once; the desktop cannot, so the screen stays off
    h.tap(LEFT)
    assert h.app.state == App.PAUSED


def test_menu_held_at_power_up_opens_the_self_test():
    hw = virtual.init(seed=1)
    hw.buttons.press(MENU, hw.ms(0))
    app = App(hw)
    while hw.elapsed < 2000:
        app.step()
    assert app.state == App.SELFTEST
    assert any(hz for _, hz in hw.buzzer.log)  # the buzzer sweep
    hw.buttons.release(MENU, hw.clock.now)
    hw.buttons.press(key_named("Af1"), ticks_add(hw.clock.now, 100))
    while hw.elapsed < 2500:
        app.step()
    assert app.selftest.down[5] == 1
    hw.buttons.release(key_named("Af1"), hw.clock.now)
    hw.buttons.press(MENU, ticks_add(hw.clock.now, 10))
    while hw.elapsed < 4500:
        app.step()
    assert app.state == App.MENU


def test_a_key_held_at_power_up_that_is_not_menu_is_ignored_until_released():
    hw = virtual.init(seed=1)
    hw.buttons.press(key_named("A3"), hw.ms(0))  # RIGHT held at power-up (e.g. a shorted button)
    app = App(hw)
    while hw.elapsed < 1500:
        app.step()
    assert app.state == App.MENU  # it did not start a match
    assert any("down at power-up" in line for line in hw.console_lines)
    hw.buttons.release(key_named("A3"), hw.clock.now)
    hw.buttons.tap(key_named("A3"), ticks_add(hw.clock.now, 100))
    while hw.elapsed < 2000:
        app.step()
    assert app.state == App.PLAY


def test_an_unexpected_error_shows_the_error_screen_and_a_key_restarts(monkeypatch):
    calls = {"n": 0}
    original = App.step

    def failing_step(self):
        calls["n"] += 1
        if calls["n"] == 50:
            raise RuntimeError("simulated fault")
        if calls["n"] > 400:
            self.hw.stop = True
        original(self)

    monkeypatch.setattr(App, "step", failing_step)

    shown = []

    def press_any_key_soon(hw):
        if hw.restarts == 1 and not shown:  # restarted after the error: the screen is up
            shown.append(hw.oled.frame())
            hw.buttons.tap(key_named("A0"), ticks_add(hw.clock.now, 50))

    hw = run(virtual, seed=1, on_idle=press_any_key_soon)
    said = "\n".join(hw.console_lines)
    assert "California Speed stopped: RuntimeError('simulated fault')" in said
    assert "Traceback" in said and "failing_step" in said
    assert hw.restarts == 2  # after the error, then after the key: the app ran again
    assert calls["n"] > 400 and bytes(hw.sleep_memory[0:3]) != b"CS!"  # the note was taken
    assert shown and shown[0].count(1) > 300  # the screen was lit


def test_a_hang_is_ended_by_the_watchdog():
    h = Hand()

    def hang():
        while True:
            h.hw.busy(100)  # work that never returns to the main loop

    h.app.step()
    with pytest.raises(virtual.WatchdogReset):
        hang()
    assert any("watchdog" in line for line in h.hw.console_lines)


def test_the_main_loop_keeps_the_watchdog_fed():
    h = Hand()
    h.run(30000)  # well past 8 s: the loop feeds the watchdog every pass
    assert h.app.state == App.MENU


def test_the_nvm_of_make_play_is_kept_in_a_file(tmp_path):
    path = tmp_path / "nvm.bin"
    h = Hand(str(path))
    h.app.settings.step(0, 1)
    h.app.settings_done(True)
    assert path.exists() and path.stat().st_size == 4096


def test_a_handicap_setting_deals_the_stronger_seat_more_cards():
    h = Hand()
    s = h.app.settings
    for choice, (a, b) in (("A+6", (29, 23)), ("B+4", (24, 28)), ("EVEN", (26, 26))):
        s.index[settings_mod.KEYS.index("handicap")] = lang_en.FIELDS[
            settings_mod.KEYS.index("handicap")][1].index(choice)
        h.app.apply_settings()
        h.app.start_match(-1)
        g = h.app.match.game
        assert (g.deck_size(0) + 4, g.deck_size(1) + 4) == (a, b), choice
        h.app.quit_match()


def _handicap(h):
    return h.app.settings.text(settings_mod.KEYS.index("handicap"))


@pytest.mark.parametrize("auto", [True, False])
def test_auto_handicap_holds_the_winner_of_a_match_back_10_ms_next_match(auto, tmp_path):
    path = str(tmp_path / "nvm.bin")
    h = Hand(path, decks="5c 9d Jh 2s 7c / 5d Kc 3h 8s 4c 6c")
    s = h.app.settings
    s.index[settings_mod.KEYS.index("wins")] = 0  # a match of one game
    s.index[settings_mod.KEYS.index("auto")] = int(auto)
    h.app.settings_done(True)
    h.app.apply_settings()
    h.tap(RIGHT, 450)  # 2 PLAYERS; the cards are seen
    h.tap(key_named("A0"), 1500)  # A covers with the last card: A wins the match
    assert h.app.state == App.RESULT and h.app.match.game.match_winner == 0
    assert _handicap(h) == ("A 10MS" if auto else "EVEN")
    h.tap(key_named("A0"), 300)  # back to the menu
    h.tap(RIGHT)  # the next match is dealt with it
    g = h.app.match.game
    assert g.rules.handicap_ms == (10 if auto else 0) and g.deck_size(0) == g.deck_size(1)
    again = Hand(path)  # saved through power-off
    assert _handicap(again) == _handicap(h)


def test_auto_handicap_off_changes_nothing():
    s = settings_mod.Settings()
    assert not s.match_won(0) and not s.match_won(1) and _scale(s) == (0, 0)


def _scale(s):
    return s.value("handicap_ms"), s.value("handicap")


def test_the_cpu_setting_offers_each_level_of_the_computer_player():
    from engine.bot import LEVELS
    i = settings_mod.KEYS.index("level")
    assert settings_mod.FIELDS[i][1] == tuple(range(len(LEVELS)))
    assert lang_en.FIELDS[i][1] == tuple(lv[0] for lv in LEVELS)


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
    h = Hand(str(tmp_path / "nvm.bin"))
    assert h.app.stats.games == 1
    assert any("statistics: the newest saved record cannot be read; using an older one"
               in line for line in h.hw.console_lines), h.hw.console_lines


def test_a_new_language_is_spoken_after_the_settings_page_closes_and_the_handheld_restarts(
        tmp_path):
    from firmware import lang
    path = str(tmp_path / "nvm.bin")
    h = Hand(path)
    _open_settings(h)
    for _ in range(settings_mod.KEYS.index("language")):
        h.tap(DOWN)
    h.tap(RIGHT)  # ENGLISH -> FRANÇAIS: chosen, not spoken yet
    assert h.app.settings.language() == "fr" and lang.code == "en"
    assert "FRANÇAIS" in h.text(6) and not h.app.restarting
    h.tap(MENU)  # back: saved, and the handheld starts afresh in French
    assert h.app.restarting and h.hw.restarts == 1
    again = Hand(path)
    assert lang.code == "fr" and again.text(1) == "\x5d2 JOUEURS"


def test_settings_toml_presets_the_language_until_one_is_chosen(tmp_path):
    from firmware import lang
    h = Hand(settings={"CS_LANGUAGE": "pt"})
    assert lang.code == "pt" and h.app.settings.language() == "pt"
    assert "JOGADORES" in h.text(1)
    bad = Hand(settings={"CS_LANGUAGE": "klingon"})
    assert lang.code == "en"
    assert any("CS_LANGUAGE" in line for line in bad.hw.console_lines)


def test_the_error_screen_needs_nothing_of_the_glyph_kit(monkeypatch):
    """An error inside the app's own glyph kit still reaches the glass: the error screen
    is drawn with terminalio.FONT, and shows what the golden error screen shows."""
    from firmware import ui
    fault = ValueError("piles_per_row: must be an integer 3..6, not 9")  # the golden's

    def broken_kit(self):
        raise fault

    monkeypatch.setattr(ui.Kit, "__init__", broken_kit)
    glass = []

    def look_then_stop(hw):
        if hw.restarts == 1 and not glass:  # the error screen, after the restart
            glass.append(hw.oled.frame())
            hw.stop = True

    hw = run(virtual, seed=1, on_idle=look_then_stop)
    assert "California Speed stopped: %r" % (fault,) in hw.console_lines
    assert glass and glass[0] == scenes.golden("error"), scenes.frame_diff(glass[0],
                                                                            scenes.golden("error"))


def test_the_constant_indices_name_the_settings_they_stand_for():
    from firmware import menus
    assert menus._LEVEL == settings_mod.KEYS.index("level")
    assert settings_mod._HANDICAP == settings_mod.KEYS.index("handicap")
    assert settings_mod._MS == settings_mod.KEYS.index("handicap_ms")
