"""make toolchain: CircuitPython's release for the Pico, its mpy-cross and the RP2040 boot
ROM, fetched from where their owners publish them and checked before they are kept.

    make toolchain                                   the Pico's files, into .toolchain/
    make toolchain ARGS="--board raspberry_pi_pico_w --board raspberry_pi_pico2"
    make toolchain ARGS="--version 10.3.0"           another CircuitPython 10 release
    make toolchain ARGS="--mirror http://HOST:PORT"  the same paths on another server
                                                     (or TOOLCHAIN_MIRROR=URL)

Where each file comes from (a mirror serves the same paths):
- each board's UF2, from circuitpython.org's downloads: https://downloads.circuitpython.org
  /bin/BOARD/en_US/adafruit-circuitpython-BOARD-en_US-VERSION.uf2; kept when it is
  CircuitPython VERSION for that board (its family, and the board and version its banner
  says: tools/uf2.py check_firmware);
- mpy-cross of that version for this machine, from the bucket Adafruit's
  circuitpython-build-tools download it from: https://adafruit-circuit-python.s3.amazonaws
  .com/bin/mpy-cross/PLATFORM/mpy-cross-PLATFORM-VERSION.static (linux-amd64; .exe,
  -universal and -raspbian builds for Windows, macOS and 32-bit Raspberry Pi OS); kept when
  it runs here and its --version says VERSION;
- the boot ROM, from rp2040js's demo/bootrom.ts at a pinned commit (the B1 ROM as a
  Uint32Array); kept when its 16,384 bytes have the pinned SHA-256.
Everything is fetched and checked before anything is written, then each file is written
whole (tools/files.py), laid out as ../shared/toolchain is (tools/toolchain.py finds it
there). A file already there and right is kept, not fetched again. A failure is one line,
exit status 2, and the folder is left as it was.
"""
import hashlib
import http.client
import os
import platform
import re
import socket
import struct
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

from tools import files, toolchain
from tools.cli import Parser, bounded, ctrl_c, fail

PROG = "make toolchain"
ENV_MIRROR = "TOOLCHAIN_MIRROR"
SITES = {"uf2": "https://downloads.circuitpython.org",
         "mpy-cross": "https://adafruit-circuit-python.s3.amazonaws.com",
         "bootrom": "https://raw.githubusercontent.com"}
RP2040JS = "f9becba867f6d7afbf99551270cc9a2e841742eb"  # the last commit to change bootrom.ts
ROM_PATH = "/wokwi/rp2040js/%s/demo/bootrom.ts" % RP2040JS
ROM_SIZE = 16384
LIMITS = {"uf2": files.LIMITS["uf2"], "mpy-cross": 64 << 20, "bootrom": 1 << 20}
DEADLINE = 1800  # seconds for one file, however slowly it trickles in
VERSION = re.compile(r"%d\.\d+\.\d+(-[0-9A-Za-z.]+)?\Z" % toolchain.MAJOR)


class FetchError(Exception):
    """A file could not be fetched, or is not the file asked for; one line."""


def uf2_path(board, version):
    """Where circuitpython.org's downloads keep a board's UF2 of a version (US English)."""
    return "/bin/%s/en_US/adafruit-circuitpython-%s-en_US-%s.uf2" % (board, board, version)


def mpy_cross_path(version, system=None, machine=None):
    """Where Adafruit's bucket keeps the static mpy-cross of a version for a machine (as
    circuitpython-build-tools names them), or None for a machine it has none for."""
    system = system or platform.system()
    machine = (machine or platform.machine()).lower()
    if system == "Linux" and machine in ("x86_64", "amd64"):
        where, tail = "linux-amd64", ".static"
    elif system == "Linux" and machine == "armv7l":
        where, tail = "linux-raspbian", ".static-raspbian"
    elif system == "Darwin":
        where, tail = "macos", "-universal"
    elif system == "Windows" and machine in ("x86_64", "amd64"):
        where, tail = "windows", ".static.exe"
    else:
        return None
    return "/bin/mpy-cross/%s/mpy-cross-%s-%s%s" % (where, where, version, tail)


