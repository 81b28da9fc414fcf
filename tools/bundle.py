"""Zip the CIRCUITPY drive as a Project Bundle, as Adafruit's Learn guides ship a project.

    python -m tools.bundle                     dist/california-speed-<version>-cp10-bundle.zip
    python -m tools.bundle --version v1.0 --out FILE
    python -m tools.bundle --mpy-cross PATH    CircuitPython's mpy-cross

The zip holds one folder, "CircuitPython 10.x/": exactly what `make deploy` writes onto a
board (tools/drive.py: code.py, settings.toml, the packages as CircuitPython .mpy, lib/
with the Adafruit libraries, firmware/version.mpy, deploy's manifest), and a README.txt
in plain words (docs/bundle-README.txt): install CircuitPython 10, copy everything in the
folder onto CIRCUITPY, the serial console, the language, the self-test.

The packages are compiled by CircuitPython 10's mpy-cross: --mpy-cross PATH, else
$CIRCUITPY_MPY_CROSS, else the one make toolchain fetched; with none, the folder carries
.py source, said in a line with what it costs. The version is the git tag
or the short commit ('+' when the board's files differ from it), or --version TEXT. The
zip is the same bytes for the same tree and version: its entries are sorted and dated by
the commit (or $SOURCE_DATE_EPOCH), and so is the manifest. The default output is dist/
in the folder it runs in (make runs it in the repository, where dist/ is ignored).

Exit codes: 0 ok, 2 an error, said in one line.
"""
import argparse
import os
import sys
import tempfile
import time
import zipfile

import tools.files
from tools import boardcode, deploy, drive
from tools import toolchain
from tools.cli import Parser, fail, output_file
from tools.files import input_problem, output_problem

PROG = "make bundle"
FOLDER = "CircuitPython %d.x" % deploy.BOARD_MAJOR  # the folder a Project Bundle has per major
README = os.path.join(boardcode.ROOT, "docs", "bundle-README.txt")
DIST = "dist"
ZIP_EPOCH = 315532800  # 1980-01-01 UTC: the first time a zip entry can carry
ZIP_LAST = 4354819198  # 2107-12-31 UTC: the last
def default_name(version):
    """The zip's file name for a version (a character a file name cannot carry on every
    system becomes '-')."""
    return "california-speed-%s-cp%d-bundle.zip" % (boardcode.version_in_name(version),
                                                     deploy.BOARD_MAJOR)


def source_date(root=boardcode.ROOT):
    """(seconds since 1970, what they are) the build is dated by (tools/boardcode.py
    build_time), within what a zip can carry. ValueError for a bad SOURCE_DATE_EPOCH."""
    when, what = boardcode.build_time(root)
    return min(max(when, ZIP_EPOCH), ZIP_LAST), what


def readme(version):
    with open(README, encoding="utf-8") as f:
        return f.read().replace("{version}", version)


def said(error):
    """An OSError in words, with the file it is about."""
    what = error.strerror or str(error)
    return "%s: %s" % (error.filename, what) if error.filename else what


def entries(tree, version):
    """[(name in the zip, bytes)] sorted by name: the drive's files and the README."""
    out = [(FOLDER + "/README.txt", readme(version).encode("utf-8"))]
    for rel in drive.files(tree):
        with open(os.path.join(tree, *rel.split("/")), "rb") as f:
            out.append((FOLDER + "/" + rel, f.read()))
    return sorted(out)


def write_zip(path, items, when):
    """The zip at path, entry by entry in the order given, each dated when (UTC) and
    marked a plain file (rw-r--r--): no time or owner of this machine goes into it. It is
    written whole or not at all (tools/files.py; a link is followed)."""
    def zip_into(f, entries):
        with zipfile.ZipFile(f, "w") as z:
            for name, data in entries:
                info = zipfile.ZipInfo(name, date_time=time.gmtime(when)[:6])
                info.compress_type = zipfile.ZIP_DEFLATED
                info.create_system = 3  # Unix, whose mode bits follow
                info.external_attr = 0o100644 << 16
                z.writestr(info, data, compresslevel=9)
    umask = os.umask(0)
    os.umask(umask)
    tools.files.write_atomic(os.path.realpath(path), items, mode=0o666 & ~umask,
                                write=zip_into)  # (as open() would make it, not 0600)


def parse(argv):
    ap = Parser(prog=PROG, description=__doc__.split("\n")[0],
                epilog=__doc__.split("\n\n", 2)[2],
                formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--version", metavar="TEXT", type=deploy.version_text,
                    help="the version the firmware says it is (default: from git: the tag or "
                         "the commit, '+' for changed files)")
    ap.add_argument("--out", metavar="FILE", type=output_file,
                    help="the zip to write (default: %s/%s)" % (DIST, default_name("VERSION")))
    ap.add_argument("--mpy-cross", metavar="PATH",
                    help="CircuitPython %d's mpy-cross (default: $%s, else make toolchain's; "
                         "with none the folder carries .py source)"
                    % (deploy.BOARD_MAJOR, toolchain.ENV_MPY))
    return ap.parse_args(argv)


def main(argv=None):
    args = parse(argv)
    problem = input_problem(args.mpy_cross) if args.mpy_cross is not None else ""
    if problem:
        fail(PROG, "--mpy-cross " + problem)
    try:
        when, what = source_date()
    except ValueError as e:
        fail(PROG, str(e))
    version = args.version if args.version is not None else boardcode.version()
    out = args.out or os.path.join(DIST, default_name(version))
    if args.out is None:  # dist/ is made when the zip is written; checked now
        if os.path.isdir(DIST):
            problem = output_problem(out)
        elif os.path.lexists(DIST):
            problem = "%s is not a folder: move it away, or give --out FILE" % DIST
        else:
            problem = output_problem(DIST)  # can the folder be made here
        if problem:
            fail(PROG, problem)
    compiler = drive.find_mpy_cross(PROG, args.mpy_cross)
    print("Writing the CIRCUITPY drive of California Speed %s (%s)..."
          % (version, "packages compiled to .mpy by CircuitPython's mpy-cross" if compiler
             else "packages as .py source"))
    with tempfile.TemporaryDirectory(prefix="california-speed-bundle-") as tmp:
        tree = os.path.join(tmp, "CIRCUITPY")
        try:
            drive.write(tree, version=version, stamp=when, mpy_cross=compiler,
                        use_mpy=compiler is not None)
        except (drive.DriveError, toolchain.ToolchainError) as e:
            fail(PROG, str(e))
        except OSError as e:
            fail(PROG, "writing the drive: %s" % said(e))
        items = entries(tree, version)
        print("Zipping %d files under '%s/', dated %s (%s)..."
              % (len(items), FOLDER, time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(when)),
                 what))
        try:
            if args.out is None:
                os.makedirs(DIST, exist_ok=True)
            write_zip(out, items, when)
        except OSError as e:
            fail(PROG, "cannot write %s: %s" % (out, said(e)))
    print("Wrote %s (%s bytes, %d files): unzip it and copy everything in '%s' onto "
          "CIRCUITPY (its README.txt says how)." % (out, format(os.path.getsize(out), ","),
                                                    len(items), FOLDER))
    return 0


if __name__ == "__main__":
    sys.exit(main())
