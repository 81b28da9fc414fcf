"""Copy California Speed onto a Raspberry Pi Pico's CIRCUITPY drive.

    python -m tools.deploy                  find the mounted CIRCUITPY drive and copy
    python -m tools.deploy --dry-run        print what would change; touch nothing
    python -m tools.deploy --to /Volumes/CIRCUITPY --bundle DIR

What goes onto the drive: firmware/code.py as /code.py (source: CircuitPython runs it
by name), settings.toml, and the board code of engine/, firmware/ and hardware/
(tools/boardcode.py says which files) compiled to .mpy with CircuitPython's own mpy-cross
(--mpy-cross PATH, $CIRCUITPY_MPY_CROSS, or the one make toolchain fetched): a .py is
compiled in the board's RAM at import, which costs tens of KB of heap, and CircuitPython
refuses MicroPython's .mpy.
Without that compiler the packages go as .py, and deploy says so. Also the Adafruit
libraries in lib/: adafruit_displayio_ssd1306 (the OLED's driver), adafruit_display_text
and adafruit_ticks, which it needs (the error screen's text): with circup when it is on
PATH, else from an unzipped Adafruit bundle (adafruit-circuitpython-bundle-10.x-mpy-*/)
given with --bundle.

Only files whose content differs are copied, code.py last; each goes to a temporary name
beside it and is renamed into place, and all are read back and checked (SHA-256). The
manifest /.california-speed.json on the drive records what deploy installed and the
hashes it wrote. Deploy never deletes a file it did not put there; a file it installed
that left the project (or whose .py/.mpy twin replaced it) is removed only while it still
matches what deploy wrote. A file deploy did not write (or that was changed on the board)
is saved as NAME.bak before it is replaced - except settings.toml, which is then kept
unless --replace-settings. A file where deploy needs a folder (lib/, engine/, ...), or a
folder where it puts a file, is named before anything is written, and nothing is.

Stdlib only (and the project's own tools/files.py and tools/toolchain.py). Exit codes: 0 ok, 1 error, 2 usage error.
"""
import argparse
import errno
import glob
import hashlib
import json
import os
import re
import shutil
import string
import subprocess
import sys
import tempfile
import time

import tools.files
from tools import licences
from tools.boardcode import (LIBRARIES, MAX_VERSION, ROOT, SOURCE_DATE_EPOCH,  # noqa: F401
                             VERSION_FILE, board_files, version_source,
                             version as build_version)

MPY_CROSS_ENV = "CIRCUITPY_MPY_CROSS"
BOARD_MAJOR = 10  # the CircuitPython the firmware and its .mpy files are made for
MANIFEST = ".california-speed.json"
SETTINGS = "settings.toml"
# (LIBRARIES: the Adafruit libraries the firmware imports, tools/boardcode.py)
TMP_SUFFIX = ".deploy-tmp"
MOUNT_PATTERNS = ("/media/*/CIRCUITPY*", "/run/media/*/CIRCUITPY*", "/media/CIRCUITPY*",
                  "/mnt/CIRCUITPY*", "/Volumes/CIRCUITPY*")
NEXT_STEP = ("Next: the board restarts by itself when code.py changes; open the serial console "
             "to see messages (e.g. python -m serial.tools.miniterm /dev/ttyACM0 115200; "
             "macOS /dev/cu.usbmodem*, Windows COMn). Eject CIRCUITPY before unplugging.")
STALE = {"remove": ("removed", "installed by deploy, no longer in the project"),
         "leave": ("left", "installed by deploy, no longer in the project, but changed on the "
                           "board: left alone and no longer tracked"),
         "gone": ("forgot", "installed by deploy, already deleted from the drive")}


class DeployError(Exception):
    """Stops the deploy; the message says what happened and what to do."""


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def drive_path(drive, rel):
    return os.path.join(drive, *rel.split("/"))


def _write(f, data):
    """The one place bytes go to the drive (tests make it fail)."""
    f.write(data)


_MOUNTED = {}  # drive -> what identified it when deploy started (see identify)


def identify(drive):
    """What tells this drive from the empty folder left when it is unmounted: the device
    and inode of its root, and whether it has boot_out.txt. None if it is not there."""
    try:
        st = os.stat(drive)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, os.path.isfile(os.path.join(drive, "boot_out.txt")))


