"""The flash and the UF2s a chip twin boots: a UF2 checked (a Raspberry Pi Pico's), this
tree's built, a --flash file checked, the drive's settings.toml read as CircuitPython reads
it, and the nvm sector of given saved settings."""
import os
import re
import shutil

from hardware import config, pinmap


def check_uf2(path):
    """'' when the chip twin can boot the UF2 at path (a Raspberry Pi Pico's: RP2040, the
    drive at 1 MB), else one sentence why not: rp2040js is an RP2040 without the Pico W's
    radio, so neither a Pico 2 (RP2350) nor a Pico W image runs on it."""
    from tools import uf2
    try:
        wrong = uf2.problems(path, uf2.board_facts("raspberry_pi_pico")[2])
        if wrong:
            return wrong[0]
        family = uf2.family(path)
        if family != uf2.board_facts("raspberry_pi_pico")[0]:
            return ("%s is for the %s family; the chip twin is an RP2040 (a Raspberry Pi Pico)"
                    % (path, uf2.FAMILIES.get(family, "0x%08x" % family)))
        _, board = uf2.circuitpython_of(path)
        if board is not None and board != uf2.BOARDS["raspberry_pi_pico"]:
            return ("%s is for the %s; the chip twin is a Raspberry Pi Pico (no radio, the "
                    "drive at 1 MB)" % (path, board))
        if "code.py" not in uf2.drive_files(path):
            return "%s carries no CIRCUITPY drive with a code.py" % path
    except uf2.UF2Error as e:
        return str(e)
    return ""


FLASH_BYTES = 2 * 1024 * 1024  # the Pico's W25Q16JV
NVM_START, NVM_END = 0xFF000, 0x100000  # the Pico's nvm sector, offsets in flash
PAGE = 256


def boot2_crc(data):
    """The CRC the boot ROM checks at the end of boot stage 2 (the flash's first 256
    bytes): CRC-32 with polynomial 0x04C11DB7, not reflected, from 0xFFFFFFFF."""
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b << 24
        for _ in range(8):
            crc = (crc << 1 ^ 0x04C11DB7 if crc & 0x80000000 else crc << 1) & 0xFFFFFFFF
    return crc


def looks_like_flash(data):
    """True for a Pico's whole flash: erased where boot stage 2 goes, or a boot stage 2
    that the boot ROM would run (its CRC right)."""
    boot2 = data[:256]
    return boot2 == b"\xff" * 256 or boot2_crc(boot2[:252]) == int.from_bytes(boot2[252:],
                                                                               "little")


def flash_problem(path):
    """'' when path can be the chip's whole flash (absent or empty: an erased chip, or
    2 MB that a Pico boots) and be written back (the 2 MB go to a new file beside it, then
    over it: its folder must take them), else one line; another file is never written."""
    from twins.desktop.virtual import kept_file_problem
    problem = kept_file_problem(path, FLASH_BYTES, "a Pico's flash",
                                "flash that starts with a boot stage 2 a Pico runs",
                                looks_like_flash)
    if problem:
        return problem
    folder = os.path.dirname(os.path.realpath(path))
    if not os.access(folder, os.W_OK | os.X_OK):
        return ("%s: cannot write the flash back in %s (no permission, or read-only)"
                % (path, folder))
    free = shutil.disk_usage(folder).free
    if free < FLASH_BYTES:
        return ("%s: the disk has %s bytes free; writing the flash back needs %s"
                % (path, "{:,}".format(free), "{:,}".format(FLASH_BYTES)))
    return ""


