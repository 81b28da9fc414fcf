"""The handheld's languages: every language has every word, in the same shape, every
string fits where it is drawn and has a glyph for each of its characters, and what the
words teach, read off the glass, is the game docs/RULES.md describes."""
import importlib
import os
import re

import pytest

from tools.boardcode import ROOT


from firmware import crash, glyphs, lang, lang_en, selftest, settings as settings_mod
from firmware.menu import ROWS, hint
from firmware.ui import LINE_CHARS
from handheld import BOOTED, Hand
from twins.desktop import glass

LANGUAGES = {code: importlib.import_module("firmware.lang_" + code) for code in lang.CODES}


def _fields(w):
    """A language's settings page words (firmware/fields_en.py, ...), for its words w."""
    return importlib.import_module(w.__name__.replace(".lang_", ".fields_")).FIELDS
HOWTO = {LANGUAGES[code].NAME: importlib.import_module("firmware.howto_" + code)
         for code in lang.CODES}
NAMES = sorted(n for n in vars(lang_en) if n.isupper() and n != "ICON_LOCK")

MESSAGE = 12  # an info line's message (firmware/table.py: _MSG_LEN)
BANNER = 10  # a banner's double-size characters (firmware/ui.py: Banner)
TITLE = LINE_CHARS - 2  # centred, with room for the scroll arrow in the last column
ITEM = LINE_CHARS - 1  # after the chosen-item arrow: a label, a space, its value

# The widest value each statistics line can show (firmware/statspage.py).
_COUNT = "99999"


def _stats_values(w):
    secs = w.SECONDS % (3599, 9)  # an hour
    return [_COUNT] * 5 + [secs, secs, w.SECONDS % (99, 9), "B X999"]


def _drawn(text):
    """Every character has a glyph of its own (the '?' placeholder only for '?')."""
    missing = [c for c in text if glyphs.font_tile(ord(c)) == glyphs.FONT_PLACEHOLDER
               and c != "?"]
    return not missing, missing


def _fits(text, width):
    return len(text) <= width


@pytest.mark.parametrize("code", lang.CODES)
def test_every_language_has_every_word_in_the_same_shape(code):
    w = LANGUAGES[code]
    mine = sorted(n for n in vars(w) if n.isupper() and n != "ICON_LOCK")
    assert mine == NAMES
    for name in NAMES:
        a, b = getattr(lang_en, name), getattr(w, name)
        assert type(a) is type(b), name
        if isinstance(a, tuple):
            assert len(a) == len(b), name
    for (label, choices), field in zip(_fields(w), settings_mod.FIELDS):
        assert isinstance(label, str) and len(choices) == len(field[1]), (code, field[0])
    # A line for each setting but handicap_ms, the last, which is shown on HANDICAP's.
    assert len(_fields(w)) == len(settings_mod.FIELDS) - 1
    assert settings_mod.KEYS[-1] == "handicap_ms"
    assert _fields(w)[settings_mod.KEYS.index("language")][1] == tuple(
        LANGUAGES[c].NAME for c in lang.CODES)  # each language by its own name
    assert w.SECONDS % (12, 3) != w.SECONDS  # seconds and tenths


def _handicap_lines(w):
    """HANDICAP's line at every place of its scale, and with each mix a record can hold."""
    from firmware.settings import Settings
    was, lang.words = lang.words, w
    s = Settings()
    i = settings_mod.KEYS.index("handicap")
    out = []
    for cards in (-8, -2, 0, 2, 8):
        for ms in (-500, -495, -5, 0, 5, 100, 500):
            s.choose("handicap", cards)
            s.choose("handicap_ms", ms)
            out.append(s.label(i) + " " + s.text(i))
    for _ in range(300):
        s.step(i, -1)
    for _ in range(210):
        out.append(s.label(i) + " " + s.text(i))
        s.step(i, 1)
    lang.words = was
    return out


