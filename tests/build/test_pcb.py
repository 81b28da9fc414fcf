"""The printed circuit board (make pcb, tools/pcb/): KiCad's DRC passes it, its copper
joins what the pin map says, it fits 120 x 80 mm, its fab files read back, and make pcb
writes the committed bytes, quietly, the same pictures whichever KiCad packages are here,
every file whole or not at all (a place it cannot write is one line before any work, a
Ctrl-C leaves everything as it was). KiCad's pcbnew imports only in Debian's
/usr/bin/python3, so the board is read in that Python, as a subprocess; without KiCad
those tests skip."""
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

import places
from hardware import pinmap

from tools.boardcode import ROOT
from tools.pcb import KICAD_PYTHON as KICAD_PY, kicad_missing
BOARD = os.path.join(ROOT, "hardware", "pcb", "california-speed.kicad_pcb")
PICTURES = ("pcb-front.png", "pcb-back.png")
DOCS = PICTURES + ("schematic.pdf", "ibom.html")
NO_KICAD = kicad_missing()
needs_kicad = pytest.mark.skipif(NO_KICAD != "", reason=NO_KICAD)


def kicad_python(code):
    """Run code in Debian's Python with tools.pcb (and its outputs) imported; its stdout as
    JSON."""
    p = subprocess.run([KICAD_PY, "-c", "import json, sys; sys.path.insert(0, %r); "
                        "from tools import pcb; from tools.pcb import outputs; " % ROOT + code],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


def make_pcb(*args, python=KICAD_PY):
    return subprocess.run([python, "-m", "tools.pcb"] + list(args), capture_output=True,
                          text=True, cwd=ROOT)


def square_step(size, height):
    """A STEP model: a flat square size mm a side, height mm above the board."""
    return """ISO-10303-21;
HEADER;
FILE_DESCRIPTION((''),'2;1');
FILE_NAME('','',(''),(''),'','','');
FILE_SCHEMA(('AUTOMOTIVE_DESIGN'));
ENDSEC;
DATA;
#1=CARTESIAN_POINT('',(0,0,%(h)g));
#2=CARTESIAN_POINT('',(%(s)g,0,%(h)g));
#3=CARTESIAN_POINT('',(%(s)g,%(s)g,%(h)g));
#4=CARTESIAN_POINT('',(0,%(s)g,%(h)g));
#5=POLY_LOOP('',(#1,#2,#3,#4));
#6=FACE_OUTER_BOUND('',#5,.T.);
#7=DIRECTION('',(0,0,1));
#8=DIRECTION('',(1,0,0));
#9=AXIS2_PLACEMENT_3D('',#1,#7,#8);
#10=PLANE('',#9);
#11=FACE_SURFACE('',(#6),#10,.T.);
#12=OPEN_SHELL('',(#11));
#13=SHELL_BASED_SURFACE_MODEL('',(#12));
#14=(LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.));
#15=(NAMED_UNIT(*) PLANE_ANGLE_UNIT() SI_UNIT($,.RADIAN.));
#16=(NAMED_UNIT(*) SI_UNIT($,.STERADIAN.) SOLID_ANGLE_UNIT());
#17=UNCERTAINTY_MEASURE_WITH_UNIT(LENGTH_MEASURE(1.E-07),#14,'','');
#18=(GEOMETRIC_REPRESENTATION_CONTEXT(3) GLOBAL_UNCERTAINTY_ASSIGNED_CONTEXT((#17))
 GLOBAL_UNIT_ASSIGNED_CONTEXT((#14,#15,#16)) REPRESENTATION_CONTEXT('',''));
#19=MANIFOLD_SURFACE_SHAPE_REPRESENTATION('',(#9,#13),#18);
#20=APPLICATION_CONTEXT('');
#21=PRODUCT_CONTEXT('',#20,'mechanical');
#22=PRODUCT('part','part','',(#21));
#23=PRODUCT_DEFINITION_FORMATION('','',#22);
#24=PRODUCT_DEFINITION_CONTEXT('',#20,'design');
#25=PRODUCT_DEFINITION('','',#23,#24);
#26=PRODUCT_DEFINITION_SHAPE('','',#25);
#27=SHAPE_DEFINITION_REPRESENTATION(#26,#19);
ENDSEC;
END-ISO-10303-21;
""" % {"s": size, "h": height}


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """A KiCad 3D model folder holding a model of the board's switch (a grey square over
    it): what KICAD9_3DMODEL_DIR names where kicad-packages3d is installed."""
    folder = tmp_path_factory.mktemp("3dmodels")
    (folder / "Button_Switch_THT.3dshapes").mkdir()
    (folder / "Button_Switch_THT.3dshapes" / "SW_PUSH_6mm.step").write_text(
        square_step(6, 4))
    return folder


@pytest.fixture(scope="module")
def made(tmp_path_factory, models):
    """make pcb into a scratch folder, with KiCad's 3D models where it finds a switch's:
    the project, dist/pcb/, the pictures, and what it said."""
    if NO_KICAD:
        pytest.skip(NO_KICAD)
    out = tmp_path_factory.mktemp("pcb")
    p = places.run(["tools.pcb", "--out", str(out / "pcb"), "--dist", str(out / "dist"),
                    "--docs", str(out / "docs")], python=KICAD_PY,
                   env=dict(os.environ, KICAD9_3DMODEL_DIR=str(models)))
    assert p.returncode == 0, p.stderr[-2000:]
    (out / "said.txt").write_text(p.stdout + p.stderr)
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
        "make pcb: error: --out %s: %s is not a folder" % (f, f)]
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
    nets = kicad_python("print(json.dumps(outputs.read_back(%r)))" % BOARD)
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
        "print(json.dumps(outputs.placement(%r)['parts']))" % BOARD)}
    nets = kicad_python("print(json.dumps(outputs.read_back(%r)))" % BOARD)["keys"]
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
    p = kicad_python("print(json.dumps(outputs.placement(%r)))" % BOARD)
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


