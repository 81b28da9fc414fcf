"""What the firmware's heap holds, measured in CircuitPython's VM (make bench).

    circuitpython32 -X heapsize=256K vmprobe.py tree=DIR out=DIR

With the stand-ins loaded first (the board's C modules cost it no heap), it imports the
board code a package at a time and builds the app's objects one by one, printing
`PROBE <what> <bytes>`: the live heap each step adds, after a collection.
"""
import gc
import sys

import vmbench as bench

for _name in ("board", "busio", "busdisplay", "displayio", "i2cdisplaybus", "keypad",
              "microcontroller", "nvm", "os", "pwmio", "supervisor", "traceback", "watchdog",
              "alarm", "alarm.pin"):
    __import__(_name)

_args = {}
for _a in sys.argv[1:]:
    _k, _v = _a.split("=", 1)
    _args[_k] = _v
bench.settings_path = _args["tree"] + "/settings.toml"
bench.out_dir = _args["out"]
bench.power_on(True)

_mark = [0]
NARROW = ("objects: Long Speed's narrow cells in the big face's room (Table.layout(6): code, "
          "sheet, 12 grids, less the big face's 16)")


def step(what):
    gc.collect()
    used = gc.mem_alloc()
    print("PROBE %s %d" % (what, used - _mark[0]))
    _mark[0] = used


step("bench")
import engine  # noqa: E402,F401
step("code: engine (rules, game, rng, ticks)")
import engine.bot  # noqa: E402,F401
step("code: engine.bot")
import hardware.pico  # noqa: E402,F401
step("code: hardware (pico, config, pinmap, keymap, oled)")
import firmware.glyphs  # noqa: E402,F401
step("code: firmware.glyphs (font, ranks, suits as bytes)")
import firmware.app  # noqa: E402,F401
step("code: firmware (app, match, menus, table, ui, store, ...)")
import adafruit_displayio_ssd1306  # noqa: E402,F401
step("code: adafruit_displayio_ssd1306")
hw = hardware.pico.init()
step("objects: display, keys, buzzer (hardware.pico.init)")
from firmware.ui import Kit  # noqa: E402
kit = Kit()
step("objects: glyph sheets (Kit: 3 bitmaps, a palette)")
from firmware.table import Table  # noqa: E402
table = Table(kit)
step("objects: play screen (Table: 2 bitmaps, 23 tile grids, 5 groups)")
table.layout(6)
step(NARROW)
from firmware.menu import Page  # noqa: E402
page = Page(kit)
step("objects: menu page (8 text lines)")
from engine import Game, Rules  # noqa: E402
game = Game(Rules(), 1)
game.start(0)
step("objects: a Game")
bot = engine.bot.Bot(game, 1, 2, 7)
step("objects: the computer player (Bot)")
import firmware  # noqa: E402
from firmware.store import Log  # noqa: E402
log = Log(hw.nvm)
firmware.forget("firmware.storeload")  # as the app does after reading the nvm
step("objects: the nvm log (Log)")
from firmware.keyfilter import KeyFilter  # noqa: E402
keys = KeyFilter(hw.keymap, 0, False, print)
step("objects: the key filter")
from firmware.selftest import SelfTest  # noqa: E402
st = SelfTest(kit, table.bg, hw, keys)
step("objects: the self-test while open")
st = None
firmware.forget("firmware.selftest")
step("(the self-test closed)")
for _code in ("en", "fr", "pt"):  # one language at a time, as the handheld keeps them
    __import__("firmware.lang_" + _code)
    step("words: firmware/lang_%s.py (the chosen language)" % _code)
    firmware.forget("firmware.lang_" + _code)
    step("(that language let go: its short words stay interned)")
print("PROBE done 0")