def _strings(w):
    """(where, text, width) for every string of a language, as the handheld draws it."""
    out = []
    for name in ("LOCKED", "FOUL", "TOO_LATE", "LOST_TOSS", "NO_MATCH", "NEXT", "TO_MENU", "JOINED",
                 "KEYS_LOST", "KEY_UNKNOWN", "KEY_HELD"):
        out.append((name, getattr(w, name), MESSAGE))
    for name in ("YOU_WIN", "YOU_LOSE", "DRAW", "MATCH_WON", "MATCH_LOST"):
        out.append((name, getattr(w, name), BANNER))
    for title in (w.TITLE, w.PAUSED) + w.MAIN:  # the main items title their pages
        out.append(("title", title, TITLE))
    for item in w.MAIN + w.PAUSE:
        out.append(("item", item, ITEM))
    level = settings_mod.KEYS.index("level")
    for value in _fields(w)[level][1]:  # the main menu shows the CPU level beside its item
        out.append(("CPU LEVEL item", w.MAIN[2] + " " + value, ITEM))
    for label, choices in _fields(w):
        for value in choices:
            out.append(("setting", label + " " + value, ITEM))
    out += [("setting", line, ITEM) for line in _handicap_lines(w)]
    for label, value in zip(w.STATS, _stats_values(w)):
        out.append(("statistics", label + " " + value, ITEM))
    out.append(("hint", hint(w.BACK), LINE_CHARS - 1))  # the scroll arrow is in the last column
    out.append(("self-test", w.SELFTEST, LINE_CHARS))
    out.append(("self-test", w.SELFTEST_INFO % (0x3D, 1000, "999K"), LINE_CHARS))
    for where in (w.NEAR, w.FAR):  # (6 keys a row on the matrix build)
        for state in (w.DOWN, w.UP, w.KEY_HELD):
            out.append(("self-test key", "B %s 6 %s" % (where, state), LINE_CHARS))
    out.append(("self-test", w.GHOST, LINE_CHARS))
    longest = max(w.NEAR, w.FAR, key=len)  # the two keys a ghost may be
    out.append(("self-test ghost key", "B %s 6" % longest, selftest._SLASH - 1))  # a side
    out.append(("self-test key", w.KEY % 99 + " " + w.DOWN, LINE_CHARS))
    for line in w.ERROR:  # drawn with terminalio.FONT, in ASCII (firmware/crash.py)
        out.append(("error", crash.plain(line), crash._COLUMNS))
    pages = HOWTO.get(getattr(w, "NAME", ""), ())
    for page in getattr(pages, "PAGES", ()):
        for line in page:
            out.append(("how to play", line, LINE_CHARS))
    out.append(("how to play foot", "%s%s %d/%d  %s" % ("^", "v", 5, 5, w.BACK), LINE_CHARS))
    return out


@pytest.mark.parametrize("code", lang.CODES)
def test_every_string_fits_where_it_is_drawn_and_has_its_glyphs(code):
    bad = []
    for where, text, width in _strings(LANGUAGES[code]):
        ok, missing = _drawn(text)
        if not ok:
            bad.append("%s %r: no glyph for %r" % (where, text, "".join(missing)))
        if not _fits(text, width):
            bad.append("%s %r: %d characters, room for %d" % (where, text, len(text), width))
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("code", lang.CODES)
def test_the_error_screen_keeps_every_letter_in_ascii(code):
    for line in LANGUAGES[code].ERROR:
        shown = crash.plain(line)
        assert [c for c, d in zip(line, shown) if d == "?" and c != "?"] == [], (line, shown)
        assert len(shown) == len(line) and all(" " <= c <= "~" for c in shown), (line, shown)
    assert crash.plain("ÉCRAN à 3€") == "ECRAN a 3?"


@pytest.mark.parametrize("code", lang.CODES)
def test_how_to_play_has_four_lines_under_each_picture_in_every_language(code):
    from firmware.howto import PICTURES
    pages = HOWTO[LANGUAGES[code].NAME].PAGES
    assert len(pages) == len(PICTURES)
    assert all(len(page) == 4 and all(isinstance(t, str) for t in page) for page in pages)


def _rules_doc():
    """docs/RULES.md."""
    with open(os.path.join(ROOT, "docs", "RULES.md")) as f:
        return f.read()


def test_docs_rules_and_the_handheld_teach_the_same_game():
    from firmware import howto_en
    rules = _rules_doc()
    section = rules[rules.index("## How the handheld teaches it"):]
    section = re.sub(r"\s+", " ", section[:section.index("\n## ", 10)])
    for page in howto_en.PAGES:
        assert re.sub(r"\s+", " ", " ".join(page)) in section, page


