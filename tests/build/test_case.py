"""The printed case (make case, tools/case.py), measured from the STLs it writes: every part
is a closed mesh, the caps' holes and the OLED's window sit over the switches and the glass
of hardware/pcb/placement.json, the board with its tallest parts and the batteries fits
inside with 0.5 mm to spare, the USB plug and the power switch's lever have their way out,
and a bad placement table or folder is a line, not a traceback: a case that cannot be
built, a placement file that cannot be read or a disk that cannot take the parts leaves the
old parts as they were."""
import json
import os
import pathlib

import manifold3d
import numpy as np
import pytest
import trimesh

import places
from tools.boardcode import ROOT
from tools import case
from tools.pcb import PICO_L

PLACEMENT = os.path.join(ROOT, "hardware", "pcb", "placement.json")
PARTS = ("top", "bottom", "door", "caps")


def make_case(*args, prefix=(), timeout=120):
    return places.run(["tools.case"] + list(args), prefix=prefix, timeout=timeout)


def written(out):
    """{part: trimesh} of the STLs make case wrote into out."""
    return {name: trimesh.load(os.path.join(out, "california-speed-%s.stl" % name))
            for name in PARTS}


def solid(mesh):
    m = manifold3d.Manifold(manifold3d.Mesh(vert_properties=np.asarray(mesh.vertices, np.float32),
                                            tri_verts=np.asarray(mesh.faces, np.uint32)))
    assert m.status() == manifold3d.Error.NoError
    return m


def placement(path=PLACEMENT):
    with open(path) as f:
        return json.load(f)


def board_part(table, ref):
    return next(p for p in table["parts"] if p["ref"] == ref)


def up(table, x, y):
    """Board millimetres (y down from the top edge) to the case's (y up from A's edge)."""
    return np.array([x, table["board"]["height"] - y])


def holes_in_plate(top):
    """The holes in the top's plate, cut at its mid height: [(centroid, width, height)]."""
    plate = top.bounds[1][2] - case.PLATE / 2
    out = []
    for ring in solid(top).slice(plate).to_polygons():
        x, y = ring[:, 0], ring[:, 1]
        xn, yn = np.roll(x, -1), np.roll(y, -1)
        cross = x * yn - xn * y
        area = cross.sum() / 2
        if area < 0:  # clockwise: a hole
            cx = ((x + xn) * cross).sum() / (6 * area)
            cy = ((y + yn) * cross).sum() / (6 * area)
            out.append((np.array([cx, cy]), np.ptp(x), np.ptp(y)))
    return out


def nearest(holes, point):
    return min(holes, key=lambda h: np.linalg.norm(h[0] - point))


def switch_centres(table):
    return {p["ref"]: up(table, (p["box"][0] + p["box"][2]) / 2, (p["box"][1] + p["box"][3]) / 2)
            for p in table["parts"] if p["ref"].rstrip("0123456789") == "SW"}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("case"))
    p = make_case("--out", out)
    assert p.returncode == 0, p.stderr
    return written(out)


def test_each_part_is_a_closed_mesh_with_a_volume(made):
    for name, mesh in made.items():
        assert mesh.is_watertight and mesh.is_winding_consistent, name
        assert mesh.volume > 1000, name  # cubic millimetres: every part is a real piece
        pieces = len(solid(mesh).decompose())  # one piece each, a cap per switch
        assert pieces == (25 if name == "caps" else 1), name


def test_every_cap_hole_and_the_window_sit_over_their_switch_and_the_glass(made):
    table = placement()
    holes = holes_in_plate(made["top"])
    switches = switch_centres(table)
    assert len(switches) == 25
    for ref, centre in switches.items():
        c, w, h = nearest(holes, centre)
        assert np.linalg.norm(c - centre) <= 0.3, ref
        assert 2 * case.CAP_SHAFT_R < min(w, h) < 2 * case.CAP_FLANGE_R, ref
    oled = board_part(table, "J1")
    assert oled["rotation"] == 0
    glass = up(table, oled["x"] + case.GLASS_CENTRE[0], oled["y"] + case.GLASS_CENTRE[1])
    c, w, h = nearest(holes, glass)
    assert np.linalg.norm(c - glass) <= 0.3
    assert w >= case.GLASS_SIZE[0] and h >= case.GLASS_SIZE[1]  # the whole glass shows
    # and each printed cap's shaft stands in its hole
    caps = solid(made["caps"]).slice(made["top"].bounds[1][2] - case.PLATE / 2)
    shafts = [np.array(r[:, :2].mean(axis=0)) for r in caps.to_polygons()]
    assert len(shafts) == 25
    for ref, centre in switches.items():
        assert min(np.linalg.norm(s - centre) for s in shafts) <= 0.3, ref


