"""make web: the handheld as a static web page, its real firmware on an emulated RP2040.

The page (twins/chip/js/index.html and page.mjs, the chip in a Web Worker: worker.mjs,
bundled with rp2040js by esbuild) boots the one-file UF2 of the direct build (make uf2:
CircuitPython's Pico image and the CIRCUITPY drive) on rp2040js in the browser, wired as
the chip twin wires it (twins/chip/js/board.mjs): the glass on a canvas from the I2C bytes,
keys from the keyboard (the README's layout; in the menus also the arrows, Enter and Esc)
and touch buttons at each seat's end, saying what they do (the firmware's role table,
hardware/keymap.py, at the pile count the glass shows), the piezo through WebAudio, the nvm
sector kept in the browser's storage. B's buttons face B on a tablet lying between two
players and stand upright on a desk (or as the visitor chooses); How to play (HOW TO PLAY's
own pictures) greets a first visit. It installs as an app (manifest.webmanifest,
its icons drawn from the glass's own glyphs) and its service worker (sw.js) keeps every
file for use offline, a new build a new cache. Its "Put it on a Pico" panel offers the
direct and the matrix build's UF2s as make uf2 writes them, and the build guide and the
rules as pages rendered from their Markdown. Nothing is fetched from elsewhere.

    make web                           # writes dist/web/
    make web-serve                     # serves it on 127.0.0.1 and says the address
    make web-shot                      # docs/web.png, the README's picture

The folder is written whole or not at all: built beside it under a temporary name, then
put in its place (the page there before is kept if anything fails). The server serves the
page's files and nothing else: no folder listings, and a request it cannot answer is a 4xx.

Needs node and npm, RP2040_BOOTROM, CIRCUITPY_UF2 and CIRCUITPY_MPY_CROSS (as make chip),
and markdown (requirements.txt); make web-shot also Chromium (Debian's chromium) and
playwright.
"""
import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

from twins.chip import chip
from tools import files, licences
from tools.cli import Parser, bounded, ctrl_c, fail, output_file

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join("dist", "web")
MARK = ".california-speed-web"  # in a folder make web wrote, so it may write there again
UF2 = "california-speed.uf2"
UF2S = {"direct": UF2, "matrix": "california-speed-matrix.uf2"}  # make uf2's builds (--keys)
BOOTROM = "bootrom-b1.bin"
CHIP_LICENCES = (("licences/circuitpython.txt", "CircuitPython, MIT"),
                 ("licences/pico-bootrom.txt", "the RP2040 boot ROM, BSD-3-Clause"),
                 ("node_modules/rp2040js/LICENSE", "rp2040js 1.4.1 (bundled in worker.js), "
                  "github.com/wokwi/rp2040js, MIT"))
CHROMIUM = "/usr/bin/chromium"
NAME = "California Speed"
ICONS = (192, 512)  # icon-N.png, N pixels square
SW = "sw.js"
DOCS = ("docs/BUILD.md", "docs/RULES.md")  # the build guide and the rules, served as HTML
ROOT = os.path.dirname(os.path.dirname(HERE))
NAV = ("UP", "DOWN", "LEFT", "RIGHT / CHOOSE", "BACK")  # hardware/keymap.py's UP .. BACK
MENU_KEYS = ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Escape")  # the same, typed
HOWTO = {"howto-pair.png": 1, "howto-covered.png": 2}  # HOW TO PLAY's pictures the page shows
SEEN = "california-speed-how-to-play"  # localStorage: the visitor has seen How to play
VIEWS = {"phone": (390, 844, True), "tablet": (1024, 768, True),  # CSS px wide, high; touch
         "desk": (1280, 800, False)}
SEEN_SCRIPT = "localStorage.setItem(%s, '1')" % json.dumps(SEEN)  # (for a browser's init script)


def folder_problem(out):
    """'' when make web may put its folder at out (a new or empty folder, or one it wrote
    before, in a folder it can write), else one line why not."""
    if os.path.exists(out) and not os.path.isdir(out):
        return "%s is not a folder" % out
    if os.path.isdir(out) and os.listdir(out) and not os.path.exists(os.path.join(out, MARK)):
        return "%s holds files make web did not write: give a new or empty folder" % out
    return files.folder_problem(os.path.dirname(os.path.realpath(out)), out, make=True)


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
            "scan_ms": values["CS_KEY_INTERVAL_MS"], "seen_scans": DEBOUNCE_SCANS + 1,
            "labels": labels(), "menu_keys": menu_keys(), "paused": paused_titles()}