def test_the_check_finds_an_overflow_and_a_missing_glyph():
    class Broken:
        __name__ = "firmware.lang_en"  # (its settings page words: English's)
    w = Broken()
    for name in NAMES:
        setattr(w, name, getattr(lang_en, name))
    w.TOO_LATE = "FAR TOO LATE NOW"  # 16 > 12
    w.FOUL = "FAUTE \u00c6"  # no glyph for AE
    found = {(where, text) for where, text, width in _strings(w)
             if not _fits(text, width) or not _drawn(text)[0]}
    assert ("TOO_LATE", "FAR TOO LATE NOW") in found and ("FOUL", "FAUTE \u00c6") in found


def test_the_statistics_page_shows_one_value_for_each_label():
    from firmware import statspage
    from firmware.stats import Stats
    lang.use("en")
    assert len(statspage.values(Stats())) == len(lang_en.STATS) > ROWS


def test_only_the_chosen_language_is_imported():
    import sys
    lang.use("fr")
    assert lang.words is sys.modules["firmware.lang_fr"]
    assert "firmware.lang_en" not in sys.modules and "firmware.lang_pt" not in sys.modules
    lang.use("pt")
    assert "firmware.lang_fr" not in sys.modules and lang.words.NAME == "PORTUGUÊS"
    lang.use("xx")  # not a language: English
    assert lang.words.NAME == "ENGLISH"


# ---- what the words teach, read off the glass ----

def _how_to_play(code):
    """HOW TO PLAY's pages in a language, as a player reads them off the glass: the four
    lines of words under each picture, joined into one string a page."""
    h = Hand(lang=code)
    h.run_until(BOOTED)
    h.taps("A0", "A0", "A3")  # UP twice from 2 PLAYERS: HOW TO PLAY; RIGHT opens it
    assert h.screen == "howto"
    pages = int(re.search(r"\d+/(\d+)", h.lines[7]).group(1))  # the foot: "1/5"
    words = []
    for _ in range(pages):
        words.append(" ".join(h.text(row) for row in range(3, 7)))
        h.tap("A1")  # DOWN: the next page
    return words


# The pages that teach a pending pile (page 3: one 5 covered, the other still underlined)
# and the stall and the foul (page 4: nothing to cover). The other 5 matches nothing any
# more, yet it can still be covered; so play stops only when nothing can be covered, and
# a foul is a press on a pile that cannot be covered, not merely one that matches nothing.
TEACHES = {
    "en": {"pending": "THE OTHER 5 CAN STILL BE COVERED",
           "stall": "NOTHING TO COVER? PLAY STOPS",
           "foul": "A PRESS ON A PILE YOU CAN'T COVER: FOUL",
           "wrong": ("STILL MATCHES", "NO PAIR LEFT", "MATCHES NOTHING: FOUL")},
    "fr": {"pending": "L'AUTRE 5 RESTE JOUABLE",
           "stall": "PLUS RIEN \u00c0 COUVRIR ? ARR\u00caT",
           "foul": "APPUI SUR UNE PILE NON JOUABLE : FAUTE !",
           "wrong": ("PLUS AUCUNE PAIRE", "SANS PAIRE: FAUTE")},
    "pt": {"pending": "A OUTRA PILHA AINDA VALE",
           "stall": "NADA A COBRIR? O JOGO PARA",
           "foul": "APERTAR UMA PILHA QUE N\u00c3O VALE \u00c9 FALTA!",
           "wrong": ("AINDA FAZ PAR", "SEM PAR NA MESA", "PILHA SEM PAR \u00c9 FALTA")},
}


@pytest.mark.parametrize("code", lang.CODES)
def test_how_to_play_says_a_pending_pile_can_still_be_covered_and_what_a_foul_is(code):
    pages = _how_to_play(code)
    says = TEACHES[code]
    assert says["pending"] in pages[2], pages[2]
    assert says["stall"] in pages[3] and says["foul"] in pages[3], pages[3]
    for wrong in says["wrong"]:
        assert not [page for page in pages if wrong in page], wrong


def test_docs_rules_says_a_foul_is_a_press_on_a_pile_that_cannot_be_covered():
    rules = re.sub(r"\s+", " ", _rules_doc())
    assert "matches nothing is a foul" not in rules
    assert "If nothing matches any more, play stops" not in rules
    assert "cannot be covered is a foul" in rules


