"""The page open in two tabs of one browser (issue 44): one memory, as the handheld has
one. The first tab keeps it; a second says it does not save, and takes the memory over
when the first closes only if the first saved nothing since (else it asks to be reloaded),
so no saved setting is lost. And make web-serve's answers to a path no file can have and
to the page's folders. Served and driven as tests/twins/chip/test_web.py does (its
helpers); skipped, with its reason, where it is."""
import http.client
import os
import urllib.parse

import pytest

from tests.twins.chip.test_web import (REASON, WAIT_MS, Keyboard, Page, browser,  # noqa: F401
                                       play, served)
from twins.desktop import glass

pytestmark = pytest.mark.skipif(REASON is not None, reason="the web page: %s" % REASON)
ELSEWHERE = "the handheld is open in another tab: this one plays but does not save"
STALE = "reload this one to save here"
STORED = "localStorage.getItem('california-speed-nvm')"
TO_SETTINGS = "400 A1 tap\n700 A1 tap\n1000 A1 tap\n1300 A3 tap\n"  # the cursor on MATCH


def _value(frame, label):
    """A setting's value on the settings page."""
    for line in glass.page(frame):
        if line[1:].startswith(label + " "):
            return line[1 + len(label):].strip()
    raise AssertionError("no %s on the glass:\n%s" % (label, "\n".join(glass.page(frame))))


def _settings(tab):
    """The tab's settings page read after a (re)load: {label: value}."""
    frame = play(tab, Keyboard(tab), TO_SETTINGS, [1600])[0]
    return {label: _value(frame, label) for label in ("LOCKOUT", "MATCH BY")}


def _change(tab, label, downs):
    """On the settings page: down to label, its next value, back (the firmware saves);
    the value it had and the one it has. The chip is held a second after, its save done."""
    at = 1600 + 300 * downs
    script = TO_SETTINGS + "".join("%d A1 tap\n" % (1600 + 300 * i) for i in range(downs))
    before, after = (_value(f, label) for f in play(
        tab, Keyboard(tab), script + "%d A3 tap\n%d MENU tap\n" % (at, at + 300),
        [at - 100, at + 200]))
    assert before != after, (label, before)
    tab.at(at + 1300)
    return before, after


def _status(tab):
    return tab.page.inner_text("#status")


def test_a_second_tab_plays_without_saving_and_loses_nothing_the_first_saved(browser, served):
    """LOCKOUT changed in the first tab is saved; MATCH BY changed in the second is not,
    as its status says; when the first closes, the second saves nothing (the first saved
    since it read the memory) and asks to be reloaded; reloaded, it has the first's
    LOCKOUT."""
    context = browser.new_context(viewport={"width": 600, "height": 760})
    one = two = None
    try:
        one = Page(browser, served[0], context)
        one.at(300)
        two = Page(browser, served[0], context)
        two.at(300)
        assert ELSEWHERE in _status(two) and ELSEWHERE not in _status(one), _status(two)
        _, lockout = _change(one, "LOCKOUT", 2)
        saved = one.page.evaluate(STORED)
        assert saved is not None, "the first tab did not save"
        match_by, _ = _change(two, "MATCH BY", 3)
        assert ELSEWHERE in _status(two), _status(two)
        assert two.page.evaluate(STORED) == saved, "the second tab wrote over the first's"
        one.close()
        one = None
        two.page.wait_for_function("s => document.getElementById('status').textContent"
                                   ".includes(s)", arg=STALE, timeout=WAIT_MS)
        assert two.page.evaluate(STORED) == saved, "the second tab saved its old memory"
        two.reload()
        assert _settings(two) == {"LOCKOUT": lockout, "MATCH BY": match_by}
        assert "tab" not in _status(two), _status(two)
    finally:
        for tab in (one, two):
            if tab:
                tab.close()
        context.close()


def test_when_the_first_tab_closes_having_saved_nothing_the_second_keeps_the_memory(
        browser, served):
    """MATCH BY changed in the second tab, then the first closed with nothing saved since
    the second read the memory: the second keeps the memory from then on, its MATCH BY
    saved and its status no longer saying it does not save."""
    context = browser.new_context(viewport={"width": 600, "height": 760})
    one = two = None
    try:
        one = Page(browser, served[0], context)
        one.at(300)
        two = Page(browser, served[0], context)
        two.at(300)
        _, match_by = _change(two, "MATCH BY", 3)
        assert two.page.evaluate(STORED) is None and ELSEWHERE in _status(two)
        one.close()
        one = None
        two.page.wait_for_function(STORED + " !== null", timeout=WAIT_MS)
        assert "tab" not in _status(two), _status(two)
        two.reload()
        assert _settings(two)["MATCH BY"] == match_by
        assert "tab" not in _status(two), _status(two)  # (reloaded, it keeps the memory)
    finally:
        for tab in (one, two):
            if tab:
                tab.close()
        context.close()


def _get(url, path):
    """(status, body) of a GET of path, sent as it is."""
    where = urllib.parse.urlsplit(url)
    c = http.client.HTTPConnection(where.hostname, where.port, timeout=60)
    try:
        c.request("GET", path)
        r = c.getresponse()
        return r.status, r.read()
    finally:
        c.close()


def test_the_server_answers_a_nul_and_each_folder_with_a_4xx_and_goes_on(served):
    url, out, said = served
    folders = sorted("/" + os.path.relpath(d, out) for d, _, _ in os.walk(out) if d != out)
    assert {"/docs", "/tests", "/hardware"} <= set(folders), folders
    for path in ["/%00", "/docs/%00.html", "/index.html%00"] + folders \
            + [f + "/" for f in folders]:
        status, body = _get(url, path)
        assert 400 <= status < 500 and b"Directory listing" not in body, (path, status)
        assert _get(url, "/")[0] == 200, "the server stopped after %s" % path
    with open(said) as f:
        assert "Traceback" not in f.read()