def still_there(drive):
    """True while the drive deploy started with is mounted (not gone, not replaced by the
    host's empty mount point)."""
    now = identify(drive)
    return now is not None and now == _MOUNTED.get(drive, now)


def safe_rel(rel):
    """True for a manifest path that stays inside the drive: relative, '/'-separated, no
    '..', '.', empty or drive-letter parts."""
    if not isinstance(rel, str) or not rel or rel.startswith("/") or "\\" in rel:
        return False
    return all(p not in ("", ".", "..") and ":" not in p for p in rel.split("/"))


def inside(drive, rel):
    """True when drive/rel is a file path inside the drive that no link leads out of."""
    if not safe_rel(rel):
        return False
    root = os.path.realpath(drive)
    path = drive_path(drive, rel)
    at = drive
    for part in rel.split("/"):
        at = os.path.join(at, part)
        if os.path.islink(at):
            return False
    return os.path.realpath(path).startswith(root + os.sep)


def write_atomic(drive, rel, data):
    """Write drive/rel whole or not at all (tools/files.py), under a temporary name of
    deploy's own beside it. Makes directories below the drive only: a drive that went
    away (or whose mount point is now an empty folder of the host) is not written to."""
    if not still_there(drive):
        raise OSError(errno.ENOENT, "the drive is gone", drive)
    if not inside(drive, rel):
        raise OSError(errno.EPERM, "outside the drive", rel)
    path = drive_path(drive, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + TMP_SUFFIX)
    tools.files.write_atomic(path, data, temp=tmp, write=_write)


def misplaced(drive, files, folders=()):
    """One line for each thing on the drive that stands where deploy needs the other kind:
    a file where a folder of its paths (or one of `folders`) must be, a folder where one
    of its files must go. Deploy checks them before it writes anything: otherwise the
    write fails half-way with "File exists" (or "Is a directory"), not naming the cause."""
    problems, seen = [], set()
    for rel in list(folders) + list(files):
        parts = rel.split("/")
        ok = True
        for n in range(1, len(parts) + (rel in folders)):
            folder = "/".join(parts[:n])
            path = drive_path(drive, folder)
            if folder not in seen and os.path.lexists(path) and not os.path.isdir(path):
                problems.append("%s on the drive is a file, not a folder: rename or remove it"
                                % folder)
            seen.add(folder)
            if not os.path.isdir(path):
                ok = False
                break
        if ok and rel not in folders and os.path.isdir(drive_path(drive, rel)):
            problems.append("%s on the drive is a folder, not a file: rename or remove it" % rel)
    return problems


def find_circup():
    return shutil.which("circup")


def run_circup(cmd):
    """Run circup; True when it succeeded (tests replace this: circup uses the network)."""
    try:
        return subprocess.run(cmd, stdin=subprocess.DEVNULL, timeout=600).returncode == 0
    except (OSError, subprocess.SubprocessError) as e:
        print("circup did not run: %s" % e, file=sys.stderr)
        return False


def sources(root, libs, compiled=None, stamped=None):
    """[(drive path, source file)] in copy order: library, LICENSES.txt, packages,
    settings.toml, code.py.
    compiled: {repo path: .mpy file} for the packages compiled by compile_board();
    stamped: {repo path: file} of files written for this drive (the version)."""
    rels = board_files(root) + [SETTINGS] * os.path.isfile(os.path.join(root, SETTINGS))
    rels.sort(key=lambda rel: rel == "firmware/code.py")  # stable: only moves code.py last
    out = list(libs)
    if stamped and licences.FILE in stamped:
        out.append((licences.FILE, stamped[licences.FILE]))
    for rel in rels:
        src = (stamped or {}).get(rel) or os.path.join(root, *rel.split("/"))
        if rel == "firmware/code.py":
            out.append(("code.py", src))
        elif compiled and rel in compiled:
            out.append((rel[:-3] + ".mpy", compiled[rel]))
        else:
            out.append((rel, src))
    return out


