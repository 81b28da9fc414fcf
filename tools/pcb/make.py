"""The command: make pcb's options, each output place checked before any work, the board
made in a private folder and every file renamed into place together."""
import contextlib
import os
import signal
import tempfile

import tools.pcb
from tools import cli, files
from tools.pcb import (DIST, DOCS, FAB, GUIDE, H, KICAD_FILES, NAME, PROG, PROJECT, ROOT,
                       SCHEMATIC_PDF, W, fail, ibom)
from tools.pcb.footprints import need_pcbnew, pcbnew
from tools.pcb.layout import build
from tools.pcb.outputs import (fab_files, guide, json_bytes, kicad_made, pictures,
                               placement, read_back, schematic_pdf, write_project)
from tools.pcb.routing import pour, route

@contextlib.contextmanager
def scratch():
    """A private temporary folder for KiCad's work, removed at the end; a file that cannot
    be written there stops the run in one line."""
    try:
        with tempfile.TemporaryDirectory(prefix="make-pcb-") as work:
            yield work
    except OSError as e:
        fail("%s (the temporary folder KiCad works in; TMPDIR says where)"
             % files.cannot_write(e.filename or tempfile.gettempdir(), e))


def put(made):
    """Write every file of made ({path: bytes}) under a temporary name beside it, then
    rename them all into place: a failure (one line) or Ctrl-C before the renames leaves
    every file as it was and no temporary one."""
    where = None
    interrupt = signal.getsignal(signal.SIGINT)
    try:
        with contextlib.ExitStack() as renames:
            for where, data in made.items():
                os.makedirs(os.path.dirname(where), exist_ok=True)
                with open(renames.enter_context(files.replacing(where)), "wb") as f:
                    f.write(data)
            # the renames, on leaving the block, take a moment: no Ctrl-C splits them
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    except OSError as e:
        fail(files.cannot_write(getattr(e, "filename2", None) or where, e))
    signal.signal(signal.SIGINT, interrupt)


def shown(path):
    """path as a user would type it: relative to here if it is below here."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def places(args):
    """Where this run writes: [(option, folder, the names of its files there)]."""
    out = [("--out", args.out, PROJECT)]
    if not args.board_only:
        out.append(("--dist", args.dist, DIST))
        if not args.no_pictures:
            out.append(("--docs", args.docs, DOCS))
    return out


def place_problem(option, folder, names):
    """'' when every file of names can be written in folder (made if missing), else why
    not, in one line."""
    for name in names:
        path = os.path.join(folder, name)
        problem = files.folder_problem(os.path.dirname(path), "%s %s" % (option, folder),
                                       make=True)
        if problem:
            return problem
        if os.path.lexists(path) and files.output_problem(path):
            return "%s %s: %s" % (option, folder, files.output_problem(path))
    return ""


def make(args):
    """The board: its KiCad project into --out, the fab's files into --dist and the pictures
    into --docs (as asked), each place checked before any work."""
    for option, folder, names in places(args):
        problem = place_problem(option, folder, names)
        if problem:
            fail(problem)
    need_pcbnew()
    if not args.board_only and not args.no_pictures and ibom.missing():
        fail(ibom.missing())
    made = {}
    with scratch() as work:
        print("make pcb: placing and routing the board", flush=True)
        pcbnew.KIID.SeedGenerator(36)
        b = build()
        pour(b, route(b))
        bd = write_project(b, work)
        for name in KICAD_FILES:
            made[os.path.join(args.out, name)] = kicad_made(os.path.join(work, name))
        made[os.path.join(args.out, "nets.json")] = json_bytes(read_back(bd))
        made[os.path.join(args.out, "placement.json")] = json_bytes(placement(bd))
        board = os.path.join(work, NAME + ".kicad_pcb")
        if not args.board_only:
            print("make pcb: the fab's files (gerbers, drills, BOM, placement) and the "
                  "schematic", flush=True)
            docs = {SCHEMATIC_PDF: schematic_pdf(work)}
            for name, data in fab_files(board, bd, work).items():
                made[os.path.join(args.dist, name)] = data
            if not args.no_pictures:
                print("make pcb: the pictures of both sides", flush=True)
                docs.update(pictures(bd, work))
                print("make pcb: the soldering guide", flush=True)
                docs[GUIDE] = guide(board, work)
                for name, data in docs.items():
                    made[os.path.join(args.docs, name)] = data
            for name, copy in zip(DIST[len(FAB):], (SCHEMATIC_PDF, GUIDE)):
                if copy in docs:
                    made[os.path.join(args.dist, name)] = docs[copy]
    put(made)
    print("make pcb: wrote %s (%.1f x %.1f mm)" % (
        shown(os.path.join(args.out, NAME + ".kicad_pcb")), W, H))


def nets_json(board):
    return os.path.join(os.path.dirname(os.path.abspath(board)), "nets.json")


def nets_of(board):
    """make pcb --nets-of BOARD: BOARD's nets.json, beside it."""
    out = nets_json(board)
    problem = files.input_problem(board)
    if not problem and not board.endswith(".kicad_pcb"):
        problem = "%s is not a KiCad board (.kicad_pcb)" % board
    if not problem and files.output_problem(out):
        problem = "%s: %s" % (board, files.output_problem(out))
    if problem:
        fail("--nets-of %s" % problem)
    need_pcbnew()
    try:
        data = files.read_bytes(board, "board")
    except files.FileProblem as e:
        fail("--nets-of %s" % e)
    with scratch() as work:
        copy = os.path.join(work, os.path.basename(board))
        with open(copy, "wb") as f:
            f.write(data)
        try:
            nets = read_back(copy)
        except Exception:  # (pcbnew's IO_ERROR, no board at all, or a board without our parts)
            fail("--nets-of %s: not a board of this project: KiCad reads no Pico U1 with the "
                 "switches SW1..SW25, the OLED J1 and the piezo LS1 in it" % board)
    files.write_or_fail(out, json_bytes(nets), PROG)
    print("make pcb: wrote %s (the copper of %s)" % (shown(out), board))


