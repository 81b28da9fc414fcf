"""The work of a main-loop pass (issue 49): a pass with no key and nothing due does only the
keys and naps until the next thing is due, at most 4 ms in play (a press waits that much
longer for the glass), 8 ms on the menu pages and 100 ms with the screen off, as the
naps the handheld asks for and the firmware's calls a pass say; what it shows and plays is
the same."""
import os
import sys

from engine import Rules
from firmware import lang
from handheld import BOOTED, Hand
from twins.desktop import scenes

_OURS = tuple(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), d) + os.sep for d in ("firmware", "engine", "hardware"))


def _naps(h):
    """The naps each pass asks for from now on (hw.idle's ms), in a list."""
    naps = []
    idle = h.hw.idle
    h.hw.idle = lambda ms: (naps.append(ms), idle(ms))[1]
    return naps


def _calls_a_pass(h, ms):
    """The firmware's own Python calls (the engine's and the hardware layer's included) a
    main-loop pass, on average over the next ms, and the passes counted."""
    calls = [0]

    def seen(frame, event, arg):
        if event == "call" and frame.f_code.co_filename.startswith(_OURS) and \
                frame.f_back.f_code.co_filename.startswith(_OURS):
            calls[0] += 1
    passes = [0]
    h.watch(lambda h: passes.__setitem__(0, passes[0] + 1))
    sys.setprofile(seen)
    try:
        h.run(ms)
    finally:
        sys.setprofile(None)
    return calls[0] / passes[0], passes[0]


def test_a_pass_naps_until_its_next_work_8_ms_in_the_menu_4_in_play():
    h = Hand(decks=scenes.DECKS)
    naps = _naps(h)
    h.run_until(BOOTED)
    del naps[:]  # (the menu is drawn; keys down now were not held at power-up)
    h.run_until(BOOTED + 200)
    assert naps and set(naps) == {8}, sorted(set(naps))  # nothing sounds, nothing is due
    t = h.now
    h.press("A3", t)  # RIGHT on "2 PLAYERS": a click, then the deal and its notes
    h.release("A3", t + 80)
    h.run_until(t + 20)
    assert h.screen == "play"
    del naps[:]
    h.run(1000)
    assert "DEAL" in h.heard()
    assert max(naps) == 4 and 0 in naps and {1, 2, 3} & set(naps), sorted(set(naps))
    del naps[:]
    h.run(2000)  # nobody presses: nothing sounds, nothing to draw
    assert max(naps) == 4 and naps.count(4) >= 0.95 * len(naps), sorted(set(naps))


def test_a_pass_with_nothing_due_makes_a_few_calls_where_it_made_dozens():
    h = Hand(decks=scenes.DECKS, rules=Rules())
    h.run_until(BOOTED)
    menu, n = _calls_a_pass(h, 500)
    assert n >= 50 and menu <= 6, (menu, n)
    h.tap("A3", at=h.now + 10)  # the deal
    h.run(1000)
    play, n = _calls_a_pass(h, 1500)  # nobody presses: the table stays as it is
    assert n >= 300 and play <= 6, (play, n)


def test_with_the_screen_off_a_pass_naps_100_ms_and_a_press_still_wakes_it():
    h = Hand()
    h.run_until(BOOTED)
    h.choose(lang.words.MAIN[3])  # SETTINGS
    h.set("SLEEP", "1 MIN")
    h.tap("MENU")  # saved; the main menu
    h.run(61000)
    assert h.screen == "off" and not h.hw.oled.is_on
    naps = _naps(h)
    h.run(2000)
    assert naps and set(naps) == {100}, sorted(set(naps))
    t = h.now
    h.press("A3", t)
    h.release("A3", t + 80)
    h.run_until(t + 100 + 10)  # the first pass after the scanner's report, and its refresh
    assert h.hw.oled.is_on and h.screen == "menu"