def stamp(root, text, build):
    """{repo path: file in build} of the files this drive gets instead of the project's:
    firmware/version.py saying the version text, and LICENSES.txt (tools/licences.py)."""
    path = os.path.join(build, "version.py")
    with open(path, "w") as f:
        f.write(version_source(text))
    try:
        notices = licences.drive_text()
    except (LookupError, OSError) as e:
        raise DeployError("the licences that go with the files: %s. Nothing was copied" % e)
    with open(os.path.join(build, licences.FILE), "w", encoding="utf-8") as f:
        f.write(notices)
    out = {licences.FILE: os.path.join(build, licences.FILE)}
    if VERSION_FILE in board_files(root):
        out[VERSION_FILE] = path
    return out


def find_mpy_cross(args, say):
    """CircuitPython's mpy-cross from --mpy-cross, $CIRCUITPY_MPY_CROSS or make toolchain's
    (tools/toolchain.py), checked; None (and a note why) when there is none or --no-mpy."""
    from tools import toolchain
    if args.no_mpy:
        say("Packages: as .py source (--no-mpy); the board compiles them in RAM at import")
        return None
    path = args.mpy_cross or os.environ.get(MPY_CROSS_ENV)
    if not path and os.path.isfile(toolchain.fetched("mpy-cross")):
        path = toolchain.fetched("mpy-cross")
    if not path:
        say("Packages: as .py source: no CircuitPython mpy-cross (make toolchain fetches it; "
            "or give --mpy-cross PATH or set %s). The board then compiles each one in RAM at "
            "import, which needs more heap" % MPY_CROSS_ENV)
        return None
    try:
        version = subprocess.run([path, "--version"], capture_output=True, text=True,
                                 timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError) as e:
        raise DeployError("cannot run mpy-cross %s: %s. Nothing was copied" % (path, e))
    m = re.match(r"CircuitPython (\d+)\.", version)
    if not m:
        raise DeployError("%s is not CircuitPython's mpy-cross (it says %r): CircuitPython "
                          "refuses MicroPython's .mpy files. Nothing was copied" % (path, version))
    if int(m.group(1)) != BOARD_MAJOR:
        raise DeployError("%s is CircuitPython %s's mpy-cross; the board needs %d.x .mpy files. "
                          "Nothing was copied" % (path, m.group(1), BOARD_MAJOR))
    say("Packages: compiled to .mpy by %s" % version.split(";")[0])
    return path