def untouched(args):
    """What a stopped run leaves as it was, in words."""
    if args.nets_of is not None:
        return shown(nets_json(args.nets_of)) + " is as it was"
    names = [shown(folder) for _, folder, _ in places(args)]
    if len(names) == 1:
        return names[0] + " is as it was"
    return ", ".join(names[:-1]) + " and " + names[-1] + " are as they were"


def stop(signum, frame):
    """Ctrl-C: stop once, and let no second one cut short the clearing up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def main(argv=None):
    ap = cli.Parser(prog=PROG, description=tools.pcb.__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "hardware", "pcb"),
                    help="the KiCad project's folder (default hardware/pcb)")
    ap.add_argument("--dist", default=os.path.join(ROOT, "dist", "pcb"),
                    help="the fab's files (default dist/pcb)")
    ap.add_argument("--docs", default=os.path.join(ROOT, "docs"),
                    help="where the pictures go (default docs)")
    ap.add_argument("--no-pictures", action="store_true",
                    help="skip the pictures (the slowest part)")
    ap.add_argument("--board-only", action="store_true",
                    help="write only the KiCad project (no dist/, no pictures)")
    ap.add_argument("--nets-of", metavar="BOARD",
                    help="instead: read a .kicad_pcb's copper back into the nets.json beside "
                         "it, which make chip ARGS=\"--keys matrix --nets FILE\" wires the "
                         "chip from (a board a teacher edited, say)")
    args = ap.parse_args(argv)
    for option in ("--out", "--dist", "--docs", "--nets-of"):
        if getattr(args, option[2:].replace("-", "_")) == "":
            fail("%s '' is an empty name: give %s" % (option, "a KiCad board (.kicad_pcb)"
                                                      if option == "--nets-of" else
                                                      "a folder (it is made if missing)"))
    signal.signal(signal.SIGINT, stop)
    with cli.ctrl_c(PROG, untouched(args) + "; nothing half-written"):
        if args.nets_of is not None:
            return nets_of(args.nets_of)
        return make(args)

