"""The printed case (make case, tools/case.py), measured from the STLs it writes: every part
is a closed mesh, the caps' holes and the OLED's window sit over the switches and the glass
of hardware/pcb/placement.json, the board with its tallest parts and the batteries fits
inside with 0.5 mm to spare, the USB plug and the power switch's lever have their way out,
and a bad placement table or folder is a line, not a traceback."""
import json
import os
import subprocess
import sys

import manifold3d
import numpy as np
import pytest
import trimesh

from tools.boardcode import ROOT
from tools import case
from tools.pcb import PICO_L

PLACEMENT = os.path.join(ROOT, "hardware", "pcb", "placement.json")
PARTS = ("top", "bottom", "door", "caps")


def make_case(*args):
    return subprocess.run([sys.executable, "-m", "tools.case"] + list(args),
                          capture_output=True, text=True, cwd=ROOT)


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
    ("{\"board\": {\"width\": 87", "is not JSON"),
    ("{\"board\": {\"width\": 87, \"height\": 77}}", "not a placement table of make pcb"),
    ("[1, 2]", "not a placement table of make pcb"),
    ("{\"board\": {\"width\": NaN, \"height\": 77}, \"parts\": []}", "not a number"),
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
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "make case: error: --out %s: cannot make the folder" % (f / "case")), p.stderr
    assert f.read_text() == "mine"


def test_the_picture_is_a_png_small_enough_for_the_readme(tmp_path):
    png = tmp_path / "case.png"
    p = make_case("--out", str(tmp_path / "case"), "--picture", str(png))
    assert p.returncode == 0, p.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size < 150_000
