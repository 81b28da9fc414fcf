"""The files made from the board: the KiCad project, nets.json and placement.json read
back from it, and dist/pcb/'s fab files and docs/'s pictures made by kicad-cli."""
import csv
import io
import json
import os
import re
import signal
import subprocess
import zipfile

from tools import files
from tools.pcb import (FAB, H, LIB, MADE_FOOTPRINTS, NAME, PARTS, PICO_GPIO, PICTURES, W,
                       fail, key_name, kind, part_of)
from tools.pcb.footprints import mm, pcbnew, pt
from tools.pcb import REVISION_DATE, ibom, schematic
from tools.pcb.layout import rules

LIB_TABLE = """(fp_lib_table
\t(version 7)
\t(lib (name "%s")(type "KiCad")(uri "${KIPRJMOD}/%s.pretty")(options "")(descr "The handheld's own footprints, made by tools/pcb/"))
%s)
"""
def save(path, board):
    """pcbnew.SaveBoard, or stop in words."""
    if not pcbnew.SaveBoard(path, board):
        fail("pcbnew could not save the board as %s" % path)


def write_project(b, work):
    """The KiCad project in the folder work: the board, its project file, its footprint
    library and its table. Returns the board loaded back with its zones filled (pcbnew fills
    zones only on a board loaded with its project); the run loads no other, since every
    LoadBoard after a process's first prints 12 lines of wxWidgets' debug output."""
    lib = os.path.join(work, LIB + ".pretty")
    os.makedirs(lib)
    libs = sorted({PARTS[k][1][0] for k in PARTS} - {LIB})
    std = "".join('\t(lib (name "%s")(type "KiCad")(uri "${KICAD9_FOOTPRINT_DIR}/%s.pretty")'
                  '(options "")(descr ""))\n' % (n, n) for n in libs)
    with open(os.path.join(work, "fp-lib-table"), "w") as f:
        f.write(LIB_TABLE % (LIB, LIB, std))
    with open(os.path.join(work, NAME + ".kicad_sch"), "w") as f:
        f.write(schematic.schematic(b))
    with open(os.path.join(work, NAME + ".kicad_sym"), "w") as f:
        f.write(schematic.symbol_library())
    with open(os.path.join(work, "sym-lib-table"), "w") as f:
        f.write(schematic.SYM_LIB_TABLE)
    path = os.path.join(work, NAME + ".kicad_pcb")
    save(path, b.board)
    bd = pcbnew.LoadBoard(path)
    rules(bd)
    pcbnew.ZONE_FILLER(bd).Fill(bd.Zones())
    save(path, bd)
    # the two made footprints, as they are on the board, into the project's library
    for ref in MADE_FOOTPRINTS:
        fp = pcbnew.FOOTPRINT(b.parts[ref])
        if fp.IsFlipped():
            fp.Flip(fp.GetPosition(), pcbnew.FLIP_DIRECTION_LEFT_RIGHT)
        fp.SetPosition(pt(0, 0))
        fp.SetOrientationDegrees(0)
        fp.SetReference("REF**")
        for p in fp.Pads():
            p.SetNetCode(0)
        pcbnew.PCB_IO_MGR.PluginFind(pcbnew.PCB_IO_MGR.KICAD_SEXP).FootprintSave(lib, fp)
    return bd


def loaded(board):
    """board itself, or the board in the file it names."""
    return pcbnew.LoadBoard(board) if isinstance(board, str) else board


