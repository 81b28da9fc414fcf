"""The page as an app (issue 38): Chromium finds it installable (its manifest and service
worker), and once loaded it boots to the menu and deals a match with the server gone and
the network off; a new build replaces the old cache. Served and driven as
tests/twins/chip/test_web.py does (its helpers); skipped, with its reason, where it is."""
import base64
import json
import re
import subprocess
import sys

import pytest

from tests.twins.chip.test_web import (REASON, WAIT_MS, Keyboard, Page, browser,  # noqa: F401
                                       play, served)
from twins.chip import flash, web
from twins.desktop.scenes import frame_diff, golden

pytestmark = pytest.mark.skipif(REASON is not None, reason="the web page: %s" % REASON)
CONTROLLED = "navigator.serviceWorker.controller !== null"  # (every file cached)


def _cache(folder):
    """The cache name the folder's sw.js gives."""
    with open("%s/%s" % (folder, web.SW)) as f:
        return re.match(r'const CACHE = "([^"]+)"', f.read()).group(1)


def test_chromium_finds_the_page_installable(served, tmp_path):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:  # (a profile of its own: Chromium installs nothing incognito)
        context = p.chromium.launch_persistent_context(str(tmp_path / "profile"),
                                                       executable_path=web.CHROMIUM)
        try:
            page = context.new_page()
            page.goto(served[0])
            page.wait_for_function(CONTROLLED, timeout=WAIT_MS)
            cdp = context.new_cdp_session(page)
            assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
            assert cdp.send("Page.getAppManifest")["errors"] == []
        finally:
            context.close()
    with open(served[1] + "/manifest.webmanifest") as f:
        manifest = json.load(f)
    assert manifest["display"] == "standalone" and manifest["orientation"] == "any"
    assert {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}


def _in_play(frame):
    """The play screen: the two rows of cards meet across the middle of the glass."""
    return all(sum(frame[128 * y:128 * (y + 1)]) >= 96 for y in (31, 32))


def test_loaded_once_the_page_boots_and_deals_with_no_server_and_no_network(browser, served):
    httpd = web.server(served[1])  # (an address of its own, so a server it can stop)
    p = Page(browser, httpd.url)
    try:
        p.page.wait_for_function(CONTROLLED, timeout=WAIT_MS)
        httpd.shutdown()
        httpd.server_close()
        p.context.set_offline(True)
        p.reload()
        p.at(300)
        assert p.glass() == golden("menu")
        play(p, Keyboard(p), "400 A3 tap 80\n", [])  # 2 PLAYERS: a match is dealt
        p.at(1500)
        assert _in_play(p.glass()), "no match on the glass offline"
        assert p.page.evaluate("caches.keys()") == [_cache(served[1])]
    finally:
        p.close()


def test_a_new_build_replaces_the_cache(browser, tmp_path):
    out = str(tmp_path / "web")

    def build(version):
        subprocess.run([sys.executable, "-m", "twins.chip.web", "--out", out,
                        "--version", version], check=True, capture_output=True)
        return _cache(out)

    first = build("one")
    httpd = web.server(out)
    p = Page(browser, httpd.url)
    try:
        p.page.wait_for_function(CONTROLLED, timeout=WAIT_MS)
        assert p.page.evaluate("caches.keys()") == [first]
        second = build("two")
        assert second != first and second.startswith("california-speed-two-")
        p.reload()
        p.page.wait_for_function("c => caches.keys().then(k => k.length === 1 && k[0] === c)",
                                 arg=second, timeout=WAIT_MS, polling=200)
    finally:
        httpd.shutdown()
        p.close()


def test_the_pico_panel_downloads_the_files_make_uf2_writes(browser, served, tmp_path):
    """Each build's UF2, saved from the panel under make uf2's name, is byte for byte what
    make uf2 (ARGS="--keys matrix" for the matrix build) writes of the same build."""
    import os
    from tests.twins.chip.test_web import BUILT
    from tools import uf2
    p = Page(browser, served[0])
    try:
        p.page.click("#pico summary")
        for keys in ("direct", "matrix"):
            made = str(tmp_path / ("%s.uf2" % keys))
            subprocess.run([sys.executable, "-m", "tools.uf2", "--version", "dev", "--keys",
                            keys, "--out", made], check=True, capture_output=True,
                           env=dict(os.environ, SOURCE_DATE_EPOCH=BUILT))
            link = p.page.locator("#pico a[data-uf2]", has_text="the %s build" % keys)
            with p.page.expect_download() as download:
                link.click()
            saved = str(tmp_path / ("saved-%s.uf2" % keys))
            download.value.save_as(saved)
            assert download.value.suggested_filename == os.path.basename(
                uf2.default_name("raspberry_pi_pico", "dev", keys))
            with open(saved, "rb") as got, open(made, "rb") as want:
                assert got.read() == want.read(), "%s: not make uf2's file" % keys
        assert "BOOTSEL" in p.page.inner_text("#pico") and "RPI-RP2" in p.page.inner_text("#pico")
    finally:
        p.close()


