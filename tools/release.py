"""make release: every file a player or a teacher wants, in dist/release/, each name
carrying the version, with their SHA256SUMS.

    make release                              every part
    make release ARGS="--only uf2,bundle"     some of them
    make release ARGS="--version v1.0 --out FOLDER"

The parts (--only takes their names):
  uf2     the one-file UF2s (make uf2) of the direct and the matrix build for the Pico, and
          for the Pico W and the Pico 2 when make toolchain fetched their images
  bundle  the Project Bundle (make bundle)
  web     the page (make web) as a zip a static site serves: index.html at its top
  bom     hardware/bom.csv, the parts of both builds
  pcb     make pcb's: the fab's gerber and drill zip, the board's BOM and placement
          (dist/pcb/) and its pictures (docs/pcb-*.png); the schematic's PDF and the
          interactive BOM once make pcb writes them (PCB_LATER). make pcb needs KiCad 9 and
          is not run from here: a file it has not written is named in a line, not waited for
  case    the case's STLs (make case)

The UF2s and the bundle carry .mpy, so they need CircuitPython's mpy-cross; the page needs
what make web needs. They are checked before any work. Everything is made under a
temporary name beside the folder, which then replaces the one make release wrote before:
a failure leaves that one as it was. Two runs of one commit write the same bytes (every
date is the commit's, or $SOURCE_DATE_EPOCH).
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

from tools import boardcode, files, toolchain
from tools.cli import Parser, ctrl_c, fail

PROG = "make release"
PARTS = ("uf2", "bundle", "web", "bom", "pcb", "case")
DEFAULT_OUT = os.path.join("dist", "release")
SUMS = "SHA256SUMS"
NAME = "california-speed"
PCB_DIST = os.path.join(boardcode.ROOT, "dist", "pcb")
# The hook for make pcb's next files: taken from dist/pcb/ once it writes them.
PCB_LATER = (NAME + "-schematic.pdf", NAME + "-ibom.html")


def named(version, what):
    """california-speed-VERSION-what: a release file's name."""
    return "%s-%s-%s" % (NAME, boardcode.version_in_name(version), what)


def pcb_files(version):
    """[(release name, file make pcb writes)]: dist/pcb/'s, the pictures in docs/, then
    the files to come."""
    from tools import pcb
    out = [(named(version, "pcb" + f[len(NAME):]), os.path.join(PCB_DIST, f)) for f in pcb.FAB]
    out += [(named(version, p), os.path.join(boardcode.ROOT, "docs", p)) for p in pcb.PICTURES]
    out += [(named(version, "pcb" + f[len(NAME):]), os.path.join(PCB_DIST, f))
            for f in PCB_LATER]
    return out


def boards():
    """The boards whose UF2s go into the release: the Pico, and each board make toolchain
    fetched an image for."""
    from tools import uf2
    return [b for b in uf2.BOARDS if b == toolchain.PICO or toolchain.firmware(b)]


def needs(parts):
    """'' when every part can be made here, else one line naming what is missing."""
    if {"uf2", "bundle", "web"} & set(parts):
        try:
            if toolchain.mpy_cross() is None:
                return ("the release's drive is .mpy, made by CircuitPython's mpy-cross: make "
                        "toolchain fetches it (or set %s)" % toolchain.ENV_MPY)
        except toolchain.ToolchainError as e:
            return str(e)
    if {"uf2", "web"} & set(parts) and not toolchain.chip_files()[0]:
        return ("the UF2s need CircuitPython's image for the Pico: make toolchain fetches it "
                "(or set %s)" % toolchain.ENV_UF2)
    if "web" in parts:
        lacks = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
        if not toolchain.chip_files()[1]:
            lacks.append("the RP2040 boot ROM (make toolchain fetches it, or set %s)"
                         % toolchain.ENV_ROM)
        if lacks:
            return "the page (make web) needs " + ", ".join(lacks)
    return ""


