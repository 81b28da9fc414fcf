"""The desktop keypad twin behaves like CircuitPython's keypad.Keys and EventQueue."""
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from engine.ticks import TICKS_PERIOD, ticks_add, ticks_diff
from twins.desktop.keypad import (Buttons, Event, SimClock, VirtualKeyMatrix,
                                     VirtualKeys, load_script)


def drain(buttons):
    """Every queued event as (key_number, pressed, timestamp)."""
    out = []
    e = Event()
    while buttons.keys.events.get_into(e):
        out.append((e.key_number, e.pressed, e.timestamp))
    return out


# -- Event and EventQueue ------------------------------------------------------------

def test_event_defaults_equality_and_hash_ignore_the_timestamp():
    e = Event()
    assert (e.key_number, e.pressed, e.released) == (0, True, False)
    assert isinstance(e.timestamp, int) and 0 <= e.timestamp < TICKS_PERIOD
    a, b = Event(3, False, 10), Event(3, False, 999)
    assert a == b and hash(a) == hash(b) and a != Event(3, True, 10) and a != Event(4, False)
    assert a.released and not a.pressed
    assert repr(a) == "<Event: key_number 3 released>"
    with pytest.raises(AttributeError):
        a.pressed = True  # read-only, as on the board


def test_get_into_fills_the_given_event_in_place_and_leaves_it_alone_when_empty():
    buttons = Buttons(4)
    buttons.tap(2, 12, hold_ms=20)
    buttons.scan_until(100)
    e = Event(0, True, 0)
    ident = id(e)
    assert buttons.keys.events.get_into(e) is True
    assert id(e) == ident
    assert (e.key_number, e.pressed, e.released, e.timestamp) == (2, True, False, 15)
    assert buttons.keys.events.get_into(e) is True
    assert (e.key_number, e.pressed, e.released, e.timestamp) == (2, False, True, 35)
    assert buttons.keys.events.get_into(e) is False
    assert (e.key_number, e.pressed, e.timestamp) == (2, False, 35)
    with pytest.raises(TypeError):
        buttons.keys.events.get_into((0, True))


def test_get_returns_new_events_then_none_and_len_bool_follow_the_queue():
    buttons = Buttons(2)
    q = buttons.keys.events
    assert q.get() is None and not q and len(q) == 0
    buttons.press(1, 3)
    buttons.scan_until(5)
    assert q and len(q) == 1
    assert q.get() == Event(1, True)
    assert q.get() is None


# -- scanning --------------------------------------------------------------------------

def test_events_within_one_scan_come_in_key_number_order():
    buttons = Buttons(5, interval_ms=10)
    buttons.press(3, 11)
    buttons.press(1, 14)
    buttons.press(4, 17)
    buttons.press(0, 20)  # exactly at a scan's time: seen by that scan
    buttons.scan_until(20)
    assert drain(buttons) == [(0, True, 20), (1, True, 20), (3, True, 20), (4, True, 20)]


def test_timestamps_are_scan_times_quantised_to_the_interval_from_the_start():
    buttons = Buttons(1, interval_ms=5, start_ms=1002)
    for at in (1003, 1021, 1040, 1057):
        buttons.set_key(0, at in (1003, 1040), at)
    buttons.scan_until(1100)
    assert drain(buttons) == [(0, True, 1007), (0, False, 1022), (0, True, 1042),
                              (0, False, 1057)]
    assert buttons.last_scan_ms == 1097 and buttons.next_scan_ms == 1102


def test_nothing_is_scanned_beyond_now():
    buttons = Buttons(1)
    buttons.press(0, 1)
    buttons.scan_until(4)
    assert drain(buttons) == []
    buttons.scan_until(5)
    assert drain(buttons) == [(0, True, 5)]


def test_debounce_threshold_1_reports_at_the_first_scan_3_after_three():
    fast, slow = Buttons(1, debounce_threshold=1), Buttons(1, debounce_threshold=3)
    for buttons in (fast, slow):
        buttons.press(0, 12)
        buttons.release(0, 52)
        buttons.scan_until(200)
    assert drain(fast) == [(0, True, 15), (0, False, 55)]
    assert drain(slow) == [(0, True, 25), (0, False, 65)]