def test_the_build_guide_and_the_rules_are_pages_served_with_it(browser, served):
    """The panel's links open the build guide and the rules rendered from their Markdown,
    their pictures and the pages they link to served beside them."""
    p = Page(browser, served[0])
    try:
        for text, title in (("the build guide", "Building the handheld on breadboards"),
                            ("the rules", "California Speed: the rules")):
            p.page.evaluate("document.getElementById('pico').open = true")
            with p.page.expect_navigation():
                p.page.click("#pico a:text-is('%s')" % text)
            assert p.page.inner_text("h1") == title
            broken = p.page.evaluate("""() => Promise.all([...document.querySelectorAll(
                'img[src], a[href$=".html"], a[href$=".svg"]')].map(e => e.src || e.href)
                .filter(u => u.startsWith(location.origin)).map(u => fetch(u).then(
                r => r.ok ? null : u + ' ' + r.status)))""")
            assert [u for u in broken if u] == [], broken
            p.page.go_back()
        for text, kind in (("the soldering guide", "text/html"),
                           ("the schematic", "application/pdf")):
            href = p.page.get_attribute("#pico a:text-is('%s')" % text, "href")
            answer = p.page.request.get(served[0].rsplit("/", 1)[0] + "/" + href)
            assert answer.ok and answer.headers["content-type"].startswith(kind), (href, answer)
        assert "InteractiveHtmlBom" in p.page.request.get(
            served[0].rsplit("/", 1)[0] + "/docs/ibom.html").text()
    finally:
        p.close()


def test_left_open_the_page_sleeps_as_the_handheld_does_and_menu_wakes_it_as_it_was(browser,
                                                                                   served):
    """A tab left open with no USB host: SLEEP's minute after the last key the glass goes
    off, ten more and the chip goes DORMANT (skipped to with window.chip.fastForward, the
    chip unpaced), the page saying so; MENU wakes it through the watchdog's reset to the
    menu as it was before, its saved settings (FLIP: upside down) kept."""
    saved = flash.saved_settings(sleep=3, flip=1)  # SLEEP 1 MIN, the glass upside down
    keep = "n => localStorage.setItem('california-speed-nvm', n)"
    p = Page(browser, served[0])
    try:
        p.page.evaluate(keep, base64.b64encode(saved).decode())
        p.reload()
        p.at(300)
        menu = p.glass()
        assert menu != golden("menu"), "the saved FLIP was not read"
        p.page.evaluate("window.chip.fastForward(12 * 60000)")  # (dormant at 11 minutes)
        # (12 simulated minutes take minutes of wall time on a loaded machine: the wait ends
        # when the chip gets there, or when it makes no progress for WAIT_MS)
        done = "window.chip.state === 'dormant' && window.chip.ms() >= 12 * 60000 + 300"
        while not p.page.evaluate(done):
            ms = p.page.evaluate("window.chip.ms()")
            p.page.wait_for_function("(%s) || window.chip.ms() > %f" % (done, ms + 5000),
                                     timeout=WAIT_MS, polling=200)
        assert not any(p.glass()), "the glass is lit in the deep sleep"
        assert "asleep: press a key" in p.page.inner_text("#status")
        keys = Keyboard(p)
        keys.hold("MENU", True)
        p.page.evaluate("window.chip.stopAt(null)")
        p.page.wait_for_function("window.chip.state !== 'dormant'", timeout=WAIT_MS, polling=50)
        keys.hold("MENU", False)
        p.page.wait_for_function("window.chip.state === 'running'", timeout=WAIT_MS, polling=50)
        assert p.page.evaluate("window.chip.ms()") < 60000, "no boot after the wake"
        p.at(300)
        assert p.glass() == menu, frame_diff(p.glass(), menu)
        assert "asleep" not in p.page.inner_text("#status")
        assert p.page.evaluate("localStorage.getItem('california-speed-nvm')") \
            == base64.b64encode(saved).decode()
    finally:
        p.close()
