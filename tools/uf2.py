"""make uf2: the handheld as one UF2 file, for a classroom to drag onto a Pico's RPI-RP2.

    python -m tools.uf2                       # Pico: firmware and mpy-cross as make toolchain
    python -m tools.uf2 --board raspberry_pi_pico_w --firmware adafruit-circuitpython-....uf2
    python -m tools.uf2 --keys matrix                    # the matrix build (Long Speed)
    python -m tools.uf2 --mpy-cross PATH                 # CircuitPython's mpy-cross

One UF2 holds CircuitPython's own image for the board and the CIRCUITPY drive exactly as
`make deploy` writes it (tools/drive.py), packed by PyPI's folder2uf2 (its FAT image, and
its numbering of the firmware's blocks and the drive's as one file). A person holds
BOOTSEL, plugs the Pico in and drags the file onto RPI-RP2. It writes no block into the
nvm sector just below the drive, so the handheld's settings and statistics survive a
re-flash; every file on CIRCUITPY is replaced. problems() reads any UF2 back: magic
numbers, one family, blocks numbered 0..n-1 with one count, 256-byte payloads, ascending
addresses inside the flash; touched() says which flash it writes. --keys matrix makes the
matrix build's file (its settings.toml says CS_KEYS = "matrix"; the name says -matrix).
The firmware and mpy-cross are found as tools/toolchain.py says (a variable, else what
make toolchain fetched); with no mpy-cross at all the drive carries .py source, said in a
line with what it costs.
"""
import os
import re
import struct
import sys
import tempfile

from tools.cli import Parser, fail, output_file
from tools import files
from tools.files import input_problem
from tools.keynames import BUILDS
from tools.deploy import version_text

XIP_BASE = 0x10000000
NVM_SIZE = 4096  # microcontroller.nvm: the sector right below CIRCUITPY
BLOCK = 512
PAYLOAD = 256
_MAGIC0, _MAGIC1, _MAGIC_END = 0x0A324655, 0x9E5D5157, 0x0AB16F30
_FAMILY_FLAG = 0x00002000
CIRCUITPY_MAJOR = 10

# The boards the handheld is built on: CircuitPython's board id, and the name its image
# gives itself ("... on DATE; Raspberry Pi Pico with rp2040"). Family, drive offset and
# flash size come from folder2uf2's table of boards.
BOARDS = {
    "raspberry_pi_pico": "Raspberry Pi Pico",
    "raspberry_pi_pico_w": "Raspberry Pi Pico W",
    "raspberry_pi_pico2": "Raspberry Pi Pico 2",
}
FAMILIES = {0xE48BFF56: "RP2040", 0xE48BFF59: "RP2350 (Arm)", 0xE48BFF5B: "RP2350 (RISC-V)",
            0xE48BFF57: "RP2xxx absolute"}


class UF2Error(Exception):
    """A UF2 could not be made or is not right; the message is one sentence."""


def _folder2uf2():
    """PyPI's folder2uf2 (pinned in requirements.txt), or UF2Error saying how to get it."""
    try:
        import folder2uf2
    except ImportError:
        raise UF2Error("folder2uf2 is not installed: make uf2 sets it up from requirements.txt "
                       "(or pip install folder2uf2==0.1.2)") from None
    return folder2uf2


def board_facts(board):
    """(family id, CIRCUITPY's offset in flash, flash size) of a board in BOARDS."""
    return _folder2uf2().BOARDS[board]