def test_a_press_shorter_than_the_threshold_is_filtered_out():
    buttons = Buttons(1, debounce_threshold=3)
    buttons.tap(0, 12, hold_ms=12)  # seen by the scans at 15 and 20 only
    buttons.scan_until(200)
    assert drain(buttons) == []


def test_debounce_integrates_a_flickering_contact_rather_than_counting_a_run():
    # CircuitPython's counter: down, down, up, down, down -> -3 -2 -1 -2 -1 0: pressed.
    buttons = Buttons(1, debounce_threshold=3)
    buttons.scan_until(100)  # settle: released
    buttons.press(0, 101)
    buttons.release(0, 111)
    buttons.press(0, 116)
    buttons.scan_until(200)
    assert drain(buttons) == [(0, True, 125)]


def test_a_tap_shorter_than_the_interval_between_two_scans_is_missed():
    buttons = Buttons(1, interval_ms=20)
    buttons.tap(0, 21, hold_ms=15)  # down 21..36, scans at 20 and 40
    buttons.tap(0, 55, hold_ms=15)  # down 55..70, the scan at 60 sees it
    buttons.scan_until(200)
    assert drain(buttons) == [(0, True, 60), (0, False, 80)]


def test_keys_held_when_the_scanner_starts_are_not_reported_until_reset():
    clock = SimClock(500)
    buttons = Buttons(3, clock=clock)
    buttons.press(0, 500)
    buttons.press(2, 500)
    clock.advance(50)
    assert drain(buttons) == []
    buttons.keys.reset()
    assert drain(buttons) == [(0, True, 550), (2, True, 550)]
    clock.advance(7)
    buttons.release(0, 557)
    clock.advance(3)
    assert drain(buttons) == [(0, False, 560)]  # the scan grid restarted at the reset


def test_reset_rereports_held_keys_after_the_debounce_threshold():
    buttons = Buttons(2, debounce_threshold=2)
    buttons.scan_until(10)
    buttons.press(1, 11)
    buttons.scan_until(100)
    assert drain(buttons) == [(1, True, 20)]
    buttons.reset(at_ms=103)
    assert drain(buttons) == []
    buttons.scan_until(108)
    assert drain(buttons) == [(1, True, 108)]
    buttons.keys.reset()  # no clock: at the last scan's time
    buttons.scan_until(113)
    assert drain(buttons) == [(1, True, 113)]


def test_overflow_drops_the_newest_sets_overflowed_and_clear_resets_it():
    buttons = Buttons(4, max_events=3)
    for k in range(4):
        buttons.press(k, 1)
    buttons.release(0, 6)
    buttons.scan_until(10)
    q = buttons.keys.events
    assert q.overflowed and len(q) == 3
    assert drain(buttons) == [(0, True, 5), (1, True, 5), (2, True, 5)]
    assert q.overflowed  # getting events does not reset it
    buttons.release(1, 11)
    buttons.scan_until(15)
    assert drain(buttons) == [(1, False, 15)]  # key 3's press and key 0's release are lost
    assert q.overflowed
    q.clear()
    assert not q.overflowed and len(q) == 0


def test_clear_drops_queued_events():
    buttons = Buttons(2)
    buttons.press(0, 1)
    buttons.scan_until(5)
    buttons.keys.events.clear()
    assert drain(buttons) == []


def test_ticks_wrap_timestamps_wrap_and_order_is_kept():
    start = TICKS_PERIOD - 12
    clock = SimClock(start)
    buttons = Buttons(2, clock=clock)
    buttons.press(0, TICKS_PERIOD - 4)
    buttons.press(1, 1)
    buttons.release(0, 3)
    buttons.release(1, 9)
    clock.advance(30)
    got = drain(buttons)
    assert got == [(0, True, TICKS_PERIOD - 2), (0, False, 3), (1, True, 3), (1, False, 13)]
    assert all(ticks_diff(b[2], a[2]) >= 0 for a, b in zip(got, got[1:]))


def test_the_clock_drives_a_queue_the_firmware_holds_on_to():
    clock = SimClock()
    buttons = Buttons(17, clock=clock)
    q, e = buttons.keys.events, Event()
    buttons.tap(16, 3, hold_ms=40)
    assert not q.get_into(e)
    clock.advance(5)
    assert q.get_into(e) and (e.key_number, e.pressed, e.timestamp) == (16, True, 5)
    clock.advance(40)
    assert q.get_into(e) and (e.key_number, e.released, e.timestamp) == (16, True, 45)