def labels():
    """What each key of the direct build does, from the firmware's role table
    (hardware/keymap.py): in the menus (nav_of: RIGHT chooses, and says so) and in play,
    for each pile count the build offers, the pile it presses (pile_of; A1 is A's first
    pile from A's own left), "" for none; MENU is MENU in play."""
    from hardware.keymap import ROLE_MENU, nav_of, pile_of
    from hardware.seats import KEYS_A_ROW, PILE_CHOICES
    keymap, keys = chip.keymap_of("direct"), KEYS_A_ROW[0]
    said = {}
    for name, k in chip.key_names("direct").items():
        role, nav = keymap[k], nav_of(keymap[k])
        play = {}
        for n in PILE_CHOICES[0]:
            pile = pile_of(role, n, keys)
            play[n] = (name if role == ROLE_MENU else
                       "AB"[pile // n] + str(pile % n + 1) if pile >= 0 else "")
        said[name] = {"menu": NAV[nav] if nav >= 0 else "", "play": play}
    return said


def menu_keys():
    """The keyboard's keys for the near player (A) in the menus, by KeyboardEvent.key: the
    arrows are A's UP, DOWN, LEFT and RIGHT (a row's first four: hardware/keymap.py
    nav_of), Enter is RIGHT too (it chooses) and Esc is MENU (BACK)."""
    from hardware.keymap import RIGHT, nav_of
    keymap = chip.keymap_of("direct")
    near = {nav_of(keymap[k]): name for name, k in chip.key_names("direct").items()
            if re.fullmatch(r"A\d|MENU", name) and nav_of(keymap[k]) >= 0}
    keys = {key: near[nav] for nav, key in enumerate(MENU_KEYS)}
    keys["Enter"] = near[RIGHT]
    return keys


def page_title(text):
    """The glass's top 8 rows with text centred on them, as firmware/menu.py Page draws a
    page's title in the small font (firmware/ui.py TextLine.center at x 1): 128 * 8
    characters, '1' lit, row by row."""
    from firmware import glyphs
    from firmware.ui import LINE_CHARS, codes
    text = codes(text)
    at = 1 + glyphs.FONT_W * max(0, (LINE_CHARS - len(text)) // 2)
    rows = [["0"] * 128 for _ in range(glyphs.FONT_H)]
    for i, code in enumerate(text):
        tile = glyphs.font_tile(code)
        for y in range(glyphs.FONT_H):
            bits = glyphs.FONT_BITS[tile * glyphs.FONT_H + y]  # the leftmost pixel bit 7
            for c in range(glyphs.FONT_W):
                if bits >> (7 - c) & 1:
                    rows[y][at + glyphs.FONT_W * i + c] = "1"
    return "".join("".join(row) for row in rows)


def paused_titles():
    """The pause page's title (PAUSED) on the glass's top rows in each language
    (page_title), for the page to say it is paused."""
    import importlib
    from firmware.lang import CODES
    return [page_title(importlib.import_module("firmware.lang_" + code).PAUSED)
            for code in CODES]


def howto_picture(page):
    """HOW TO PLAY's picture of a page (firmware/howto.py PICTURES: four cards, the ones a
    hint marks underlined) as the glass draws it: a 128 x 24 image, lit as the page draws
    the glass."""
    from PIL import Image
    from firmware import glyphs, glyphs_cards as cards, howto
    from firmware.ui import CELL_H, W, outline, underline
    lit = Bitmap(W, CELL_H)
    piles, marks = howto.PICTURES[page]
    for i, card in enumerate(piles):
        x = i * howto._CELL_W
        outline(lit, x + 1, 0, howto._CELL_W - 2, CELL_H)
        underline(lit, x, CELL_H - 2, howto._CELL_W, (marks >> i) & 1)
        if card < 0:
            continue
        left = x + (howto._CELL_W - glyphs.RANK_W - 1 - glyphs.SUIT_W) // 2
        for bits, w, h, at in (
                (cards.RANK_BITS[card % 13 * glyphs.RANK_H * 2:], glyphs.RANK_W, glyphs.RANK_H,
                 left),
                (cards.SUIT_BITS[card // 13 * cards.SUIT_STRIDE:], glyphs.SUIT_W, glyphs.SUIT_H,
                 left + glyphs.RANK_W + 1)):
            for r in range(h):  # 2 bytes a row, the leftmost pixel bit 15
                row = bits[2 * r] << 8 | bits[2 * r + 1]
                for c in range(w):
                    if row >> (15 - c) & 1:
                        lit[(howto._TOP + r) * W + at + c] = 1
    img = Image.new("RGB", (W, CELL_H), (0, 0, 0))
    img.putdata([(200, 230, 255) if p else (0, 0, 0) for p in lit.pixels])
    return img


class Bitmap:
    """As much of a displayio.Bitmap as firmware/ui.py's outline and underline use."""

    def __init__(self, width, height):
        self.width, self.pixels = width, bytearray(width * height)

    def __getitem__(self, i):
        return self.pixels[i]

    def __setitem__(self, i, value):
        self.pixels[i] = value


def build(out=DEFAULT_OUT, version=None, say=print):
    """Write the page's folder whole: built under a temporary name beside out, then put in
    its place; returns out. Raises ValueError with one line when it cannot (the toolchain
    missing, a folder not its own or not writable, a full disk), out left as it was."""
    from tools import boardcode
    problem = folder_problem(out) or chip.missing()
    if problem:
        raise ValueError(problem)
    version = version if version is not None else boardcode.version()
    chip._npm_ready()
    where = os.path.realpath(out)
    had = os.path.isdir(where)
    try:
        os.makedirs(os.path.dirname(where), exist_ok=True)
        new = tempfile.mkdtemp(prefix="." + os.path.basename(where) + ".tmp-",
                               dir=os.path.dirname(where))
    except OSError as e:
        raise ValueError(files.cannot_write(out, e))
    try:
        os.chmod(new, 0o755)  # (mkdtemp's is the owner's alone; a server reads it)
        write_page(new, version, say)
        put_in_place(new, where)
    except OSError as e:
        raise ValueError(files.cannot_write(out, e) + (" (%s is as it was)" % out if had
                                                      else " (nothing was left there)"))
    finally:
        shutil.rmtree(new, ignore_errors=True)
    return out


def put_in_place(new, out):
    """Rename the folder new to out: an old out is moved aside first, back if new cannot
    go there, and removed once new is there."""
    if not os.path.lexists(out):
        os.rename(new, out)
        return
    old = tempfile.mkdtemp(prefix="." + os.path.basename(out) + ".old-",
                           dir=os.path.dirname(out))
    os.rename(out, old)  # (over the empty folder mkdtemp made)
    try:
        os.rename(new, out)
    except OSError:
        os.rename(old, out)
        raise
    shutil.rmtree(old, ignore_errors=True)


def write_page(out, version, say):
    """The page's files into the empty folder out. OSError when one cannot be written."""
    from tools import uf2
    with open(os.path.join(out, MARK), "w") as f:
        f.write("written by make web (twins/chip/web.py): it may write this folder again\n")
    downloads = {}
    for keys, name in UF2S.items():  # as make uf2 (ARGS="--keys matrix") writes them
        say("the one-file UF2 of the %s build..." % keys)
        path = os.path.join(out, name)
        try:
            uf2.build(path, version=version,
                      settings=None if keys == "direct" else {"CS_KEYS": keys})
        except uf2.UF2Error as e:
            cause = e.__context__  # (its own file could not be written: the folder cannot)
            if isinstance(cause, OSError) and str(e).startswith(files.cannot_write(path, cause)):
                raise cause from None
            raise ValueError(str(e))
        downloads[name] = os.path.basename(uf2.default_name("raspberry_pi_pico", version, keys))
    with open(os.path.join(out, BOOTROM), "wb") as f:
        f.write(read_bytes(chip.toolchain()[1], "rom"))
    with open(os.path.join(out, "board.json"), "w") as f:
        json.dump(dict(board_json(os.path.join(out, UF2)), downloads=downloads), f, indent=1)
    say("the page and its chip (rp2040js and the board in a Worker) bundled by esbuild...")
    r = subprocess.run([os.path.join(chip.NODE_DIR, "node_modules", ".bin", "esbuild"),
                        "chip=page.mjs", "worker=worker.mjs", "--bundle", "--format=iife",
                        "--target=es2020", "--log-level=warning",
                        "--outdir=" + os.path.abspath(out)], cwd=chip.NODE_DIR,
                       capture_output=True, text=True)
    said = [line.strip() for line in (r.stderr + r.stdout).splitlines() if line.strip()]
    if r.returncode:
        raise ValueError("esbuild stopped (exit %d)%s" % (r.returncode,
                                                          ": " + said[0] if said else ""))
    for line in said:  # (its warnings)
        say("esbuild: " + line)
    shutil.copyfile(os.path.join(chip.NODE_DIR, "index.html"), os.path.join(out, "index.html"))
    with open(os.path.join(out, licences.FILE), "w", encoding="utf-8") as f:
        f.write(licences_text())
    say("the build guide and the rules as pages (markdown)...")
    docs(out)
    for size in ICONS:
        icon(size).save(os.path.join(out, "icon-%d.png" % size))
    for name, page in HOWTO.items():
        howto_picture(page).save(os.path.join(out, name))
    with open(os.path.join(out, "manifest.webmanifest"), "w") as f:
        json.dump(manifest(), f, indent=1)
    service_worker(out, version)
    return out


def docs(out):
    """DOCS and the project's Markdown pages they link to as HTML pages under out (the
    same paths, .html), with the pictures and files they link to copied beside them, so
    their links work as they do in the repository."""
    try:
        import markdown
    except ImportError:
        raise ValueError("markdown is not installed: make sets it up from requirements.txt "
                         "(or pip install markdown==3.11.3)") from None
    todo, done = list(DOCS), set()
    while todo:
        md = todo.pop()
        if md in done:
            continue
        done.add(md)
        text = read_text(os.path.join(ROOT, md))
        body = markdown.markdown(text, extensions=["tables", "fenced_code", "toc"])

        def linked(m):
            target, _, anchor = m.group(2).partition("#")
            rel = os.path.normpath(os.path.join(os.path.dirname(md), target)).replace(os.sep, "/")
            if not target or ":" in target or rel.startswith("..") \
                    or not os.path.isfile(os.path.join(ROOT, rel)):
                return m.group(0)  # a web address, a place on the page, or nothing here
            if rel.endswith(".md") and rel.startswith("docs/"):
                todo.append(rel)
                target = target[:-3] + ".html"
            else:
                os.makedirs(os.path.join(out, os.path.dirname(rel)), exist_ok=True)
                shutil.copyfile(os.path.join(ROOT, rel), os.path.join(out, rel))
            return '%s="%s"' % (m.group(1), target + ("#" + anchor if anchor else ""))
        body = re.sub(r'(href|src)="([^"]*)"', linked, body)
        title = re.search(r"<h1[^>]*>(.*?)</h1>", body)
        page = os.path.join(out, md[:-3] + ".html")
        os.makedirs(os.path.dirname(page), exist_ok=True)
        with open(page, "w", encoding="utf-8") as f:
            f.write(DOC_PAGE % (re.sub("<[^>]+>", "", title.group(1)) if title else md,
                                os.path.relpath("icon-%d.png" % ICONS[0], os.path.dirname(md)),
                                body))


DOC_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s</title><link rel="icon" href="%s"><style>
body { max-width: 760px; margin: 0 auto; padding: 1em; font: 16px/1.5 system-ui, sans-serif;
       background: #15171a; color: #c8d2dc; }
a { color: #8ab4e0; } img { max-width: 100%%; background: #fff; }
table { border-collapse: collapse; } td, th { border: 1px solid #3a4450; padding: 2px 6px; }
code, pre { background: #22272e; } pre { padding: 8px; overflow-x: auto; }
</style></head><body>
%s
</body></html>
"""


def icon(size):
    """The page's icon, size pixels square: a card of the glass (its box, the rank A and
    the spade of firmware/glyphs_cards.py), lit as the page draws the glass."""
    from PIL import Image
    from firmware import glyphs, glyphs_cards as cards
    grid, lit = 32, set()
    for x in range(2, 30):
        lit |= {(x, 3), (x, 28)}
    for y in range(4, 28):
        lit |= {(1, y), (30, y)}
    spades = cards.SUIT_BITS[3 * cards.SUIT_STRIDE:]
    for bits, w, h, (x, y) in ((cards.RANK_BITS, glyphs.RANK_W, glyphs.RANK_H, (4, 7)),
                               (spades, glyphs.SUIT_W, glyphs.SUIT_H, (20, 7))):
        for r in range(h):  # 2 bytes a row, the leftmost pixel bit 15
            row = bits[2 * r] << 8 | bits[2 * r + 1]
            lit |= {(x + c, y + r) for c in range(w) if row >> (15 - c) & 1}
    img = Image.new("RGB", (grid, grid), (0, 0, 0))
    for p in lit:
        img.putpixel(p, (200, 230, 255))
    return img.resize((size, size), Image.NEAREST)


def manifest():
    """The web app manifest: installed, the page opens on its own, either way up."""
    return {"name": NAME, "short_name": NAME, "description": "The handheld's own firmware, "
            "for two players either side of a tablet", "start_url": "./", "scope": "./",
            "display": "standalone", "orientation": "any", "background_color": "#15171a",
            "theme_color": "#15171a",
            "icons": [{"src": "icon-%d.png" % n, "sizes": "%dx%d" % (n, n), "type": "image/png",
                       "purpose": "any"} for n in ICONS]}


def service_worker(out, version):
    """sw.js: twins/chip/js/sw.js after a line naming its cache (the version and a digest
    of every file the page is made of, so a new build is a new cache) and those files."""
    names = sorted(os.path.relpath(os.path.join(d, n), out).replace(os.sep, "/")
                   for d, _, found in os.walk(out) for n in found if n not in (MARK, SW))
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode() + b"\0" + read_bytes(os.path.join(out, name), "page"))
    cache = "california-speed-%s-%s" % (version, digest.hexdigest()[:12])
    code = read_text(os.path.join(chip.NODE_DIR, SW))
    with open(os.path.join(out, SW), "w") as f:
        f.write("const CACHE = %s, FILES = %s;\n%s" % (json.dumps(cache),
                                                     json.dumps(["./"] + names), code))
    return cache


def licences_text():
    """The page's LICENSES.txt: the UF2's drive's (the project's licence first, then the
    Adafruit libraries'), then those of what runs it here (CircuitPython, the boot ROM,
    rp2040js)."""
    parts = [licences.drive_text()]
    for path, what in CHIP_LICENCES:
        text = read_text(os.path.join(chip.NODE_DIR, path))
        parts.append(licences.section(what, text.strip() + "\n"))
    return "\n".join(parts)


def read_bytes(path, kind):
    """files.read_bytes, its FileProblem a ValueError (make web's one line)."""
    try:
        return files.read_bytes(path, kind)
    except files.FileProblem as e:
        raise ValueError(str(e)) from None


def read_text(path):
    """files.read_text, its FileProblem a ValueError (make web's one line)."""
    try:
        return files.read_text(path)
    except files.FileProblem as e:
        raise ValueError(str(e)) from None


class _Page(http.server.SimpleHTTPRequestHandler):
    """The page's files and nothing else: a folder is its index.html or a 404 (no
    listing), and a path no file can have (a NUL in it, say) a 400."""

    def send_head(self):
        try:
            where = self.translate_path(self.path)
            if "\0" in where:
                self.send_error(400, "no file has a NUL in its name")
                return None
            if os.path.isdir(where) and not os.path.isfile(os.path.join(where, "index.html")):
                self.send_error(404, "no page here")
                return None
            return super().send_head()
        except ConnectionError:
            raise
        except (OSError, ValueError):  # (a name too long, say)
            self.send_error(400, "no file by that name")
            return None

    def list_directory(self, path):
        self.send_error(404, "no page here")

    def log_message(self, *args):  # (the page's own requests are not news)
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A request that failed is one line on stderr (a visitor gone mid-answer, none)."""
        error = sys.exc_info()[1]
        if not isinstance(error, ConnectionError):
            print("make web-serve: a request from %s failed: %s"
                  % (client_address[0], str(error).splitlines()[0] if str(error) else
                     type(error).__name__), file=sys.stderr)


def server(folder, port=0):
    """An HTTP server of folder on 127.0.0.1 (port 0: a free one), serving in a thread;
    its address is server.url. server.shutdown() stops it."""
    handler = functools.partial(_Page, directory=os.path.abspath(folder))
    httpd = _Server(("127.0.0.1", port), handler)
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
    """A picture of the page at the main menu (headless Chromium, as a tablet: touch, the
    seats face to face; How to play seen) into png, written whole or not at all (OSError)."""
    from playwright.sync_api import sync_playwright
    httpd = server(folder)
    try:
        with sync_playwright() as p, files.replacing(png) as temp:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 600, "height": 760},
                                    device_scale_factor=scale, has_touch=True)
            page.add_init_script(SEEN_SCRIPT)
            page.goto(httpd.url)
            page.wait_for_function("window.chip && window.chip.ms() !== null && "
                                   "window.chip.ms() > 500", timeout=120000)
            page.screenshot(path=temp)
            browser.close()
    finally:
        httpd.shutdown()


BOXES = """() => {  // the buttons, the seats' names and the glass (its pixels' box): [x, y, w, h]
  const out = {}, box = (r) => [r.x + scrollX, r.y + scrollY, r.width, r.height];
  for (const seat of ['A', 'B']) {
    for (const el of document.querySelectorAll('#seat' + seat + ' .pad button')) {
      out[seat + ':' + el.dataset.key] = box(el.getBoundingClientRect());
    }
    out[seat + ':who'] = box(document.querySelector('#seat' + seat + ' .who').getBoundingClientRect());
  }
  const glass = document.getElementById('glass'), r = glass.getBoundingClientRect();
  out.glass = box(new DOMRect(r.x + glass.clientLeft, r.y + glass.clientTop, glass.clientWidth,
                              glass.clientHeight));
  return out;
}"""


def open_view(browser, url, width, height, touch):
    """The page at url as a device of that size opens it (touch: a finger, and below 600
    px wide a phone's viewport), How to play seen, the chip held at the main menu (300 ms
    after its first frame): (its browser context, its page)."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  has_touch=touch, is_mobile=touch and width < 600)
    context.add_init_script(SEEN_SCRIPT)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("window.chip !== undefined", timeout=240000)
    page.evaluate("window.chip.stopAt(300)")
    page.wait_for_function("window.chip.ms() !== null && window.chip.ms() >= 300",
                           timeout=240000, polling=50)
    return context, page


def views(folder, out):
    """Pictures of the page at the main menu as each of VIEWS sees it: web-NAME.png in the
    folder out, each carrying its layout (BOXES, as JSON in the PNG's text chunk 'boxes');
    each written whole or not at all (OSError)."""
    import io
    from PIL import Image, PngImagePlugin
    from playwright.sync_api import sync_playwright
    httpd = server(folder)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            for name, (width, height, touch) in VIEWS.items():
                context, page = open_view(browser, httpd.url, width, height, touch)
                picture, boxes = page.screenshot(), page.evaluate(BOXES)
                context.close()
                info = PngImagePlugin.PngInfo()
                info.add_text("boxes", json.dumps(boxes, sort_keys=True))
                with files.replacing(os.path.join(out, "web-%s.png" % name)) as temp:
                    Image.open(io.BytesIO(picture)).save(temp, pnginfo=info)
            browser.close()
    finally:
        httpd.shutdown()


def figures(folder, seconds=15, say=print):
    """What a visitor waits for and gets, in headless Chromium: {"files": [(name, bytes,
    gzipped bytes)] of the folder, "cold" and "cached": wall seconds from the load to the
    firmware's first frame (the second load from the service worker's cache), "speed":
    window.chip.speed each second of a 2-player match nobody presses in, "unpaced": the
    simulated seconds a wall second of it when the chip runs as fast as it can
    (chip.fastForward), and "speed 4x", "unpaced 4x": the same on a core 4 times slower
    (chip.throttle(4), the Worker's own: Chromium's CPU throttling reaches no Worker)}."""
    import gzip
    import time
    from playwright.sync_api import sync_playwright
    sizes = []
    for where, _, names in sorted(os.walk(folder)):
        for name in sorted(names):
            data = read_bytes(os.path.join(where, name), "page")
            sizes.append((os.path.relpath(os.path.join(where, name), folder), len(data),
                          len(gzip.compress(data, 6))))
    out = {"files": sizes, "speed": []}
    httpd = server(folder)
    try:
        with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
            context = p.chromium.launch_persistent_context(  # (a service worker needs one)
                profile, executable_path=CHROMIUM, viewport={"width": 600, "height": 760})
            context.add_init_script(SEEN_SCRIPT)  # (How to play would take the key)
            page = context.new_page()
            for load in ("cold", "cached"):
                start = time.monotonic()
                page.goto(httpd.url) if load == "cold" else page.reload()
                page.wait_for_function("window.chip && window.chip.ms() !== null",
                                       timeout=120000, polling=20)
                out[load] = time.monotonic() - start
                say("  web: the first frame %s, %.1f s" % (load, out[load]))
                page.wait_for_function("navigator.serviceWorker.controller !== null",
                                       timeout=120000)
            page.wait_for_function("window.chip.ms() > 1000", timeout=120000)
            page.keyboard.press("v")  # (A3, RIGHT on 2 PLAYERS: a match is dealt)
            time.sleep(2)
            for rate, paced, unpaced in ((1, "speed", "unpaced"), (4, "speed 4x", "unpaced 4x")):
                page.evaluate("window.chip.throttle(%d)" % rate)
                time.sleep(2)
                out[paced] = []
                for _ in range(seconds):
                    time.sleep(1)
                    out[paced].append(page.evaluate("window.chip.speed"))
                page.evaluate("window.chip.fastForward(3600000)")
                ms, start = page.evaluate("window.chip.ms()"), time.monotonic()
                time.sleep(seconds)
                out[unpaced] = ((page.evaluate("window.chip.ms()") - ms) / 1000
                                / (time.monotonic() - start))
                page.evaluate("window.chip.stopAt(null)")
                say("  web: %.2f x real time unpaced on a core %d times slower"
                    % (out[unpaced], rate) if rate > 1 else
                    "  web: %.2f x real time unpaced" % out[unpaced])
            context.close()
    finally:
        httpd.shutdown()
    return out


def _pictures(take, place, kept, kept_after_error):
    """make web's --shot or --views: take() in Chromium, the browser's error or an unwritable
    place in one line, Ctrl-C saying what is kept."""
    from playwright.sync_api import Error as BrowserError
    try:
        with ctrl_c("make web", kept):
            take()
    except BrowserError as e:
        fail("make web", "the page in Chromium: %s" % str(e).splitlines()[0])
    except OSError as e:
        fail("make web", files.cannot_write(place, e) + kept_after_error)


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
    ap.add_argument("--views", metavar="FOLDER", help="then pictures of it as a phone, a "
                    "tablet and a desk see it: web-phone.png, web-tablet.png, web-desk.png")
    args = ap.parse_args(argv)
    if args.views is not None:
        problem = files.folder_problem(args.views)
        if problem:
            fail("make web", problem)
    if args.shot or args.views is not None:
        problem = browser_missing()
        if problem:
            fail("make web", problem)
    try:
        with ctrl_c("make web", "%s is as it was" % args.out):
            build(args.out, args.version, say=lambda line: print(line, file=sys.stderr))
    except ValueError as e:
        fail("make web", str(e))
    except subprocess.CalledProcessError as e:
        fail("make web", "%s stopped (exit %d)" % (os.path.basename(e.cmd[0]), e.returncode))
    print("the page                      %s/index.html" % args.out)
    if args.shot:
        _pictures(lambda: shot(args.shot, args.out), args.shot, "%s is as it was" % args.shot,
                  " (it is as it was)")
        print("picture                       %s" % args.shot)
    if args.views is not None:
        _pictures(lambda: views(args.out, args.views), args.views,
                  "the pictures in %s are as they were" % args.views, "")
        print("pictures                      %s/web-{%s}.png" % (args.views, ",".join(VIEWS)))
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
