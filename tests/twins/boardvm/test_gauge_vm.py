"""The battery gauge on CircuitPython's own VM: hardware/pico.py reads VSYS through the
analogio and digitalio stand-ins (GP29 a third of VSYS, VBUS_SENSE on GP24), and the glass
shows the cells' charge from full to flat; on USB power it shows none."""
import pytest

from lab.battery import LOW_PERCENT, percent
from tests.twins.boardvm import test_standins
from twins.boardvm import boardvm, soak
from twins.desktop import glass

MISSING = boardvm.missing()
needs_vm = pytest.mark.skipif(bool(MISSING), reason="CircuitPython's own VM: " + MISSING)
READ_MS = 4000  # hardware/pico.py reads the cells again once its reading is this old


def _read(volts):
    """What the Pico makes of VSYS: a third of it on GP29, 12 bits against 3.3 V stretched
    to 16, times 9.9 V."""
    raw = int(volts * 1000) // 3 * 4095 // 3300
    return (raw << 4 | raw >> 8) * 9900 // 65535


@pytest.mark.parametrize("module", ["analogio", "digitalio"])
def test_the_vms_analogio_and_digitalio_have_circuitpython_10s_names(module):
    source = test_standins._standin_source(module)
    assert test_standins.check_module(module, source, test_standins._stub_source(module)) == []
    assert "class AnalogIn" in source or "class DigitalInOut" in source


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return boardvm.build_tree(str(tmp_path_factory.mktemp("circuitpy") / "CIRCUITPY"))


@needs_vm
def test_the_title_shows_the_cells_from_full_to_flat_and_nothing_on_usb(tree):
    s = soak.Script(1000)
    s.shot("usb")
    volts = (4.3, 3.9, 3.3, 2.9, 2.6, 2.45)
    for v in volts:
        s.at(s.t, "vsys %s" % v)
        s.wait(READ_MS)
        s.tap(soak.DOWN)  # the page is drawn again, and reads the cells
        s.shot("v%s" % v)
    s.at(s.t, "vsys 0")  # USB again
    s.wait(READ_MS)
    s.tap(soak.DOWN)
    s.shot("usb2")
    s.end()
    r = boardvm.run(tree, script=s.text(), heap="256K", timeout=300)
    assert r.done and not r.exceptions, r.output[-2000:]
    for name in ("usb", "usb2"):
        assert glass.page(r.shots[name])[0] == "  CALIFORNIA SPEED", name
    shown = [glass.page(r.shots["v%s" % v])[0] for v in volts]
    assert shown == ["CALIFORNIA SPEED %3d%%" % percent(_read(v)) for v in volts]
    assert shown[0].endswith("100%") and shown[-1].endswith("   1%"), shown


@needs_vm
def test_a_match_on_low_cells_starts_with_a_warning_and_the_self_test_shows_them(tree):
    s = soak.Script(1000)
    s.at(s.t, "vsys 2.8")  # under 15 % left (lab/battery.py LOW_PERCENT)
    s.wait(READ_MS)
    s.tap(soak.RIGHT)  # 2 PLAYERS
    s.wait(300)
    s.shot("dealt")
    s.wait(2000)
    s.shot("later")
    s.at(s.t, "power")  # on again with MENU held: the self-test
    s.down("MENU", s.t + 100)
    s.up("MENU", s.t + 1500)
    s.wait(5000)
    s.shot("selftest")
    s.end()
    r = boardvm.run(tree, script=s.text(), heap="256K", timeout=300)
    assert r.done and not r.exceptions, r.output[-2000:]
    assert 0 <= percent(_read(2.8)) <= LOW_PERCENT
    for player in (0, 1):
        assert "LOW BATTERY" in glass.info(r.shots["dealt"], player)
        assert "LOW BATTERY" not in glass.info(r.shots["later"], player)
    shown = glass.text_at(r.shots["selftest"], 1, 31, 18).strip()
    assert shown == "CELLS %3d%%" % percent(_read(2.8))
