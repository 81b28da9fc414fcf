"""Every visitor to the page deals a match of their own: the chip twin's ring oscillator
takes its random bit from the browser's crypto (twins/chip/js/errata.mjs), so CircuitPython's
os.urandom, and the seed of the first deal, differ from one page load to the next. Served
and driven as tests/twins/chip/test_web.py does (its helpers); skipped, with its reason, where it is."""
import pytest

from tests.twins.chip.test_web import REASON, Keyboard, Page, browser, play, served  # noqa: F401

pytestmark = pytest.mark.skipif(REASON is not None, reason="the web page: %s" % REASON)


def _first_deal(browser, served):
    """A fresh page load (its own storage, ?console for the seed): the first match's seed."""
    page = Page(browser, served[0] + "?console")
    try:
        page.at(300)
        play(page, Keyboard(page), "400 A3 tap 80\n", [])
        page.at(1000)
        return page.seed()
    finally:
        page.close()


def test_two_fresh_page_loads_deal_different_first_matches(browser, served):
    first, second = _first_deal(browser, served), _first_deal(browser, served)
    assert first != second, "both page loads dealt seed %d" % first
