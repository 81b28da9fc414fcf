"""The page as a phone (390x844, touch), a tablet (1024x768, touch) and a desk (a 1280x800
window, and a 1024x768 one, no touch) open it (issue 47): on a desk and on a phone B's side
stands upright and says the computer may sit there, on a tablet lying between two players
it faces B; the visitor's choice of layout is kept; every button is at least 44 x 44 CSS
px (WCAG 2.5.5) and nothing is cut off; each view equals its kept picture (docs/web-phone.png,
web-tablet.png, web-desk.png: the glass's pixels exactly, the layout's boxes within a line of
text, as fonts differ between machines); How to play greets a first visit, takes no key
from the chip, and goes when dismissed. Served and driven as tests/twins/chip/test_web.py
does (its helpers); skipped, with its reason, where it is. The pictures are made by
python -m twins.chip.web --version dev --views docs."""
import io
import json
import os

import pytest

from tests.twins.chip.test_web import (REASON, WAIT_MS, Page, browser,  # noqa: F401
                                       served)
from twins.chip import web
from twins.desktop.scenes import frame_diff, golden

pytestmark = pytest.mark.skipif(REASON is not None, reason="the web page: %s" % REASON)
DOCS = os.path.join(web.ROOT, "docs")
CHECKED = dict(web.VIEWS, **{"desk-1024": (1024, 768, False)})  # (not kept as a picture)
UPRIGHT = {"phone", "desk", "desk-1024"}
TURNED = "matrix(-1, 0, 0, -1, 0, 0)"
MOVES, SIZES = 24, 2  # px a box may move (a line of text) and change size by, between machines
FACTS = """() => {
  const inDocument = (r) => ({x: r.x + scrollX, y: r.y + scrollY, right: r.right + scrollX,
                              bottom: r.bottom + scrollY});
  const shown = (el) => el.getClientRects().length > 0;
  const named = (el) => (el.closest('.seat')?.id || '') + ' ' + (el.dataset.key || el.className
    || el.tagName) + ' "' + el.innerText.replace(/\\s+/g, ' ').slice(0, 30) + '"';
  const targets = [...document.querySelectorAll('button, .tools a, summary')].filter(shown)
    .filter((el) => !el.closest('dialog'));
  const words = [...document.querySelectorAll('.who, .status, .help, #glass')].filter(shown);
  const turned = (el) => { for (; el; el = el.parentElement) {
    if (getComputedStyle(el).transform !== 'none') return true; } return false; };
  return {
    layout: document.body.dataset.layout,
    seatB: getComputedStyle(document.getElementById('seatB')).transform,
    width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight,
    innerWidth,
    targets: targets.map((el) => [named(el), el.getBoundingClientRect().width,
                                  el.getBoundingClientRect().height]),
    boxes: [...targets, ...words].map((el) => [named(el), inDocument(el.getBoundingClientRect())]),
    upright: [...document.querySelectorAll('#seatB button, #seatB .who')].filter(shown)
      .filter((el) => !turned(el)).length,
    seatBShown: [...document.querySelectorAll('#seatB button, #seatB .who')].filter(shown).length,
    who: document.querySelector('#seatB .who').innerText,
    whoAbovePad: document.querySelector('#seatB .who').getBoundingClientRect().bottom
      <= document.querySelector('#seatB .pad').getBoundingClientRect().top,
    nearRow: [...document.querySelectorAll('#seatB .pad .row')[1].querySelectorAll('button')]
      .sort((a, b) => a.getBoundingClientRect().x - b.getBoundingClientRect().x)
      .map((el) => el.dataset.key),  // (B's own row, from the screen's left)
  };
}"""


@pytest.fixture(scope="module")
def seen(browser, served):
    """Each view of CHECKED opened once at the main menu: {name: (FACTS, web.BOXES, the
    screenshot's bytes)}."""
    out = {}
    for name, (width, height, touch) in CHECKED.items():
        context, page = web.open_view(browser, served[0], width, height, touch)
        try:
            out[name] = (page.evaluate(FACTS), page.evaluate(web.BOXES), page.screenshot())
        finally:
            context.close()
    return out


