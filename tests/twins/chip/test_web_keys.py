"""The page's keys (issue 47): in the menus the arrows, Enter and Esc are the near player's
(A's) UP, DOWN, LEFT, RIGHT (which chooses), RIGHT and MENU, the glass equal to the
desktop twin's pressing those buttons; in play each button names the pile it presses at
the pile count the glass shows (hardware/keymap.py pile_of: with 3 a row, A's middle two
keys both press A's middle pile), the arrows press no pile, and paused the status says so.
Served and driven as tests/twins/chip/test_web.py does (its helpers); the browser's tests
skipped, with their reason, where they are."""
import pytest

from tests.twins.chip.test_web import (LABELS, REASON, Page, browser,  # noqa: F401
                                       served)
from twins.chip import web
from twins.desktop import glass
from twins.desktop.scenes import frame_diff
from twins.desktop.scripted import desktop_run

browser_test = pytest.mark.skipif(REASON is not None, reason="the web page: %s" % REASON)
TYPED = {"ArrowUp": "A0", "ArrowDown": "A1", "ArrowLeft": "A2", "ArrowRight": "A3",
         "Enter": "A3", "Escape": "MENU"}  # A's UP, DOWN, LEFT, RIGHT; RIGHT; MENU (BACK)
# main menu: down to SETTINGS, open it; down to PILES, its next value (3 A ROW); up; back
TO_3_PILES = [(400, "ArrowDown"), (700, "ArrowDown"), (1000, "ArrowDown"), (1300, "Enter"),
              (1600, "ArrowDown"), (1900, "ArrowRight"), (2200, "ArrowUp"), (2500, "Escape")]
# then up to 2 PLAYERS and deal
DEAL = [(2800, "ArrowUp"), (3100, "ArrowUp"), (3400, "ArrowUp"), (3700, "Enter")]
TAP_MS = 80


def _desktop_run(script, seed, checks):
    """The desktop twin's glass at each checkpoint of the script."""
    return desktop_run(script, seed, checks)[0]


def _script(presses):
    """The desktop twin's key script of typed presses: the buttons they stand for."""
    return "".join("%d %s tap %d\n" % (ms, TYPED[key], TAP_MS) for ms, key in presses)


LIT = "[...new Set([...document.querySelectorAll('.pad button.held')].map((el) => el.dataset.key))]"


def _type(page, presses, checks, lit=None):
    """The typed presses at their times (each held TAP_MS) and the glass at each checkpoint;
    lit, a list: the buttons lit while each key is down appended to it."""
    steps = sorted([(ms, 1, key, True) for ms, key in presses]
                   + [(ms + TAP_MS, 1, key, False) for ms, key in presses]
                   + [(ms, 0, None, None) for ms in checks])
    frames = []
    for ms, edge, key, down in steps:
        page.at(ms)
        if edge:
            (page.page.keyboard.down if down else page.page.keyboard.up)(key)
            if down and lit is not None:
                lit.append(page.page.evaluate(LIT))
        else:
            frames.append(page.glass())
    return frames


def test_the_play_labels_are_the_firmwares_key_table_at_every_pile_count_offered():
    """web.labels() for 4 and 3 piles a row (hardware/seats.py PILE_CHOICES[0]): a key's
    label names the pile pile_of says it presses; with 3, A's middle two press A2."""
    from hardware.keymap import pile_of
    from hardware.seats import KEYS_A_ROW, PILE_CHOICES
    from twins.chip import chip
    labels, keymap = web.labels(), chip.keymap_of("direct")
    assert PILE_CHOICES[0] == (4, 3)
    for n in PILE_CHOICES[0]:
        for name, k in chip.key_names("direct").items():
            pile = pile_of(keymap[k], n, KEYS_A_ROW[0])
            want = "MENU" if name == "MENU" else "AB"[pile // n] + str(pile % n + 1)
            assert labels[name]["play"][n] == want, (n, name)
    assert [labels["A%d" % i]["play"][3] for i in range(4)] == ["A1", "A2", "A2", "A3"]
    assert [labels["A%d" % i]["menu"] for i in range(4)] == ["UP", "DOWN", "LEFT",
                                                             "RIGHT / CHOOSE"]
    assert web.menu_keys() == TYPED


@browser_test
def test_the_arrows_enter_and_esc_move_in_the_menus_as_As_buttons_do(browser, served):
    """Down to SETTINGS, Enter opens it, down to PILES, right to its next value, up, Esc
    back to the main menu: at each step the glass is the desktop twin's after A's
    buttons (or MENU) did the same, and while a key is down the button it stands for is
    lit."""
    p = Page(browser, served[0])
    try:
        checks, lit = [300] + [ms + 250 for ms, _ in TO_3_PILES], []
        got = _type(p, TO_3_PILES, checks, lit)
        assert lit == [[TYPED[key]] for _, key in TO_3_PILES], lit
        want = _desktop_run(_script(TO_3_PILES), 1, checks)
        assert all(a != b for a, b in zip(want, want[1:])), "a step changed nothing"
        for ms, g, w in zip(checks, got, want):
            assert g == w, "at %d ms after the first frame:\n%s" % (ms, frame_diff(g, w))
    finally:
        p.close()


def _status(p):
    return p.page.inner_text("#status")


@browser_test
def test_in_play_the_buttons_name_the_piles_drawn_the_arrows_press_none_and_paused_says_so(
        browser, served):
    """With PILES 3 A ROW chosen by the arrows and a match dealt by Enter, each button says
    the pile it presses (A's middle two: A2); an arrow pressed in play presses no pile (no
    button lit, the glass the desktop twin's without it); Esc held pauses, and the status
    says paused (not its speed) until Enter resumes."""
    from firmware import keyfilter
    p = Page(browser, served[0] + "?console")
    try:
        _type(p, TO_3_PILES + DEAL, [])
        p.at(4600)
        seed = p.seed()
        assert p.page.evaluate(LABELS) == {
            "A": [["B3", "B2", "B2", "B1"], ["A1", "A2", "A2", "A3"], ["MENU"]],
            "B": [["A3", "A2", "A2", "A1"], ["B1", "B2", "B2", "B3"], ["MENU"]]}
        arrow, held = (4700, "ArrowLeft"), 5400 + keyfilter._PAUSE_HOLD_MS + 300
        script = _script(TO_3_PILES + DEAL)
        checks = [5300, held + 300, held + 900]
        lit = []
        got = _type(p, [arrow], [5300], lit)
        assert lit == [[]], "an arrow pressed a pile in play: %s" % lit
        p.at(5400)
        p.page.keyboard.down("Escape")
        p.at(held)
        p.page.keyboard.up("Escape")
        got += _type(p, [], [held + 300])
        paused = _status(p)
        got += _type(p, [(held + 400, "Enter")], [held + 900])
        resumed = _status(p)
        want = _desktop_run(script + "5400 MENU down\n%d MENU up\n%d A3 tap 80\n"
                            % (held, held + 400), seed, checks)
        for ms, g, w in zip(checks, got, want):
            assert g == w, "at %d ms after the first frame:\n%s" % (ms, frame_diff(g, w))
        assert glass.page(want[1])[0].strip() == "PAUSED", glass.page(want[1])
        assert glass.piles_per_row(want[0]) == glass.piles_per_row(want[2]) == 3
        assert paused.startswith("paused") and "real time" not in paused, paused
        assert "paused" not in resumed, resumed
    finally:
        p.close()
