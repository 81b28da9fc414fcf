"""The handheld app through the virtual handheld: screens, bus bytes, keys, bad input."""

import pytest

from engine.ticks import TICKS_PERIOD, ticks_diff
from engine import Rules
from firmware import lang_en, sound
from handheld import A, B, BOOTED, PAUSE_HOLD, RESULT_GUARD, Hand
from hardware import pinmap
from twins.desktop import virtual
from hardware.keymap import DEBOUNCE_SCANS
from twins.desktop import glass, scenes
from lab import measure

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
        pytest.fail("%s differs from tests/firmware/golden/%s.png ('+' lit, '-' dark; actual saved in "
                    "%s; regenerate with python -m twins.desktop.scenes --write tests/firmware/golden):\n%s"
                    % (name, name, tmp_path, _diff(frame, want)))


def _hand(decks=scenes.DECKS, rules=None, **options):
    """A handheld with the rules' defaults and stacked decks for its first match."""
    return Hand(decks=decks, rules=rules or Rules(), **options)


def _in_match(decks=scenes.DECKS, **options):
    """A handheld with a two-player match dealt at about 400 ms."""
    h = _hand(decks, **options)
    h.tap("A3", at=400)  # RIGHT on "2 PLAYERS"
    assert h.screen == "play"
    return h


