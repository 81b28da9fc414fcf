"""What the glass says to a seat whose press was refused (a foul, a press in the lockout, a
race lost, a coin toss lost), in each language, and a new player's hints: the pending pile.

The decks: A's row 5c 9d Jh 2s, B's row 5d Kc 3h 8s (from B's own left); piles 0 (A's 5c)
and 4 (B's 5d) are a pair. Keys: A0-A3 A's own piles, Bf3 A's pile 0 from B's far row;
B0-B3 B's own piles, Af3 B's pile 0 from A's far row.
"""
import pytest

from engine import Rules
from firmware import fields_en, glyphs, lang_en, lang_fr, lang_pt
from firmware.settings import KEYS, Settings
from handheld import A, B, SEEN, Hand
from twins.desktop import glass, scenes

WORDS = {"en": lang_en, "fr": lang_fr, "pt": lang_pt}
# each seat's keys: two piles no pair holds, its own pile of the pair, the other's pile of it
SEATS = {A: ("A1", "A2", "A0", "Af3"), B: ("B1", "B2", "B0", "Bf3")}
PAIR = (0, 4)


def _locked(code):
    """LOCKED as the glass shows it: its padlock is an icon of the font."""
    return WORDS[code].LOCKED.replace(chr(glyphs.ICON_LOCK), glass.ICONS[glyphs.ICON_LOCK])


def _dealt(code="en", decks=scenes.DECKS, seed=1, **options):
    """A new handheld in a language, a two-player match dealt and seen."""
    h = Hand(decks=decks, rules=Rules(), lang=code, seed=seed, **options)
    h.tap("A3", at=400)  # RIGHT on the first item: 2 PLAYERS
    assert h.screen == "play"
    h.run_until(h.now + SEEN)
    return h


def _said_for_a_second(h, seat, text, since):
    """The seat's line says text from its press at since until a second after it, and the
    other seat's line says nothing."""
    h.run_until(since + 950)
    assert h.message(seat) == text and h.message(1 - seat) == "", (h.info(A), h.info(B))
    h.run_until(since + 1250)
    assert h.message(seat) == "", h.info(seat)


@pytest.mark.parametrize("code", sorted(WORDS))
@pytest.mark.parametrize("seat", [A, B], ids=["A", "B"])
def test_a_foul_is_said_to_its_seat_for_a_second(code, seat):
    h = _dealt(code)
    foul = SEATS[seat][0]
    t = h.tap(foul)
    assert h.message(seat) == WORDS[code].FOUL and h.heard()[-1:] == ["FOUL"]
    _said_for_a_second(h, seat, WORDS[code].FOUL, t)


@pytest.mark.parametrize("code", sorted(WORDS))
@pytest.mark.parametrize("seat", [A, B], ids=["A", "B"])
def test_a_press_in_the_lockout_is_said_to_be_locked(code, seat):
    h = _dealt(code)
    foul, again = SEATS[seat][:2]
    t = h.tap(foul)
    t = h.tap(again, at=t + 200)  # the 400 ms lockout is still on
    assert h.message(seat) == _locked(code)
    _said_for_a_second(h, seat, _locked(code), t)


@pytest.mark.parametrize("code", sorted(WORDS))
@pytest.mark.parametrize("seat", [A, B], ids=["A", "B"])
def test_a_race_lost_is_too_late_for_the_seat_that_lost_it(code, seat):
    h = _dealt(code)
    winner = SEATS[1 - seat][2]  # the other seat covers its own pile of the pair
    late = SEATS[seat][3]  # ... and this seat presses that pile 100 ms after
    t = h.now
    h.press(winner, t)
    h.release(winner, t + 60)
    h.press(late, t + 100)
    h.release(late, t + 160)
    h.run_until(t + 300)
    assert h.message(seat) == WORDS[code].TOO_LATE and h.message(1 - seat) == ""
    _said_for_a_second(h, seat, WORDS[code].TOO_LATE, t + 100)


