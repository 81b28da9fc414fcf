"""The desktop keypad twin behaves like CircuitPython's keypad.Keys and EventQueue."""
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from engine.ticks import TICKS_PERIOD, ticks_add, ticks_diff
from hardware.virtual.keypad import Buttons, Event, EventQueue, SimClock, VirtualKeys, load_script


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
