"""The web page (make web) in a real browser: headless Chromium, driven by playwright, loads
it from make web-serve's server on 127.0.0.1 and sees CircuitPython's own Pico image boot
to the main menu on the canvas; plays a short match by keyboard and one by touch, its glass
equal to the desktop twin's at every checkpoint; keeps a setting across a reload; and the
page's console shows no error. Each key goes in when the chip's simulated clock reaches its
time (the page holds the chip there: window.chip.stopAt), so the checkpoints line up with
the desktop twin's. Skipped, with one counted reason, where Chromium, playwright or the chip
twin's toolchain is missing (.ci/run installs Chromium and provides the rest)."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

from twins.chip import chip, web
from twins.desktop.play import MAX_MS
from twins.desktop.scripted import desktop_run, match_script
from twins.desktop import glass
from twins.desktop.scenes import frame_diff, golden

REASON = chip.missing() or web.browser_missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason="the web page: %s" % REASON)
WAIT_MS = 240000  # wall ms a step may take on a busy machine (the chip runs ~0.35x)
BUILT = "1767225600"  # the page's build time (2026-01-01): make uf2 of it makes the same bytes
GLASS = """() => {
  const d = document.getElementById('glass').getContext('2d').getImageData(0, 0, 128, 64).data;
  let s = '';
  for (let i = 0; i < d.length; i += 4) s += d[i + 2] > 0 ? '1' : '0';
  return s;
}"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """make web-serve on a folder of its own (the goldens' version, built at BUILT): the
    page's address, its folder and the file that holds what the server said on stderr."""
    here = tmp_path_factory.mktemp("web")
    out, said = str(here / "web"), str(here / "stderr.txt")
    with open(said, "w") as err:
        p = subprocess.Popen([sys.executable, "-m", "twins.chip.web", "--serve", "--out", out,
                              "--version", "dev"], stdout=subprocess.PIPE, stderr=err,
                             text=True, env=dict(os.environ, SOURCE_DATE_EPOCH=BUILT))
    try:
        for line in p.stdout:
            m = re.search(r"serving it at +(http://127\.0\.0\.1:\d+/)", line)
            if m:
                break
        else:
            with open(said) as err:
                pytest.fail("make web-serve said no address (exit %s): %s"
                            % (p.wait(), err.read()[-500:]))
        yield m.group(1), out, said
    finally:
        p.terminate()
        p.wait()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=web.CHROMIUM)
        yield b
        b.close()


class Page:
    """The page in a fresh browser context (its own storage; a tablet's touch, so the seats
    face each other), or in a tab of context (its storage shared with the context's other
    tabs), its console kept; How to play seen (its dialog would take the keys) unless
    taught is False."""

    def __init__(self, browser, url, context=None, taught=True):
        self.url, self.shared = url, context is not None
        self.context = context or browser.new_context(has_touch=True,
                                                      viewport={"width": 600, "height": 760})
        self.page = self.context.new_page()
        if taught:
            self.page.add_init_script(web.SEEN_SCRIPT)
        self.said, self.errors, self.requests = [], [], []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.errors.append("uncaught: %s" % e))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.open()

    def _console(self, message):
        (self.errors if message.type == "error" else self.said).append(message.text)

    def open(self):
        self.page.goto(self.url)
        self.page.wait_for_function("window.chip !== undefined", timeout=WAIT_MS)

    def reload(self):
        self.page.reload()
        self.page.wait_for_function("window.chip !== undefined", timeout=WAIT_MS)

    def at(self, ms):
        """Run the chip to ms after its first full frame and hold it there."""
        self.page.evaluate("ms => window.chip.stopAt(ms)", ms)
        self.page.wait_for_function("ms => window.chip.ms() !== null && window.chip.ms() >= ms",
                                    arg=ms, timeout=WAIT_MS, polling=50)

    def glass(self):
        return bytes(int(c) for c in self.page.evaluate(GLASS))

    def seed(self):
        for line in self.said:
            m = re.match(r"chip: match: seed (\d+)", line)
            if m:
                return int(m.group(1))
        raise AssertionError("the chip said no seed: %s" % self.said)

    def close(self):
        (self.page if self.shared else self.context).close()
        assert not self.errors, self.errors


@pytest.fixture
def page(browser, served):
    """The page with ?console: a USB host hears the chip's console (the match's seed)."""
    p = Page(browser, served[0] + "?console")
    yield p
    p.close()


OVER_GLASS = """() => {
  const glass = document.getElementById('glass'), box = glass.getBoundingClientRect();
  const at = document.elementsFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return {ms: window.chip.ms(),
          over: at.slice(0, at.indexOf(glass)).map(e => e.innerText).join(' ').trim()};
}"""