def test_the_board_with_its_tallest_parts_and_batteries_fits_with_half_a_millimetre(made):
    """A box: the board's outline, from its tallest part on the back (the holder with its
    cells) to its tallest on the front, grown by 0.5 mm; less the mounting holes' keep-out
    (their courtyards), where the bosses hold the board. No part of the case is in it."""
    table = placement()
    w, h = table["board"]["width"], table["board"]["height"]
    front = max(case.HEIGHTS[p["ref"].rstrip("0123456789")] for p in table["parts"]
                if p["side"] == "front")
    back = max(case.HEIGHTS[p["ref"].rstrip("0123456789")] for p in table["parts"]
               if p["side"] == "back")
    assert back == case.HEIGHTS["BT"] and front >= case.HEIGHTS["J"]
    grown = manifold3d.Manifold.cube((w + 1.0, h + 1.0, back + case.PCB_T + front + 1.0)
                                     ).translate((-0.5, -0.5, -back - 0.5))
    for p in table["parts"]:
        if p["ref"].startswith("H"):
            x0, y0, x1, y1 = p["box"]
            c = up(table, p["x"], p["y"])
            grown -= manifold3d.Manifold.cylinder(100, (x1 - x0) / 2, -1, 64).translate(
                (c[0], c[1], -50))
    for name in ("top", "bottom", "door"):
        assert (solid(made[name]) ^ grown).volume() < 1e-3, name
    # grown by 0.6 mm instead, it meets the walls: the clearance is 0.5, not more
    wider = manifold3d.Manifold.cube((w + 1.2, h + 1.2, 1.0)).translate((-0.6, -0.6, 0.0))
    assert (solid(made["bottom"]) ^ wider).volume() > 1.0


def test_the_usb_plug_and_the_power_switchs_lever_have_their_way_out(made):
    table = placement()
    pico = board_part(table, "U1")
    assert pico["rotation"] == -90  # its USB end to the right
    end = pico["x"] + PICO_L / 2  # the Pico's end; its socket overhangs it by 1.3 mm
    zc = case.PCB_T + case.PICO_T + case.USB_H / 2
    yc = up(table, pico["x"], pico["y"])[1]
    plug = manifold3d.Manifold.cube((30, 11.0, 7.5)).translate((end, yc - 5.5, zc - 3.75))
    swp = board_part(table, "SWP1")
    assert swp["rotation"] == 90  # its lever points to the right
    x, y = up(table, swp["x"], swp["y"])
    lever = manifold3d.Manifold.cube((30, 4.0 + 2.0, 3.0)).translate(
        (x + 2.2, y - 1.0, case.PCB_T + 0.5))  # over its 2 mm travel, 1 mm each side
    for name in ("top", "bottom"):
        part = solid(made[name])
        assert (part ^ plug).volume() < 1e-3, name
        assert (part ^ lever).volume() < 1e-3, name


def test_moving_a_switch_in_the_placement_table_moves_its_hole(tmp_path):
    table = placement()
    sw = board_part(table, "SW9")
    old = switch_centres(table)["SW9"]
    sw["x"] += 1.0
    sw["box"] = [sw["box"][0] + 1.0, sw["box"][1], sw["box"][2] + 1.0, sw["box"][3]]
    moved = tmp_path / "placement.json"
    moved.write_text(json.dumps(table))
    p = make_case("--placement", str(moved), "--out", str(tmp_path / "case"))
    assert p.returncode == 0, p.stderr
    holes = holes_in_plate(written(str(tmp_path / "case"))["top"])
    assert np.linalg.norm(nearest(holes, old + [1.0, 0.0])[0] - old - [1.0, 0.0]) <= 0.3
    assert np.linalg.norm(nearest(holes, old)[0] - old) > 0.7


def one_line_and_nothing_written(p, out, *words):
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("make case: error: "), p.stderr
    assert "Traceback" not in p.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert not os.path.exists(out)


@pytest.mark.parametrize("text, says", [
    (None, "no such file"),
    ("{\"board\": {\"width\": 87", "line 1 column 23: not JSON"),
    ("{\"board\": {\"width\": 87, \"height\": 77}}", "not a placement table of make pcb"),
    ("[1, 2]", "not a placement table of make pcb"),
    ("{\"board\": {\"width\": NaN, \"height\": 77}, \"parts\": []}",
     "the board's width is NaN, not a number"),
])
def test_a_missing_or_broken_placement_table_is_one_line_and_writes_nothing(tmp_path, text,
                                                                            says):
    path = tmp_path / "placement.json"
    if text is not None:
        path.write_text(text)
    out = str(tmp_path / "case")
    p = make_case("--placement", str(path), "--out", out)
    one_line_and_nothing_written(p, out, str(path), says)