def test_long_idle_spans_are_skipped_quickly():
    clock = SimClock()
    buttons = Buttons(17, interval_ms=1, clock=clock)
    buttons.tap(5, 10_000_000, hold_ms=3)
    clock.advance(20_000_000)
    assert drain(buttons) == [(5, True, 10_000_000), (5, False, 10_000_003)]


def test_bad_arguments_raise():
    buttons = Buttons(17)
    for k in (-1, 17, 1.0, None):
        with pytest.raises(ValueError):
            buttons.set_key(k, True, 0)
    with pytest.raises(ValueError):
        buttons.press(0)  # no clock: a time is needed
    with pytest.raises(ValueError):
        buttons.press(0, TICKS_PERIOD)
    buttons.scan_until(50)
    with pytest.raises(ValueError):
        buttons.press(0, 49)  # before the last scan
    buttons.press(0, 50)  # at the last scan: seen by the next one
    buttons.scan_until(55)
    assert drain(buttons) == [(0, True, 55)]
    for bad in (dict(key_count=0), dict(key_count=1, interval_ms=0),
                dict(key_count=1, debounce_threshold=0), dict(key_count=1, max_events=0),
                dict(key_count=1, debounce_threshold=128)):
        with pytest.raises(ValueError):
            Buttons(**bad)
    for pins, options in (((), {}), ((0,), dict(interval=0.0001)),
                          ((0,), dict(debounce_threshold=128)), ((0,), dict(max_events=0))):
        with pytest.raises(ValueError):
            VirtualKeys(pins, value_when_pressed=False, **options)
    with pytest.raises(ValueError):
        SimClock().advance(-1)


def test_a_key_with_no_mapping_can_be_injected():
    buttons = Buttons(17, max_events=2)
    buttons.scan_until(20)
    assert buttons.inject(40, True) is True
    assert buttons.inject(16, False, at_ms=7) is True
    assert buttons.inject(1, True) is False and buttons.keys.events.overflowed
    assert drain(buttons) == [(40, True, 20), (16, False, 7)]


def test_deinit_makes_the_scanner_unusable():
    buttons = Buttons(2)
    with buttons.keys as keys:
        assert keys.key_count == 2
    for use in (lambda: keys.events, lambda: keys.key_count, keys.reset,
                lambda: buttons.press(0, 1), lambda: buttons.scan_until(10)):
        with pytest.raises(ValueError):
            use()


# -- scripts ---------------------------------------------------------------------------

SCRIPT = """
# a round of play
0 A0 down
  40 A0 up   # released
100 3 tap
200 MENU tap 15

250 16 down
"""


def test_a_script_parses_into_timed_contact_changes():
    events = load_script(SCRIPT, names={"A0": 0, "MENU": 16})
    assert events == [(0, 0, True), (40, 0, False), (100, 3, True), (180, 3, False),
                      (200, 16, True), (215, 16, False), (250, 16, True)]
    buttons = Buttons(17, start_ms=TICKS_PERIOD - 100)
    buttons.schedule(events, offset_ms=TICKS_PERIOD - 99)
    buttons.scan_until(ticks_add(TICKS_PERIOD - 99, 300))
    got = [(k, p, ticks_diff(t, TICKS_PERIOD - 100)) for k, p, t in drain(buttons)]
    assert got == [(0, True, 5), (0, False, 45), (3, True, 105), (3, False, 185),
                   (16, True, 205), (16, False, 220), (16, True, 255)]


def test_an_empty_script_is_no_events():
    assert load_script("\n  # nothing\n\n") == []


@pytest.mark.parametrize("line, reason", [
    ("10 0", "expected"),
    ("10 0 down extra", "expected"),
    ("x 0 down", "time 'x'"),
    ("-5 0 down", "time '-5'"),
    ("10 NOPE down", "unknown key name 'NOPE'"),
    ("10 0 press", "action 'press'"),
    ("10 0 tap 0", "hold '0'"),
    ("10 0 tap fast", "hold 'fast'"),
])
def test_a_bad_script_line_names_its_line_number_and_the_reason(line, reason):
    with pytest.raises(ValueError) as err:
        load_script("# header\n\n0 0 down\n" + line + "\n", names={"MENU": 16})
    assert str(err.value).startswith("line 4: ") and reason in str(err.value)