def test_the_glass_says_the_chip_is_loading_and_starting_until_the_firmwares_first_frame(
        browser, served):
    p = Page(browser, served[0])
    try:
        booting = p.page.evaluate(OVER_GLASS)
        assert booting["ms"] is None, "the first frame came before the page was looked at"
        assert re.match("(loading the chip|starting CircuitPython)\u2026", booting["over"]), \
            booting  # (the UF2's bytes as they come, then the chip's seconds since power-on)
        p.at(300)
        assert p.page.evaluate(OVER_GLASS)["over"] == ""
        assert p.glass() == golden("menu")
    finally:
        p.close()


def test_opened_as_a_file_the_page_says_in_one_line_that_it_must_be_served(browser, served):
    context = browser.new_context(viewport={"width": 600, "height": 760})
    try:
        page = context.new_page()
        page.goto(pathlib.Path(served[1], "index.html").as_uri())
        page.wait_for_function("/could not start|must be served/.test("
                               "document.getElementById('status').textContent)", timeout=WAIT_MS)
        said = page.inner_text("#status")
        assert "must be served" in said and "make web-serve" in said, said
        assert "\n" not in said and "Failed to fetch" not in said, said
        assert page.evaluate("""() => { const r = document.createRange();
            r.selectNodeContents(document.getElementById('status'));
            return r.getClientRects().length; }""") == 1, "not one line on the page: " + said
    finally:
        context.close()


def test_a_tap_shorter_than_a_frame_moves_the_menu_as_a_press_does(browser, served):
    """Its press and release in one task of the page, with no slice of the chip between:
    the press is held until the chip's scans have seen it."""
    p = Page(browser, served[0])
    try:
        key, got = Keyboard(p).keys["A1"], []
        for ms in (400, 700):  # (the second: the first's release reached the chip too)
            p.at(ms)
            p.page.evaluate("""key => { for (const type of ['keydown', 'keyup'])
                window.dispatchEvent(new KeyboardEvent(type, {key, code: 'tap'})); }""", key)
            p.at(ms + 250)
            got.append(p.glass())
        want = desktop_run("400 A1 tap\n700 A1 tap\n", 1, [650, 950])[0]
        assert got[0] != golden("menu") and got[1] != got[0], "a tap was lost: the menu stayed"
        for g, w in zip(got, want):
            assert g == w, frame_diff(g, w)
    finally:
        p.close()


def test_the_pages_licences_are_the_projects_first_then_the_drives_and_the_chips(served):
    """LICENSES.txt starts with the project's MIT licence and carries the UF2's drive's
    LICENSES.txt whole (the Adafruit libraries' notices), then CircuitPython's, the boot
    ROM's and rp2040js's."""
    from tools import licences, uf2
    from tools.deploy import LIBRARIES
    with open(os.path.join(served[1], licences.FILE), encoding="utf-8") as f:
        text = f.read()
    with open(licences.PROJECT, encoding="utf-8") as f:
        project = f.read().strip()
    drive = uf2.drive_files(os.path.join(served[1], web.UF2))[licences.FILE].decode("utf-8")
    parts = re.split(r"^== (.+) ==$", text, flags=re.M)
    assert parts[0] == "" and parts[2].strip() == project, text[:400]
    assert text.startswith(drive), text[:400]
    for module in LIBRARIES:
        assert licences.library(module)[1] in drive, module
    for what in ("CircuitPython, MIT", "the RP2040 boot ROM, BSD-3-Clause", "rp2040js 1.4.1"):
        assert [title for title in parts[1::2] if title.startswith(what)], (what, parts[1::2])
    bundle = re.search(r"rp2040js [^(]*\(bundled in (\S+)\)", text).group(1)
    with open(os.path.join(served[1], bundle), encoding="utf-8") as f:
        assert "executeInstruction" in f.read(), "rp2040js is not in %s" % bundle


def test_without_console_the_page_is_a_handheld_on_batteries(browser, served):
    """No USB host (the chip sleeps between passes, and the page runs faster): the same
    menu, and no console line."""
    p = Page(browser, served[0])
    try:
        p.at(300)
        assert p.glass() == golden("menu")
        assert not [line for line in p.said if line.startswith("chip: ")], p.said
    finally:
        p.close()


class Keyboard:
    """Keys by name, pressed on the keyboard (the README's layout)."""

    def __init__(self, page):
        board = page.page.evaluate("fetch('board.json').then(r => r.json())")
        self.keys = {name: ("Space" if ch == " " else ch) for ch, name in
                     board["keyboard"].items()}
        self.page = page.page

    def hold(self, name, down):
        (self.page.keyboard.down if down else self.page.keyboard.up)(self.keys[name])


