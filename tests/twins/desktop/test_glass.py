"""Reading the glass (twins/desktop/glass.py) and the player-facing test helper (tests/twins/desktop/handheld.py):
what they read off the golden screens and off a handheld in play."""
from handheld import A, B, BOOTED, SEEN, Hand
from twins.desktop import glass, scenes


def test_the_main_menu_is_read_line_by_line():
    lines = glass.page(scenes.golden("menu"))
    assert lines[0].strip() == "CALIFORNIA SPEED"
    assert lines[1] == "\u21922 PLAYERS" and lines[3].split() == ["CPU", "LEVEL", "QUICK"]


def test_the_table_is_read_pile_by_pile_and_each_info_line_as_its_player_reads_it():
    deal = scenes.golden("deal")
    assert glass.piles_per_row(deal) == 4
    assert glass.piles(deal) == ["5c", "9d", "Jh", "2s", "5d", "Kc", "3h", "8s"]
    foul = scenes.golden("foul")
    assert glass.info(foul, A).split() == ["\u25af", "2", "FOUL!", "\u25cb\u25cb"]
    assert glass.info(foul, B).split() == ["\u25af", "2", "\u25cb\u25cb"]


def test_a_table_of_six_a_row_is_read_in_its_narrow_face_with_its_hints_and_messages():
    deal = scenes.golden("six_deal")
    assert glass.piles_per_row(deal) == 6
    assert glass.piles(deal) == ["5c", "9d", "Jh", "Ks", "7c", "10h",
                                 "5d", "Kc", "3h", "8s", "4c", "10s"]
    assert glass.piles(scenes.golden("six_cover"))[0::7] == ["Qd", "6c"]
    assert glass.marks(scenes.golden("six_hint")) == [0, 3, 5, 6, 7, 11]
    assert glass.marks(deal) == [0, 3, 5, 6, 7, 11]  # a new handheld's hints
    assert glass.marks(scenes.golden("menu")) == []
    for name, foul in (("six_foul", "FOUL!"), ("six_foul_fr", "FAUTE !"),
                       ("six_foul_pt", "FALTA!")):
        frame = scenes.golden(name)
        assert glass.info(frame, B).split() == ["\u25af", "4"] + foul.split() + ["\u25cb\u25cb"]
        assert glass.piles(frame) == glass.piles(deal)


def test_the_banners_are_read_and_a_screen_without_them_has_none():
    won = scenes.golden("match_over")
    assert (glass.banner(won, A), glass.banner(won, B)) == ("MATCH WON!", "MATCH LOST")
    assert glass.banner(scenes.golden("deal"), A) is None
    assert glass.piles(scenes.golden("menu")) == []


def test_the_helper_names_the_screen_and_hears_the_sounds():
    h = Hand(decks=scenes.DECKS)
    h.run_until(BOOTED)
    assert h.screen == "menu" and h.faces == A
    h.tap("A3")  # RIGHT on 2 PLAYERS
    assert h.screen == "play" and h.piles[0] == "5c"
    assert h.heard() == ["KEY", "DEAL"]
    h.tap("A0", at=h.now + SEEN)  # A covers the 5c with the 7c
    assert h.piles[0] == "7c" and h.info(A).split()[:2] == ["\u25af", "1"]
    assert h.heard() == ["COVER_A"]
    h.tap("B1")  # B presses the 9d: no match
    assert h.message(B) == "FOUL!" and h.heard() == ["FOUL"]


def test_a_page_turned_to_face_b_is_read_as_b_reads_it():
    h = Hand()
    h.run_until(BOOTED)
    h.tap("B1")  # B's DOWN
    assert h.faces == B and h.screen == "menu" and h.lines[2] == "\u2192VS COMPUTER"


def test_a_scrolled_page_is_still_named_by_its_title():
    h = Hand()
    h.run_until(BOOTED)
    h.choose("SETTINGS")
    h.to("LANGUAGE")  # far down: the title line shows the arrow for more above
    assert h.lines[0].endswith("\u2191") and h.screen == "settings"
