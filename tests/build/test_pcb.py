"""The printed circuit board (make pcb, tools/pcb.py): KiCad's DRC passes it, its copper
joins what the pin map says, it fits 120 x 80 mm, its fab files read back, and make pcb
writes the committed bytes. KiCad's pcbnew imports only in Debian's /usr/bin/python3, so
the board is read in that Python, as a subprocess; without KiCad those tests skip."""
import glob
import json
import os
import re
import subprocess
import sys
import zipfile

import pytest

from hardware import pinmap

from tools.boardcode import ROOT
from tools.pcb import KICAD_PYTHON as KICAD_PY, kicad_missing
BOARD = os.path.join(ROOT, "hardware", "pcb", "california-speed.kicad_pcb")
NO_KICAD = kicad_missing()
needs_kicad = pytest.mark.skipif(NO_KICAD != "", reason=NO_KICAD)


def kicad_python(code):
    """Run code in Debian's Python with tools.pcb imported; its stdout as JSON."""
    p = subprocess.run([KICAD_PY, "-c", "import json, sys; sys.path.insert(0, %r); "
                        "from tools import pcb; " % ROOT + code],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


def make_pcb(*args, python=KICAD_PY):
    return subprocess.run([python, "-m", "tools.pcb"] + list(args), capture_output=True,
                          text=True, cwd=ROOT)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """make pcb into a scratch folder (no pictures): the project and dist/pcb/."""
    out = tmp_path_factory.mktemp("pcb")
    p = make_pcb("--out", str(out / "pcb"), "--dist", str(out / "dist"), "--no-pictures")
    assert p.returncode == 0, p.stderr[-2000:]
    return out


def test_make_pcb_in_a_python_without_pcbnew_says_which_python_in_one_line():
    p = make_pcb("--board-only", "--out", os.path.join(ROOT, "hardware", "pcb"),
                 python=sys.executable)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "pcbnew" in lines[0] and "/usr/bin/python3" in lines[0]


def test_make_pcb_given_a_file_for_a_folder_says_so_and_writes_nothing(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("mine")
    p = make_pcb("--out", str(f), python=sys.executable)
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == [
        "make pcb: --out %s is not a folder: give a folder (it is made if missing)" % f]
    assert f.read_text() == "mine"


@needs_kicad
def test_kicads_drc_finds_no_violation_and_nothing_unconnected(tmp_path):
    report = tmp_path / "drc.json"
    subprocess.run(["kicad-cli", "pcb", "drc", "--severity-all", "--exit-code-violations",
                    "--format", "json", "-o", str(report), BOARD], capture_output=True,
                   check=True)
    drc = json.loads(report.read_text())
    assert [v["description"] for v in drc["violations"]] == []
    assert drc["unconnected_items"] == []


@needs_kicad
def test_the_boards_copper_joins_what_the_pin_map_says():
    nets = kicad_python("print(json.dumps(pcb.read_back(%r)))" % BOARD)
    rows = pinmap.default("CS_MATRIX_ROWS").split(",")
    cols = pinmap.default("CS_MATRIX_COLUMNS").split(",")
    assert len(nets["keys"]) == 24
    names = kicad_python("print(json.dumps([pcb.key_name(k) for k in range(24)]))")
    for key, name in enumerate(names):
        k = nets["keys"][name]
        assert (k["key"], k["row"], k["column"]) == (key, rows[key // 6], cols[key % 6]), name
    assert (nets["MENU"], nets["piezo"], nets["SDA"], nets["SCL"]) == tuple(
        pinmap.default(n) for n in ("CS_MENU", "CS_PIEZO", "CS_I2C_SDA", "CS_I2C_SCL"))
    # and the file beside the board says the same
    with open(os.path.join(ROOT, "hardware", "pcb", "nets.json")) as f:
        assert json.load(f) == nets


@needs_kicad
def test_each_players_keys_sit_at_their_own_end_in_their_own_order():
    places = {p["ref"]: p for p in kicad_python(
        "print(json.dumps(pcb.placement(%r)['parts']))" % BOARD)}
    nets = kicad_python("print(json.dumps(pcb.read_back(%r)))" % BOARD)["keys"]
    at = {name: places[k["switch"]] for name, k in nets.items()}
    # B near along B's edge (the top), A near along A's (the bottom)
    ys = [at["%s 1" % row]["y"] for row in ("B near", "B far", "A far", "A near")]
    assert ys == sorted(ys)
    # each player's 1 is on their own left: A's at the screen's left, B's at its right
    assert [at["A near %d" % i]["x"] for i in range(1, 7)] == sorted(
        at["A near %d" % i]["x"] for i in range(1, 7))
    assert [at["B near %d" % i]["x"] for i in range(1, 7)] == sorted(
        (at["B near %d" % i]["x"] for i in range(1, 7)), reverse=True)


@needs_kicad
def test_the_outline_fits_120_by_80_mm_and_every_part_lies_inside():
    p = kicad_python("print(json.dumps(pcb.placement(%r)))" % BOARD)
    w, h = p["board"]["width"], p["board"]["height"]
    assert w <= 120 and h <= 80
    for part in p["parts"]:
        x0, y0, x1, y1 = part["box"]
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h, part["ref"]
    with open(os.path.join(ROOT, "hardware", "pcb", "placement.json")) as f:
        assert json.load(f) == p


@needs_kicad
def test_make_pcb_writes_the_committed_board_byte_for_byte(made):
    committed = os.path.join(ROOT, "hardware", "pcb")
    names = sorted(os.path.relpath(f, committed) for f in glob.glob(committed + "/**",
                                                                    recursive=True)
                   if os.path.isfile(f))
    made_names = sorted(os.path.relpath(f, made / "pcb") for f in glob.glob(
        str(made / "pcb") + "/**", recursive=True) if os.path.isfile(f))
    assert made_names == names
    for name in names:
        with open(os.path.join(committed, name), "rb") as a, open(made / "pcb" / name,
                                                                   "rb") as b:
            assert a.read() == b.read(), name


@needs_kicad
def test_the_fab_zip_has_gerbers_and_as_many_drills_as_holes(made):
    with zipfile.ZipFile(made / "dist" / "california-speed-gerbers.zip") as z:
        files = {n: z.read(n).decode() for n in z.namelist()}
    for layer in ("F_Cu.gtl", "B_Cu.gbl", "F_Mask.gts", "B_Mask.gbs", "Edge_Cuts.gm1"):
        text = files["california-speed-" + layer]
        assert text.startswith("%FS") or "%FSLAX" in text, layer
        assert text.rstrip().endswith("M02*"), layer
    hits = {kind: len(re.findall(r"^X-?[\d.]+Y-?[\d.]+$", files["california-speed-%s.drl" % kind],
                                 re.M)) for kind in ("PTH", "NPTH")}
    holes = kicad_python(
        "import pcbnew; b = pcbnew.LoadBoard(%r); pads = [p for f in b.Footprints() "
        "for p in f.Pads() if p.GetDrillSize().x]; print(json.dumps({'PTH': sum(1 for p in pads "
        "if p.GetAttribute() == pcbnew.PAD_ATTRIB_PTH) + sum(1 for t in b.GetTracks() "
        "if t.GetClass() == 'PCB_VIA'), 'NPTH': sum(1 for p in pads "
        "if p.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH)}))" % BOARD)
    assert hits == holes


@needs_kicad
def test_the_bom_has_a_part_number_for_every_part_and_a_diode_a_key(made):
    import csv
    with open(made / "dist" / "california-speed-bom.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert all(r["part_number"].strip() for r in rows)
    qty = {r["value"]: int(r["quantity"]) for r in rows}
    assert qty["1N4148"] == 24 and qty["6x6 mm tactile switch"] == 25
    assert qty["Raspberry Pi Pico"] == 1
    assert (made / "dist" / "california-speed-placement.csv").read_text().startswith("ref,")
    with open(os.path.join(ROOT, "hardware", "bom.csv"), newline="") as f:
        board = [r for r in csv.DictReader(f) if r["build"] == "board"]
    assert sorted((r["part"], r["example_part_number"], r["quantity"]) for r in board
                  if not r["part"].startswith("printed circuit board")) == sorted(
        (r["value"], r["part_number"], r["quantity"]) for r in rows)  # hardware/bom.csv's


@needs_kicad
def test_nets_of_a_folder_or_a_file_that_is_no_board_says_so_and_writes_nothing(tmp_path):
    junk = tmp_path / "junk.kicad_pcb"
    junk.write_text("(not a board)")
    for given, said in ((tmp_path, "is a folder"), (tmp_path / "notes.txt", "no such file"),
                        (junk, "not a board of this project")):
        p = make_pcb("--nets-of", str(given))
        assert p.returncode == 2 and said in p.stderr, p.stderr
        assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr
    assert sorted(os.listdir(tmp_path)) == ["junk.kicad_pcb"]


@needs_kicad
def test_nets_of_the_committed_board_is_the_committed_nets_json(tmp_path):
    board = tmp_path / os.path.basename(BOARD)
    board.write_bytes(open(BOARD, "rb").read())
    p = make_pcb("--nets-of", str(board))
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "nets.json").read_text() == open(
        os.path.join(ROOT, "hardware", "pcb", "nets.json")).read()