@pytest.mark.parametrize("name", sorted(UPRIGHT))
def test_on_a_desk_and_on_a_phone_the_far_seat_stands_upright_and_says_who_sits_there(
        seen, name):
    """B's buttons and words read upright, B's name over them saying the computer plays
    there in VS COMPUTER, and B's buttons still sit over B's piles as the glass draws them:
    B's first (its own left) at the glass's right."""
    facts = seen[name][0]
    assert facts["layout"] == "desk" and facts["seatB"] == "none", facts["seatB"]
    assert facts["seatBShown"] >= 10 and facts["upright"] == facts["seatBShown"], facts
    assert facts["who"].startswith("B") and "the computer in VS COMPUTER" in facts["who"]
    assert facts["whoAbovePad"], "B's name is not above B's buttons"
    assert facts["nearRow"] == ["B3", "B2", "B1", "B0"], facts["nearRow"]


def test_on_a_tablet_lying_between_two_players_the_seats_face_each_other(seen):
    facts = seen["tablet"][0]
    assert facts["layout"] == "table" and facts["seatB"] == TURNED, facts["seatB"]
    assert facts["upright"] == 0, "some of B's side does not face B"
    assert facts["nearRow"] == ["B3", "B2", "B1", "B0"], facts["nearRow"]  # (on the glass)


@pytest.mark.parametrize("name", sorted(CHECKED))
def test_every_button_is_at_least_44_css_px_square(seen, name):
    targets = seen[name][0]["targets"]
    assert len(targets) >= 18 + 4 + 1, targets  # the seats' 18, the tools' 4, the Pico's
    small = [(what, round(w), round(h)) for what, w, h in targets if w < 44 or h < 44]
    assert not small, "%s: below 44 x 44 CSS px: %s" % (name, small)


@pytest.mark.parametrize("name", sorted(CHECKED))
def test_nothing_is_cut_off(seen, name):
    """Every button, name, status, help and the glass lie inside the document (the window,
    or scrolled to), none above its top or past its sides, and nothing scrolls sideways."""
    facts = seen[name][0]
    assert facts["width"] <= facts["innerWidth"], "%s scrolls sideways: %d px wide" % (
        name, facts["width"])
    out = [what for what, b in facts["boxes"]
           if b["x"] < 0 or b["y"] < 0 or b["right"] > facts["width"] + 0.5
           or b["bottom"] > facts["height"] + 0.5]
    assert len(facts["boxes"]) >= 27 and not out, "%s: cut off: %s" % (name, out)


def _kept(name):
    """docs/web-NAME.png: (its picture, the boxes it was made with)."""
    from PIL import Image
    img = Image.open(os.path.join(DOCS, "web-%s.png" % name))
    return img.convert("RGB"), json.loads(img.text["boxes"])


def _glass(picture, box):
    """The glass's 128 x 64 pixels read off a picture of the page, each at its centre."""
    x, y, w, h = box
    return bytes(int(picture.getpixel((int(x + (i + 0.5) * w / 128), int(y + (j + 0.5) * h / 64)))[2]
                     > 100) for j in range(64) for i in range(128))


@pytest.mark.parametrize("name", sorted(web.VIEWS))
def test_each_view_is_its_kept_picture(seen, name, tmp_path):
    """The glass on the screen (read off the screenshot) is the main menu's golden and the
    kept picture's glass; the buttons, the seats' names and the glass sit where the kept
    picture has them."""
    from PIL import Image
    _, boxes, shot = seen[name]
    (tmp_path / ("web-%s.png" % name)).write_bytes(shot)  # (to look at, when this fails)
    now = Image.open(io.BytesIO(shot)).convert("RGB")
    picture, kept = _kept(name)
    assert now.size == picture.size == tuple(web.VIEWS[name][:2]), (now.size, picture.size)
    assert _glass(now, boxes["glass"]) == golden("menu"), frame_diff(
        _glass(now, boxes["glass"]), golden("menu"))
    assert _glass(picture, kept["glass"]) == golden("menu"), "docs/web-%s.png" % name
    assert sorted(boxes) == sorted(kept), set(boxes) ^ set(kept)
    moved = {what: (list(map(round, boxes[what])), list(map(round, kept[what])))
             for what in boxes
             if any(abs(a - b) > MOVES for a, b in zip(boxes[what][:2], kept[what][:2]))
             or any(abs(a - b) > SIZES for a, b in zip(boxes[what][2:], kept[what][2:]))}
    assert not moved, "%s: not where docs/web-%s.png has them (now, kept): %s" % (
        name, name, moved)


