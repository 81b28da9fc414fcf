"""The handheld app through the virtual handheld: screens, bus bytes, keys, bad input."""

import pytest

import engine
from engine.ticks import TICKS_PERIOD, ticks_add, ticks_diff
from engine import Rules
from firmware import lang_en
from firmware.app import App
from hardware import pinmap, virtual
from hardware.keymap import DEBOUNCE_SCANS
from hardware.keynames import key_named
from tools import glass, measure, scenes
from tools.play import parse_decks

SCAN_MS = {s[0]: s[2] for s in pinmap.SETTINGS}["CS_KEY_INTERVAL_MS"]  # the default
_golden = scenes.golden
_diff = scenes.frame_diff


@pytest.mark.parametrize("name", scenes.names())
def test_main_screens_match_their_golden_images(name, tmp_path):
    hw = scenes.screen(name)
    frame = hw.oled.frame()
    want = _golden(name)
    if frame != want:
        hw.oled.to_png(str(tmp_path / (name + ".png")), scale=1)
        pytest.fail("%s differs from tests/golden/%s.png ('+' lit, '-' dark; actual saved in "
                    "%s; regenerate with python -m tools.scenes --write tests/golden):\n%s"
                    % (name, name, tmp_path, _diff(frame, want)))


def _app(decks=scenes.DECKS, rules=None, **kw):
    hw = virtual.init(seed=1, **kw)
    app = App(hw, rules or Rules(), decks=parse_decks(decks))
    return hw, app


def _in_match(decks=scenes.DECKS, **kw):
    """A handheld with a two-player match dealt at about 400 ms."""
    hw, app = _app(decks, **kw)
    hw.buttons.tap(key_named("A3"), hw.ms(400))  # RIGHT on "2 PLAYERS"
    _run_until(hw, app, 450)
    assert app.state == App.PLAY
    return hw, app


def _run_until(hw, app, ms):
    while hw.elapsed < ms:
        app.step()


def test_one_cover_costs_at_most_160_bytes_on_the_bus():
    cover = scenes.event_bytes("cover", 700)
    assert 0 < cover <= 160, cover


def test_a_screen_switch_costs_about_one_full_frame():
    full = scenes.event_bytes("deal", 400)
    assert 1000 <= full <= 1100, full


def test_nothing_is_sent_while_nothing_changes():
    hw, app = _in_match()
    _run_until(hw, app, 700)
    mark = hw.bus.mark()
    _run_until(hw, app, 950)
    assert hw.bus.since(mark).bytes_sent == 0