def test_docs_rules_section_12_names_every_departure_from_the_printed_game():
    rules = _rules_doc()
    section = re.sub(r"\s+", " ", rules[rules.index("## 12."):])
    for named in ("HANDICAP", "DOUBLES", "DECLARE DRAW", "repeated block",
                  "10 dead deals in a row"):
        assert named in section, named
    assert "end a game only by a finish or a deadlock" not in section


def _settings_page(code):
    """Every line the SETTINGS page shows in a language, as each setting is stepped through
    all its choices (RIGHT) and so back to its own: the chosen line, as read off the glass."""
    h = Hand(lang=code, settings={"CS_KEYS": "matrix"})  # (every PILES: 6 besides)
    h.run_until(BOOTED)
    h.taps("A1", "A1", "A1", "A3")  # DOWN three times: SETTINGS; RIGHT opens it
    assert h.screen == "settings"
    shown = []
    for _key, choices, _default in settings_mod.FIELDS:
        for _ in choices:
            lines = h.lines + glass.page(glass.turned(h.glass))  # FLIP SCREEN ON turns it
            shown += [line[1:].strip() for line in lines[1:] if line.startswith("\u2192")][:1]
            h.tap("A3")  # RIGHT: the next choice
        h.tap("A1")  # DOWN: the next setting
    assert len(shown) == sum(len(choices) for _key, choices, _ in settings_mod.FIELDS)
    return shown


# Words a native reader takes for something else, with what they were meant to say.
# None may be shown on the settings page or in HOW TO PLAY.
MISREAD = {
    "fr": {"MANCHE": "a game (PARTIE everywhere else)",
           "MANCHES": "first to N wins, read as a match of N games",
           "RANG": "a row, where RANG is a card's rank",
           "BLOCAGE": "the foul's lockout, where BLOCAGE is the stall",
           "INVERS\u00c9": "the screen turned round, read as inverted colours"},
    "pt": {"DUPLAS": "a pair on one pile, read as teams of two",
           "BLOQUEIO": "the foul's lockout, read as the stall (BLOQUEADOS)",
           "FILA": "a row (FILEIRA), read as a queue"},
}


@pytest.mark.parametrize("code", sorted(MISREAD))
def test_settings_and_how_to_play_say_what_a_native_reader_understands(code):
    shown = _settings_page(code) + _how_to_play(code)
    misread = [(word, MISREAD[code][word], line) for line in shown
               for word in re.findall(r"[^\W\d_]+", line) if word in MISREAD[code]]
    assert not misread, misread


def test_french_sets_a_space_before_a_colon_or_a_mark_where_there_is_room():
    """A 12-character info-line message and a page's foot (TOUCHE:SUITE, MENU:RETOUR) have
    no room for it; every page of words and every banner has."""
    w = LANGUAGES["fr"]
    texts = [line for page in HOWTO[w.NAME].PAGES for line in page]
    texts += [w.YOU_WIN, w.YOU_LOSE, w.DRAW, w.MATCH_WON, w.MATCH_LOST] + list(w.ERROR)
    assert [t for t in texts if re.search(r"[^ ][:!?]", t)] == []


def test_portuguese_sets_no_space_before_a_colon_or_a_mark():
    texts = [text for _where, text, _width in _strings(LANGUAGES["pt"])]
    assert [t for t in texts if re.search(r" [:!?]", t)] == []


@pytest.mark.parametrize("code", lang.CODES)
@pytest.mark.parametrize("page", ["menu", "settings", "statistics"])
def test_a_pages_foot_keeps_a_blank_column_before_its_scroll_arrow(code, page):
    """MENU:RETOUR and MENU:VOLTAR are long: the arrow that says the page scrolls keeps a
    column of its own, as in English."""
    from twins.desktop import scenes
    frame = scenes.screen(page if code == "en" else "%s_%s" % (page, code)).oled.frame()

    def lit(col):  # how many pixels of the foot's character cell in that column are lit
        x = 1 + glyphs.FONT_W * col
        return sum(frame[y * 128 + x + dx] for y in range(56, 64)
                   for dx in range(glyphs.FONT_W))
    cells = [lit(col) for col in range(LINE_CHARS)]
    assert cells[-1] and not cells[-2] and cells[-3], cells  # the arrow, a gap, the last letter