def folder_problem(out):
    """'' when make release may put its folder at out: a new or empty folder, or one it
    wrote (every file in it is in its SHA256SUMS), in a folder it can write."""
    if os.path.lexists(out) and not os.path.isdir(out):
        return "%s is not a folder: move it away, or give --out FOLDER" % out
    if os.path.isdir(out) and os.listdir(out):
        sums = os.path.join(out, SUMS)
        listed = set()
        if os.path.isfile(sums):
            try:
                text = files.read_text(sums)
            except files.FileProblem as e:
                return str(e)
            listed = {line.split("  ", 1)[-1] for line in text.splitlines() if line}
        if set(os.listdir(out)) - listed - {SUMS}:
            return ("%s holds files make release did not write: give a new or empty folder"
                    % out)
    return files.folder_problem(os.path.dirname(os.path.abspath(out)), out, make=True)


def run(args, what):
    """A make command's module run here (python -m args); one line and exit 2 when it
    fails, with its own last line."""
    p = subprocess.run([sys.executable, "-m"] + args, cwd=boardcode.ROOT, capture_output=True,
                       text=True, stdin=subprocess.DEVNULL)
    if p.returncode:
        said = (p.stderr.strip() or p.stdout.strip() or "exit status %d" % p.returncode)
        fail(PROG, "%s: %s" % (what, said.splitlines()[-1]))


def make_uf2s(new, version, say):
    from tools import uf2
    compiler = toolchain.mpy_cross()
    for board in boards():
        for keys in ("direct", "matrix"):
            name = os.path.basename(uf2.default_name(board, version, keys))
            say("the %s build's UF2 for the %s..." % (keys, uf2.BOARDS[board]))
            try:
                uf2.build(os.path.join(new, name), board, version=version,
                          settings=None if keys == "direct" else {"CS_KEYS": keys},
                          mpy_cross=compiler)
            except (uf2.UF2Error, ValueError) as e:
                fail(PROG, str(e))


def make_bundle(new, version, say):
    from tools import bundle
    say("the Project Bundle...")
    run(["tools.bundle", "--version", version, "--mpy-cross", toolchain.mpy_cross(),
         "--out", os.path.join(new, bundle.default_name(version))], "make bundle")


def make_web(new, version, say):
    """make web's folder, zipped as a site serves it: index.html at the top, every entry
    dated by the commit (tools/bundle.py write_zip)."""
    from tools import bundle
    say("the page (make web)...")
    with tempfile.TemporaryDirectory(prefix=".release-web-", dir=new) as tmp:
        page = os.path.join(tmp, "web")
        run(["twins.chip.web", "--out", page, "--version", version], "make web")
        items = []
        for where, dirs, names in os.walk(page):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in names:
                if not name.startswith("."):  # (make web's mark of its own folder)
                    path = os.path.join(where, name)
                    with open(path, "rb") as f:
                        items.append((os.path.relpath(path, page).replace(os.sep, "/"),
                                      f.read()))
        bundle.write_zip(os.path.join(new, named(version, "web.zip")), sorted(items),
                         bundle.source_date()[0])


def make_case(new, version, say):
    say("the case's STLs (make case)...")
    with tempfile.TemporaryDirectory(prefix=".release-case-", dir=new) as tmp:
        run(["tools.case", "--out", tmp], "make case")
        for name in sorted(os.listdir(tmp)):
            os.rename(os.path.join(tmp, name),
                      os.path.join(new, named(version, "case" + name[len(NAME):])))


def copy(path, new, name):
    with open(path, "rb") as f:
        data = f.read()
    with open(os.path.join(new, name), "wb") as f:
        f.write(data)


def sums(new):
    """SHA256SUMS of every file in the folder (sha256sum -c reads it)."""
    lines = []
    for name in sorted(os.listdir(new)):
        with open(os.path.join(new, name), "rb") as f:
            lines.append("%s  %s\n" % (hashlib.sha256(f.read()).hexdigest(), name))
    with open(os.path.join(new, SUMS), "w") as f:
        f.write("".join(lines))