def _toss(seed, code="en"):
    """Both seats press A's pile 0 (the 5c of the pair) in the same instant: (the handheld,
    the seat that lost the coin toss, read off the pile's new card: A's 7c or B's 4c)."""
    h = _dealt(code, seed=seed)
    t = h.now
    for key in ("A0", "Bf3"):
        h.press(key, t)
        h.release(key, t + 60)
    h.run_until(t + 300)
    top = h.piles[0]
    assert top in ("7c", "4c"), top
    return h, (B if top == "7c" else A), t


@pytest.mark.parametrize("code", sorted(WORDS))
def test_a_coin_toss_lost_is_said_to_the_seat_that_lost_it_whichever_pressed_first(code):
    """The scanner reports A's key before B's in one scan: when A loses, A's cover (which
    came first) is taken back; when B loses, B's press is the later one. Both are said."""
    losers = {}
    for seed in range(1, 40):
        h, loser, t = _toss(seed, code)
        if loser not in losers:
            losers[loser] = seed
            assert h.message(loser) == WORDS[code].LOST_TOSS, (seed, h.info(A), h.info(B))
            assert h.message(1 - loser) == ""
            assert h.cards(loser) == 2 and h.cards(1 - loser) == 1  # its card went back
            _said_for_a_second(h, loser, WORDS[code].LOST_TOSS, t)
        if len(losers) == 2:
            break
    assert set(losers) == {A, B}, losers


def test_how_to_play_uses_the_words_the_glass_says():
    from firmware import howto_en, howto_fr, howto_pt
    for words, howto in ((lang_en, howto_en), (lang_fr, howto_fr), (lang_pt, howto_pt)):
        text = " ".join(" ".join(page) for page in howto.PAGES)
        for said in (words.FOUL, words.LOCKED[2:], words.TOO_LATE, words.LOST_TOSS):
            assert said in text, (words.NAME, said)


# ---- a new player's hints ----

def test_a_new_handheld_marks_the_pair_and_then_the_pending_pile_alone():
    h = _dealt()
    assert glass.marks(h.glass) == list(PAIR)
    h.tap("A0")  # A covers the 5c with the 7c: B's 5d is pending, though nothing matches it
    assert h.piles[0] == "7c" and glass.marks(h.glass) == [4]
    h.tap("B0", at=h.now + SEEN)  # B covers it with the 4c: nothing can be covered
    assert h.piles[4] == "4c" and glass.marks(h.glass) == []


def test_hints_off_marks_nothing():
    h = Hand(decks=scenes.DECKS, rules=Rules())
    h.run_until(400)
    h.choose("SETTINGS")
    h.set("HINTS", "OFF")
    h.tap("MENU")
    h.to("2 PLAYERS")
    h.tap("A3")
    h.run_until(h.now + SEEN)
    assert h.screen == "play" and glass.marks(h.glass) == []


def test_a_finished_match_counts_the_hints_down_and_keeps_the_count(tmp_path):
    nvm = str(tmp_path / "nvm.bin")
    h = Hand(decks=scenes.ONE_LEFT, rules=Rules(wins_needed=1), nvm=nvm)
    h.tap("A3", at=400)
    h.run_until(h.now + SEEN)
    h.tap("A0")  # A's last card: the match is won
    h.run_until(h.now + 1500)
    assert h.screen == "result"
    h.tap("A0")  # any key: the menu
    h.run_until(screen="menu")
    again = Hand(nvm=nvm)  # powered off and on
    again.run_until(400)
    again.choose("SETTINGS")
    assert again.items()["HINTS"] == "NEXT 2 MATCHES"


def test_hints_for_three_matches_count_down_to_off_and_rookie_brings_them_back():
    s = Settings()
    shown = [fields_en.FIELDS[10][1][s.index[10]]]
    while s.match_over():
        shown.append(fields_en.FIELDS[10][1][s.index[10]])
    assert shown == ["NEXT 3 MATCHES", "NEXT 2 MATCHES", "NEXT MATCH", "OFF"]
    assert not s.value("hints")
    level = KEYS.index("level")
    s.step(level, -1)  # QUICK to CASUAL: hints stay off
    assert not s.value("hints")
    s.step(level, -1)  # ROOKIE, the level to learn at
    assert s.value("hints") and fields_en.FIELDS[10][1][s.index[10]] == "NEXT 3 MATCHES"
    s.choose("hints", 1)  # ON: no count
    assert not s.match_over() and s.value("hints")