class Touch:
    """Keys by name, held by a finger on the seat's buttons (real touch events: CDP)."""

    def __init__(self, page):
        self.page = page.page
        self.cdp = page.context.new_cdp_session(self.page)
        self.held = {}  # name: touch point
        self.fingers = 0

    def hold(self, name, down):
        if down:
            seat = "A" if name == "MENU" else name[0]  # (MENU: A's)
            box = self.page.locator('#seat%s [data-key="%s"]' % (seat, name)).bounding_box()
            self.held[name] = {"x": box["x"] + box["width"] / 2,
                               "y": box["y"] + box["height"] / 2, "id": self.fingers}
            self.fingers += 1
        else:
            self.held.pop(name)
        self.cdp.send("Input.dispatchTouchEvent", {
            "type": "touchStart" if down else "touchEnd" if not self.held else "touchMove",
            "touchPoints": list(self.held.values())})


def play(page, keys, script, checks):
    """The script's key edges at their times and the glass at each checkpoint (ms)."""
    from twins.desktop.keypad import load_script
    names = chip.key_names()
    number = {k: n for n, k in names.items()}
    steps = sorted([(ms, 1, number[k], down) for ms, k, down in
                    load_script(script, names, MAX_MS, len(names))]
                   + [(ms, 0, None, None) for ms in checks])
    frames = []
    for ms, edge, name, down in steps:
        page.at(ms)
        if edge:
            keys.hold(name, down)
        else:
            frames.append(page.glass())
    return frames


def test_the_page_boots_to_the_main_menu_of_the_golden_from_its_own_folder(page, served):
    page.at(300)
    got = page.glass()
    assert got == golden("menu"), frame_diff(got, golden("menu"))
    assert all(url.startswith(served[0]) for url in page.requests), page.requests
    assert any(line == "chip: California Speed dev" for line in page.said), page.said
    page.at(1500)  # (a second: the speed is measured over one)
    assert re.match(r"(\d\.\d+x )?real time", page.page.text_content("#status")), \
        page.page.text_content("#status")
    with open(served[1] + "/LICENSES.txt") as f:
        licences = f.read()
    for what in ("CircuitPython, MIT", "rp2040js 1.4.1", "boot ROM, BSD-3-Clause"):
        assert what in licences


def _match(page, keys):
    """A short 2-player match on the page: the first key deals it; its seed makes the rest
    on the desktop twin (match_script), whose glass the page's must equal; at the end
    MENU held (a held key stays held) pauses it. The piezo is muted until the first key,
    then plays the firmware's tones: the covers' clicks among them."""
    from firmware import keyfilter, sound
    first = "400 A3 tap 80\n"
    page.at(300)
    assert page.page.evaluate("window.chip.heard()") is None  # muted: no key yet
    play(page, keys, first, [])
    page.at(1000)
    seed = page.seed()
    for limit_ms in (4500, 6000, 7500, 9000, 12000):  # (a stall early on costs a second)
        script, checks, counts = match_script(seed, covers=4, limit_ms=limit_ms)
        if counts["covered"] >= 4:
            break
    assert script.startswith(first) and counts["covered"] >= 4, (seed, script, counts)
    hold = checks[-1] + 100
    script += "%d MENU down\n%d MENU up\n" % (hold, hold + keyfilter._PAUSE_HOLD_MS + 300)
    checks += [hold + keyfilter._PAUSE_HOLD_MS + 600]
    got = play(page, keys, script[len(first):], checks)
    want = desktop_run(script, seed, checks)[0]
    for ms, g, w in zip(checks, got, want):
        assert g == w, "at %d ms after the first frame:\n%s" % (ms, frame_diff(g, w))
    assert len(set(got)) >= 5 and got[-1] != got[-2]  # the deal, covers, then the pause
    # (within 3%: CircuitPython's PWM divider and TOP make 1606 Hz of the 1568 asked)
    heard = [hz for hz in page.page.evaluate("window.chip.heard()") if hz]
    near = [[t for t in sound._HZ if t and abs(hz - t) <= t * 0.03] for hz in heard]
    assert heard and all(near), " ".join(map(str, sorted(set(heard))))
    for click in (sound.COVER_A, sound.COVER_B):
        assert [sound._HZ[click[0]]] in near, " ".join(map(str, sorted(set(heard))))


def test_a_match_by_keyboard_shows_what_the_desktop_twin_shows(page):
    _match(page, Keyboard(page))