@needs_kicad
def test_make_pcb_says_only_its_progress_no_debug_line(made):
    said = (made / "said.txt").read_text()
    assert "Debug:" not in said, said[:2000]
    assert all(line.startswith("make pcb: ") for line in said.splitlines()), said[:2000]


@needs_kicad
def test_the_pictures_have_no_3d_models_even_where_kicad_has_them(made, models, tmp_path):
    # KiCad draws the model where the render is left to find it: the check is not vacuous
    drawn = tmp_path / "drawn.png"
    subprocess.run(["kicad-cli", "pcb", "render", "--side", "top", "--width", "1200",
                    "--height", "1070", "--background", "opaque", "--quality", "basic",
                    "-o", str(drawn), BOARD], capture_output=True, check=True,
                   env=dict(os.environ, KICAD9_3DMODEL_DIR=str(models)))
    committed = {name: open(os.path.join(ROOT, "docs", name), "rb").read()
                 for name in DOCS}
    assert drawn.read_bytes() != committed["pcb-front.png"]
    for name in DOCS:  # the schematic's PDF and the soldering guide too, their dates fixed
        assert (made / "docs" / name).read_bytes() == committed[name], name


def repository_copy(tmp_path):
    """The parts of the project make pcb reads and writes, copied: its default places."""
    copy = tmp_path / "repo"
    for folder in ("tools", "hardware"):
        shutil.copytree(os.path.join(ROOT, folder), copy / folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "docs").mkdir()
    for name in PICTURES:
        shutil.copy2(os.path.join(ROOT, "docs", name), copy / "docs" / name)
    return copy


def state(folder):
    """Every file under folder: its bytes' digest and when it was last written."""
    return {name: (hashlib.sha256((folder / name).read_bytes()).hexdigest(),
                   os.stat(folder / name).st_mtime_ns) for name in places.files_in(folder)}


@needs_kicad
@pytest.mark.parametrize("option", ["--nets-of", "--out", "--dist", "--docs"])
def test_an_empty_name_is_refused_in_one_line_and_nothing_is_written(tmp_path, option):
    copy = repository_copy(tmp_path)
    before = state(copy)
    p = places.run(["tools.pcb", option, ""], cwd=copy, python=KICAD_PY)
    line = places.one_line(p, "make pcb: error: %s ''" % option, "empty")
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert state(copy) == before, line


