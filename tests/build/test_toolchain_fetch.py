"""make toolchain (tools/fetch.py): CircuitPython's UF2 for the Pico, its mpy-cross and the
RP2040 boot ROM, fetched and checked before they are kept.

This machine reaches no download site, so a server on 127.0.0.1 (a thread here) serves the
shared toolchain's own files (CIRCUITPY_UF2, CIRCUITPY_MPY_CROSS, RP2040_BOOTROM; .ci/run
sets them) at the paths the real sites keep them at, and spoilt copies of them: each bad
answer is one line, and no file is left behind."""
import hashlib
import http.server
import os
import platform
import re
import socket
import subprocess
import threading

import pytest

import places
from tools import uf2
from tools.boardcode import ROOT

SHARED = {what: os.environ.get(var) for what, var in (
    ("uf2", "CIRCUITPY_UF2"), ("mpy-cross", "CIRCUITPY_MPY_CROSS"), ("bootrom", "RP2040_BOOTROM"))}
NEEDS_SHARED = pytest.mark.skipif(
    not all(SHARED.values()) or (platform.system(), platform.machine()) != ("Linux", "x86_64"),
    reason="the shared toolchain's UF2, mpy-cross and boot ROM (CIRCUITPY_UF2, "
           "CIRCUITPY_MPY_CROSS, RP2040_BOOTROM; .ci/run sets them), on Linux x86-64")
HIDDEN = ("CIRCUITPY_UF2", "CIRCUITPY_MPY_CROSS", "RP2040_BOOTROM", "CIRCUITPYTHON",
          "TOOLCHAIN_MIRROR", "CALIFORNIA_SPEED_TOOLCHAIN")
# Where the real sites keep each file (circuitpython.org's downloads; the bucket
# circuitpython-build-tools fetches mpy-cross from; rp2040js's repository at its commit).
COMMIT = "f9becba867f6d7afbf99551270cc9a2e841742eb"
ROM_PATH = "/wokwi/rp2040js/%s/demo/bootrom.ts" % COMMIT


def uf2_path(board, version):
    return "/bin/%s/en_US/adafruit-circuitpython-%s-en_US-%s.uf2" % (board, board, version)


def mpy_path(version):
    return "/bin/mpy-cross/linux-amd64/mpy-cross-linux-amd64-%s.static" % version


def shared_version():
    said = subprocess.run([SHARED["mpy-cross"], "--version"], capture_output=True,
                          text=True).stdout
    return re.match(r"CircuitPython (\S+) on", said).group(1)


def bootrom_ts(rom):
    """The boot ROM as rp2040js's demo/bootrom.ts holds it: a Uint32Array, eight words a
    line."""
    words = ["0x%08x" % int.from_bytes(rom[i:i + 4], "little") for i in range(0, len(rom), 4)]
    lines = ["  " + ", ".join(words[i:i + 8]) + "," for i in range(0, len(words), 8)]
    return ("// RP2040 bootrom binary, built from https://github.com/raspberrypi/pico-bootrom\n"
            "// revision: B1 (00a4a19114195e20fb817bdfbca1165e157eef37)\n\n"
            "export const bootromB1 = new Uint32Array([\n" + "\n".join(lines) + "\n]);\n"
            ).encode()


class Stall:
    """An answer that says its length, sends a part and then nothing until released."""

    def __init__(self, data):
        self.data, self.release = data, threading.Event()


class Cut:
    """An answer that says the whole length and sends only the first half."""

    def __init__(self, data):
        self.data = data


