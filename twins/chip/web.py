"""make web: the handheld as a static web page, its real firmware on an emulated RP2040.

The page (twins/chip/js/index.html and page.mjs, bundled with rp2040js by esbuild) boots
the one-file UF2 of the direct build (make uf2: CircuitPython's Pico image and the
CIRCUITPY drive) on rp2040js in the browser, wired as the chip twin wires it
(twins/chip/js/board.mjs): the glass on a canvas from the I2C bytes, keys from the keyboard
(the README's layout) and touch buttons at each seat's end, the piezo through WebAudio,
the nvm sector kept in the browser's storage. Nothing is fetched from elsewhere.

    make web                           # writes dist/web/
    make web-serve                     # serves it on 127.0.0.1 and says the address
    make web-shot                      # docs/web.png, the README's picture

Needs node and npm, RP2040_BOOTROM, CIRCUITPY_UF2 and CIRCUITPY_MPY_CROSS (as make chip);
make web-shot also Chromium (Debian's chromium) and playwright.
"""
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading

from twins.chip import chip
from tools import licences
from tools.cli import Parser, bounded, fail, output_file

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join("dist", "web")
MARK = ".california-speed-web"  # in a folder make web wrote, so it may write there again
UF2 = "california-speed.uf2"
BOOTROM = "bootrom-b1.bin"
CHIP_LICENCES = (("licences/circuitpython.txt", "CircuitPython, MIT"),
                 ("licences/pico-bootrom.txt", "the RP2040 boot ROM, BSD-3-Clause"),
                 ("node_modules/rp2040js/LICENSE", "rp2040js 1.4.1 (bundled in chip.js), "
                  "github.com/wokwi/rp2040js, MIT"))
CHROMIUM = "/usr/bin/chromium"


def folder_problem(out):
    """'' when make web may write its files into out (a new or empty folder, or one it
    wrote before), else one line why not."""
    if os.path.exists(out) and not os.path.isdir(out):
        return "%s is not a folder" % out
    if os.path.isdir(out) and os.listdir(out) and not os.path.exists(os.path.join(out, MARK)):
        return "%s holds files make web did not write: give a new or empty folder" % out
    return ""


def board_json(uf2):
    """What the page needs to know of the board the UF2's settings.toml wires: the I2C
    pins and address, the piezo's pin, each key's GPIO by name, the keyboard's keys, and
    how often the keys are scanned and on how many scans a level is surely seen."""
    from hardware.keymap import DEBOUNCE_SCANS
    from tools.keynames import name_of
    from hardware.seats import KEYS_A_ROW
    from twins.desktop.play import KEYBOARD
    values = chip.settings_of(uf2)
    wires, _, _ = chip._wiring(values, None)
    names = chip.key_names("direct")
    return {"uf2": UF2, "bootrom": BOOTROM, "width": 128, "height": 64,
            "sda": int(values["CS_I2C_SDA"][2:]), "scl": int(values["CS_I2C_SCL"][2:]),
            "address": values["CS_I2C_ADDRESS"], "display": True,
            "piezo": int(values["CS_PIEZO"][2:]), "piles": KEYS_A_ROW[0],
            "keys": {name: wires[k] for name, k in names.items()},
            "keyboard": {ch: name_of(k) for ch, k in KEYBOARD.items()},
            "scan_ms": values["CS_KEY_INTERVAL_MS"], "seen_scans": DEBOUNCE_SCANS + 1}


def build(out=DEFAULT_OUT, version=None, say=print):
    """Write the page's folder; returns out. Raises ValueError with one line when it
    cannot (the toolchain missing, a folder not its own)."""
    from tools import uf2
    problem = folder_problem(out) or chip.missing()
    if problem:
        raise ValueError(problem)
    chip._npm_ready()
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, MARK), "w") as f:
        f.write("written by make web (twins/chip/web.py): it may write this folder again\n")
    say("the one-file UF2 (the direct build)...")
    try:
        uf2.build(os.path.join(out, UF2), version=version, settings={"CS_KEYS": "direct"})
    except uf2.UF2Error as e:
        raise ValueError(str(e))
    shutil.copyfile(chip.toolchain()[1], os.path.join(out, BOOTROM))
    with open(os.path.join(out, "board.json"), "w") as f:
        json.dump(board_json(os.path.join(out, UF2)), f, indent=1)
    say("the page: rp2040js and the board bundled by esbuild...")
    subprocess.run([os.path.join(chip.NODE_DIR, "node_modules", ".bin", "esbuild"), "page.mjs",
                    "--bundle", "--format=iife", "--target=es2020", "--log-level=warning",
                    "--outfile=" + os.path.abspath(os.path.join(out, "chip.js"))],
                   cwd=chip.NODE_DIR, check=True)
    shutil.copyfile(os.path.join(chip.NODE_DIR, "index.html"), os.path.join(out, "index.html"))
    with open(os.path.join(out, licences.FILE), "w", encoding="utf-8") as f:
        f.write(licences_text())
    return out