def test_key_names_need_a_mapping():
    with pytest.raises(ValueError, match="line 1: key 'MENU' is not a number"):
        load_script("0 MENU down")


def test_schedule_checks_every_event_before_scheduling_any():
    buttons = Buttons(4)
    with pytest.raises(ValueError):
        buttons.schedule([(10, 0, True), (20, 4, True)])
    buttons.scan_until(100)
    assert drain(buttons) == []


# -- property ---------------------------------------------------------------------------

@st.composite
def scenarios(draw):
    interval = draw(st.sampled_from([1, 5, 10]))
    threshold = draw(st.integers(1, 3))
    n = draw(st.integers(1, 5))
    start = draw(st.one_of(st.integers(0, 1000),
                           st.integers(TICKS_PERIOD - 3000, TICKS_PERIOD - 1)))
    least = interval * threshold  # shorter holds or gaps may be filtered out
    plans = []
    for _ in range(n):  # each key: press, release, press, ... ending released
        t = draw(st.integers(1, 200))  # after the start: keys held at the start are not reported
        times = []
        for _ in range(draw(st.integers(0, 4))):
            hold, gap = draw(st.integers(least, least + 60)), draw(st.integers(least, least + 60))
            times += [t, t + hold]
            t += hold + gap
        plans.append(times)
    steps = draw(st.lists(st.integers(0, 2 * interval), min_size=1, max_size=400))
    return interval, threshold, start, plans, steps


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_clean_presses_come_out_as_alternating_presses_and_releases_in_time_order(sc):
    interval, threshold, start, plans, steps = sc
    clock = SimClock(start)
    buttons = Buttons(len(plans), interval_ms=interval, debounce_threshold=threshold,
                      max_events=64, clock=clock)
    for key, times in enumerate(plans):
        for i, t in enumerate(times):
            buttons.set_key(key, i % 2 == 0, ticks_add(start, t))
    got, e = [], Event()
    end = max((ts[-1] for ts in plans if ts), default=0) + interval * (threshold + 1)
    elapsed = 0
    for dt in steps + [end]:
        clock.advance(dt)
        elapsed += dt
        while buttons.keys.events.get_into(e):
            got.append((e.key_number, e.pressed, e.timestamp))
        if elapsed > end:
            break
    assert not buttons.keys.events.overflowed
    assert all(ticks_diff(b[2], a[2]) >= 0 for a, b in zip(got, got[1:]))
    for key, times in enumerate(plans):
        mine = [(p, ticks_diff(t, start)) for k, p, t in got if k == key]
        assert [p for p, _ in mine] == [i % 2 == 0 for i in range(len(times))]
        for (p, seen), change in zip(mine, times):
            assert 0 <= seen - change < interval * threshold
            assert seen % interval == 0


# -- the key matrix (keypad.KeyMatrix: shared-module/keypad/KeyMatrix.c) ---------------------

ROWS, COLUMNS = ("GP6", "GP7", "GP8", "GP9"), ("GP16", "GP17", "GP18", "GP19", "GP20", "GP21")


def matrix(clock=None, interval_ms=5, debounce_threshold=1, max_events=64, menu=False):
    """The matrix build's scanners: a 4 x 6 KeyMatrix (keys 0-23) and, with menu, MENU's
    own Keys (key 24), on one driver."""
    scanners = [VirtualKeyMatrix(ROWS, COLUMNS, interval=interval_ms / 1000,
                                 max_events=max_events, debounce_threshold=debounce_threshold)]
    if menu:
        scanners.append(VirtualKeys(("GP14",), value_when_pressed=False,
                                    interval=interval_ms / 1000, max_events=8,
                                    debounce_threshold=debounce_threshold))
    return Buttons.wired(scanners, clock=clock)


def drain_all(buttons):
    """Every queued event of every scanner, as (driver key number, pressed, timestamp)."""
    out = []
    e = Event()
    for scanner, first in zip(buttons.scanners, (0, 24)):
        while scanner.events.get_into(e):
            out.append((first + e.key_number, e.pressed, e.timestamp))
    return out