def compile_board(root, compiler, build, stamped=None):
    """{repo path: compiled .mpy file in build} for every board file but code.py (the
    stamped ones from their files instead of the project's)."""
    out = {}
    for rel in board_files(root):
        if rel == "firmware/code.py":
            continue
        dst = os.path.join(build, *rel[:-3].split("/")) + ".mpy"
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        src = (stamped or {}).get(rel) or os.path.join(root, *rel.split("/"))
        # Tracebacks name the file on the drive ("firmware/app.mpy"): the name the board
        # interns for the module's __file__ anyway, where the source's name would be one more
        # interned name (and its bytes) for every module loaded.
        p = subprocess.run([compiler, "-o", dst, "-s", rel[:-3] + ".mpy", src],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise DeployError("mpy-cross rejects %s: %s. Nothing was copied"
                              % (rel, (p.stderr or p.stdout).strip()))
        out[rel] = dst
    return out


def default_candidates():
    found = [p for pat in MOUNT_PATTERNS for p in sorted(glob.glob(pat))]
    if os.name == "nt":
        found += [d + ":\\" for d in string.ascii_uppercase[3:]
                  if os.path.isfile(d + ":\\boot_out.txt")]
    return found


def find_drive(candidates):
    """The one CircuitPython drive among the candidate mount points (it has boot_out.txt)."""
    drives = [c for c in dict.fromkeys(candidates) if os.path.isfile(os.path.join(c, "boot_out.txt"))]
    if len(drives) == 1:
        return drives[0]
    if drives:
        raise DeployError("several CircuitPython drives are mounted:\n%s\nchoose one with --to "
                          "PATH (or unplug the others)" % "\n".join("  " + d for d in drives))
    msg = ("no CIRCUITPY drive found. Connect the Pico with a USB data cable (not a charge-only "
           "one): with CircuitPython on it, it shows up as a drive named CIRCUITPY. A drive named "
           "RPI-RP2 means CircuitPython is not installed yet: copy the CircuitPython .uf2 for the "
           "Raspberry Pi Pico (circuitpython.org/board/raspberry_pi_pico/) onto it first. If the "
           "drive is mounted somewhere else, pass --to PATH.")
    for c in [c for c in dict.fromkeys(candidates) if os.path.isdir(c)]:
        msg += "\n(%s has no boot_out.txt; if it is the board, use --to %s --force)" % (c, c)
    raise DeployError(msg)


BOOT_OUT_SHOWN = 100  # characters of boot_out.txt's first line that deploy prints
NOT_TEXT = "boot_out.txt is not text"


def printable(raw, limit=BOOT_OUT_SHOWN):
    """(bytes of one line as they can be printed, the share of its characters that were
    not printable): a control character or a byte that is not UTF-8 is shown escaped
    (\\x1b, \\xff), and a line longer than limit characters is cut (ending in ...)."""
    chars = raw.decode("utf-8", "surrogateescape")
    out = []
    for c in chars:
        n = ord(c) - 0xDC00 if 0xDC80 <= ord(c) <= 0xDCFF else ord(c)  # (a byte not UTF-8)
        out.append(c if c.isprintable() else "\\x%02x" % n if n < 0x100 else "\\u%04x" % n)
    text = "".join(out)
    bad = sum(not c.isprintable() for c in chars)
    return (text[:limit] + "..." if len(text) > limit else text), bad / max(1, len(chars))


def board_version(drive):
    """(boot_out.txt's first line, fit to print (see printable), CircuitPython major
    version), or (None, None) without it. A file that is not text at all (a NUL byte in
    its start, or a first line mostly not printable) is NOT_TEXT, with no version."""
    try:
        with open(os.path.join(drive, "boot_out.txt"), "rb") as f:
            head = f.read(1024)
        raw = head.splitlines()[0]
    except (OSError, IndexError):
        return None, None
    line, bad = printable(raw.strip())
    if b"\0" in head or bad > 0.25:
        return NOT_TEXT, None
    m = re.search(r"CircuitPython (\d+)\.", line)
    return line, (int(m.group(1)) if m else None)


def _bundle_lib(bundle, name):
    """[(drive path, file)] of one library in the bundle: NAME.mpy or .py, or the files of
    the package NAME/; [] when it is not there."""
    for libdir in (os.path.join(bundle, "lib"), bundle):
        for ext in (".mpy", ".py"):
            if os.path.isfile(os.path.join(libdir, name + ext)):
                return [("lib/" + name + ext, os.path.join(libdir, name + ext))]
        package = os.path.join(libdir, name)
        if os.path.isfile(os.path.join(package, "__init__.mpy")) or \
                os.path.isfile(os.path.join(package, "__init__.py")):
            return [("lib/%s/%s" % (name, f), os.path.join(package, f))
                    for f in sorted(os.listdir(package)) if f.endswith((".mpy", ".py"))]
    return []


def bundle_libs(bundle):
    """[(drive path, file)] of the libraries in an unzipped Adafruit bundle (or its lib/)."""
    if not os.path.isdir(bundle):
        raise DeployError("the bundle directory %s does not exist. Download adafruit-circuitpython-"
                          "bundle-10.x-mpy-*.zip from circuitpython.org/libraries, unzip it and "
                          "pass that directory with --bundle. Nothing was copied" % bundle)
    found, missing = [], []
    for name in LIBRARIES:
        files = _bundle_lib(bundle, name)
        found += files
        if not files:
            missing.append(name)
    if missing:
        raise DeployError("%s not in the bundle %s (no lib/NAME.mpy, .py or package): is it an "
                          "unzipped Adafruit CircuitPython bundle? Nothing was copied"
                          % (" and ".join(missing) + (" is" if len(missing) == 1 else " are"),
                             bundle))
    return found


def _library_owned(rel):
    """True for a drive path inside one of LIBRARIES (what circup installs)."""
    return any(rel.startswith("lib/" + name + sep) for name in LIBRARIES for sep in ("/", "."))


def load_manifest(drive, say, dry_run=False):
    """({drive path: {"sha256", "bytes"}} of what deploy installed, True if the manifest
    must be written anew): ({}, True) when there is none; (None, True) when it is
    unreadable: it is kept aside (renamed, never deleted; on a dry run only said), and
    deploy then removes nothing and knows its own files by their content. A path that would
    leave the drive (absolute, '..', through a link) is refused and dropped, whatever its
    hash."""
    path = os.path.join(drive, MANIFEST)
    if not os.path.lexists(path):
        return {}, True
    try:
        files = tools.files.read_json(path, "manifest")["files"]
        files = {k: v for k, v in files.items() if isinstance(v, dict) and "sha256" in v}
    except tools.files.FileProblem as e:
        why = str(e)
    except (KeyError, TypeError, AttributeError):
        why = "%s: not deploy's manifest (no files listed)" % path
    else:
        refused = [rel for rel in sorted(files) if not inside(drive, rel)]
        for rel in refused:
            say("warning: %s lists %r, which is not a file inside the drive: ignored, and "
                "never touched" % (MANIFEST, rel))
            del files[rel]
        return files, bool(refused)
    aside = path + ".unreadable-" + time.strftime("%Y%m%d-%H%M%S")
    if not os.path.isfile(path) or os.path.islink(path):
        kept = "not a file deploy wrote: left as it is"
    elif dry_run:
        kept = "it would be kept as %s" % os.path.basename(aside)
    else:
        try:
            os.replace(path, aside)
            kept = "kept as %s" % os.path.basename(aside)
        except OSError as e:
            kept = "could not be set aside (%s)" % e
    say("warning: %s is unreadable (%s; %s); deploy removes nothing this time and knows "
        "its own files by their content" % (MANIFEST, why, kept))
    return None, True


def written_at():
    """The manifest's "updated" time: now, or SOURCE_DATE_EPOCH's when that is a whole
    number of seconds (the convention of reproducible builds: make bundle dates the drive
    it zips by its commit, so that two builds of one commit are the same bytes)."""
    epoch = os.environ.get(SOURCE_DATE_EPOCH, "")
    try:
        when = time.gmtime(int(epoch)) if epoch.isascii() and epoch.isdigit() else None
    except (OverflowError, OSError, ValueError):  # beyond what the clock can say
        when = None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", when or time.gmtime())


def save_manifest(drive, files, version):
    doc = {"format": 1, "tool": "California Speed tools/deploy.py", "updated": written_at(),
           "boot_out": version, "files": dict(sorted(files.items()))}
    write_atomic(drive, MANIFEST, (json.dumps(doc, indent=1) + "\n").encode())


def entry(data):
    return {"sha256": sha256(data), "bytes": len(data)}


def explain(err, drive):
    """A plain-words reason for an OSError on the drive."""
    if not still_there(drive):
        return "the drive is gone (unplugged, or the board reset and is remounting it)"
    reason = {
        errno.EROFS: "the drive is read-only (mounted read-only by the computer, or boot.py made "
                     "the flash writable to CircuitPython with storage.remount)",
        errno.ENOSPC: "the drive is full (delete files you no longer need from it)",
        errno.EACCES: "permission denied (is the drive mounted read-only or for another user?)",
        errno.EIO: "input/output error (was the board unplugged or reset?)",
    }.get(err.errno, err.strerror or str(err))
    return "%s [errno %s]" % (reason, errno.errorcode.get(err.errno, err.errno))


def plan(drive, srcs, old, args, libs_managed):
    """(items: each source file's fate copy/same/keep, stale: [(remove/leave/gone, path)])."""
    items = []
    for dest, src in srcs:
        data, path = read(src), drive_path(drive, dest)
        cur = read(path) if os.path.isfile(path) else None
        it = {"act": "copy", "dest": dest, "data": data, "backup": None, "note": "new",
              "cur": len(cur or b"")}
        if cur == data:
            it.update(act="same", note="unchanged")
        elif cur is None or (dest in old and old[dest]["sha256"] == sha256(cur)):
            it["note"] = "new" if cur is None else "update"
        elif dest == SETTINGS and not args.replace_settings:
            it.update(act="keep", note="edited on the board: kept; --replace-settings replaces it")
        else:  # someone else's file, or changed on the board: keep a copy
            n = 0
            while os.path.exists(drive_path(drive, dest + ".bak%s" % (n or ""))) and \
                    read(drive_path(drive, dest + ".bak%s" % (n or ""))) != cur:
                n += 1
            it.update(backup=dest + ".bak%s" % (n or ""), old=cur)
            it["note"] = "not what deploy last wrote there; the old one is saved as " + it["backup"]
        items.append(it)
    stale, dests = [], {it["dest"] for it in items}
    for dest in sorted(old):
        if dest in dests or dest == SETTINGS or (dest.startswith("lib/") and not libs_managed):
            continue
        path = drive_path(drive, dest)
        if not os.path.isfile(path):
            stale.append(("gone", dest))
        else:
            stale.append(("remove" if sha256(read(path)) == old[dest]["sha256"] else "leave", dest))
    return items, stale


def parse(argv):
    from tools.cli import Parser
    ap = Parser(prog="make deploy", description=__doc__.split("\n")[0],
                                 epilog=__doc__.split("\n\n", 2)[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--to", metavar="PATH", help="the CIRCUITPY drive (default: find the mounted one)")
    ap.add_argument("--dry-run", action="store_true", help="print what would be copied, skipped "
                    "and removed; change nothing")
    ap.add_argument("--force", action="store_true", help="deploy to a target without boot_out.txt")
    ap.add_argument("--replace-settings", action="store_true", help="overwrite a settings.toml "
                    "edited on the board (saved as settings.toml.bak first)")
    libs = ap.add_mutually_exclusive_group()
    libs.add_argument("--bundle", metavar="DIR", help="install %s from this unzipped Adafruit "
                      "bundle instead of with circup" % ", ".join(LIBRARIES))
    libs.add_argument("--no-libs", action="store_true", help="do not install libraries in lib/")
    mpy = ap.add_mutually_exclusive_group()
    mpy.add_argument("--mpy-cross", metavar="PATH", help="CircuitPython %d's mpy-cross, to "
                     "copy the packages as .mpy (default: $%s, else make toolchain's)"
                     % (BOARD_MAJOR, MPY_CROSS_ENV))
    mpy.add_argument("--no-mpy", action="store_true", help="copy the packages as .py source")
    ap.add_argument("--version", metavar="TEXT", type=version_text,
                    help="the version the firmware says it is (default: from git: the tag or "
                         "the commit, '+' for changed files)")
    return ap.parse_args(argv)


def version_text(text):
    """--version: short printable ASCII, as the self-test shows it."""
    if not (0 < len(text) <= MAX_VERSION and all(" " < c <= "~" for c in text)):
        raise argparse.ArgumentTypeError("%r: give 1 to %d printable characters, no spaces"
                                         % (text, MAX_VERSION))
    return text


def main(argv=None, candidates=None, root=ROOT):
    """Deploy; returns the exit code. candidates: mount points to search (default: the OS's)."""
    try:
        args = parse(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2
    try:
        return deploy(args, candidates, root)
    except DeployError as e:
        print("deploy: error: %s" % e, file=sys.stderr)
        return 1


def locate(args, candidates, say):
    """(drive, boot_out.txt's first line, CircuitPython major version)."""
    if args.to:
        drive = os.path.abspath(args.to)
        if not os.path.isdir(drive):
            raise DeployError("%s is not a directory (is the board connected and mounted?)" % drive)
    else:
        drive = find_drive(default_candidates() if candidates is None else candidates)
    version, major = board_version(drive)
    if version is None and not args.force:
        raise DeployError("%s has no boot_out.txt at its root, so it is not a CIRCUITPY drive "
                          "(CircuitPython writes that file at boot). Nothing was copied; use "
                          "--force to deploy there anyway" % drive)
    say("Board: %s (%s)" % (drive, version or "no boot_out.txt: --force"))
    if major is not None and major != BOARD_MAJOR:
        say("warning: the board runs CircuitPython %d; the firmware is made for %d.x: update it "
            "(circuitpython.org/board/raspberry_pi_pico/)" % (major, BOARD_MAJOR))
    if os.path.exists(os.path.join(drive, "code.txt")):
        say("warning: the drive has code.txt, which CircuitPython runs instead of code.py: "
            "rename or delete it")
    return drive, version, major


def library(args, drive, major, say):
    """(library files to copy, circup command or None), from --no-libs, --bundle or circup."""
    libs, circup = [], None
    if args.no_libs:
        note = "not installed (--no-libs)"
    elif args.bundle:
        bundle = os.path.abspath(args.bundle)
        libs, note = bundle_libs(bundle), "from the bundle %s" % bundle
        m = re.search(r"bundle-(\d+)\.x-mpy", os.path.basename(bundle))
        if m and major is not None and int(m.group(1)) != major:
            say("warning: a %s.x bundle's .mpy files may not load on CircuitPython %d; use the "
                "%d.x bundle" % (m.group(1), major, major))
    elif find_circup():
        circup, note = [find_circup(), "--path", drive, "install"] + list(LIBRARIES), "with circup"
    elif all(any(os.path.exists(drive_path(drive, "lib/" + name + e)) for e in (".mpy", ".py", ""))
             for name in LIBRARIES):
        note = "already on the drive; not updated (no circup on PATH and no --bundle)"
    else:
        raise DeployError("%s are needed in lib/ and there is no way to install them: circup is "
                          "not on PATH (pip install circup) and no --bundle DIR was given (an "
                          "unzipped adafruit-circuitpython-bundle-10.x-mpy-* from circuitpython.org"
                          "/libraries); --no-libs skips them. Nothing was copied."
                          % ", ".join(LIBRARIES))
    say("Libraries %s: %s" % (", ".join(LIBRARIES), note))
    return libs, circup


def deploy(args, candidates, root):
    say = print
    drive, version, major = locate(args, candidates, say)
    _MOUNTED[drive] = identify(drive)
    libs, circup = library(args, drive, major, say)
    compiler = find_mpy_cross(args, say)
    build = tempfile.mkdtemp(prefix="california-speed-mpy-")
    try:
        made = args.version if args.version is not None else build_version(root)
        stamped = stamp(root, made, build)
        say("Version: %s" % made)
        compiled = compile_board(root, compiler, build, stamped) if compiler else None
        return copy_all(args, drive, version, libs, circup, root, compiled, say, stamped)
    finally:
        shutil.rmtree(build, ignore_errors=True)


def copy_all(args, drive, version, libs, circup, root, compiled, say, stamped=None):
    """Plan, copy, remove what is stale, verify and write the manifest; the exit code."""
    if not os.path.isfile(os.path.join(root, SETTINGS)):
        say("warning: the project has no settings.toml; the board keeps its own or uses the "
            "firmware's defaults")
    srcs = sources(root, libs, compiled, stamped)
    wrong = misplaced(drive, [dest for dest, _ in srcs], ["lib"] if circup else [])
    if wrong:
        raise DeployError("; ".join(wrong) + ". Nothing was copied")
    try:
        old, rewrite = load_manifest(drive, say, dry_run=args.dry_run)
        by_content = old is None or not os.path.exists(os.path.join(drive, MANIFEST))
        old = old or {}
        items, stale = plan(drive, srcs, old, args, libs_managed=bool(libs))
    except OSError as e:
        raise DeployError("reading %s: %s. Nothing was copied" % (e.filename, explain(e, drive)))
    copies = [it for it in items if it["act"] == "copy"]
    unchanged = sum(it["act"] == "same" for it in items)

    if args.dry_run:
        say("Dry run: nothing on the drive is changed.")
        if circup:
            say("would run     %s" % " ".join(circup))
        for it in items:
            verb = {"copy": "would copy", "same": "would skip", "keep": "would keep"}[it["act"]]
            say("%-13s %s (%s, %d B)" % (verb, it["dest"], it["note"], len(it["data"])))
        for kind, dest in stale:
            say("%-13s %s (%s)" % ("would " + kind, dest, STALE[kind][1]))
        say("Dry run: %d to copy (%d bytes), %d unchanged, %d to remove. Nothing was changed."
            % (len(copies), sum(len(it["data"]) for it in copies), unchanged,
               sum(k == "remove" for k, _ in stale)))
        return 0

    need = sum(len(it["data"]) - (0 if it["backup"] else it["cur"]) for it in copies)
    need += max([len(it["data"]) for it in copies] or [0])  # a temporary copy beside the old
    free = shutil.disk_usage(drive).free
    if copies and need > free:
        raise DeployError("not enough space on %s: about %d bytes needed, %d free. Delete files "
                          "you no longer need from the drive. Nothing was copied" % (drive, need, free))

    for tmp in glob.glob(os.path.join(glob.escape(drive), "**", ".*" + TMP_SUFFIX), recursive=True):
        try:
            os.remove(tmp)  # left by a deploy that was cut off (only deploy uses that name)
        except OSError:
            pass
    failures = []
    if circup:
        say("running: %s" % " ".join(circup))
        if run_circup(circup):
            for rel in [k for k in old if _library_owned(k)]:
                del old[rel]  # circup owns the libraries now
        else:
            failures.append("circup failed: %s were NOT installed; install them with --bundle "
                            "DIR, or run circup yourself" % ", ".join(LIBRARIES))
    new, copied = dict(old), []
    for it in copies:
        try:
            if it["backup"] and not os.path.exists(drive_path(drive, it["backup"])):
                write_atomic(drive, it["backup"], it["old"])
            write_atomic(drive, it["dest"], it["data"])
        except OSError as e:
            failures.append("writing %s: %s" % (it["dest"], explain(e, drive)))
            break
        copied.append(it["dest"])
        new[it["dest"]] = entry(it["data"])
        say("copied  %s (%s, %d B)" % (it["dest"], it["note"], len(it["data"])))
    for it in items:
        if it["act"] == "keep":
            say("kept    %s (%s)" % (it["dest"], it["note"]))
        elif it["act"] == "same" and (it["dest"] in new or by_content):
            new[it["dest"]] = entry(it["data"])  # what deploy would write: its own, by content

    removed = []
    for kind, dest in stale if len(copied) == len(copies) else ():
        try:
            if kind == "remove" and inside(drive, dest):
                os.remove(drive_path(drive, dest))
                removed.append(dest)
        except OSError as e:
            failures.append("removing %s: %s" % (dest, explain(e, drive)))
            continue
        new.pop(dest, None)
        say("%-7s %s (%s)" % (STALE[kind][0], dest, STALE[kind][1]))
        if kind == "leave" and dest.endswith(".py") and dest[:-3] + ".mpy" in new:
            say("warning: %s shadows %s.mpy (the board imports a .py first): delete it, or "
                "the board runs the old code" % (dest, dest[:-3]))

    gone = not still_there(drive)
    for it in items:  # verify: read every project file on the drive back
        if not gone and (it["act"] == "same" or it["dest"] in copied):
            try:
                ok = sha256(read(drive_path(drive, it["dest"]))) == sha256(it["data"])
            except OSError:
                ok = False
            if not ok:
                failures.append("verifying %s: what was read back differs from the project's "
                                "file" % it["dest"])
                new.pop(it["dest"], None)

    manifest_ok = not gone
    if not gone and (new != old or copied or rewrite):
        try:
            save_manifest(drive, new, version)
        except OSError as e:
            manifest_ok = False
            failures.append("writing the manifest %s: %s" % (MANIFEST, explain(e, drive)))

    if failures:
        not_copied = [it["dest"] for it in copies if it["dest"] not in copied]
        for line in ["deploy: error: " + f for f in failures] + [
                "copied (%d): %s" % (len(copied), ", ".join(copied) or "nothing"),
                "not copied (%d): %s" % (len(not_copied), ", ".join(not_copied) or "nothing"),
                "The drive went away: once it is back, run deploy again (it copies only what "
                "is missing and removes its temporary files)." if gone else
                "No file was left half-written; %s. Fix the problem and run deploy again: it "
                "copies only what is missing." % ("the manifest lists what was copied" if
                                                   manifest_ok else "the manifest was not updated")]:
            print(line, file=sys.stderr)
        return 1
    say("Done: %d copied (%d bytes), %d unchanged, %d removed; all %d verified (SHA-256)."
        % (len(copied), sum(len(it["data"]) for it in copies), unchanged, len(removed),
           len(copied) + unchanged))
    say(NEXT_STEP)
    return 0


if __name__ == "__main__":
    sys.exit(main())