def test_a_match_by_touch_on_each_seats_buttons_shows_what_the_desktop_twin_shows(page):
    _match(page, Touch(page))


def _lockout(frame):
    for line in glass.page(frame):
        if line[1:].startswith("LOCKOUT"):
            return line[1 + len("LOCKOUT"):].strip()
    return None


def test_a_setting_changed_in_the_menu_is_kept_across_a_reload(page):
    keys = Keyboard(page)
    to_settings = "400 A1 tap\n700 A1 tap\n1000 A1 tap\n1300 A3 tap\n"  # the settings page
    # down to LOCKOUT, its next value, back (saved)
    before, changed = (_lockout(f) for f in play(
        page, keys, to_settings + "1600 A1 tap\n1900 A1 tap\n2200 A3 tap\n2500 MENU tap\n",
        [2100, 2400]))
    assert before and changed and changed != before, (before, changed)
    page.at(3500)
    page.page.wait_for_function("localStorage.getItem('california-speed-nvm') !== null",
                                timeout=WAIT_MS)
    page.reload()
    assert _lockout(play(page, keys, to_settings, [1600])[0]) == changed


LABELS = """() => Object.fromEntries(['A', 'B'].map(seat => [seat,
  [...document.querySelectorAll('#seat' + seat + ' .row')].map(row =>
    [...row.querySelectorAll('button')].map(b => b.querySelector('.what').textContent))]))"""
MENU_ROWS = [["UP", "DOWN", "LEFT", "RIGHT / CHOOSE"]] * 2 + [["BACK"]]


def test_the_buttons_say_what_they_do_in_the_menus_and_in_play_for_each_seat(page):
    """In the menus a row's buttons are UP, DOWN, LEFT, RIGHT from the player's own left
    and MENU is BACK, RIGHT saying it chooses; in play each covers a pile (A1: A's first
    from A's left), the far row the opponent's; the pause is a menu again. On a tablet B's
    buttons, status and help face B; each button's keyboard key stays as a small hint."""
    from firmware import keyfilter
    page.at(300)
    assert page.page.evaluate(LABELS) == {"A": MENU_ROWS, "B": MENU_ROWS}
    hints = page.page.evaluate("[...document.querySelectorAll('#seatA .row')][1].innerText")
    assert hints.split() == "UP z DOWN x LEFT c RIGHT / CHOOSE v".split(), hints
    assert page.page.evaluate("getComputedStyle(document.getElementById('seatB')).transform") \
        == "matrix(-1, 0, 0, -1, 0, 0)"
    for what in (".status", ".help"):
        a, b = (page.page.inner_text("#seat%s %s" % (seat, what)) for seat in "AB")
        assert a and a == b, (what, a, b)
    keys = Keyboard(page)
    play(page, keys, "400 A3 tap 80\n", [])  # 2 PLAYERS: the deal
    page.at(1500)
    assert page.page.evaluate(LABELS) == {
        "A": [["B4", "B3", "B2", "B1"], ["A1", "A2", "A3", "A4"], ["MENU"]],
        "B": [["A4", "A3", "A2", "A1"], ["B1", "B2", "B3", "B4"], ["MENU"]]}
    up = 1600 + keyfilter._PAUSE_HOLD_MS + 300
    play(page, keys, "1600 MENU down\n%d MENU up\n" % up, [up + 300])
    assert page.page.evaluate(LABELS) == {"A": MENU_ROWS, "B": MENU_ROWS}, "the pause: a menu"


def test_the_chip_runs_in_a_worker_and_leaves_the_page_free_in_a_match(page):
    """While a match runs, the page's own thread is busy a small share of the time (its
    tasks, as Chromium counts them: CDP Performance.getMetrics' TaskDuration; the
    emulator, in a Web Worker, took about 85% of it before), and the chip's time goes on,
    its speed reported."""
    import time
    play(page, Keyboard(page), "400 A3 tap 80\n", [])
    page.at(1000)
    cdp = page.context.new_cdp_session(page.page)
    cdp.send("Performance.enable")

    def now():
        m = {x["name"]: x["value"] for x in cdp.send("Performance.getMetrics")["metrics"]}
        return m["Timestamp"], m["TaskDuration"], page.page.evaluate("window.chip.ms()")

    page.page.evaluate("window.chip.stopAt(null)")
    before = now()
    time.sleep(3)
    after = now()
    busy = (after[1] - before[1]) / (after[0] - before[0])
    assert busy < 0.2, "the page's thread was busy %.0f%% of the match" % (100 * busy)
    assert after[2] - before[2] > 500, "the chip ran %d ms in 3 s" % (after[2] - before[2])
    assert page.page.evaluate("window.chip.speed") > 0.1