def blocks(path):
    """[(flags, address, size, number, count, family, payload)] of a UF2 file; UF2Error
    naming the block when a block's magic numbers are wrong."""
    try:
        data = files.read_bytes(path, "uf2")
    except files.FileProblem as e:
        raise UF2Error(str(e))
    if not data or len(data) % BLOCK:
        raise UF2Error("%s is not a UF2 file: %d bytes, not whole 512-byte blocks"
                       % (path, len(data)))
    out = []
    for i in range(len(data) // BLOCK):
        b = data[i * BLOCK:(i + 1) * BLOCK]
        m0, m1, flags, addr, size, number, count, family = struct.unpack("<8I", b[:32])
        if (m0, m1, struct.unpack("<I", b[-4:])[0]) != (_MAGIC0, _MAGIC1, _MAGIC_END):
            raise UF2Error("%s is not a UF2 file: block %d has wrong magic numbers" % (path, i))
        out.append((flags, addr, size, number, count, family, b[32:32 + min(size, 476)]))
    return out


def problems(path, flash_size=None):
    """One line for each thing wrong with a UF2 (empty when it is right): the block
    numbers (0..n-1, one count), one family for every block, 256-byte payloads, ascending
    addresses inside the flash (flash_size bytes from 0x10000000, when given)."""
    try:
        bs = blocks(path)
    except UF2Error as e:
        return [str(e)]
    wrong = []
    n = len(bs)
    if [b[3] for b in bs] != list(range(n)):
        wrong.append("its blocks are not numbered 0..%d in order (the boot ROM stops at the "
                     "first that is not)" % (n - 1))
    counts = {b[4] for b in bs}
    if len(counts) == 1 and counts != {n} and [b[3] for b in bs] == list(range(n)):
        wrong.append("it is cut short: its blocks say %d, it ends after %d (a copy or a "
                     "download that did not finish? get the file again)" % (counts.pop(), n))
    elif counts != {n}:
        wrong.append("its blocks do not all say the file has %d blocks (two UF2 files put "
                     "together? the boot ROM stops after the first)" % n)
    families = {b[5] if b[0] & _FAMILY_FLAG else None for b in bs}
    if len(families) != 1 or None in families:
        wrong.append("its blocks do not all carry one family id")
    if any(b[2] != PAYLOAD for b in bs):
        wrong.append("not every block carries 256 bytes")
    addrs = [b[1] for b in bs]
    if any(b <= a for a, b in zip(addrs, addrs[1:])):
        wrong.append("its blocks' flash addresses do not ascend")
    end = XIP_BASE + (flash_size or 1 << 32)
    if any(not XIP_BASE <= a or a + PAYLOAD > end for a in addrs):
        wrong.append("a block lies outside the %s flash" % (
            "%d MB" % (flash_size >> 20) if flash_size else "XIP"))
    return ["%s: %s" % (path, w) for w in wrong]


def family(path):
    """The family id of a UF2's blocks (the first block's)."""
    return blocks(path)[0][5]


def touched(path):
    """The flash a UF2 writes, as sorted [(start, end)] offsets from 0x10000000, runs of
    adjacent blocks joined."""
    runs = []
    for _, addr, size, *_ in blocks(path):
        start, end = addr - XIP_BASE, addr - XIP_BASE + size
        if runs and runs[-1][1] == start:
            runs[-1][1] = end
        else:
            runs.append([start, end])
    return [tuple(r) for r in runs]


def drive_image(path, board="raspberry_pi_pico"):
    """The CIRCUITPY drive a UF2 carries for a board, as the flash holds it after the boot
    ROM wrote it: bytes from the drive's offset to the end of flash (erased: 0xFF, where no
    block writes)."""
    fam, offset, size = board_facts(board)
    image = bytearray(b"\xff" * (size - offset))
    found = False
    for _, addr, n, *_, payload in blocks(path):
        at = addr - XIP_BASE - offset
        if 0 <= at < len(image):
            image[at:at + n] = payload[:n]
            found = True
    if not found:
        raise UF2Error("%s carries no CIRCUITPY drive for the %s" % (path, BOARDS[board]))
    return bytes(image)


def drive_files(path, board="raspberry_pi_pico"):
    """{path: bytes} of every file on the CIRCUITPY drive a UF2 carries for a board, read
    back from its FAT image by pyfatfs (an implementation other than folder2uf2's)."""
    return image_files(drive_image(path, board))


def image_files(image):
    """{path: bytes} of every file in a CIRCUITPY FAT image, read by pyfatfs; {} for an
    image that holds no FAT volume (an erased drive)."""
    from pyfatfs.PyFatFS import PyFatFS
    if image[510:512] != b"\x55\xaa":
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        img = os.path.join(tmp, "circuitpy.img")
        with open(img, "wb") as f:
            f.write(image)
        fat = PyFatFS(img, read_only=True)
        try:
            return {p.lstrip("/"): fat.readbytes(p) for p in fat.walk.files()}
        finally:
            fat.close()


def circuitpython_of(path):
    """(CircuitPython version, board name) that a firmware image says it is, from its
    banner ("Adafruit CircuitPython 10.3.0 on 2026-11-30; Raspberry Pi Pico with rp2040"),
    or (None, None)."""
    data = b"".join(b[6] for b in sorted(blocks(path), key=lambda b: b[1]))
    m = re.search(rb"CircuitPython (\d+\.\d+\.\d+[^ \0]*) on [^;\0]{4,40}; ([^\0]{3,60}) with "
                  rb"rp2", data)
    if not m:
        return None, None
    return m.group(1).decode("ascii", "replace"), m.group(2).decode("ascii", "replace")


def check_firmware(path, board):
    """UF2Error, in one sentence, unless path is CircuitPython 10's image for board."""
    fam, offset, size = board_facts(board)
    wrong = problems(path, size)
    if wrong:
        raise UF2Error(wrong[0])
    got = family(path)
    if got != fam:
        raise UF2Error("%s is firmware for the %s family, not the %s's %s: download the "
                       "image for %s" % (path, FAMILIES.get(got, "0x%08x" % got),
                                         BOARDS[board], FAMILIES[fam], BOARDS[board]))
    version, name = circuitpython_of(path)
    if version is None:
        raise UF2Error("%s does not say it is CircuitPython (no 'Adafruit CircuitPython ... "
                       "with rp2...' in it): give CircuitPython %d's .uf2 for the %s"
                       % (path, CIRCUITPY_MAJOR, BOARDS[board]))
    if int(version.split(".")[0]) != CIRCUITPY_MAJOR:
        raise UF2Error("%s is CircuitPython %s; the handheld is made for %d.x: download "
                       "CircuitPython %d for the %s" % (path, version, CIRCUITPY_MAJOR,
                                                        CIRCUITPY_MAJOR, BOARDS[board]))
    if name != BOARDS[board]:
        raise UF2Error("%s is CircuitPython for the %s, not the %s (--board %s): its drive "
                       "is elsewhere in flash" % (path, name, BOARDS[board], board))
    end = max(a + s for _, a, s, *_ in blocks(path)) - XIP_BASE
    if end > offset - NVM_SIZE:
        raise UF2Error("%s reaches past 0x%x, into the nvm sector and the drive"
                       % (path, XIP_BASE + offset - NVM_SIZE))
    return version


def default_name(board, version, keys="direct"):
    """dist/california-speed-VERSION-BOARD-cp10.uf2, or -BOARD-matrix-cp10.uf2 for the
    matrix build."""
    from tools.boardcode import version_in_name
    return os.path.join("dist", "california-speed-%s-%s%s-cp%d.uf2"
                        % (version_in_name(version), board,
                           "" if keys == "direct" else "-" + keys, CIRCUITPY_MAJOR))


def build(out, board="raspberry_pi_pico", firmware=None, version=None, settings=None,
          change=None, say=None, mpy_cross=None, use_mpy=True):
    """Write the one-file UF2 for a board to out: firmware (CircuitPython 10's .uf2 for
    the board; by default as tools/toolchain.py finds it: $CIRCUITPY_UF2 for the Pico,
    else make toolchain's) and the drive (tools/drive.py, with version, settings, change,
    mpy_cross and use_mpy as drive.write takes them); checked before it is kept. Returns
    out. UF2Error says what went wrong."""
    from tools import boardcode, drive, toolchain
    say = say or (lambda text: None)
    _folder2uf2()  # nothing is made without it: said first
    if firmware is None:
        firmware = toolchain.firmware(board)
    if not firmware:
        raise UF2Error("no firmware for the %s: make toolchain%s fetches it, or give "
                       "--firmware PATH, CircuitPython %d's .uf2 for it (circuitpython.org/"
                       "board/%s/)%s" % (BOARDS[board], "" if board == toolchain.PICO else
                                         ' ARGS="--board %s"' % board, CIRCUITPY_MAJOR, board,
                                         "; or set CIRCUITPY_UF2" if board == toolchain.PICO
                                         else ""))
    cp = check_firmware(firmware, board)
    fam, offset, size = board_facts(board)
    version = version if version is not None else boardcode.version()
    with tempfile.TemporaryDirectory(prefix="california-speed-uf2-") as tmp:
        say("writing the CIRCUITPY drive (version %s)..." % version)
        try:
            tree = drive.write(os.path.join(tmp, "CIRCUITPY"), version=version,
                               settings=settings, change=change, stamp=_stamp(version)[0],
                               mpy_cross=mpy_cross, use_mpy=use_mpy)
        except drive.DriveError as e:
            raise UF2Error(str(e))
        made = os.path.join(tmp, "one.uf2")
        say("packing it with CircuitPython %s for the %s (folder2uf2)..." % (cp, BOARDS[board]))
        pack(tree, firmware, board, made, _stamp(version))
        wrong = problems(made, size) + nvm_problems(made, board)
        if wrong:
            raise UF2Error(wrong[0])
        with open(made, "rb") as f:
            data = f.read()
    try:
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        files.write_atomic(out, data, mode=0o644)
    except OSError as e:
        raise UF2Error(files.cannot_write(out, e) + " (no file was left there)")
    return out


_NOT_IN_FAT = '"*/:<>?\\|'


def name_problem(name):
    """Why FAT cannot hold a file name as it is ('' when it can): CircuitPython's drive is
    FAT12, whose names hold no " * / : < > ? \\ | or control characters, end in no dot or
    space, and are at most 255 characters long."""
    bad = [c for c in name if c in _NOT_IN_FAT or c < " "]
    if bad:
        return "FAT names cannot hold %r" % bad[0]
    if name[-1] in " .":
        return "FAT names cannot end in a dot or a space"
    if len(name.encode("utf-16-le", "surrogatepass")) > 255 * 2:
        return "FAT names are at most 255 characters"
    return ""


def name_problems(tree):
    """A line for each name in a drive that FAT cannot hold as it is (name_problem), and
    for two names in a folder that differ only in case, which FAT does not tell apart."""
    wrong = []
    for folder, dirs, names in os.walk(tree):
        seen = {}
        for name in sorted(dirs + names):
            rel = os.path.relpath(os.path.join(folder, name), tree).replace(os.sep, "/")
            if name_problem(name):
                wrong.append("%s: %s" % (rel, name_problem(name)))
            if name.lower() in seen:
                wrong.append("%s and %s differ only in case, which FAT does not tell apart"
                             % (seen[name.lower()], rel))
            seen[name.lower()] = rel
    return wrong


def _stamp(version):
    """(seconds since 1970, volume serial number) of a build: its commit's time and a
    number from its version, so that one tree and version pack to the same bytes."""
    import zlib
    from tools import boardcode
    return boardcode.build_time()[0], zlib.crc32(version.encode()) & 0xFFFFFFFF


def pack(tree, firmware, board, out, stamp):
    """folder2uf2's FAT image of tree for the board's CIRCUITPY, behind the firmware's own
    blocks, as one UF2 numbered over the whole file (its --combine). stamp: (time of every
    file, volume serial number), for the same bytes every time."""
    folder2uf2 = _folder2uf2()
    wrong = name_problems(tree)
    if wrong:
        raise UF2Error(wrong[0])
    when, serial = stamp
    for folder, dirs, names in os.walk(tree):
        for name in dirs + names:
            os.utime(os.path.join(folder, name), (when, when))
    fam, offset, size = board_facts(board)
    geometry = folder2uf2.Geometry((size - offset) // folder2uf2.SECTOR)
    fat = folder2uf2.FatBuilder(geometry, label="CIRCUITPY", volume_id=serial, build_ts=when)
    try:
        fat.layout(folder2uf2.build_tree(tree, build_ts=when))
    except ValueError as e:  # the files do not fit (or the top folder has too many)
        raise UF2Error("the drive's files do not fit in the %s's %d KB CIRCUITPY "
                       "(folder2uf2: %s)" % (BOARDS[board], (size - offset) // 1024, e))
    drive_blocks = folder2uf2.image_blocks(fat.image, XIP_BASE + offset,
                                           trim_to=fat.used_bytes())
    firmware_blocks, _ = folder2uf2.read_uf2(firmware)
    folder2uf2.write_uf2_blocks(out, firmware_blocks + drive_blocks, fam)


def nvm_problems(path, board):
    """A line for each block of a UF2 that writes the board's nvm sector, or outside the
    firmware's place and the drive (the settings and statistics must survive it)."""
    fam, offset, size = board_facts(board)
    nvm = (offset - NVM_SIZE, offset)
    wrong = []
    for start, end in touched(path):
        if start < nvm[1] and end > nvm[0]:
            wrong.append("%s: it writes the nvm sector 0x%x..0x%x (the handheld's settings "
                         "and statistics)" % (path, XIP_BASE + nvm[0], XIP_BASE + nvm[1] - 1))
        if end > size:
            wrong.append("%s: it writes past the end of the %s's flash" % (path, BOARDS[board]))
    return wrong


def _parser():
    ap = Parser(prog="make uf2", description=__doc__.splitlines()[0],
                epilog="Boards: %s. A board's firmware is --firmware, else (the Pico's) "
                       "$CIRCUITPY_UF2, else what make toolchain fetched. Writes dist/"
                       "california-speed-VERSION-BOARD-cp%d.uf2 (-BOARD-matrix-cp%d.uf2 with "
                       "--keys matrix) unless --out names a file."
                       % (", ".join(BOARDS), CIRCUITPY_MAJOR, CIRCUITPY_MAJOR))
    ap.add_argument("--board", choices=sorted(BOARDS), default="raspberry_pi_pico",
                    help="the board (default raspberry_pi_pico)")
    ap.add_argument("--firmware", metavar="UF2",
                    help="CircuitPython %d's .uf2 for that board" % CIRCUITPY_MAJOR)
    ap.add_argument("--version", metavar="TEXT", type=version_text,
                    help="the version the firmware says (default: from git)")
    ap.add_argument("--keys", choices=BUILDS, default=BUILDS[0],
                    help="the key build: direct (a pin per key; the default) or matrix (a 4 x 6 "
                         "diode matrix, Long Speed): its settings.toml's CS_KEYS")
    ap.add_argument("--out", metavar="FILE", type=output_file,
                    help="where to write the UF2 (default in dist/)")
    ap.add_argument("--mpy-cross", metavar="PATH",
                    help="CircuitPython %d's mpy-cross (default: $CIRCUITPY_MPY_CROSS, else "
                         "make toolchain's; with none the drive carries .py source)"
                         % CIRCUITPY_MAJOR)
    return ap


def main(argv=None):
    from tools import boardcode, drive
    args = _parser().parse_args(argv)
    for flag, path in (("--firmware", args.firmware), ("--mpy-cross", args.mpy_cross)):
        problem = input_problem(path) if path is not None else ""
        if problem:
            fail("make uf2", flag + " " + problem)
    version = args.version or boardcode.version()
    out = args.out or default_name(args.board, version, args.keys)
    problem = files.folder_problem(os.path.dirname(out), out, make=True)
    if problem:
        fail("make uf2", problem)
    settings = None if args.keys == BUILDS[0] else {"CS_KEYS": args.keys}
    compiler = drive.find_mpy_cross("make uf2", args.mpy_cross)
    try:
        build(out, args.board, args.firmware, version, settings=settings,
              say=lambda text: print(text, file=sys.stderr), mpy_cross=compiler,
              use_mpy=compiler is not None)
    except (UF2Error, ValueError) as e:  # (ValueError: a SOURCE_DATE_EPOCH that is no time)
        fail("make uf2", str(e))
    runs = touched(out)
    print("wrote %s: %d blocks (%d KB) for the %s, %s build; flash %s; the nvm sector is not "
          "touched" % (out, len(blocks(out)), os.path.getsize(out) // 1024, BOARDS[args.board],
                       args.keys, ", ".join("0x%x..0x%x" % (XIP_BASE + a, XIP_BASE + b - 1)
                                            for a, b in runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