def test_a_key_press_is_handled_in_the_first_pass_after_the_scanner_reports_it():
    hw, app = _app()
    starts = []
    press_ms = [400, 600, 611, 740, 905, 1233]
    for ms in press_ms:
        hw.buttons.tap(key_named("AB"[ms % 2] + str(ms % 4)), hw.ms(ms), 30)
    handled = []
    while hw.elapsed < 1500:
        starts.append(hw.elapsed)
        before = app.presses
        app.step()
        handled += [app.passes - 1] * (app.presses - before)
    assert len(handled) == len(press_ms)
    for ms, pass_index in zip(press_ms, handled):
        # the scan that reports it: the first at or after the contact closes, plus the
        # scans of the debounce
        scan = -(-ms // SCAN_MS) * SCAN_MS + (DEBOUNCE_SCANS - 1) * SCAN_MS
        first = next(i for i, t in enumerate(starts) if t >= scan)
        assert pass_index == first, (ms, pass_index, first)


def test_presses_reach_the_engine_with_the_scanners_timestamps():
    hw, app = _app()
    hw.buttons.tap(key_named("A3"), hw.ms(400))
    _run_until(hw, app, 690)
    hw.buttons.tap(key_named("A0"), hw.ms(703))  # A covers pile 0: stamped by the debouncing scan
    _run_until(hw, app, 800)
    first = -(-703 // SCAN_MS) * SCAN_MS
    assert app.match.game.changed_at(0) == hw.ms(first + SCAN_MS * (DEBOUNCE_SCANS - 1))


def test_the_next_game_takes_the_result_and_its_messages_away():
    hw, app = _in_match(scenes.ONE_LEFT)  # A's last card covers pile 0
    hw.buttons.tap(key_named("A0"), hw.ms(700))
    _run_until(hw, app, 2000)
    assert app.state == App.RESULT and app.settled == 2  # saved, collected, tidied
    assert all(b.shown == 2 for b in app.table.banners)
    assert all(lang_en.NEXT in _line_text(hw, p) for p in range(2))
    hw.buttons.tap(key_named("A1"), hw.ms(2000))  # any key: the next game
    _run_until(hw, app, 2600)
    assert app.state == App.PLAY and not app.table.pending
    assert all(b.shown == 0 for b in app.table.banners)
    assert not any("ANY KEY" in _line_text(hw, p) for p in range(2))


def test_rules_with_more_piles_than_the_table_shows_are_refused():
    hw, app = _app(rules=Rules(piles_per_row=5))
    with pytest.raises(ValueError, match="shows at most 4 a row, not 5"):
        app.start_match(-1)


def test_a_bouncing_contact_is_one_press():
    """The scanner debounces over 2 scans 1 ms apart; a contact that opens for longer
    reports a release and a press again. A press that soon after its release is a bounce."""
    hw, app = _in_match()
    _run_until(hw, app, 700)
    t = hw.ms(700)
    hw.buttons.press(key_named("A0"), t)  # A covers pile 0 ...
    hw.buttons.release(key_named("A0"), ticks_add(t, 4))  # ... the contact opens for 4 ms ...
    hw.buttons.press(key_named("A0"), ticks_add(t, 8))
    hw.buttons.release(key_named("A0"), ticks_add(t, 90))
    before = app.presses
    _run_until(hw, app, 900)
    g = app.match.game
    assert (app.presses - before, app.bounces) == (1, 1)
    assert g.deck_size(0) == 1 and not g.locked(0, hw.clock.now)  # one cover, no foul
    hw.buttons.tap(key_named("A0"), hw.ms(930), 60)  # 30 ms after its release: a press, a foul
    _run_until(hw, app, 1000)
    assert app.presses - before == 2 and g.locked(0, hw.clock.now)


@pytest.mark.parametrize("keys", [False, True], ids=["idle", "with-key-events"])
def test_the_main_loop_allocates_nothing_net(keys):
    hw, app = _app(scenes.DECKS)
    hw.buttons.tap(key_named("A3"), hw.ms(400))  # RIGHT on "2 PLAYERS": into a match
    _run_until(hw, app, 300)
    net, where = measure.main_loop_allocation(hw, app, 1000, keys)
    assert app.state in (App.PLAY, App.RESULT)
    if keys:
        assert app.presses > 100
    assert net <= 0 and not where, where


def test_an_overflowed_event_queue_is_cleared_and_reported():
    hw, app = _in_match()
    for i in range(80):  # more events than the queue holds, between two passes
        hw.buttons.inject(1 + i % 3, i % 2 == 0, hw.clock.now)
    app.step()
    assert app.overflows == 1 and not hw.keys.events.overflowed
    assert "KEYS LOST" in _line_text(hw, 0)
    _run_until(hw, app, 3000)
    assert app.state in (App.PLAY, App.RESULT)  # play went on (the presses may end it)


def test_a_key_with_no_mapping_is_reported_and_ignored():
    hw, app = _in_match(key_count=20)
    _run_until(hw, app, 600)
    before = app.match.game.deck_cards(0), app.match.game.deck_cards(1)
    hw.buttons.tap(18, hw.clock.now)
    _run_until(hw, app, 800)
    assert app.unknown == 1
    assert (app.match.game.deck_cards(0), app.match.game.deck_cards(1)) == before
    assert "KEY ?" in _line_text(hw, 0)


def test_a_key_held_for_seconds_is_reported_until_released():
    hw, app = _app()
    hw.buttons.tap(key_named("A3"), hw.ms(400))
    _run_until(hw, app, 400)
    hw.buttons.press(key_named("Af1"), hw.ms(500))
    _run_until(hw, app, 3600)
    assert "KEY HELD" in _line_text(hw, 0)
    hw.buttons.release(key_named("Af1"), hw.clock.now)
    _run_until(hw, app, 3700)
    assert "KEY HELD" not in _line_text(hw, 0)


def test_a_display_that_does_not_answer_at_startup_is_reported_and_retried():
    hw = virtual.init(seed=1, display_answers_after=2)
    assert len(hw.console_lines) == 2
    assert "No display at I2C address 0x3c on SDA=GP4 SCL=GP5" in hw.console_lines[0]
    app = App(hw, Rules())
    app.step()
    assert hw.oled.initialized and any(hw.oled.frame())


def test_bad_settings_fall_back_to_defaults_and_say_which():
    bad = {"CS_I2C_HZ": 12345, "CS_KEYS_A": "GP1,GP2", "CS_MENU": "GP99",
           "CS_I2C_ADDRESS": "sixty", "CS_KEY_INTERVAL_MS": True}
    hw = virtual.init(seed=1, settings=bad)
    said = "\n".join(hw.console_lines)
    for key in bad:
        assert key in said
    assert hw.info["CS_I2C_HZ"] == 400000 and hw.info["CS_MENU"] == "GP14"
    assert hw.bus.frequency == 400000


def test_a_pin_used_twice_falls_back_to_the_default_pin_map():
    hw = virtual.init(seed=1, settings={"CS_MENU": "GP6"})
    assert "GP6 used twice" in "\n".join(hw.console_lines)
    assert hw.info["CS_MENU"] == "GP14"


def test_whatever_settings_toml_says_the_board_starts_and_says_what_it_ignored():
    from hardware import config, pinmap
    cases = [
        ({"CS_MENU": "A0"}, ["CS_MENU = 'A0' is not valid"]),  # GP26's other name: a key
        ({"CS_MENU": "board_id", "CS_PIEZO": "__name__"},
         ["CS_MENU = 'board_id' is not valid", "CS_PIEZO = '__name__' is not valid"]),
        # not a pair; and GP5, the default SCL, now carries a key: the fallback must not clash
        ({"CS_I2C_SDA": "GP4", "CS_I2C_SCL": "GP7",
          "CS_KEYS_A": "GP6,GP5,GP8,GP9,GP10,GP11,GP12,GP13"},
         ["SDA=GP4 SCL=GP7 are not a pair", "pin GP5 used twice; using the default pin map"]),
    ]
    for settings, expected in cases:
        hw = virtual.init(seed=1, settings=settings)
        said = "\n".join(hw.console_lines)
        for text in expected:
            assert text in said, (settings, said)
        assert len(hw.console_lines) == len(expected), said  # one line per ignored value
        pins = config.all_pins(hw.info)
        assert len(set(pins)) == len(pins) and pinmap.i2c_pair(hw.info["CS_I2C_SDA"],
                                                              hw.info["CS_I2C_SCL"])
        app = App(hw, Rules())
        app.step()
        assert hw.oled.initialized and any(hw.oled.frame())


def test_a_settings_file_the_board_cannot_read_takes_the_defaults():
    from hardware import config, pinmap
    said = []

    def broken(key):
        raise ValueError("Invalid byte '\\n'")  # what CircuitPython 10.0's getenv raised
    values = config.read(broken, lambda n: n if n in pinmap.GP_NAMES else None, said.append)
    assert values == {s[0]: s[2] for s in pinmap.SETTINGS}
    assert len(said) == len(pinmap.SETTINGS) and "cannot be read" in said[0]


def test_hardware_that_will_not_start_is_started_again(monkeypatch):
    from firmware import runner
    tries = []

    class Flaky:
        def init(self, **options):
            tries.append(1)
            if len(tries) < 3:
                raise RuntimeError("No pull up found on SDA or SCL; check your wiring")
            hw = virtual.init(seed=1)
            hw.stop = True
            return hw

        def restart(self):
            pass
    monkeypatch.setattr(runner.time, "sleep", lambda s: None)
    hw = runner.run(Flaky())
    assert len(tries) == 3 and hw.oled.initialized


def test_good_settings_are_used():
    hw = virtual.init(seed=1, settings={"CS_I2C_HZ": 1000000, "CS_PIEZO": "GP16"})
    assert hw.console_lines == []
    assert hw.bus.frequency == 1000000 and hw.info["CS_PIEZO"] == "GP16"


def test_a_whole_match_plays_through_the_keys():
    hw, app = _app("5c 9d Jh 2s 7c / 5d Kc 3h 8s 4c 6c")
    hw.buttons.tap(key_named("A3"), hw.ms(400))
    hw.buttons.tap(key_named("A0"), hw.ms(700))  # A covers with the last card: A wins game 1
    _run_until(hw, app, 2000)
    assert app.state == App.RESULT and app.match.game.wins == (1, 0)
    hw.buttons.tap(key_named("A0"), hw.ms(2000))  # next game
    _run_until(hw, app, 2300)
    assert app.state == App.PLAY and app.match.game.games == 2
    assert app.match.game.phase in (engine.PLAY, engine.STALL)


def test_sounds_follow_the_play():
    hw, app = _app()
    hw.buttons.tap(key_named("A3"), hw.ms(400))
    _run_until(hw, app, 690)
    hw.buttons.tap(key_named("A0"), hw.ms(700))
    _run_until(hw, app, 720)
    assert any(hz for t, hz in hw.buzzer.log if ticks_diff(t, hw.ms(700)) >= 0)
    _run_until(hw, app, 1000)
    assert hw.buzzer.hz == 0  # a sound ends by itself


def _line_text(hw, player):
    return glass.info(hw.oled.frame(), player)


def test_a_bus_that_will_not_start_is_reported_and_retried():
    # A missing or unpowered OLED takes SDA/SCL's pull-ups with it: CircuitPython then
    # refuses to open I2C at all. The handheld says so and tries again.
    hw = virtual.init(seed=1, i2c_fails=2)
    assert len(hw.console_lines) == 2
    assert "Cannot start I2C on SDA=GP4 SCL=GP5 (No pull up found" in hw.console_lines[0]
    assert "Is the display connected and powered?" in hw.console_lines[0]
    assert hw.oled.initialized


def test_numeric_settings_given_as_text_are_read():
    hw = virtual.init(seed=1, settings={"CS_I2C_ADDRESS": "0x3C", "CS_I2C_HZ": "1000000",
                                        "CS_KEY_INTERVAL_MS": " 10 "})
    assert hw.console_lines == []
    assert hw.bus.frequency == 1000000 and hw.info["CS_KEY_INTERVAL_MS"] == 10


def test_an_i2c_clock_that_is_not_one_of_the_choices_falls_back():
    hw = virtual.init(seed=1, settings={"CS_I2C_HZ": 250000, "CS_I2C_ADDRESS": "fast"})
    said = "\n".join(hw.console_lines)
    assert "CS_I2C_HZ = 250000 is not valid" in said and "CS_I2C_ADDRESS = 'fast'" in said
    assert hw.bus.frequency == 400000


# ---- the board's clock: ticks_ms starts at 0x1FFF0000 and wraps 65.5 s after power-on ----

def test_the_desktop_clock_starts_where_the_boards_does():
    hw = virtual.init(seed=1)
    assert hw.ticks_ms() == 0x1FFF0000 == virtual.BOOT_TICKS
    assert virtual.init(seed=1, start_ms=5).ticks_ms() == 5  # a start of your own


def test_a_game_across_the_wrap_keeps_its_true_length_and_cover_time():
    # The match starts 100 ms before the clock wraps and A wins 300 ms later, after it.
    hw, app = _app("5c 9d Jh 2s 7c / 5d Kc 3h 8s 4c 6c", start_ms=TICKS_PERIOD - 500)
    hw.buttons.tap(key_named("A3"), hw.ms(400))
    hw.buttons.tap(key_named("A0"), hw.ms(700))  # A covers with the last card: A wins
    _run_until(hw, app, 2000)
    assert app.state == App.RESULT and app.match.game.wins == (1, 0)
    assert app.match.game.ended_at < app.match.game.started_at  # the clock wrapped between
    assert 250 <= app.stats.fastest_win_ms <= 400, app.stats.fastest_win_ms
    assert app.stats.covers == 1 and 0 < app.stats.average_cover_ms() < 400


def test_keys_are_not_taken_as_held_at_power_up_days_later():
    hw, app = _app()
    _run_until(hw, app, 1000)  # the power-up window (300 ms) is long closed
    for _ in range(3):  # the handheld was left on for 112 hours (1.5 * 2**28 ms)
        hw.clock.advance(1 << 27)
        len(hw.keys.events)  # the scanner goes on scanning
    hw.feed()
    hw.buttons.tap(key_named("A3"), ticks_add(hw.clock.now, 50))  # RIGHT on "2 PLAYERS"
    _run_until(hw, app, hw.elapsed + 300)
    assert app.state == App.PLAY
    assert not [ln for ln in hw.console_lines if "down at power-up" in ln]