def test_a_key_number_is_its_row_times_the_columns_plus_its_column():
    keys = matrix().keys
    assert keys.key_count == 24
    assert keys.row_column_to_key_number(0, 0) == 0
    assert keys.row_column_to_key_number(2, 5) == 17
    assert keys.key_number_to_row_column(17) == (2, 5)
    assert [keys.key_number_to_row_column(k) for k in range(24)] == \
        [(r, c) for r in range(4) for c in range(6)]
    # The board's range checks take the count itself (mp_arg_validate_int_range is
    # inclusive): key 24 is "row 4, column 0", and row 4 or column 6 pass.
    assert keys.key_number_to_row_column(24) == (4, 0)
    assert keys.row_column_to_key_number(4, 6) == 30
    for bad in (lambda: keys.key_number_to_row_column(25),
                lambda: keys.key_number_to_row_column(-1),
                lambda: keys.row_column_to_key_number(5, 0),
                lambda: keys.row_column_to_key_number(0, 7)):
        with pytest.raises(ValueError):
            bad()
    with pytest.raises(TypeError):
        keys.key_number_to_row_column("3")


def test_a_scan_reads_a_row_at_a_time_and_queues_in_key_number_order():
    buttons = matrix(interval_ms=10)
    for key, at in ((23, 11), (6, 14), (5, 17), (0, 20), (12, 19)):  # 20: that scan's own
        buttons.press(key, at)
    buttons.scan_until(20)
    assert drain_all(buttons) == [(0, True, 20), (5, True, 20), (6, True, 20), (12, True, 20),
                                  (23, True, 20)]
    buttons.release(6, 21)
    buttons.release(5, 29)
    buttons.scan_until(40)
    assert drain_all(buttons) == [(5, False, 30), (6, False, 30)]


def test_the_matrix_debounces_with_the_boards_integrator():
    buttons = matrix(debounce_threshold=3)
    buttons.scan_until(100)
    buttons.press(7, 101)
    buttons.release(7, 111)  # down, down, up, down, down: -3 -2 -1 -2 -1 0
    buttons.press(7, 116)
    buttons.tap(8, 101, hold_ms=12)  # seen by two scans only: filtered out
    buttons.scan_until(200)
    assert drain_all(buttons) == [(7, True, 125)]


def test_keys_held_when_the_matrix_starts_are_reported_only_after_reset():
    clock = SimClock(500)
    buttons = matrix(clock=clock, menu=True)
    buttons.press(3, 500)
    buttons.press(24, 500)  # MENU, on its own scanner
    clock.advance(50)
    assert drain_all(buttons) == []
    for scanner in buttons.scanners:
        scanner.reset()
    assert drain_all(buttons) == [(3, True, 550), (24, True, 550)]


def test_both_players_at_once_lose_nothing_and_see_no_ghost():
    # Every key of a rectangle is held, and more, on both halves of the matrix at the
    # same moment: a diode a key reads each key alone.
    buttons = matrix(interval_ms=1)
    held = [0, 1, 6, 7, 14, 15, 16, 20, 21, 22, 23]  # A near/far, B far/near, rectangles
    for key in held:
        buttons.press(key, 10)
    buttons.scan_until(30)
    for key in held:
        buttons.release(key, 35)
    buttons.scan_until(40)
    got = drain_all(buttons)
    assert got == [(k, True, 10) for k in held] + [(k, False, 35) for k in held]


def test_a_key_without_its_diode_makes_the_fourth_corner_of_a_rectangle_a_ghost():
    # Keys 0 (row 0, column 0), 1 (row 0, column 1) and 6 (row 1, column 0) held: with
    # key 0's diode missing, driving row 1 pulls column 0 (key 6), then row 0 up through
    # key 0 both ways, then column 1 through key 1: key 7 (row 1, column 1) reads pressed.
    buttons = matrix()
    buttons.set_diode(0, False)
    for key in (0, 1, 6):
        buttons.press(key, 2)
    buttons.scan_until(5)
    assert drain_all(buttons) == [(0, True, 5), (1, True, 5), (6, True, 5), (7, True, 5)]
    buttons.release(1, 6)  # the path is gone: the ghost goes with it
    buttons.scan_until(10)
    assert drain_all(buttons) == [(1, False, 10), (7, False, 10)]
    buttons.set_diode(0, True)  # fitted again: no ghost
    buttons.press(1, 11)
    buttons.scan_until(15)
    assert drain_all(buttons) == [(1, True, 15)]
    with pytest.raises(ValueError):
        matrix(menu=True).set_diode(24, False)  # MENU has a pin of its own