def put_in_place(new, out):
    """Rename the folder new to out; an old out is moved aside first and removed once new
    is there (back in its place if new cannot go)."""
    if not os.path.lexists(out):
        os.rename(new, out)
        return
    old = tempfile.mkdtemp(prefix="." + os.path.basename(out) + ".old-",
                           dir=os.path.dirname(out))
    os.rename(out, old)
    try:
        os.rename(new, out)
    except OSError:
        os.rename(old, out)
        raise
    shutil.rmtree(old, ignore_errors=True)


def parse(argv):
    import argparse
    from tools.deploy import version_text

    def parts(text):
        chosen = [p.strip() for p in text.split(",") if p.strip()]
        wrong = [p for p in chosen if p not in PARTS]
        if wrong or not chosen:
            raise argparse.ArgumentTypeError("%r: the parts are %s" % (text, ", ".join(PARTS)))
        return [p for p in PARTS if p in chosen]
    ap = Parser(prog=PROG, description=__doc__.split("\n")[0],
                epilog=__doc__.split("\n\n", 2)[2],
                formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", type=parts, default=list(PARTS), metavar="PART,...",
                    help="only these parts (%s)" % ", ".join(PARTS))
    ap.add_argument("--version", type=version_text, metavar="TEXT",
                    help="the version (default: from git: the tag or the commit)")
    ap.add_argument("--out", default=DEFAULT_OUT, metavar="FOLDER",
                    help="the release's folder (default %s)" % DEFAULT_OUT)
    return ap.parse_args(argv)


def main(argv=None):
    args = parse(argv)
    problem = folder_problem(args.out) or needs(args.only)
    if problem:
        fail(PROG, problem)
    try:
        boardcode.build_time()
    except ValueError as e:  # a SOURCE_DATE_EPOCH that is no time
        fail(PROG, str(e))
    version = args.version if args.version is not None else boardcode.version()

    def say(text):
        print("%s: %s" % (PROG, text), file=sys.stderr)
    out = os.path.abspath(args.out)
    absent = []
    with ctrl_c(PROG, "the release folder was left as it was"):
        try:
            os.makedirs(os.path.dirname(out), exist_ok=True)
            new = tempfile.mkdtemp(prefix="." + os.path.basename(out) + ".tmp-",
                                   dir=os.path.dirname(out))
        except OSError as e:
            fail(PROG, files.cannot_write(args.out, e))
        try:
            os.chmod(new, 0o755)
            if "uf2" in args.only:
                make_uf2s(new, version, say)
            if "bundle" in args.only:
                make_bundle(new, version, say)
            if "web" in args.only:
                make_web(new, version, say)
            if "bom" in args.only:
                copy(os.path.join(boardcode.ROOT, "hardware", "bom.csv"), new,
                     named(version, "bom.csv"))
            if "pcb" in args.only:
                for name, path in pcb_files(version):
                    if os.path.isfile(path):
                        copy(path, new, name)
                    else:
                        absent.append(os.path.relpath(path, boardcode.ROOT))
            if "case" in args.only:
                make_case(new, version, say)
            sums(new)
            put_in_place(new, out)
        except OSError as e:
            fail(PROG, files.cannot_write(args.out, e) + " (the release folder was left as it "
                 "was)")
        finally:
            shutil.rmtree(new, ignore_errors=True)
    names = sorted(n for n in os.listdir(out) if n != SUMS)
    print("%s: wrote %s, version %s: %d file%s and %s" % (
        PROG, args.out, version, len(names), "" if len(names) == 1 else "s", SUMS))
    for name in names:
        print("  %s (%s bytes)" % (name, format(os.path.getsize(os.path.join(out, name)), ",")))
    later = [a for a in absent if os.path.basename(a) in PCB_LATER]
    if len(later) < len(absent):
        print("%s: not in it, as make pcb has not written them (it needs KiCad 9): %s"
              % (PROG, ", ".join(a for a in absent if a not in later)))
    if later:
        print("%s: to come when make pcb writes them: %s" % (PROG, ", ".join(later)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