def _stamp(ms):
    """When the scanner reports a contact closed at ms: the first scan at or after it,
    plus the scans of the debounce."""
    return -(-ms // SCAN_MS) * SCAN_MS + (DEBOUNCE_SCANS - 1) * SCAN_MS


def _started(h, name):
    """The times (ms since power-on) the buzzer started a sound's first note."""
    first = sound._HZ[getattr(sound, name)[0]]
    return [ticks_diff(t, h.hw.ms(0)) for t, hz in h.hw.buzzer.log if hz == first]


def test_one_cover_costs_at_most_160_bytes_on_the_bus():
    cover = scenes.event_bytes("cover", 700)
    assert 0 < cover <= 160, cover


def test_a_screen_switch_costs_about_one_full_frame():
    full = scenes.event_bytes("deal", 400)  # (and a new handheld's hints: two marks)
    assert 1000 <= full <= 1130, full


def test_nothing_is_sent_while_nothing_changes():
    h = _in_match()
    h.run_until(700)
    mark = h.hw.bus.mark()
    h.run_until(950)
    assert h.hw.bus.since(mark).bytes_sent == 0


def test_a_key_press_is_heard_in_the_first_pass_after_the_scanner_reports_it():
    h = _hand()
    passes = []  # when each main-loop pass ran
    h.watch(lambda h: passes.append(h.now))
    press_ms = [400, 600, 611, 740, 905, 1233]  # in the menus and HOW TO PLAY: each clicks
    for ms in press_ms:
        key = "AB"[ms % 2] + str(ms % 4)
        h.press(key, ms)
        h.release(key, ms + 30)
    h.run_until(1500)
    clicks = _started(h, "KEY")  # a click starts in the pass that handles its press
    assert len(clicks) == len(press_ms), clicks
    for ms, heard in zip(press_ms, clicks):
        first = next(t for t in passes if t >= _stamp(ms))
        assert heard == first, (ms, heard, first)


@pytest.mark.parametrize("a_ms,b_after,says", [(701, 149, "TOO LATE"), (702, 150, "FOUL!")])
def test_a_press_is_late_by_the_scanners_clock_not_by_the_passes_that_read_it(a_ms, b_after,
                                                                              says):
    """B presses the pile A has just covered: within collision_ms (150) of A's press, as
    the scanner timed both, it is TOO LATE; from then on it is a press on the 7c A put
    there, which nothing matches: a foul. The main loop read each press a little after the
    scanner reported it, and by the passes that did the verdict would be the other one."""
    h = _hand()
    h.tap("A3", at=400)
    h.run_until(690)
    h.press("A0", a_ms)  # A covers the 5c with the 7c
    h.release("A0", a_ms + 60)
    h.press("Bf3", a_ms + b_after)  # B's far key on A's pile 0
    h.release("Bf3", a_ms + b_after + 60)
    h.run_until(900)
    assert h.piles[0] == "7c" and h.message(B) == says
    passes_apart = (_started(h, "COLLISION") + _started(h, "FOUL"))[-1] - \
        _started(h, "COVER_A")[-1]  # each sound starts in the pass that read its press
    assert (passes_apart < Rules().collision_ms) == (says != "TOO LATE"), passes_apart


def test_the_next_game_takes_the_result_and_its_messages_away():
    h = _in_match(scenes.ONE_LEFT)  # A's last card covers pile 0
    writes = h.hw.flash.writes
    h.tap("A0", at=700)
    h.run_until(2000)
    assert h.screen == "result" and (h.banner(A), h.banner(B)) == ("YOU WIN!", "YOU LOSE")
    assert h.hw.flash.writes > writes  # the game saved while its result shows
    assert all(lang_en.NEXT in h.info(p) for p in (A, B))
    h.tap("A1", at=2000)  # any key: the next game
    h.run_until(2600)
    assert h.screen == "play" and (h.banner(A), h.banner(B)) == (None, None)
    assert not any("ANY KEY" in h.info(p) for p in (A, B))
    assert len(h.piles) == 8 and all(h.piles) and glass.UNREADABLE not in "".join(h.piles)


def test_a_bouncing_contact_is_one_press():
    """The scanner debounces over 2 scans 1 ms apart; a contact that opens for longer
    reports a release and a press again. A press that soon after its release is a bounce."""
    h = _in_match()
    h.run_until(690)
    h.heard()
    h.press("A0", 700)  # A covers pile 0 ...
    h.release("A0", 704)  # ... the contact opens for 4 ms ...
    h.press("A0", 708)
    h.release("A0", 790)
    h.run_until(900)
    assert h.heard() == ["COVER_A"] and h.cards(A) == 1  # one cover, and no foul after it
    assert h.piles[0] == "7c" and h.message(A) == ""
    h.tap("A0", at=930)  # long after its release: a press, on the 7c: a foul
    assert h.heard() == ["FOUL"] and h.message(A) == "FOUL!"


@pytest.mark.parametrize("keys", [False, True], ids=["idle", "with-key-events"])
def test_the_main_loop_allocates_nothing_net(keys):
    h = _hand(scenes.DECKS)
    h.press("A3", 400)  # RIGHT on "2 PLAYERS": into a match
    h.release("A3", 460)
    h.run_until(300)
    # (the tool counts what the app object holds: it is handed the app Hand built)
    net, where = measure.main_loop_allocation(h.hw, h.app, 1000, keys)
    assert h.screen in ("play", "result")
    heard = h.heard()
    assert "DEAL" in heard
    if keys:  # the keys were played: covers, fouls, too-lates
        assert len([s for s in heard if s in ("COVER_A", "COVER_B", "FOUL", "COLLISION")]) > 5
    assert net <= 0 and not where, where


def test_an_overflowed_event_queue_is_cleared_and_reported():
    h = _in_match()
    for i in range(80):  # more events than the queue holds, between two passes
        h.hw.buttons.inject(1 + i % 3, i % 2 == 0, h.hw.clock.now)
    h.next_pass()
    assert not h.hw.keys.events.overflowed  # the app cleared it
    assert "KEYS LOST" in h.info(A)
    h.run_until(3000)
    assert h.screen in ("play", "result")  # play went on (the presses may end it)


def test_a_key_with_no_mapping_is_reported_and_ignored():
    h = _in_match(key_count=20)
    h.run_until(600)
    before = h.cards(A), h.cards(B), h.piles
    h.heard()
    h.tap(18)  # a key number the key map does not know
    h.run_until(800)
    assert "KEY ?" in h.info(A)
    assert (h.cards(A), h.cards(B), h.piles) == before and h.heard() == []


def test_a_key_held_for_seconds_is_reported_until_released():
    h = _in_match()
    h.press("Af1")  # (at 560 ms)
    h.run_until(3600)
    assert "KEY HELD" in h.info(A)
    h.release("Af1")
    h.run_until(3700)
    assert "KEY HELD" not in h.info(A)


def test_a_display_that_does_not_answer_at_startup_is_reported_and_retried():
    hw = virtual.init(seed=1, display_answers_after=2)
    assert len(hw.console_lines) == 2
    assert "No display at I2C address 0x3c on SDA=GP4 SCL=GP5" in hw.console_lines[0]
    h = _hand(display_answers_after=2)  # the same handheld, its app started
    h.next_pass()
    assert h.hw.oled.initialized and h.screen == "menu"


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
        h = _hand(settings=settings)  # the same handheld, its app started
        h.next_pass()
        assert h.hw.oled.initialized and h.screen == "menu"


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


def test_a_whole_game_plays_through_the_keys_and_the_next_is_dealt():
    h = _in_match("5c 9d Jh 2s 7c / 5d Kc 3h 8s 4c 6c")
    h.tap("A0", at=700)  # A covers with the last card: A wins game 1
    h.run_until(2000)
    assert h.screen == "result" and h.banner(A) == "YOU WIN!"
    assert h.info(A).endswith("\u25cf\u25cb") and h.info(B).endswith("\u25cb\u25cb")  # 1-0
    h.tap("A0", at=2000)  # next game
    h.run_until(2300)
    assert h.screen == "play" and h.info(A).endswith("\u25cf\u25cb")  # game 2 of the match
    assert all(h.piles) and h.cards(A) == h.cards(B) == 22  # dealt afresh


def test_sounds_follow_the_play():
    h = _in_match()
    h.run_until(690)
    h.press("A0", 700)
    h.release("A0", 760)
    h.run_until(720)
    assert any(hz for t, hz in h.hw.buzzer.log if ticks_diff(t, h.hw.ms(700)) >= 0)
    h.run_until(1000)
    assert h.hw.buzzer.hz == 0  # a sound ends by itself


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
    h = _in_match("5c 9d Jh 2s 7c / 5d Kc 3h 8s 4c 6c", start_ms=TICKS_PERIOD - 500)
    assert h.hw.ms(700) < h.hw.ms(400)  # the clock wraps between the deal and the win
    h.tap("A0", at=700)  # A covers with the last card: A wins
    h.run_until(2000)
    assert h.screen == "result" and h.banner(A) == "YOU WIN!"
    h.hold("MENU", PAUSE_HOLD, at=2000 + RESULT_GUARD)  # the next game, paused
    h.choose("QUIT MATCH")
    h.choose("STATISTICS")
    st = h.items()
    assert 0.2 <= _seconds(st["FASTEST WIN"]) <= 0.4, st  # 250-400 ms, in tenths
    assert 0.0 <= _seconds(st["AVG COVER"]) <= 0.3, st  # the one cover: 0 < it < 400 ms


def _seconds(shown):
    """'0.3 S' as 0.3; '-' (nothing to show) is no number."""
    return float(shown.split()[0])


def test_keys_are_not_taken_as_held_at_power_up_days_later():
    h = _hand()
    h.run_until(1000)  # the power-up window (300 ms) is long closed
    for _ in range(3):  # the handheld was left on for 112 hours (1.5 * 2**28 ms)
        h.hw.clock.advance(1 << 27)
        len(h.hw.keys.events)  # the scanner goes on scanning
    h.hw.feed()
    h.tap("A3", at=h.now + 50)  # RIGHT on "2 PLAYERS"
    h.run(150)
    assert h.screen == "play"
    assert not [ln for ln in h.console if "down at power-up" in ln]


# ---- PILES by build (issue 25): what the keys can press ----

_MATRIX = {"CS_KEYS": "matrix"}  # settings.toml of a matrix build (6 keys a row)


def _piles_offered(h):
    """The PILES line's values, stepped with RIGHT from its default back round to it."""
    h.choose("SETTINGS")
    h.set("PILES", "4 A ROW")
    shown = ["4 A ROW"]
    for _ in range(4):
        h.tap("A3")
        if h.arrowed()[1] == "4 A ROW":
            return shown
        shown.append(h.arrowed()[1])
    raise AssertionError("PILES does not come round: %r" % shown)


def test_the_settings_offer_the_piles_the_build_can_press():
    assert _piles_offered(_hand()) == ["4 A ROW", "3 A ROW"]  # direct: 4 keys a row
    assert _piles_offered(_hand(settings=_MATRIX)) == ["4 A ROW", "3 A ROW", "6 A ROW"]


def test_a_saved_6_read_on_a_direct_build_plays_4_says_so_once_and_keeps_the_rest(tmp_path):
    nvm = str(tmp_path / "nvm.bin")
    h = _hand(nvm=nvm, settings=_MATRIX)
    h.choose("SETTINGS")
    h.set("PILES", "6 A ROW")
    h.set("LOCKOUT", "200 MS")
    h.tap("MENU")  # back: saved
    direct = _hand(nvm=nvm)  # the same memory, the keys rewired a pin each
    direct.run_until(BOOTED)
    said = [line for line in direct.console if "PILES" in line]
    assert said == ['settings: PILES 6 needs the matrix build (CS_KEYS = "matrix"); '
                    "playing 4"]
    assert not [line for line in direct.console if "out of range" in line]
    direct.choose("SETTINGS")
    items = direct.items()
    assert (items["PILES"], items["LOCKOUT"]) == ("4 A ROW", "200 MS")
    direct.tap("MENU")
    direct.choose("2 PLAYERS")
    direct.run(500)
    assert glass.piles_per_row(direct.glass) == 4
    again = _hand(nvm=nvm, settings=_MATRIX)  # back on the matrix build: its 6 again
    again.choose("SETTINGS")
    assert again.items()["PILES"] == "6 A ROW"


def test_a_saved_piles_index_means_the_same_on_either_build():
    from firmware.settings import KEYS, Settings
    from hardware.seats import PILE_CHOICES
    direct, matrix = PILE_CHOICES
    assert matrix[:len(direct)] == direct  # the direct build's records read as they were
    at = 1 + KEYS.index("piles")  # the record: a version byte, then an index a setting
    for build, value, index in (("direct", 4, 0), ("direct", 3, 1), ("matrix", 4, 0),
                                ("matrix", 3, 1), ("matrix", 6, 2)):
        s = Settings("en", build)
        s.choose("piles", value)
        assert s.encode()[at] == index and s.rules().piles_per_row == value
    with pytest.raises(ValueError):
        Settings("en", "direct").choose("piles", 6)  # no key to press a 6th pile with