def _why(reason):
    """A few words for what stopped a connection."""
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused (no network, or no server there)"
    if isinstance(reason, socket.gaierror):
        return "its name does not resolve (no network?)"
    if isinstance(reason, TimeoutError):
        return "no answer (timed out)"
    return (getattr(reason, "strerror", None) or str(reason)).lower()


def download(url, timeout, limit):
    """The bytes at url; FetchError in one line when the server cannot be reached, answers
    anything but 200, stops sending for timeout seconds, sends less than it said or more
    than limit."""
    host = urllib.parse.urlsplit(url).netloc
    start = time.monotonic()
    got, length, chunks = 0, None, []
    try:
        request = urllib.request.Request(url, headers={"User-Agent": "california-speed"})
        with urllib.request.urlopen(request, timeout=timeout) as r:
            said = r.headers.get("Content-Length", "")
            length = int(said) if said.isdigit() else None
            if length is not None and length > limit:
                raise FetchError("%s is %s bytes, more than the file can be: not the file asked "
                                 "for" % (url, format(length, ",")))
            while True:
                chunk = r.read1(1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
                got += len(chunk)
                if got > limit:
                    raise FetchError("%s goes on past %s bytes, more than the file can be: not "
                                     "the file asked for" % (url, format(limit, ",")))
                if time.monotonic() - start > DEADLINE:
                    raise FetchError("%s: still coming after %d minutes: stopped"
                                     % (url, DEADLINE // 60))
    except urllib.error.HTTPError as e:
        raise FetchError("%s: the server answers %d %s%s" % (
            url, e.code, e.reason, " (no such file there: is that version released for "
            "that board?)" if e.code == 404 else ""))
    except urllib.error.URLError as e:
        raise FetchError("cannot reach %s for %s: %s" % (host, url, _why(e.reason)))
    except TimeoutError:
        raise FetchError("%s: the server sent nothing for %d s after %s bytes (timed out; "
                         "--timeout sets the wait)" % (url, timeout, format(got, ",")))
    except (http.client.HTTPException, OSError) as e:
        raise FetchError("%s: the download broke off after %s bytes (%s)"
                         % (url, format(got, ","), _why(e) or type(e).__name__))
    if length is not None and got < length:
        raise FetchError("%s: the download stopped after %s of %s bytes (cut short: try again)"
                         % (url, format(got, ","), format(length, ",")))
    return b"".join(chunks)


def rom_of(text, url):
    """The boot ROM's bytes from rp2040js's bootrom.ts: its Uint32Array's words,
    little-endian as the chip reads them."""
    m = re.search(r"new\s+Uint32Array\(\s*\[([^\]]*)\]\s*\)", text)
    if not m:
        raise FetchError("%s is not rp2040js's bootrom.ts: it holds no Uint32Array of the ROM"
                         % url)
    words = [w.strip() for w in m.group(1).split(",") if w.strip()]
    bad = [w for w in words if not re.fullmatch(r"0x[0-9a-fA-F]{1,8}", w)]
    if bad:
        raise FetchError("%s: %r among the ROM's words is no 32-bit hex number"
                         % (url, bad[0][:20]))
    return struct.pack("<%dI" % len(words), *(int(w, 16) for w in words))


def check_rom(data, url):
    """'' when data is the pinned B1 boot ROM, else why not."""
    if len(data) != ROM_SIZE:
        return ("%s holds a ROM of %s bytes, not the RP2040's %s (cut short?)"
                % (url, format(len(data), ","), format(ROM_SIZE, ",")))
    digest = hashlib.sha256(data).hexdigest()
    if digest != toolchain.BOOTROM_SHA256:
        return ("%s: the ROM's SHA-256 is %s..., not the B1 ROM's %s...: not the file pinned "
                "(rp2040js %s)" % (url, digest[:16], toolchain.BOOTROM_SHA256[:16], RP2040JS[:7]))
    return ""


def check_uf2(path, board, version, name):
    """'' when the UF2 at path is CircuitPython version for board, else why not (the file
    called name)."""
    from tools import uf2
    try:
        got = uf2.check_firmware(path, board)
    except uf2.UF2Error as e:
        return str(e).replace(path, name)
    if got != version:
        return "%s is CircuitPython %s, not the %s asked for" % (name, got, version)
    return ""


def check_mpy_cross(path, version, name):
    """'' when the mpy-cross at path runs here and is CircuitPython version's, else why not."""
    try:
        got = toolchain.check_mpy_cross(path, name)
    except toolchain.ToolchainError as e:
        return str(e)
    if got != version:
        return "%s is CircuitPython %s's mpy-cross, not %s's" % (name, got, version)
    return ""


def plan(boards, version, mirror):
    """[(what, board, url, where it is kept)] of the files to have."""
    def url(what, path):
        return (mirror or SITES[what]).rstrip("/") + path
    out = [("uf2", b, url("uf2", uf2_path(b, version)), toolchain.fetched("uf2", b))
           for b in boards]
    path = mpy_cross_path(version)
    if path:
        out.append(("mpy-cross", None, url("mpy-cross", path), toolchain.fetched("mpy-cross")))
    out.append(("bootrom", None, url("bootrom", ROM_PATH), toolchain.fetched("bootrom")))
    return out


def problem(what, board, version, path, name):
    """'' when the file at path is the one asked for, else why not (the file called name)."""
    if what == "uf2":
        return check_uf2(path, board, version, name)
    if what == "mpy-cross":
        return check_mpy_cross(path, version, name)
    return check_rom(files.read_bytes(path, "uf2"), name)


def kept_already(what, board, version, dest):
    """True when dest is there and is already the file asked for."""
    if not os.path.isfile(dest):
        return False
    try:
        return not problem(what, board, version, dest, dest)
    except (files.FileProblem, OSError):
        return False


def fetch(what, board, version, url, timeout, scratch):
    """The checked bytes of one file, or FetchError."""
    data = download(url, timeout, LIMITS[what])
    if what == "bootrom":
        try:
            text = data.decode("ascii")
        except UnicodeDecodeError:
            raise FetchError("%s is not rp2040js's bootrom.ts: it is not text" % url)
        data = rom_of(text, url)
        wrong = check_rom(data, url)
    else:
        path = os.path.join(scratch, os.path.basename(toolchain.fetched(what, board)))
        with open(path, "wb") as f:
            f.write(data)
        os.chmod(path, 0o755 if what == "mpy-cross" else 0o644)
        wrong = problem(what, board, version, path, url)
    if wrong:
        raise FetchError(wrong)
    return data


def shown(path):
    """path as the user gives it: relative when it is under the folder they are in."""
    rel = os.path.relpath(path)
    return path if rel.startswith(os.pardir) else rel


def gather(todo, version, timeout, where):
    """{where it is kept: (what, checked bytes, url)} of each planned file that is not
    there already; FetchError (or OSError) at the first that cannot be had."""
    fetched = {}
    with tempfile.TemporaryDirectory(prefix=".toolchain-check-",
                                     dir=nearest_folder(where)) as scratch:
        for what, board, url, dest in todo:
            if kept_already(what, board, version, dest):
                print("%s: %s is already %s (kept)" % (
                    PROG, shown(dest), "the B1 boot ROM" if what == "bootrom" else
                    "CircuitPython %s's" % version))
                continue
            print("%s: fetching %s..." % (PROG, url), file=sys.stderr)
            fetched[dest] = (what, fetch(what, board, version, url, timeout, scratch), url)
    return fetched


def nearest_folder(path):
    """The nearest folder of path's that exists (path itself, or a parent)."""
    path = os.path.abspath(path)
    while not os.path.isdir(path) and os.path.dirname(path) != path:
        path = os.path.dirname(path)
    return path


def mirror_url(text):
    """An argparse type: an http(s) address."""
    parts = urllib.parse.urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError("%r is not an http:// or https:// address" % text)
    return text


def parse(argv):
    from tools import uf2
    import argparse

    def version(text):
        if not VERSION.match(text):
            raise argparse.ArgumentTypeError("%r is not a CircuitPython %d release (like %s or "
                                             "10.3.0-alpha.4)" % (text, toolchain.MAJOR,
                                                                  toolchain.VERSION))
        return text

    def mirror(text):
        try:
            return mirror_url(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e))
    ap = Parser(prog=PROG, description=__doc__.split("\n")[0],
                epilog="It writes into the project's .toolchain/ (or $%s), laid out as "
                       "../shared/toolchain is." % toolchain.ENV_DIR)
    ap.add_argument("--board", action="append", default=[], choices=sorted(uf2.BOARDS),
                    help="another board's UF2 as well as the Pico's (again for more)")
    ap.add_argument("--version", type=version, default=toolchain.VERSION,
                    help="the CircuitPython %d release (default %s)"
                    % (toolchain.MAJOR, toolchain.VERSION))
    ap.add_argument("--mirror", type=mirror, metavar="URL",
                    help="a server with the same paths as the real sites (default $%s, else "
                         "the real sites)" % ENV_MIRROR)
    ap.add_argument("--dir", metavar="FOLDER",
                    help="where to keep the files (default: the project's .toolchain/)")
    ap.add_argument("--timeout", type=bounded(1, 600, " s"), default=60, metavar="SECONDS",
                    help="how long a server may send nothing (default 60)")
    return ap.parse_args(argv)


def main(argv=None):
    args = parse(argv)
    if args.dir is not None:
        os.environ[toolchain.ENV_DIR] = os.path.abspath(args.dir)
    where = toolchain.folder()
    if os.path.lexists(where) and not os.path.isdir(where):
        fail(PROG, "%s is not a folder: move it away, or give --dir FOLDER" % where)
    wrong = files.folder_problem(where, make=True)
    if wrong:
        fail(PROG, wrong)
    mirror = args.mirror
    if mirror is None and os.environ.get(ENV_MIRROR):
        try:
            mirror = mirror_url(os.environ[ENV_MIRROR])
        except ValueError as e:
            fail(PROG, "%s=%s" % (ENV_MIRROR, e))
    boards = [toolchain.PICO] + [b for b in dict.fromkeys(args.board) if b != toolchain.PICO]
    todo = plan(boards, args.version, mirror)
    if mpy_cross_path(args.version) is None:
        print("%s: Adafruit builds no mpy-cross for this machine (%s %s): build it from "
              "CircuitPython's source (make -C mpy-cross) and set %s; without it make uf2 and "
              "make bundle put .py source on the drive" % (PROG, platform.system(),
                                                           platform.machine(), toolchain.ENV_MPY),
              file=sys.stderr)
    with ctrl_c(PROG, "nothing was kept"):
        try:
            fetched = gather(todo, args.version, args.timeout, where)
        except FetchError as e:
            fail(PROG, "%s; nothing was kept" % e)
        except OSError as e:  # (a copy to check could not be written)
            fail(PROG, "%s; nothing was kept" % files.cannot_write(where, e))
        for dest, (what, data, url) in fetched.items():
            try:
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                files.write_atomic(dest, data, mode=0o755 if what == "mpy-cross" else 0o644)
            except OSError as e:
                fail(PROG, files.cannot_write(dest, e))
            print("%s: kept %s (%s bytes, checked) from %s"
                  % (PROG, shown(dest), format(len(data), ","), url))
    return 0


if __name__ == "__main__":
    sys.exit(main())