def licences_text():
    """The page's LICENSES.txt: the UF2's drive's (the project's licence first, then the
    Adafruit libraries'), then those of what runs it here (CircuitPython, the boot ROM,
    rp2040js)."""
    parts = [licences.drive_text()]
    for path, what in CHIP_LICENCES:
        with open(os.path.join(chip.NODE_DIR, path), encoding="utf-8") as text:
            parts.append(licences.section(what, text.read().strip() + "\n"))
    return "\n".join(parts)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # (the page's own requests are not news)
        pass


def server(folder, port=0):
    """An HTTP server of folder on 127.0.0.1 (port 0: a free one), serving in a thread;
    its address is server.url. server.shutdown() stops it."""
    handler = functools.partial(_Quiet, directory=os.path.abspath(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    httpd.url = "http://127.0.0.1:%d/" % httpd.server_address[1]
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def browser_missing():
    """One line naming what the page's tests and make web-shot lack here, or None."""
    lacks = []
    if not os.path.exists(CHROMIUM):
        lacks.append("Chromium (%s: Debian's chromium package)" % CHROMIUM)
    try:
        import playwright  # noqa: F401  (pylint: disable=unused-import,import-outside-toplevel)
    except ImportError:
        lacks.append("playwright (requirements.txt)")
    return "the web page's browser needs " + ", ".join(lacks) if lacks else None


def shot(png, folder, scale=2):
    """A picture of the page at the main menu (headless Chromium) into png."""
    from playwright.sync_api import sync_playwright
    httpd = server(folder)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 600, "height": 760},
                                    device_scale_factor=scale)
            page.goto(httpd.url)
            page.wait_for_function("window.chip && window.chip.ms() !== null && "
                                   "window.chip.ms() > 500", timeout=120000)
            page.screenshot(path=png)
            browser.close()
    finally:
        httpd.shutdown()


def main(argv=None):
    ap = Parser(prog="make web", description=__doc__.splitlines()[0])
    ap.add_argument("--out", metavar="FOLDER", default=DEFAULT_OUT,
                    help="where the page goes (default %s)" % DEFAULT_OUT)
    ap.add_argument("--version", metavar="TEXT", help="the version the firmware says "
                                                      "(default: from git)")
    ap.add_argument("--serve", action="store_true",
                    help="then serve it on 127.0.0.1 until Ctrl-C (make web-serve)")
    ap.add_argument("--port", type=bounded(0, 65535), default=0,
                    help="with --serve: the port (default: a free one)")
    ap.add_argument("--shot", metavar="PNG", type=output_file,
                    help="then a picture of the page at the main menu (make web-shot)")
    args = ap.parse_args(argv)
    if args.shot:
        problem = browser_missing()
        if problem:
            fail("make web", problem)
    try:
        build(args.out, args.version, say=lambda line: print(line, file=sys.stderr))
    except ValueError as e:
        fail("make web", str(e))
    except subprocess.CalledProcessError as e:
        fail("make web", "%s stopped (exit %d)" % (os.path.basename(e.cmd[0]), e.returncode))
    print("the page                      %s/index.html" % args.out)
    if args.shot:
        from playwright.sync_api import Error as BrowserError
        try:
            shot(args.shot, args.out)
        except BrowserError as e:
            fail("make web", "the page in Chromium: %s" % str(e).splitlines()[0])
        print("picture                       %s" % args.shot)
    if args.serve:
        try:
            httpd = server(args.out, args.port)
        except OSError as e:
            fail("make web", "cannot serve on 127.0.0.1:%d: %s" % (args.port, e.strerror or e))
        print("serving it at                 %s   (this machine only; Ctrl-C stops)" % httpd.url,
              flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            httpd.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