def test_the_visitors_choice_of_layout_is_kept_across_a_reload(browser, served):
    """On a desk, Face to face turns B's side to face B, and stays so after a reload;
    Upright stands it up again."""
    p = Page(browser, served[0], browser.new_context(viewport={"width": 1280, "height": 800}))
    try:
        layout = ("[document.body.dataset.layout, "
                  "getComputedStyle(document.getElementById('seatB')).transform]")
        assert p.page.evaluate(layout) == ["desk", "none"]
        assert p.page.get_attribute(".layout [data-layout=desk]", "aria-pressed") == "true"
        p.page.click(".layout [data-layout=table]")
        assert p.page.evaluate(layout) == ["table", TURNED]
        p.reload()
        assert p.page.evaluate(layout) == ["table", TURNED]
        assert p.page.get_attribute(".layout [data-layout=table]", "aria-pressed") == "true"
        p.page.click(".layout [data-layout=desk]")
        p.reload()
        assert p.page.evaluate(layout) == ["desk", "none"]
    finally:
        p.context.close()
        assert not p.errors, p.errors


LEARN = """() => { const d = document.getElementById('learn'), r = d.getBoundingClientRect();
  return {open: d.open, inside: r.x >= 0 && r.y >= 0 && r.right <= innerWidth
                                && r.bottom <= innerHeight,
          lines: [...d.querySelectorAll('ol li')].map((li) => li.innerText),
          pictures: [...d.querySelectorAll('img')].map((i) => [i.naturalWidth, i.naturalHeight]),
          rules: d.querySelector('a[href="docs/RULES.html"]') !== null, keys: d.innerText}; }"""


def test_how_to_play_greets_a_first_visit_takes_no_key_and_goes_when_dismissed(browser,
                                                                             served):
    """A first visit on a phone: How to play is open over the page, inside the window: the
    game in four lines, HOW TO PLAY's own pictures of a pair, the rules a click away and
    the keyboard's keys. Enter dismisses it (the chip sees no key: the main menu stays);
    it is not shown again after a reload, and its button opens it again (tapped away)."""
    from PIL import Image
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    p = Page(browser, served[0], context, taught=False)
    try:
        p.page.wait_for_function("document.getElementById('learn-keys').innerText !== ''",
                                 timeout=WAIT_MS)
        learn = p.page.evaluate(LEARN)
        assert learn["open"] and learn["inside"], learn
        assert len(learn["lines"]) == 4 and "same rank" in learn["lines"][0], learn["lines"]
        assert "still be covered" in learn["lines"][2] and "deck" in learn["lines"][3]
        assert learn["pictures"] == [[128, 24], [128, 24]], learn["pictures"]
        for name, page in web.HOWTO.items():  # the glass's own HOW TO PLAY pictures
            assert p.page.request.get(served[0] + name).body() == _png(web.howto_picture(page))
        assert Image.open(os.path.join(served[1], "howto-pair.png")).size == (128, 24)
        assert p.page.request.get(served[0] + "docs/RULES.html").ok and learn["rules"]
        for words in ("z x c v", "a s d f", "j k l ;", "space", "Enter", "Esc"):
            assert words in learn["keys"], (words, learn["keys"])
        assert p.page.locator("#learn .go").bounding_box()["height"] >= 44
        p.at(300)
        p.page.keyboard.press("Enter")
        assert not p.page.evaluate("document.getElementById('learn').open")
        p.at(900)
        assert p.glass() == golden("menu"), frame_diff(p.glass(), golden("menu"))
        p.reload()
        assert not p.page.evaluate("document.getElementById('learn').open")
        p.page.tap("#teach")
        assert p.page.evaluate("document.getElementById('learn').open")
        p.page.tap("#learn .go")
        assert not p.page.evaluate("document.getElementById('learn').open")
    finally:
        context.close()
        assert not p.errors, p.errors


def _png(img):
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()
