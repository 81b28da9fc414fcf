"""The time handicap on the handheld: the stronger seat's covers land later, so a slower
player's press made in between wins the pile; the glass marks the handicapped seat; AUTO
HANDICAP moves the time first, then the cards; settings saved before it load."""
import pytest

from engine import Rules
from firmware import settings as settings_mod
from firmware.store import Log
from handheld import BOOTED, SEEN, Hand
from twins.desktop import virtual

DECKS = "5c 9d Jh 2s 7c 8c / 5d Kc 3h 8s 4c 6c"  # the 5s on A's pile 0 and B's pile 4
HOURGLASS = "\u231b"


def _dealt(rules=None, **options):
    h = Hand(decks=DECKS, rules=rules, **options)
    h.run_until(BOOTED)
    h.choose("2 PLAYERS")
    h.run(SEEN)
    assert h.screen == "play" and h.piles[0] == "5c"
    return h


def _race(h):
    """A presses the 5c; B presses it too, 100 ms later (Bf3: B's far key for A's pile 0)."""
    t = h.now
    h.press("A0", t)
    h.release("A0", t + 60)
    h.press("Bf3", t + 100)
    h.release("Bf3", t + 160)
    h.run_until(t + 400)


def test_without_a_handicap_the_first_press_wins_the_race():
    h = _dealt()
    _race(h)
    assert h.piles[0] == "7c" and h.message(1) == "TOO LATE" and h.message(0) == ""


def test_a_held_press_loses_the_race_it_would_have_won():
    h = _dealt(Rules(handicap_ms=200))
    _race(h)
    assert h.piles[0] == "4c"  # B's card: B's press landed first
    assert h.message(0) == "TOO LATE" and h.message(1) == ""
    assert h.info(0).startswith("\u25af 2" + HOURGLASS)  # A still has its two cards


def test_a_held_cover_is_drawn_and_heard_when_it_lands():
    h = _dealt(Rules(handicap_ms=200))
    h.heard()
    t = h.now
    h.press("A0", t)
    h.release("A0", t + 60)
    h.run_until(t + 180)
    assert h.piles[0] == "5c" and "COVER_A" not in h.heard()
    h.run_until(t + 300)
    assert h.piles[0] == "7c" and "COVER_A" in h.heard()


@pytest.mark.parametrize("rules,marked", [
    (Rules(handicap_ms=150), (True, False)), (Rules(handicap_ms=-40), (False, True)),
    (Rules(handicap=4), (True, False)), (Rules(), (False, False))])
def test_the_handicapped_seat_has_an_hourglass_on_its_info_line(rules, marked):
    h = _dealt(rules)
    for p in (0, 1):
        assert (h.info(p)[3:4] == HOURGLASS) == marked[p], (p, h.info(p))


def test_the_handicap_line_offers_time_then_cards_and_the_match_is_dealt_with_it():
    h = Hand()
    h.run_until(BOOTED)
    h.choose("SETTINGS")
    h.to("HANDICAP")
    assert "\u2192HANDICAP        EVEN" in h.lines
    for _ in range(4):
        h.tap("A3")  # RIGHT
    assert "\u2192HANDICAP      A 20MS" in h.lines, h.lines
    h.tap("MENU")
    h.choose("2 PLAYERS")
    h.run(SEEN)  # dealt with it: A marked, and as many cards each (a time, no cards)
    assert h.info(0)[3] == HOURGLASS and h.info(1)[3] != HOURGLASS
    assert h.cards(0) == h.cards(1) == 22
    h.heard()
    t = h.now
    h.press("A0", t)  # A covers the 5s (the 5c is on B's row): it lands 20 ms late
    h.release("A0", t + 60)
    h.run_until(t + 12)
    assert "COVER_A" not in h.heard()
    h.run_until(t + 60)
    assert h.heard() == ["COVER_A"] and h.cards(0) == 21


def test_auto_handicap_moves_the_time_first_then_the_cards():
    s = settings_mod.Settings()
    s.choose("auto", 1)
    path = []
    for winner in [0] * 13 + [1] * 6:
        s.match_won(winner)
        path.append((s.value("handicap_ms"), s.value("handicap")))
    assert [ms for ms, c in path[:9]] == [10, 30, 70, 150, 230, 310, 390, 470, 500]
    assert [c for ms, c in path[8:13]] == [0, 2, 4, 6, 8] and path[12] == (500, 8)
    # B's wins take the cards back first, then the time: B's fifth win in a row is 80 ms.
    assert path[13:] == [(500, 6), (500, 4), (500, 2), (500, 0), (420, 0), (340, 0)]
    assert not s.match_won(2) and not s.match_won(-1)  # a drawn match changes nothing


def test_auto_handicap_walks_to_the_other_seat_and_stops_at_its_end():
    s = settings_mod.Settings()
    s.choose("auto", 1)
    for _ in range(30):
        s.match_won(1)
    assert (s.value("handicap_ms"), s.value("handicap")) == (-500, -8)
    assert not s.match_won(1)


def test_settings_saved_before_the_time_handicap_load_with_no_time_handicap(tmp_path):
    path = str(tmp_path / "nvm.bin")
    flash = virtual.Flash(path)
    log = Log(flash.nvm)
    old = bytearray((settings_mod.RECORD_VERSION,)) + bytes(
        f[2] for f in settings_mod.FIELDS[:-1])
    old[1 + settings_mod.KEYS.index("handicap")] = 7  # A+6, as an older handheld saved it
    old[1 + settings_mod.KEYS.index("wins")] = 3  # FIRST TO 4
    log.put(settings_mod.SETTINGS_KIND, bytes(old))
    h = Hand(nvm=path)
    h.run_until(BOOTED)
    h.choose("SETTINGS")  # what the page shows: every saved choice, and no time handicap
    assert any(line.strip().startswith("\u2192MATCH") and line.strip().endswith("FIRST TO 4")
               for line in h.lines), h.lines
    h.to("HANDICAP")
    assert "\u2192HANDICAP         A+6" in h.lines, h.lines
    assert not [line for line in h.console if "settings" in line]
    h.tap("MENU")
    h.choose("2 PLAYERS")  # dealt as it was saved: A+6 is 29 cards to 23, 4 on the table
    assert h.info(0)[:4] == "\u25af25" + HOURGLASS and h.info(1)[:3] == "\u25af19"


def test_the_computer_can_be_the_handicapped_seat():
    h = Hand(rules=Rules(handicap_ms=-300))
    h.run_until(BOOTED)
    h.choose("VS COMPUTER")
    h.run(SEEN)
    assert h.screen == "play" and h.info(1)[3] == HOURGLASS and h.info(0)[3] != HOURGLASS
    before = h.info(1)
    h.run(20000)  # the computer plays on its own, each cover landing 300 ms late
    assert h.info(1)[:3] != before[:3] or h.screen == "result"
    assert "COVER_B" in h.heard()
