"""The web page's glass (twins/chip/js/glass.mjs, run with node) decodes a bus log into the
same frames as the desktop twin's SSD1306 (twins/desktop/ssd1306.py): after every
write of the firmware's own traffic over a short match, and of writes that use every
command the page draws (addressing modes, windows, page-mode columns, display on and off,
invert, entire display on, flips, start line, offset, mux ratio). Skipped, with one
counted reason, where node is missing."""
import json
import os
import random
import shutil
import subprocess

import pytest

from twins.desktop.ssd1306 import VirtualSSD1306
from twins.chip.chip import NODE_DIR
from twins.desktop.scenes import frame_diff

pytestmark = pytest.mark.skipif(shutil.which("node") is None,
                                reason="the web page's glass decoder needs node")
ADDRESS = 0x3C


def js_frames(writes, tmp_path):
    """glass.mjs's glass after each (address, bytes) write, as 128*64 bytes of 1/0."""
    log = tmp_path / "bus.json"
    log.write_text(json.dumps({"width": 128, "height": 64, "address": ADDRESS,
                               "writes": [[a, d.hex()] for a, d in writes]}))
    p = subprocess.run(["node", os.path.join(NODE_DIR, "glasslog.mjs"), str(log)],
                       capture_output=True, text=True, check=True)
    return [bytes((b >> (7 - i)) & 1 for b in bytes.fromhex(h) for i in range(8))
            for h in json.loads(p.stdout)]


def py_frames(writes):
    oled = VirtualSSD1306(address=ADDRESS)
    out = []
    for a, data in writes:
        if a == ADDRESS:
            oled.write(data)
        out.append(oled.frame())
    return out


def same(writes, tmp_path):
    got, want = js_frames(writes, tmp_path), py_frames(writes)
    assert len(got) == len(want) == len(writes)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == w, "after write %d (%s):\n%s" % (i, writes[i][1].hex(), frame_diff(g, w))
    return want


def test_the_firmwares_bus_log_over_a_short_match_gives_the_same_frames(tmp_path):
    from firmware.app import App
    from twins.desktop import virtual
    from tools.keynames import name_of
    from twins.desktop.keypad import load_script
    hw = virtual.init(seed=7, start_ms=virtual.BOOT_TICKS, bus_log=True)
    app = App(hw)
    names = {name_of(k, hw.keymap): k for k in range(len(hw.keymap))}
    script = "400 A3 tap\n1700 A0 tap\n2200 B0 tap\n2700 Af1 tap\n3200 MENU tap\n"
    hw.buttons.schedule(load_script(script, names, 60000, len(names)), offset_ms=hw.ms(0))
    while hw.elapsed < 4000:
        app.step()
    frames = same(list(hw.bus.log), tmp_path)
    assert len(set(frames)) > 5  # the menu, the deal, covers, the pause: the glass changed


def _command_writes(rng):
    """Writes of random commands and GDDRAM bytes, every command the page draws among them."""
    ops = [[0x20, 0], [0x20, 1], [0x20, 2], [0x20, 3], [0x21, 0, 127], [0x22, 0, 7],
           [0xAE], [0xAF], [0xA6], [0xA7], [0xA4], [0xA5], [0xA0], [0xA1], [0xC0], [0xC8],
           [0x81, 0x10], [0x8D, 0x14], [0xA8, 63], [0xA8, 31], [0xA8, 5], [0xD3, 0], [0xE3],
           [0xDA, 0x12], [0x2E], [0x26, 0, 0, 0, 0, 0, 0xFF], [0xFF]]
    writes = [(ADDRESS, bytes([0x00, 0x8D, 0x14, 0xAF, 0xA1, 0xC8]))]
    for _ in range(400):
        kind = rng.random()
        if kind < 0.35:
            op = list(rng.choice(ops))
            if op[0] in (0x21, 0x22):
                top = 127 if op[0] == 0x21 else 7
                op[1:] = sorted(rng.randrange(top + 1) for _ in range(2))
            elif op[0] == 0xD3:
                op[1] = rng.randrange(64)
            if rng.random() < 0.5:  # Co=1: a control byte before each command byte
                writes.append((ADDRESS, bytes(b for c in op for b in (0x80, c))))
            else:
                writes.append((ADDRESS, bytes([0x00] + op)))
        elif kind < 0.45:
            writes.append((ADDRESS, bytes([0x80, rng.choice([rng.randrange(0x20),
                                                             0x40 + rng.randrange(64),
                                                             0xB0 + rng.randrange(8)])])))
        elif kind < 0.5:
            writes.append((0x3D, bytes([0x40] + [0xFF] * 8)))  # another address: not ours
        else:
            writes.append((ADDRESS, bytes([0x40] + [rng.randrange(256)
                                                    for _ in range(rng.randrange(1, 300))])))
    return writes


def test_every_command_the_page_draws_gives_the_same_frames(tmp_path):
    writes = _command_writes(random.Random(26))
    frames = same(writes, tmp_path)
    assert len(set(frames)) > 50
    assert bytes(128 * 64) in frames  # the display went off (0xAE) at some point