class Site:
    """An HTTP server on 127.0.0.1 serving {path: bytes, Stall or Cut}; every other path
    is a 404. asked: the paths requested."""

    def __init__(self, routes):
        self.routes, self.asked = routes, []
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                site.asked.append(self.path)
                body = site.routes.get(self.path)
                if body is None:
                    self.send_error(404)
                    return
                data = body if isinstance(body, bytes) else body.data
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if isinstance(body, Stall):
                    self.wfile.write(data[:1000])
                    self.wfile.flush()
                    body.release.wait(60)
                elif isinstance(body, Cut):
                    self.wfile.write(data[:len(data) // 2])
                else:
                    self.wfile.write(data)

            def log_message(self, *args):
                pass
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]

    def close(self):
        for body in self.routes.values():
            if isinstance(body, Stall):
                body.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def good():
    """{path: bytes} of the shared toolchain's files as the real sites lay them out, and
    their version."""
    version = shared_version()
    with open(SHARED["uf2"], "rb") as f:
        pico = f.read()
    with open(SHARED["mpy-cross"], "rb") as f:
        mpy = f.read()
    with open(SHARED["bootrom"], "rb") as f:
        rom = f.read()
    return {uf2_path("raspberry_pi_pico", version): pico, mpy_path(version): mpy,
            ROM_PATH: bootrom_ts(rom)}, version


@pytest.fixture
def serve():
    sites = []

    def start(routes):
        sites.append(Site(routes))
        return sites[-1]
    yield start
    for site in sites:
        site.close()


def env(**more):
    out = {k: v for k, v in os.environ.items() if k not in HIDDEN and "proxy" not in k.lower()}
    out.update(more)
    return out


def make_toolchain(*args, folder, timeout=120, **more):
    return places.run(["tools.fetch", "--dir", str(folder)] + list(args), timeout=timeout,
                      env=env(**more))


@NEEDS_SHARED
def test_it_fetches_the_picos_uf2_mpy_cross_and_the_boot_rom_checked(tmp_path, good, serve):
    routes, version = good
    site = serve(routes)
    folder = tmp_path / "toolchain"
    r = make_toolchain("--version", version, "--mirror", site.url, folder=folder)
    assert r.returncode == 0, r.stderr
    assert places.files_in(folder) == {
        "circuitpython/board/raspberry_pi_pico.uf2": os.path.getsize(SHARED["uf2"]),
        "circuitpython/bin/mpy-cross": os.path.getsize(SHARED["mpy-cross"]),
        "rp2040/bootrom-b1.bin": 16384}
    for what, rel in (("uf2", "circuitpython/board/raspberry_pi_pico.uf2"),
                      ("mpy-cross", "circuitpython/bin/mpy-cross"),
                      ("bootrom", "rp2040/bootrom-b1.bin")):
        assert (folder / rel).read_bytes() == open(SHARED[what], "rb").read(), rel
    assert hashlib.sha256((folder / "rp2040/bootrom-b1.bin").read_bytes()).hexdigest() == \
        "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"
    assert os.access(folder / "circuitpython/bin/mpy-cross", os.X_OK)
    assert sorted(site.asked) == sorted(routes)
    # again, through the variable: what is there and right is kept, not fetched again
    site.asked.clear()
    r = make_toolchain("--version", version, folder=folder, TOOLCHAIN_MIRROR=site.url)
    assert r.returncode == 0 and site.asked == [], (r.stderr, site.asked)
    assert r.stdout.count("(kept)") == 3, r.stdout


@NEEDS_SHARED
def test_the_pico_ws_uf2_is_fetched_when_asked_for(tmp_path, good, serve):
    routes, version = good
    w = tmp_path / "w.uf2"
    _stand_in(w, "raspberry_pi_pico_w", version)
    site = serve(dict(routes, **{uf2_path("raspberry_pi_pico_w", version): w.read_bytes()}))
    folder = tmp_path / "toolchain"
    r = make_toolchain("--version", version, "--mirror", site.url, "--board",
                       "raspberry_pi_pico_w", folder=folder)
    assert r.returncode == 0, r.stderr
    assert (folder / "circuitpython/board/raspberry_pi_pico_w.uf2").read_bytes() == \
        w.read_bytes()


def _stand_in(path, board, version, family=None):
    """A small image that says it is CircuitPython version for board."""
    import folder2uf2
    fam = family or uf2.board_facts(board)[0]
    banner = "Adafruit CircuitPython %s on 2026-11-30; %s with rp2040" % (version,
                                                                        uf2.BOARDS[board])
    image = (b"\0" * 1024 + banner.encode() + b"\0").ljust(64 * 1024, b"\xa5")
    folder2uf2.write_uf2(str(path), image, uf2.XIP_BASE, fam)
    return path.read_bytes()


def _script(text):
    return ("#!/bin/sh\necho '%s'\n" % text).encode()


def _spoilt(case, routes, version, tmp_path):
    """(routes with one file spoilt, extra arguments, the words of the line)."""
    pico, mpy = uf2_path("raspberry_pi_pico", version), mpy_path(version)
    rom = open(SHARED["bootrom"], "rb").read()
    stand = tmp_path / "stand-in.uf2"
    if case == "not found":
        return {k: v for k, v in routes.items() if k != pico}, [], ["404", pico]
    if case == "stalls":
        return dict(routes, **{pico: Stall(routes[pico])}), ["--timeout", "1"], \
            ["timed out", pico]
    if case == "cut short in sending":
        return dict(routes, **{mpy: Cut(routes[mpy])}), [], ["stopped after", "cut short"]
    if case == "cut short on the server":
        return dict(routes, **{pico: routes[pico][:len(routes[pico]) // 2]}), [], \
            ["cut short", pico]
    if case == "wrong hash":
        spoilt = bytearray(rom)
        spoilt[100] ^= 1
        return dict(routes, **{ROM_PATH: bootrom_ts(bytes(spoilt))}), [], \
            ["SHA-256", "not the file pinned"]
    if case == "rom cut short":
        return dict(routes, **{ROM_PATH: bootrom_ts(rom[:8192])}), [], \
            ["8,192 bytes", "16,384"]
    if case == "not the rom's file":
        return dict(routes, **{ROM_PATH: b"<html>moved</html>"}), [], ["no Uint32Array"]
    if case == "another board":
        return dict(routes, **{uf2_path("raspberry_pi_pico_w", version): routes[pico]}), \
            ["--board", "raspberry_pi_pico_w"], \
            ["for the Raspberry Pi Pico, not the Raspberry Pi Pico W"]
    if case == "another major":
        return dict(routes, **{pico: _stand_in(stand, "raspberry_pi_pico", "9.2.1")}), [], \
            ["is CircuitPython 9.2.1", "10.x"]
    if case == "another release":
        return dict(routes, **{pico: _stand_in(stand, "raspberry_pi_pico", "10.0.0")}), [], \
            ["is CircuitPython 10.0.0, not the %s asked for" % version]
    if case == "another chip":
        return dict(routes, **{pico: _stand_in(stand, "raspberry_pi_pico", version,
                                               family=0xE48BFF59)}), [], ["RP2350"]
    if case == "mpy-cross for another machine":
        return dict(routes, **{mpy: b"\x7fELF\x01\x01\x01" + b"\0" * 9 + b"\x02\0\x28\0"
                               + os.urandom(4000)}), [], ["does not run on this machine"]
    if case == "mpy-cross of another release":
        return dict(routes, **{mpy: _script("CircuitPython 10.0.0 on 2025-08-01; mpy-cross "
                                            "emitting mpy v6.3")}), [], \
            ["CircuitPython 10.0.0's mpy-cross, not %s's" % version]
    if case == "MicroPython's mpy-cross":
        return dict(routes, **{mpy: _script("MicroPython v1.27.0 on 2025-12-09; mpy-cross "
                                            "emitting mpy v6.3")}), [], \
            ["not CircuitPython's mpy-cross"]
    raise ValueError(case)


CASES = ["not found", "stalls", "cut short in sending", "cut short on the server",
         "wrong hash", "rom cut short", "not the rom's file", "another board", "another major",
         "another release", "another chip", "mpy-cross for another machine",
         "mpy-cross of another release", "MicroPython's mpy-cross"]


@NEEDS_SHARED
@pytest.mark.parametrize("case", CASES)
def test_a_bad_answer_is_one_line_and_leaves_no_file(tmp_path, good, serve, case):
    routes, version = good
    routes, more, words = _spoilt(case, routes, version, tmp_path)
    site = serve(routes)
    work = tmp_path / "work"
    work.mkdir()
    r = make_toolchain("--version", version, "--mirror", site.url, *more,
                       folder=work / "toolchain")
    line = places.one_line(r, *words)
    assert line.startswith("make toolchain: error: ") and line.endswith("nothing was kept")
    assert places.files_in(work) == {}  # no folder, no file, no temporary copy


@NEEDS_SHARED
def test_a_failure_leaves_what_was_there_as_it_was(tmp_path, good, serve):
    routes, version = good
    site = serve(routes)
    folder = tmp_path / "toolchain"
    assert make_toolchain("--version", version, "--mirror", site.url,
                          folder=folder).returncode == 0
    before = {rel: (folder / rel).read_bytes() for rel in places.files_in(folder)}
    r = make_toolchain("--version", version, "--mirror", site.url, "--board",
                       "raspberry_pi_pico2", folder=folder)  # (not on that server)
    places.one_line(r, "404", "raspberry_pi_pico2")
    assert {rel: (folder / rel).read_bytes() for rel in places.files_in(folder)} == before


def test_no_network_is_one_line(tmp_path):
    closed = socket.socket()  # bound, never listening: a connection is refused
    closed.bind(("127.0.0.1", 0))
    try:
        r = make_toolchain("--mirror", "http://127.0.0.1:%d" % closed.getsockname()[1],
                           folder=tmp_path / "toolchain")
    finally:
        closed.close()
    places.one_line(r, "cannot reach 127.0.0.1", "connection refused")
    assert places.files_in(tmp_path) == {}


@NEEDS_SHARED
def test_a_full_disk_is_one_line_and_leaves_no_file(tmp_path, good, serve):
    routes, version = good
    site = serve(routes)
    disk = tmp_path / "disk"
    disk.mkdir()
    seen = tmp_path / "seen"
    r = places.run(["tools.fetch", "--dir", str(disk), "--version", version, "--mirror",
                    site.url], prefix=places.full_disk(disk, size_kb=2048, seen=seen),
                   env=env())
    places.one_line(r, "the disk is full", "nothing was kept")
    assert set(places.files_in(seen)) == {"other"}  # nothing of ours on the disk


@pytest.mark.parametrize("args, words", [
    (["--version", "9.2.1"], ["--version", "not a CircuitPython 10 release"]),
    (["--version", "10.3"], ["--version", "not a CircuitPython 10 release"]),
    (["--mirror", "ftp://example.org"], ["--mirror", "not an http:// or https:// address"]),
    (["--board", "arduino_nano_rp2040"], ["--board", "invalid choice"]),
    (["--timeout", "0"], ["--timeout", "1..600"]),
])
def test_a_bad_argument_is_one_line(tmp_path, args, words):
    r = make_toolchain(*args, folder=tmp_path / "toolchain")
    places.one_line(r, *words)
    assert places.files_in(tmp_path) == {}


def test_a_bad_mirror_variable_and_a_folder_that_is_a_file_are_one_line(tmp_path):
    places.one_line(make_toolchain(folder=tmp_path / "t", TOOLCHAIN_MIRROR="example.org"),
                    "TOOLCHAIN_MIRROR", "not an http:// or https:// address")
    (tmp_path / "file").write_text("mine\n")
    places.one_line(make_toolchain(folder=tmp_path / "file"), "is not a folder")
    assert places.files_in(tmp_path) == {"file": 5}


def test_the_mpy_cross_addresses_are_those_circuitpython_build_tools_use():
    from tools import fetch
    path = fetch.mpy_cross_path
    assert path("10.3.1", "Linux", "x86_64") == \
        "/bin/mpy-cross/linux-amd64/mpy-cross-linux-amd64-10.3.1.static"
    assert path("10.3.1", "Linux", "armv7l") == \
        "/bin/mpy-cross/linux-raspbian/mpy-cross-linux-raspbian-10.3.1.static-raspbian"
    assert path("10.3.1", "Darwin", "arm64") == \
        "/bin/mpy-cross/macos/mpy-cross-macos-10.3.1-universal"
    assert path("10.3.1", "Windows", "AMD64") == \
        "/bin/mpy-cross/windows/mpy-cross-windows-10.3.1.static.exe"
    assert path("10.3.1", "Linux", "aarch64") is None  # none built: said, not fetched


def test_the_pinned_release_is_the_one_the_stubs_describe():
    from tools import toolchain
    with open(os.path.join(ROOT, "requirements.txt")) as f:
        stubs = re.search(r"^circuitpython-stubs==(\S+)$", f.read(), re.M).group(1)
    assert toolchain.VERSION == stubs