def test_without_the_diode_a_rectangle_with_the_diodeless_key_released_is_no_ghost():
    buttons = matrix()
    buttons.set_diode(0, False)
    for key in (1, 6, 7):  # three corners, but not the diodeless one
        buttons.press(key, 2)
    buttons.scan_until(5)
    assert drain_all(buttons) == [(1, True, 5), (6, True, 5), (7, True, 5)]


def test_menu_is_key_24_of_the_driver_and_key_0_of_its_own_scanner():
    clock = SimClock(1000)
    buttons = matrix(clock=clock, menu=True)
    menu = buttons.scanners[1]
    buttons.tap(24, 1002, hold_ms=20)
    buttons.tap(23, 1002, hold_ms=20)
    clock.advance(30)  # both scanners scan on the one clock
    e = Event()
    assert menu.events.get_into(e) and (e.key_number, e.pressed, e.timestamp) == (0, True, 1005)
    assert menu.events.get_into(e) and (e.key_number, e.pressed, e.timestamp) == (0, False, 1025)
    assert not menu.events.get_into(e)
    assert drain_all(buttons) == [(23, True, 1005), (23, False, 1025)]
    assert buttons.inject(24, True) and buttons.inject(40, True)  # 40: no key's, the matrix's
    assert drain_all(buttons) == [(40, True, 1030), (24, True, 1030)]
    with pytest.raises(ValueError):
        buttons.press(25, 1030)
    with pytest.raises(ValueError):  # nothing scheduled: one of them is no key
        buttons.schedule([(40, 24, True), (50, 25, True)], offset_ms=1000)
    clock.advance(100)
    assert drain_all(buttons) == []


def test_the_matrix_deinits_and_is_a_context_manager():
    buttons = matrix()
    with buttons.keys as keys:
        assert keys.key_count == 24
    for use in (lambda: keys.events, lambda: keys.key_count, keys.reset,
                lambda: keys.key_number_to_row_column(0),
                lambda: keys.row_column_to_key_number(0, 0),
                lambda: buttons.press(0, 1), lambda: buttons.scan_until(10)):
        with pytest.raises(ValueError):
            use()


def test_the_matrix_checks_its_arguments_as_the_board_does():
    for rows, columns in (((1, 1), (2,)), ((1,), (2, 2)), ((1, 2), (2, 3))):
        with pytest.raises(TypeError):
            VirtualKeyMatrix(rows, columns)
    for options in (dict(interval=-0.001), dict(max_events=0), dict(debounce_threshold=0),
                    dict(debounce_threshold=128)):
        with pytest.raises(ValueError):
            VirtualKeyMatrix((1,), (2,), **options)
    with pytest.raises(TypeError):
        VirtualKeyMatrix((1,), (2,), True)  # columns_to_anodes and the rest: keywords only
    fast = VirtualKeyMatrix((1,), (2,), interval=0)  # the board scans every ms then
    assert fast.key_count == 1 and fast._interval == 1


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(), st.lists(st.integers(0, 23), min_size=5, max_size=5, unique=True))
def test_a_matrix_with_a_diode_a_key_reports_what_a_pin_a_key_would(sc, keys):
    # Any presses of any keys, at once or not, both players' halves alike: the matrix
    # queues exactly what 24 keys on pins of their own would.
    interval, threshold, start, plans, _ = sc
    clock = SimClock(start)
    on_pins = Buttons(24, interval_ms=interval, debounce_threshold=threshold, clock=clock)
    on_matrix = Buttons.wired([VirtualKeyMatrix(ROWS, COLUMNS, interval=interval / 1000,
                                                debounce_threshold=threshold)], clock=clock)
    for plan, key in zip(plans, keys):
        for i, t in enumerate(plan):
            for buttons in (on_pins, on_matrix):
                buttons.set_key(key, i % 2 == 0, ticks_add(start, t))
    clock.advance(max((p[-1] for p in plans if p), default=0) + interval * (threshold + 2))
    got = drain(on_matrix)
    assert got == drain(on_pins)
    assert sum(len(p) for p in plans) == len(got)