def read_back(board):
    """What the board joins, read from its copper (pcbnew's nets, not their names): for each
    key of the matrix the GPIO its switch's column and its diode's row reach, and the GPIO
    of MENU, the piezo (through its series resistor) and the OLED's SDA and SCL. The form
    of nets.json."""
    bd = loaded(board)
    parts = {fp.GetReference(): fp for fp in bd.Footprints()}
    gp_of_pin = {p: "GP%d" % g for g, p in PICO_GPIO.items()}
    gpio_of_net = {}
    for p in parts["U1"].Pads():
        if p.GetNumber().isdigit() and int(p.GetNumber()) in gp_of_pin and p.GetNetCode():
            gpio_of_net.setdefault(p.GetNetCode(), []).append(gp_of_pin[int(p.GetNumber())])

    def reach(ref, number):
        codes = {p.GetNetCode() for p in parts[ref].Pads() if p.GetNumber() == str(number)}
        return ",".join(sorted(g for c in codes for g in gpio_of_net.get(c, [])))

    def through_diode(ref):
        codes = {p.GetNetCode() for p in parts[ref].Pads() if p.GetNumber() == "2"}
        for d, fp in sorted(parts.items()):
            if d.startswith("D") and not d.startswith("DS") and any(
                    p.GetNumber() == "2" and p.GetNetCode() in codes for p in fp.Pads()):
                return d, reach(d, 1)
        return None, ""

    def through_resistor(ref, number):
        """The GPIO a pad reaches, directly or through one resistor in series."""
        if reach(ref, number):
            return reach(ref, number)
        codes = {p.GetNetCode() for p in parts[ref].Pads() if p.GetNumber() == str(number)}
        for r, fp in sorted(parts.items()):
            ends = {p.GetNumber(): p.GetNetCode() for p in fp.Pads()}
            if kind(r) == "R" and ends.get("1") in codes:
                return reach(r, 2)
            if kind(r) == "R" and ends.get("2") in codes:
                return reach(r, 1)
        return ""

    keys = {}
    for key in range(24):
        ref = "SW%d" % (key + 1)
        diode, row = through_diode(ref)
        keys[key_name(key)] = {"key": key, "switch": ref, "diode": diode,
                               "column": reach(ref, 1), "row": row}
    return {"keys": keys, "MENU": reach("SW25", 1), "piezo": through_resistor("LS1", 1),
            "SDA": reach("J1", 4), "SCL": reach("J1", 3)}


def placement(board):
    """Each part: reference, value, side, position and rotation (mm, degrees; y down from
    the board's top left, A's edge at the bottom) and its courtyard's size: the form of
    placement.json, for the case."""
    parts = []
    for fp in sorted(loaded(board).Footprints(), key=lambda f: f.GetReference()):
        side = pcbnew.B_CrtYd if fp.IsFlipped() else pcbnew.F_CrtYd
        box = fp.GetCourtyard(side).BBox()
        x, y = mm(fp.GetPosition())
        parts.append({"ref": fp.GetReference(), "value": fp.GetValue(),
                      "side": "back" if fp.IsFlipped() else "front",
                      "x": round(x, 3), "y": round(y, 3),
                      "rotation": round(fp.GetOrientationDegrees(), 1),
                      "box": [round(v, 3) for v in (*mm(box.GetOrigin()), *mm(box.GetEnd()))]})
    return {"board": {"width": round(W, 3), "height": round(H, 3)}, "parts": parts}


def bom(board):
    """The board's parts by kind: [(value, part number, quantity, references)]."""
    rows = {}
    for fp in loaded(board).Footprints():
        ref = fp.GetReference()
        if kind(ref) != "H":
            rows.setdefault(part_of(ref), []).append(ref)
    order = lambda r: (r.rstrip("0123456789"), int(r[len(r.rstrip("0123456789")):]))  # noqa
    return [(v, n, len(refs), " ".join(sorted(refs, key=order)))
            for (v, n), refs in sorted(rows.items())]


def json_bytes(data):
    return (json.dumps(data, indent=1, sort_keys=True) + "\n").encode()


def csv_bytes(header, rows):
    text = io.StringIO()
    w = csv.writer(text)
    w.writerow(header)
    w.writerows(rows)
    return text.getvalue().encode()


def run(args, work):
    """kicad-cli, saying what failed in one line. Its settings are a fresh set in work, so
    none of the user's KiCad settings (colours, 3D model paths) enters the files, and its
    temporary files go there too."""
    env = dict(os.environ, KICAD_CONFIG_HOME=os.path.join(work, "kicad-settings"),
               TMPDIR=work)
    p = subprocess.run(["kicad-cli"] + args, capture_output=True, text=True, env=env,
                       stdin=subprocess.DEVNULL)
    if p.returncode == -signal.SIGINT:  # Ctrl-C reached it first
        raise KeyboardInterrupt
    if p.returncode:
        said = (p.stderr or p.stdout).strip().splitlines()
        fail("kicad-cli %s failed: %s" % (" ".join(args[:3]), said[-1] if said else
                                          "exit status %d" % p.returncode))
    return p