def blank_flash(path):
    """True for a --flash file that holds nothing a Pico boots: absent, empty, or erased
    where boot stage 2 goes (an erased chip, whose boot ROM waits as RPI-RP2 for a UF2:
    the UF2 is written over it)."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return True
    with open(path, "rb") as f:
        return f.read(256) == b"\xff" * 256


def settings_of(path):
    """The settings the firmware runs on, from the drive a UF2 (or a whole flash) carries:
    its settings.toml read as CircuitPython's os.getenv reads it, checked as the firmware
    checks it (hardware/config.py: a value it refuses takes the default, and the firmware
    says so on its console), so the chip is wired as the firmware drives it."""
    from tools import uf2
    try:
        drive = uf2.drive_files(path)
    except uf2.UF2Error:  # (a flash, not a UF2; or no drive)
        drive = uf2.image_files(_flash_drive(path)) if os.path.getsize(path) else {}
    getenv = getenv_of(drive.get("settings.toml"))
    return config.read(getenv, _gpio, lambda line: None)


def _gpio(name):
    """The pin a name means on the Pico (hardware/pico.py pin_of), as its name."""
    return name if name in pinmap.GP_NAMES else None


_SPACE = frozenset(b" \t\n\v\f\r")  # MicroPython's unichar_isspace
_ESCAPES = {ord("b"): 8, ord("t"): 9, ord("n"): 10, ord("v"): 11, ord("f"): 12, ord("r"): 13}
_NL, _QUOTE, _HASH = ord("\n"), ord('"'), ord("#")


def getenv_of(data):
    """os.getenv over a settings.toml of these bytes (None: no file), as CircuitPython 10.3
    reads it byte by byte (supervisor/shared/settings.c): a key's value as text, a quoted
    one unescaped, a bare one trimmed; None when the key is not found before a [table] or
    its value is ill-formed; UnicodeError for a value that is not UTF-8."""
    data = data or b""

    def getenv(key):
        at = [0]

        def byte():  # (0 at the end: the reader cannot tell it from a NUL byte)
            at[0] += 1
            return data[at[0] - 1] if at[0] <= len(data) else 0

        def next_line():
            while byte() not in (0, _NL):
                pass

        def skip_space():
            c = byte()
            while c not in (0, _NL) and c in _SPACE:
                c = byte()
            return c

        def key_matches():
            c = skip_space()
            if c in (0, ord("[")):
                at[0] = len(data)
                return False
            for k in key.encode():
                if c != k:
                    if c != _NL:
                        next_line()
                    return False
                c = byte()
            if c in _SPACE:
                c = skip_space()
            if c != ord("="):
                if c != _NL:
                    next_line()
                return False
            return True

        def quoted():
            out = bytearray()
            while True:
                c = byte()
                if c in (0, _NL):
                    return None
                if c == _QUOTE:
                    return out if skip_space() in (0, _NL, _HASH) else None
                if c == ord("\\"):
                    c = byte()
                    if c in (0, _NL):
                        return None
                    if c in (ord("u"), ord("U")):
                        code = _hex(bytes(byte() for _ in range(4 if c == ord("u") else 8)))
                        if code is None or code >= 0x110000:
                            return None
                        out += chr(code).encode("utf-8", "surrogatepass")
                        continue
                    c = _ESCAPES.get(c, c)
                out.append(c)

        def bare(c):
            out, trailing = bytearray(), 0
            while c not in (0, _NL, _HASH):
                out.append(c)
                trailing = trailing + 1 if c in b" \t\r" else 0
                c = byte()
            return out[:len(out) - trailing]

        while at[0] < len(data):
            if key_matches():
                c = skip_space()
                value = quoted() if c == _QUOTE else None if c in (0, _NL) else bare(c)
                if value is None:
                    return None
                try:
                    return bytes(value).decode("utf-8", "surrogatepass")
                except UnicodeDecodeError:
                    raise UnicodeError()  # (MicroPython's utf8_check)
        return None
    return getenv


def _hex(digits):
    """strtoul(digits, 16) when it reads every digit, else None."""
    m = re.fullmatch(rb"[ \t\n\v\f\r]*([+-]?)(?:0[xX](?=[0-9a-fA-F]))?([0-9a-fA-F]+)", digits)
    if not m:
        return None
    value = int(m.group(2), 16)
    return 1 << 32 if m.group(1) == b"-" and value else value  # (unsigned: -1 wraps)


def _flash_drive(path):
    """CIRCUITPY's bytes in a whole flash file (the Pico's drive: 1 MB from 0x100000)."""
    from tools import uf2
    _, offset, size = uf2.board_facts("raspberry_pi_pico")
    with open(path, "rb") as f:
        f.seek(offset)
        return f.read(size - offset)


def build_uf2(dest, settings=None, change_tree=None):
    """This tree's one-file UF2 for the Pico, as `make uf2` writes it (tools/uf2.py), with
    the fixed version the goldens are made with, settings.toml values from settings and
    change_tree(tree) applied (a test breaks a file on purpose); returns its path."""
    from tools import drive, uf2
    return uf2.build(os.path.join(dest, "california-speed.uf2"), version=drive.FIXED_VERSION,
                     settings=settings, change=change_tree)


def saved_settings(**index):
    """The nvm sector of a handheld whose saved settings are the defaults but for the
    choices given by their index (piles=2: the third of the build's PILES choices)."""
    from firmware.settings import KEYS, SETTINGS_KIND, Settings
    from firmware.store import Log
    settings = Settings()
    for key, i in index.items():
        settings.index[KEYS.index(key)] = i
    nvm = bytearray(b"\xff" * 4096)
    Log(nvm).put(SETTINGS_KIND, settings.base())
    return bytes(nvm)