def test_a_part_the_case_has_no_height_for_is_named(tmp_path):
    table = placement()
    table["parts"].append(dict(board_part(table, "LS1"), ref="Q1"))
    path = tmp_path / "placement.json"
    path.write_text(json.dumps(table))
    out = str(tmp_path / "case")
    p = make_case("--placement", str(path), "--out", out)
    one_line_and_nothing_written(p, out, "Q1", "HEIGHTS")


def test_an_out_that_is_a_file_is_one_line_and_the_file_is_kept(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("mine")
    p = make_case("--out", str(f))
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == [
        "make case: error: --out %s is not a folder: give a folder (it is made if missing)" % f]
    assert f.read_text() == "mine"


def test_an_out_inside_a_file_is_one_line(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("mine")
    p = make_case("--out", str(f / "case"))
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == [
        "make case: error: --out %s: %s is not a folder" % (f / "case", f)]
    assert f.read_text() == "mine"


def test_the_picture_is_a_png_small_enough_for_the_readme(tmp_path):
    png = tmp_path / "case.png"
    p = make_case("--out", str(tmp_path / "case"), "--picture", str(png))
    assert p.returncode == 0, p.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size < 150_000


OLD = {"california-speed-%s.stl" % name: b"old " + name.encode() for name in PARTS}


def old_parts(out):
    """A folder of parts made earlier, which a failed make case must leave as they were."""
    os.makedirs(out, exist_ok=True)
    for name, data in OLD.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


def contents(folder):
    """{name: bytes} of every file in folder, hidden ones (a temporary name) included."""
    return {name: pathlib.Path(folder, name).read_bytes() for name in places.files_in(folder)}


def moved(part, dx=0.0, dy=0.0):
    """A part of the table moved by dx, dy mm, its box with it."""
    part.update(x=part["x"] + dx, y=part["y"] + dy,
                box=[v + (dx, dy)[i % 2] for i, v in enumerate(part["box"])])


def switches_on_sw1(table):
    """Every switch of the table put where SW1 is."""
    for p in table["parts"]:
        if p["ref"].rstrip("0123456789") == "SW":
            p.update(x=board_part(table, "SW1")["x"], y=board_part(table, "SW1")["y"],
                     box=list(board_part(table, "SW1")["box"]))


def set_board(side, value):
    return lambda table: table["board"].__setitem__(side, value)


def set_part(ref, key, value):
    return lambda table: board_part(table, ref).__setitem__(key, value)


# (an impossible case, what the line says); the line also names the placement file
IMPOSSIBLE = {
    "a board of a thousandth of a mm": (set_board("width", 0.001), (
        "the board's width is 0.001 mm", "a board of 21 to 215 mm a side")),
    "a width of true": (set_board("width", True), ("the board's width is true, not a number",)),
    "a board of 1e300 mm": (set_board("height", 1e300), (
        "the board's height is 1e+300 mm", "220 mm printer bed")),
    "a switch 500 mm off the board": (lambda t: moved(board_part(t, "SW9"), dx=500), (
        "part SW9, at (535.485, 55.32)", "is off the board (87.495 x 77.47 mm)")),
    "25 switches on one spot": (switches_on_sw1, (
        "switches SW1 and SW10 overlap: each switch's 6 x 6 mm body",)),
    "two switches corner on corner, 8.3 mm apart": (
        lambda t: moved(board_part(t, "SW2"), dx=-4.26, dy=-5.9), (
            "switches SW1 and SW2 overlap: each switch's 6 x 6 mm body",)),
    "two switches too close for their caps": (lambda t: moved(board_part(t, "SW7"), dy=3.8), (
        "switches SW1 and SW7 are 7.63 mm apart", "8 mm between centres")),
    "an OLED 300 mm away": (lambda t: moved(board_part(t, "J1"), dx=300), (
        "part J1, at (314.605, 27.305)", "is off the board")),
    "an OLED whose glass is off the board": (set_part("J1", "y", 70.0), (
        "the glass of OLED J1", "is off the board")),
    "a box of \"1234\"": (set_part("SW1", "box", "1234"), (
        "part SW1's box is \"1234\", not four numbers",)),
    "an inverted box": (set_part("SW1", "box", [23.21, 65.205, 13.62, 72.795]), (
        "part SW1's box 23.21 65.205 13.62 72.795 is inverted",)),
    "a position in a string": (set_part("SW1", "x", "15.165"), (
        "part SW1's x is \"15.165\", not a number",)),
}


@pytest.mark.parametrize("case_", IMPOSSIBLE, ids=list(IMPOSSIBLE))
def test_a_case_that_cannot_be_built_is_refused_in_a_line_and_the_old_parts_kept(tmp_path,
                                                                                  case_):
    edit, says = IMPOSSIBLE[case_]
    table = placement()
    edit(table)
    path, out = tmp_path / "placement.json", tmp_path / "case"
    path.write_text(json.dumps(table))
    old_parts(out)
    p = make_case("--placement", str(path), "--out", str(out))
    line = places.one_line(p, "make case: error: --placement %s: " % path, *says)
    assert p.stderr.strip() == line and p.stdout == ""
    assert contents(out) == OLD


def test_a_part_that_comes_out_empty_is_never_written(tmp_path):
    """A battery holder of a millimetre square leaves no door to print."""
    table = placement()
    board_part(table, "BT1")["box"] = [5.0, 30.0, 6.0, 31.0]
    path, out = tmp_path / "placement.json", tmp_path / "case"
    path.write_text(json.dumps(table))
    old_parts(out)
    p = make_case("--placement", str(path), "--out", str(out))
    line = places.one_line(p, "--placement %s: the case's door comes out empty" % path)
    assert p.stderr.strip() == line
    assert contents(out) == OLD


def nested(path):
    path.write_text('{"parts":\n' + "[" * 100_000 + "]" * 100_000 + "}")
    return str(path), "%s line 2: nested more than 32 deep" % path


def oversized(path):
    path.write_text(json.dumps(placement()) + " " * (3 << 19))  # valid JSON, 1.5 MB
    return str(path), "%s is larger than a placement may be (1 MB)" % path


def a_fifo(path):
    given = places.fifo(path.parent)
    return given, "%s is not a file (a device or a pipe)" % given


@pytest.mark.parametrize("given", [nested, oversized, a_fifo,
                                   lambda path: ("/dev/zero", "/dev/zero is not a file")],
                         ids=["nested 100,000 deep", "1.5 MB", "a FIFO", "/dev/zero"])
def test_a_placement_file_that_cannot_be_read_is_one_line_and_never_waits(tmp_path, given):
    placement_file, says = given(tmp_path / "placement.json")
    out = tmp_path / "case"
    old_parts(out)
    p = make_case("--placement", placement_file, "--out", str(out), timeout=60)
    line = places.one_line(p, "make case: error: --placement " + says)
    assert p.stderr.strip() == line
    assert contents(out) == OLD


def test_a_full_disk_is_one_line_and_leaves_the_old_parts_whole(tmp_path):
    out, seen = tmp_path / "case", tmp_path / "seen"
    out.mkdir()
    seen.mkdir()
    # the old parts take 16 KB of the 24 left: the new top (400 KB) cannot fit
    fill = ["sh", "-c", 'for p in top bottom door caps; do '
            'printf "old $p" > "$0/california-speed-$p.stl" || exit 98; done; exec "$@"',
            str(out)]
    p = make_case("--out", str(out),
                  prefix=places.full_disk(out, size_kb=64, free_kb=24, seen=seen)
                  + fill)
    line = places.one_line(p, "make case: error: cannot write %s: the disk is full"
                           % (out / "california-speed-top.stl"))
    assert p.stderr.strip() == line and p.stdout == ""
    left = contents(seen)
    assert set(left) == set(OLD) | {"other"}  # nothing truncated, no temporary name
    assert {name: data for name, data in left.items() if name != "other"} == OLD


def test_a_picture_that_cannot_be_written_replaces_no_part(tmp_path):
    out, pictures, seen = tmp_path / "case", tmp_path / "pictures", tmp_path / "seen"
    old_parts(out)
    pictures.mkdir()
    seen.mkdir()
    p = make_case("--out", str(out), "--picture", str(pictures / "case.png"),
                  prefix=places.full_disk(pictures, seen=seen))
    line = places.one_line(p, "make case: error: cannot write %s: the disk is full"
                           % (pictures / "case.png"))
    assert p.stderr.strip() == line and p.stdout == ""
    assert contents(out) == OLD  # the four new parts were ready, and none replaced its old
    assert set(contents(seen)) == {"other"}


def test_the_out_folder_is_checked_before_the_placement_is_read(tmp_path):
    out = tmp_path / "case"
    out.mkdir()
    p = make_case("--out", str(out), "--placement", str(tmp_path / "missing.json"),
                  prefix=places.read_only(out))
    os.chmod(out, 0o755)
    places.one_line(p, "make case: error: --out %s: cannot write a file in %s" % (out, out),
                    "read-only")
    assert places.files_in(out) == {}