def fab_files(path, board, work):
    """dist/pcb/'s files, {name: bytes}: the fab's zip (gerbers and drills of the board
    file path), the BOM and the placement."""
    fab = os.path.join(work, "fab")
    os.makedirs(fab)
    run(["pcb", "export", "gerbers", "--no-x2", "--no-netlist", "-l",
         "F.Cu,B.Cu,F.Mask,B.Mask,F.Silkscreen,B.Silkscreen,Edge.Cuts", "-o", fab + "/", path],
        work)
    run(["pcb", "export", "drill", "--format", "excellon", "--excellon-separate-th",
         "-o", fab + "/", path], work)
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(os.listdir(fab)):
            with open(os.path.join(fab, name), "rb") as f:
                data = undated(f.read())
            z.writestr(zipfile.ZipInfo(name, STAMP), data, zipfile.ZIP_DEFLATED)
    parts = [[p["ref"], p["value"], p["side"], p["x"], p["y"], p["rotation"]]
             for p in placement(board)["parts"]]
    return dict(zip(FAB, (
        zipped.getvalue(),
        csv_bytes(["value", "part_number", "quantity", "references"], bom(board)),
        csv_bytes(["ref", "value", "side", "x_mm", "y_mm", "rotation"], parts))))


STAMP = tuple(int(n) for n in REVISION_DATE.split("-")) + (0, 0, 0)


def undated(data):
    """A file kicad-cli wrote, its run's date and time made the revision's: the same bytes
    every run."""
    day = REVISION_DATE.encode()
    data = re.sub(rb"(CreationDate[,\": ]+)\d{4}-\d\d-\d\dT[\d:]+\+\d\d:?\d\d",
                  rb"\g<1>" + day + b"T00:00:00+00:00", data)
    data = re.sub(rb"(Created by KiCad \([^)]*\) date )[\d-]+ [\d:]+",
                  rb"\g<1>" + day + b" 00:00:00", data)
    data = re.sub(rb"(DRILL file \{[^}]*\} date )\S+", rb"\g<1>" + day + b"T00:00:00+0000", data)
    # the PDF's (its length kept: the cross-reference table counts bytes)
    return re.sub(rb"/CreationDate \(D:\d{14}", b"/CreationDate (D:" +
                  day.replace(b"-", b"") + b"000000", data)


def schematic_pdf(work):
    """The schematic in the folder work as a PDF's bytes (kicad-cli sch export pdf)."""
    pdf = os.path.join(work, "schematic.pdf")
    run(["sch", "export", "pdf", "-o", pdf, os.path.join(work, NAME + ".kicad_sch")], work)
    return undated(kicad_made(pdf))


def guide(path, work):
    """The interactive soldering guide of the board file path (tools/pcb/ibom.py)."""
    folder = os.path.join(work, "guide")
    for attempt in range(ibom.ATTEMPTS):
        # (wxWidgets now and then fails to open a display Xvfb has just made: a new one)
        with ibom.display() as screen:
            if screen is None:
                fail("Xvfb started no X display for the soldering guide")
            env = dict(os.environ, KICAD_CONFIG_HOME=os.path.join(work, "kicad-settings"),
                       TMPDIR=work, XDG_CONFIG_HOME=os.path.join(work, "config"),
                       DISPLAY=screen)
            p = subprocess.run(ibom.command(path, folder), capture_output=True, text=True,
                               env=env, stdin=subprocess.DEVNULL)
        if "wxEntryStart failed" not in p.stderr:
            break
    if p.returncode == -signal.SIGINT:
        raise KeyboardInterrupt
    if p.returncode or not os.path.exists(os.path.join(folder, "ibom.html")):
        said = [line for line in (p.stderr + p.stdout).strip().splitlines()
                if "Debug:" not in line and "assert" not in line]
        fail("InteractiveHtmlBom made no soldering guide: %s" % (
            said[-1] if said else "exit status %d" % p.returncode))
    return kicad_made(os.path.join(folder, "ibom.html"))


def kicad_made(path):
    """The bytes of a file KiCad made in the work folder, or stop in words."""
    try:
        return files.read_bytes(path, "board")
    except files.FileProblem as e:
        fail("KiCad made no %s: %s" % (os.path.basename(path), e))


def pictures(board, work):
    """docs/'s pictures of both sides, {name: bytes}: kicad-cli's render of a copy of the
    board with its parts' 3D models taken off (board's too), so that they are the same
    whichever KiCad packages are installed (kicad-packages3d would draw the parts)."""
    folder = os.path.join(work, "render")
    os.makedirs(folder)
    for fp in board.Footprints():
        fp.Models().clear()
    path = os.path.join(folder, NAME + ".kicad_pcb")
    save(path, board)
    made = {}
    for name, side in zip(PICTURES, ("top", "bottom")):
        png = os.path.join(folder, name)
        run(["pcb", "render", "--side", side, "--width", "1200", "--height", "1070",
             "--background", "opaque", "--quality", "basic", "-o", png, path], work)
        made[name] = kicad_made(png)
    return made