@needs_kicad
def test_a_read_only_docs_is_refused_before_dist_is_touched(tmp_path):
    out, dist, docs = tmp_path / "pcb", tmp_path / "dist", tmp_path / "docs"
    dist.mkdir()
    (dist / "notes.txt").write_text("mine")
    docs.mkdir()
    p = places.run(["tools.pcb", "--out", str(out), "--dist", str(dist), "--docs", str(docs)],
                   prefix=places.read_only(docs), python=KICAD_PY)
    places.one_line(p, "make pcb: error: --docs %s: cannot write a file in %s" % (docs, docs))
    assert places.files_in(tmp_path) == {"dist/notes.txt": 4}
    assert (dist / "notes.txt").read_text() == "mine" and not out.exists()


@needs_kicad
def test_a_read_only_out_is_refused_in_one_line(tmp_path):
    out = tmp_path / "pcb"
    out.mkdir()
    (out / "nets.json").write_text("{}\n")
    p = places.run(["tools.pcb", "--out", str(out), "--dist", str(tmp_path / "dist"),
                    "--docs", str(tmp_path / "docs")],
                   prefix=places.read_only(out), python=KICAD_PY)
    places.one_line(p, "make pcb: error: --out %s: cannot write a file in %s" % (out, out))
    assert places.files_in(tmp_path) == {"pcb/nets.json": 3}


@needs_kicad
def test_a_full_dist_is_one_line_and_no_file_anywhere_changes(tmp_path):
    out, dist, seen = tmp_path / "pcb", tmp_path / "dist", tmp_path / "seen"
    out.mkdir()
    (out / "nets.json").write_text("{}\n")
    dist.mkdir()
    p = places.run(["tools.pcb", "--out", str(out), "--dist", str(dist), "--no-pictures"],
                   prefix=places.full_disk(dist, seen=seen), python=KICAD_PY)
    places.one_line(p, "make pcb: error: cannot write %s/california-speed-" % dist,
                    "the disk is full")
    assert places.files_in(seen) == {"other": 64 * 1024}  # what the full disk held after
    assert places.files_in(out) == {"nets.json": 3}  # the board's files all or none


@needs_kicad
def test_ctrl_c_stops_in_one_line_and_leaves_every_file_as_it_was(tmp_path, monkeypatch):
    out, dist, docs, temp = (tmp_path / n for n in ("pcb", "dist", "docs", "tmp"))
    for folder, name in ((out, "nets.json"), (dist, "notes.txt"), (docs, "pcb-front.png")):
        folder.mkdir()
        (folder / name).write_text("before")
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))  # where KiCad works: it is left empty too
    before = state(tmp_path)
    # the pictures come last: the board and the fab's files are made by then
    p = places.interrupted(["tools.pcb", "--out", str(out), "--dist", str(dist),
                            "--docs", str(docs)], "the pictures", python=KICAD_PY)
    assert p.returncode == 130, (p.stdout, p.stderr)
    assert p.stderr.strip().splitlines() == [
        "make pcb: stopped (Ctrl-C); %s, %s and %s are as they were; nothing half-written"
        % (out, dist, docs)]
    assert state(tmp_path) == before
    assert os.listdir(temp) == []


@needs_kicad
def test_nets_of_a_board_larger_than_a_board_may_be_is_refused_unread(tmp_path):
    big = tmp_path / "big.kicad_pcb"
    with open(big, "wb") as f:
        f.truncate(33 << 20)  # (sparse: no disk used)
    p = places.run(["tools.pcb", "--nets-of", str(big)], python=KICAD_PY)
    places.one_line(p, "make pcb: error: --nets-of %s is larger than a board may be" % big)
    assert os.listdir(tmp_path) == ["big.kicad_pcb"]


@needs_kicad
def test_nets_of_a_board_in_a_read_only_folder_is_refused_in_one_line(tmp_path):
    board = tmp_path / os.path.basename(BOARD)
    shutil.copy(BOARD, board)
    p = places.run(["tools.pcb", "--nets-of", str(board)], prefix=places.read_only(tmp_path),
                   python=KICAD_PY)
    places.one_line(p, "make pcb: error: --nets-of %s: " % board, "nets.json",
                    "cannot write")
    assert os.listdir(tmp_path) == [board.name]
