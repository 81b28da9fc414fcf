"""The printed case (make case, tools/case/), measured from the STLs it writes: every part is
a closed mesh; the caps' holes and the OLED's window sit over the switches and the glass of
hardware/pcb/placement.json, and both players see every row of the glass from their seats;
the caps move in their holes, on the switch hardware/bom.csv names; every part prints
without supports as docs/BUILD.md lays it; the screws' heads sink into their counterbores;
the power switch's lever and the USB plug have their way out; the board fits inside. And a
bad placement table or folder is a line, not a traceback: a case that cannot be built, a
placement file that cannot be read or a disk that cannot take the parts leaves the old
parts as they were."""
import csv
import json
import os
import pathlib
import re
import shutil
import subprocess

import manifold3d
import numpy as np
import pytest
import trimesh
from trimesh.ray.ray_triangle import ray_triangle_id

import places
from tools.boardcode import ROOT
from tools.case import figures
from tools.case.figures import HEIGHTS, OLED, PCB_T

PLACEMENT = os.path.join(ROOT, "hardware", "pcb", "placement.json")
PARTS = ("top", "bottom", "door", "caps", "lever")
# How docs/BUILD.md lays each part on the printer's bed: upside down or as drawn, in its words
LAID = {"top": (True, "the top upside down, on its face"),
        "bottom": (False, "the bottom as it is, on its floor"),
        "door": (False, "the door as it is, on its outside"),
        "caps": (False, "the caps as they are, on their feet"),
        "lever": (True, "the lever extension upside down, on its top")}


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


def cube(x0, y0, z0, x1, y1, z1):
    return manifold3d.Manifold.cube((x1 - x0, y1 - y0, z1 - z0)).translate((x0, y0, z0))


def meets(a, b):
    """The volume two solids share (mm3)."""
    return (a ^ b).volume()


def placement(path=PLACEMENT):
    with open(path) as f:
        return json.load(f)


def board_part(table, ref):
    return next(p for p in table["parts"] if p["ref"] == ref)


def kind(p):
    return p["ref"].rstrip("0123456789")


def up(table, x, y):
    """Board millimetres (y down from the top edge) to the case's (y up from A's edge)."""
    return np.array([x, table["board"]["height"] - y])


def holes_at(mesh, z):
    """The holes in a part cut at height z: [(centroid, width, height, ring)]."""
    out = []
    for ring in solid(mesh).slice(z).to_polygons():
        x, y = ring[:, 0], ring[:, 1]
        xn, yn = np.roll(x, -1), np.roll(y, -1)
        cross = x * yn - xn * y
        area = cross.sum() / 2
        if area < 0:  # clockwise: a hole
            cx = ((x + xn) * cross).sum() / (6 * area)
            cy = ((y + yn) * cross).sum() / (6 * area)
            out.append((np.array([cx, cy]), np.ptp(x), np.ptp(y), ring))
    return out


def in_plate(top):
    """A height through the top's plate (2 mm thick): 1 mm under its face."""
    return top.bounds[1][2] - 1.0


def holes_in_plate(top):
    return holes_at(top, in_plate(top))


def nearest(holes, point):
    return min(holes, key=lambda h: np.linalg.norm(h[0] - point))


def switch_centres(table):
    return {p["ref"]: up(table, (p["box"][0] + p["box"][2]) / 2, (p["box"][1] + p["box"][3]) / 2)
            for p in table["parts"] if kind(p) == "SW"}


def heights(table, side):
    return [HEIGHTS[kind(p)] for p in table["parts"] if p["side"] == side]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("case"))
    p = make_case("--out", out)
    assert p.returncode == 0, p.stderr
    return written(out)


def test_each_part_is_a_closed_mesh_with_a_volume(made):
    for name, mesh in made.items():
        assert mesh.is_watertight and mesh.is_winding_consistent, name
        assert mesh.volume > (50 if name == "lever" else 1000), name  # mm3: real pieces
        pieces = len(solid(mesh).decompose())  # one piece each, a cap per switch
        assert pieces == (25 if name == "caps" else 1), name


def test_every_cap_hole_and_the_window_sit_over_their_switch_and_the_glass(made):
    table = placement()
    holes = holes_in_plate(made["top"])
    switches = switch_centres(table)
    assert len(switches) == 25
    caps = solid(made["caps"]).slice(in_plate(made["top"])).to_polygons()
    shaft = max(np.ptp(r[:, 0]) for r in caps)
    for ref, centre in switches.items():
        c, w, h, _ = nearest(holes, centre)
        assert np.linalg.norm(c - centre) <= 0.3, ref
        assert shaft < min(w, h) < 8.0, ref  # a cap's foot (8 mm across) cannot pass it
    oled = board_part(table, "J1")
    assert oled["rotation"] == 0
    (gx, gy), (gw, gh) = figures.OLED_GLASS
    glass = up(table, oled["x"] + gx, oled["y"] + gy)
    c, w, h, _ = nearest(holes, glass)
    assert abs(c[0] - glass[0]) <= 0.3 and w >= gw and h >= gh  # the whole glass shows
    shafts = [np.array(r[:, :2].mean(axis=0)) for r in caps]
    assert len(shafts) == 25  # and each printed cap's shaft stands in its hole
    for ref, centre in switches.items():
        assert min(np.linalg.norm(s - centre) for s in shafts) <= 0.3, ref


def test_the_plate_is_set_by_the_tallest_part_under_it_and_follows_the_table(made, tmp_path):
    """The plate's underside is the tallest part on the front plus 0.5 mm: the piezo, now
    that the 1N5817 lies flat. With the piezo on the back, the OLED's glass sets it."""
    def underside(top):
        bosses = [up(table, p["x"], p["y"]) for p in table["parts"] if kind(p) == "H"]
        x, y = np.mean(bosses, axis=0)  # the middle of the board: nothing but the plate
        column = solid(top) ^ cube(x - 0.1, y - 0.1, 0, x + 0.1, y + 0.1, 100)
        assert column.bounding_box()[5] == pytest.approx(top.bounds[1][2])
        return column.bounding_box()[2]

    table = placement()
    assert HEIGHTS["DS"] == 3.0 and max(heights(table, "front")) == HEIGHTS["LS"] == 6.5
    assert underside(made["top"]) == pytest.approx(PCB_T + 6.5 + 0.5, abs=0.06)
    board_part(table, "LS1")["side"] = "back"
    path = tmp_path / "placement.json"
    path.write_text(json.dumps(table))
    p = make_case("--placement", str(path), "--out", str(tmp_path / "case"))
    assert p.returncode == 0, p.stderr
    top = written(str(tmp_path / "case"))["top"]
    assert max(heights(table, "front")) == HEIGHTS["J"] == figures.GLASS_H
    assert underside(top) == pytest.approx(PCB_T + figures.GLASS_H + 0.5, abs=0.06)


class Boxes:
    """The triangles' boxes, as the rtree trimesh's ray casting asks for (rtree is not
    installed here): which triangles a box meets."""

    def __init__(self, triangles):
        self.lo, self.hi = triangles.min(axis=1), triangles.max(axis=1)
        self.bounds = list(self.lo.min(axis=0)) + list(self.hi.max(axis=0))

    def intersection(self, box):
        box = np.asarray(box)
        return np.nonzero((self.lo <= box[3:]).all(axis=1) & (self.hi >= box[:3]).all(axis=1))[0]


def rows_seen(made, table, below, seat, angle=45.0, columns=33):
    """How many rows of the glass's active area a player sees whole, looking from their
    seat `angle` degrees off vertical (A at y < 0 looking toward +y, B from the far end),
    with the glass `below` mm under the OLED's pins: a ray from every sampled pixel of a
    row toward the seat, cast against the top's and the caps' triangles, hits none."""
    oled = board_part(table, "J1")
    w, h = OLED["active"]
    cx, cy = up(table, oled["x"] + figures.OLED_GLASS[0][0], oled["y"] + below)
    z = PCB_T + figures.GLASS_H + 1e-3
    ys = cy - h / 2 + (np.arange(OLED["rows"]) + 0.5) * h / OLED["rows"]
    xs = np.linspace(cx - w / 2 + w / 256, cx + w / 2 - w / 256, columns)
    gx, gy = np.meshgrid(xs, ys)
    origins = np.stack([gx.ravel(), gy.ravel(), np.full(gx.size, z)], axis=1)
    a, toward = np.radians(angle), {"A": -1, "B": 1}[seat]
    directions = np.tile([0.0, toward * np.sin(a), np.cos(a)], (len(origins), 1))
    triangles = np.concatenate([made["top"].triangles, made["caps"].triangles])
    lo, hi, reach = triangles.min(axis=1), triangles.max(axis=1), triangles[:, :, 2].max() - z
    near = triangles[(hi[:, 2] > z) & (hi[:, 0] > xs[0]) & (lo[:, 0] < xs[-1])
                     & (hi[:, 1] > ys[0] - reach) & (lo[:, 1] < ys[-1] + reach)]
    _, hit, _ = ray_triangle_id(near, origins, directions, tree=Boxes(near),
                                multiple_hits=False)
    blocked = np.zeros(len(origins), bool)
    blocked[hit] = True
    return int((~blocked.reshape(len(ys), columns)).all(axis=1).sum())


def test_both_players_see_every_row_of_the_glass_from_45_degrees(made):
    """Wherever the glass lies between the footprint's figure and the module's published
    drawing; straight down as well."""
    table = placement()
    seen = {(below, seat, angle): rows_seen(made, table, below, seat, angle)
            for below in (figures.OLED_GLASS[0][1], OLED["below_pins"])
            for seat in "AB" for angle in (0.0, 45.0)}
    assert seen == {k: OLED["rows"] for k in seen}, seen
    # the rays can be blocked: from 60 degrees a player loses the rows on their side
    assert rows_seen(made, table, OLED["below_pins"], "A", 60.0) < OLED["rows"]


def test_the_glass_is_where_the_modules_published_drawing_puts_it():
    """The case cuts its window for the board footprint's glass: the same active area as
    the panel's datasheet, centred on the module's pins, within 0.5 mm of where the
    module's published model puts it (the window takes both), and as high over the board
    as the module's header, board, tape and panel stack up."""
    (gx, gy), size = figures.OLED_GLASS
    assert size == pytest.approx(OLED["active"], abs=0.01)
    assert gx == pytest.approx(1.5 * 2.54)  # the middle of the four pins
    assert abs(gy - OLED["below_pins"]) <= 0.5
    assert HEIGHTS["J"] == pytest.approx(OLED["header"] + OLED["board"] + OLED["tape"]
                                         + OLED["panel"][2])
    assert 5.0 <= HEIGHTS["J"] <= 5.5 and OLED["active"][1] / OLED["rows"] == pytest.approx(
        0.17, abs=0.001)


def test_the_caps_stand_on_the_switch_the_bom_names_and_have_half_a_millimetre_of_play(made):
    with open(os.path.join(ROOT, "hardware", "bom.csv"), newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["build"] == "board"
                and "tactile switch" in r["part"]]
    assert [r["example_part_number"] for r in rows] == [figures.SWITCH]
    assert "5.0 mm" in rows[0]["notes"] and HEIGHTS["SW"] == 5.0
    caps, top = made["caps"], made["top"]
    assert caps.bounds[0][2] == pytest.approx(PCB_T + 5.0, abs=0.01)  # feet on the actuators
    # the feet under the plate, clear of it with the switches up: nothing holds one down
    assert meets(solid(caps).translate((0, 0, 0.2)), solid(top)) < 1e-6
    z = in_plate(top)
    shafts = [ring for ring in solid(caps).slice(z).to_polygons()]
    plays = []
    for shaft in shafts:
        _, _, _, hole = nearest(holes_at(top, z), shaft.mean(axis=0))
        a, b = hole, np.roll(hole, -1, axis=0)
        t = np.clip(np.einsum("pkj,kj->pk", shaft[:, None] - a, b - a)
                    / np.einsum("kj,kj->k", b - a, b - a), 0, 1)
        gaps = np.linalg.norm(shaft[:, None] - (a + t[..., None] * (b - a)), axis=2)
        plays.append(gaps.min())
    assert len(plays) == 25 and min(plays) >= 0.5, min(plays)


def laid(mesh, upside_down):
    """A part on the printer's bed: turned over if need be, its lowest point at z 0."""
    m = mesh.copy()
    if upside_down:
        m.apply_transform(trimesh.transformations.rotation_matrix(np.pi, [1, 0, 0]))
    m.apply_translation([0, 0, -m.bounds[0][2]])
    return m


def overhangs(m):
    """The regions of faces that look down more than 45 degrees from vertical, not on the
    bed and not a bridge (flat, and no wider than figures.BRIDGE across):
    [(worst angle, region's xy extent)], and the bridges' extents."""
    down = m.face_normals[:, 2] < 0
    from_vertical = np.degrees(np.arcsin(np.clip(-m.face_normals[:, 2], -1, 1)))
    on_bed = (m.triangles[:, :, 2] < 1e-3).all(axis=1)
    bad = np.nonzero(down & ~on_bed & (from_vertical > figures.OVERHANG + 0.01))[0]
    group = {i: i for i in bad}

    def root(i):
        while group[i] != i:
            i = group[i]
        return i
    for a, b in m.face_adjacency:
        if a in group and b in group:
            group[root(a)] = root(b)
    regions, bridges = [], []
    for r in {root(i) for i in bad}:
        faces = [i for i in bad if root(i) == r]
        extent = np.ptp(m.triangles[faces][:, :, :2].reshape(-1, 2), axis=0)
        flat = (from_vertical[faces] > 89.9).all()
        if flat and extent.max() <= figures.BRIDGE:
            bridges.append(extent)
        else:
            regions.append((from_vertical[faces].max(), extent))
    return regions, bridges


def test_every_part_prints_without_supports_as_docs_build_md_lays_it(made):
    """No face looks down more than 45 degrees from vertical but on the bed; the only
    bridges are the four counterbores' ceilings (5.6 mm across)."""
    guide = open(os.path.join(ROOT, "docs", "BUILD.md"), encoding="utf-8").read()
    printing = guide.split("### Printing the case")[1].split("\n---")[0]
    found = {}
    for name, (upside_down, words) in LAID.items():
        assert words in printing, words
        found[name] = overhangs(laid(made[name], upside_down))
    assert {name: regions for name, (regions, _) in found.items()} == {n: [] for n in LAID}
    assert [b.round(1).tolist() for b in found["bottom"][1]] == [[5.6, 5.6]] * 4
    assert all(not bridges for name, (_, bridges) in found.items() if name != "bottom")


def test_the_screws_heads_sink_into_counterbores_and_the_screws_bite_the_top(made):
    """ISO 7045 M2.5 pan heads (5.0 across, 1.75 high) with room round and under them; an
    M2.5 x 25 from its seat runs at least 6 mm into its boss and stops in its pilot hole,
    under the top's face."""
    table, bottom, top = placement(), made["bottom"], made["top"]
    face = bottom.bounds[0][2]
    head, tall = figures.HEAD
    for p in (p for p in table["parts"] if kind(p) == "H"):
        centre = up(table, p["x"], p["y"])
        widths = [(z, nearest(holes_at(bottom, z), centre)[1])
                  for z in np.arange(face + 0.05, face + 4, 0.05)]
        seat = next(z for z, w in widths if w < head) - 0.05
        assert min(w for z, w in widths if z < seat) >= head + 0.5, p["ref"]
        assert seat - face >= tall + 0.2, p["ref"]
        tip = seat + figures.SCREW_L
        pilot = [z for z in np.arange(PCB_T + 0.05, top.bounds[1][2], 0.05)
                 if any(np.linalg.norm(h[0] - centre) < 0.5 for h in holes_at(top, z))]
        assert tip - PCB_T >= 6 and tip <= max(pilot) <= top.bounds[1][2] - 0.5, p["ref"]
        screw = manifold3d.Manifold.cylinder(tall, head / 2, head / 2, 48).translate(
            (centre[0], centre[1], seat - tall))
        assert meets(screw, solid(bottom)) < 1e-3 and seat - tall >= face, p["ref"]


def test_the_power_switchs_lever_reaches_within_a_millimetre_of_the_outside(made):
    """Its extension takes the lever from its tip, slides with it over its 2 mm in the
    top's slot, cannot fall out, and ends less than 1 mm inside the case's outside."""
    table = placement()
    swp = board_part(table, "SWP1")
    assert swp["rotation"] == 90  # its lever points to the right, sliding toward +y
    x, y = up(table, swp["x"], swp["y"])
    (lx0, lx1), (ly0, ly1), (lz0, lz1) = figures.LEVER
    lever = cube(x + ly0, y + lx0, PCB_T + lz0, x + ly1, y + lx1, PCB_T + lz1)
    ext, top, bottom = (solid(made[n]) for n in ("lever", "top", "bottom"))
    outside = made["top"].bounds[1][0]
    assert 0 < outside - made["lever"].bounds[1][0] <= 1.0
    assert meets(ext, lever) < 1e-6
    for side in (-0.3, 0.3):  # it holds the lever on both sides
        assert meets(ext, lever.translate((0, side, 0))) > 0.01
    for travel in (0.0, 1.0, figures.LEVER_TRAVEL):
        moved = ext.translate((0, travel, 0))
        assert meets(moved, top) < 1e-6 and meets(moved, bottom) < 1e-6, travel
        assert meets(lever.translate((0, travel, 0)), top + bottom) < 1e-6, travel
    assert meets(ext.translate((1.0, 0, 0)), top) > 0.1  # held in by the wall


def test_the_caps_and_the_lever_extension_clear_every_part_on_the_board(made):
    """Each part's courtyard up to its height (the switches' bodies to 3.5 mm, the OLED
    module's board to its own and its glass panel to the glass's): the caps pressed
    0.25 mm, the extension over its travel."""
    table = placement()
    caps = solid(made["caps"]).translate((0, 0, -0.25))
    ext = solid(made["lever"])
    for p in (p for p in table["parts"] if p["side"] == "front"):
        (x0, y1), (x1, y0) = up(table, *p["box"][:2]), up(table, *p["box"][2:])
        high = {"SW": 3.5, "J": OLED["header"] + OLED["board"]}.get(kind(p), HEIGHTS[kind(p)])
        body = cube(x0, y0, PCB_T, x1, y1, PCB_T + high)
        if kind(p) == "J":  # the module's board, and its glass panel wherever it may sit
            w, h = OLED["panel"][:2]
            for below in (figures.OLED_GLASS[0][1], OLED["below_pins"]):
                cx, cy = up(table, p["x"] + figures.OLED_GLASS[0][0], p["y"] + below)
                body += cube(cx - w / 2, cy - h / 2 - 1, PCB_T, cx + w / 2, cy + h / 2 + 1,
                             PCB_T + HEIGHTS["J"])
        assert meets(caps, body) < 1e-6, p["ref"]
        if kind(p) != "SWP":
            for travel in (0.0, figures.LEVER_TRAVEL):
                assert meets(ext.translate((0, travel, 0)), body) < 1e-6, p["ref"]


def test_the_battery_door_slides_in_a_dovetail_and_fills_its_notch(made):
    door, bottom = solid(made["door"]), solid(made["bottom"])
    assert meets(door, bottom) < 1e-6
    assert meets(door.translate((0, 0, -1.0)), bottom) > 1.0  # it cannot drop out
    assert meets(door.translate((-60, 0, 0)), bottom) < 1e-6  # it slides out to the left
    assert made["door"].bounds[0][0] == pytest.approx(made["bottom"].bounds[0][0], abs=0.01)


def test_the_usb_plug_has_its_way_out(made):
    table = placement()
    pico = board_part(table, "U1")
    assert pico["rotation"] == -90  # its USB end to the right
    end = pico["x"] + figures.PICO_L / 2  # the Pico's end; its socket overhangs it by 1.3 mm
    zc = PCB_T + figures.PICO_T + figures.USB_H / 2
    yc = up(table, pico["x"], pico["y"])[1]
    plug = cube(end, yc - 5.5, zc - 3.75, end + 30, yc + 5.5, zc + 3.75)
    for name in ("top", "bottom"):
        assert meets(solid(made[name]), plug) < 1e-3, name


def test_the_board_with_its_tallest_parts_and_batteries_fits_with_half_a_millimetre(made):
    """A box: the board's outline, from its tallest part on the back (the holder with its
    cells) to its tallest on the front, grown by 0.5 mm; less the mounting holes' keep-out
    (their courtyards), where the bosses hold the board. No part of the case is in it."""
    table = placement()
    w, h = table["board"]["width"], table["board"]["height"]
    front, back = max(heights(table, "front")), max(heights(table, "back"))
    assert back == HEIGHTS["BT"] and front >= HEIGHTS["J"]
    grown = cube(-0.5, -0.5, -back - 0.5, w + 0.5, h + 0.5, PCB_T + front + 0.5)
    for p in table["parts"]:
        if kind(p) == "H":
            x0, y0, x1, y1 = p["box"]
            c = up(table, p["x"], p["y"])
            grown -= manifold3d.Manifold.cylinder(100, (x1 - x0) / 2, -1, 64).translate(
                (c[0], c[1], -50))
    for name in ("top", "bottom", "door"):
        assert meets(solid(made[name]), grown) < 1e-3, name
    # grown by 0.6 mm instead, it meets the walls: the clearance is 0.5, not more
    assert meets(solid(made["bottom"]), cube(-0.6, -0.6, 0.0, w + 0.6, h + 0.6, 1.0)) > 1.0


def costs(build):
    with open(os.path.join(ROOT, "hardware", "bom.csv"), newline="", encoding="utf-8") as f:
        return [r for r in csv.DictReader(f) if r["build"] == build]


def guide_grams():
    """{part: grams} from docs/BUILD.md's table of the case's parts."""
    guide = open(os.path.join(ROOT, "docs", "BUILD.md"), encoding="utf-8").read()
    printing = guide.split("### Printing the case")[1].split("\n---")[0]
    return {m.group(1): float(m.group(2)) for m in re.finditer(
        r"^\| (\w+) \| `california-speed-\1\.stl` \| [^|]+ \| ([\d.]+) g \|", printing, re.M)}


def test_the_costs_list_the_case_its_screws_and_its_cells(made):
    """hardware/bom.csv's case rows, priced in docs/BUILD.md's costs; the filament's grams
    those of the parts' table, in all between a third of the parts' solid weight (PLA,
    1.24 g/cm3; 20% infill) and the whole of it."""
    rows = costs("case")
    by = {r["part"].split(" (")[0].split(",")[0]: r for r in rows}
    assert sorted(by) == ["AAA alkaline cell", "M2.5 x 25 mm pan-head screw", "printed case"]
    assert int(by["M2.5 x 25 mm pan-head screw"]["quantity"]) == 4
    assert "ISO 7045" in by["M2.5 x 25 mm pan-head screw"]["example_part_number"]
    assert int(by["AAA alkaline cell"]["quantity"]) == 3
    grams = guide_grams()
    assert sorted(grams) == sorted(PARTS)
    solid_g = sum(1.24 * mesh.volume / 1000 for mesh in made.values())
    assert solid_g / 3 < sum(grams.values()) < solid_g
    total = round(sum(grams.values()))
    assert "%d g" % total in by["printed case"]["example_part_number"]
    guide = open(os.path.join(ROOT, "docs", "BUILD.md"), encoding="utf-8").read()
    priced = guide.split("### What it costs")[1].split("\n---")[0]
    for r in rows:
        each, qty = float(r["approx_price_usd"]), int(r["quantity"])
        assert re.search(r"\| %.2f \| %d \| %.2f \|" % (each, qty, each * qty), priced), r["part"]
    case_total = sum(int(r["quantity"]) * float(r["approx_price_usd"]) for r in rows)
    assert "**about $%.2f**" % case_total in priced


@pytest.mark.skipif(not shutil.which("prusa-slicer"),
                    reason="PrusaSlicer is not installed (apt-get install prusa-slicer)")
def test_prusaslicer_weighs_each_part_as_docs_build_md_says(made, tmp_path):
    """Sliced as docs/BUILD.md lays and sets it (0.2 mm layers, 0.12 for the caps and the
    lever; 3 perimeters, 20% infill, no supports; PLA, 1.24 g/cm3; PrusaSlicer's skirt):
    within 5%."""
    grams = guide_grams()
    for name, (upside_down, _) in LAID.items():
        stl = tmp_path / ("%s.stl" % name)
        laid(made[name], upside_down).export(str(stl))
        gcode = tmp_path / ("%s.gcode" % name)
        p = subprocess.run(
            ["prusa-slicer", "--export-gcode", "--layer-height",
             "0.12" if name in ("caps", "lever") else "0.2", "--first-layer-height", "0.2",
             "--perimeters", "3", "--fill-density", "20%", "--filament-density", "1.24",
             "--filament-diameter", "1.75", "--nozzle-diameter", "0.4",
             "--bed-shape", "0x0,220x0,220x220,0x220", "--output", str(gcode), str(stl)],
            capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
        used = float(re.search(r"^; total filament used \[g\] = ([\d.]+)", gcode.read_text(),
                               re.M).group(1))
        assert used == pytest.approx(grams[name], rel=0.05, abs=0.05), name


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
    one_line_and_nothing_written(p, out, "Q1", "HEIGHTS", "tools/case/figures.py")


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
        if kind(p) == "SW":
            p.update(x=board_part(table, "SW1")["x"], y=board_part(table, "SW1")["y"],
                     box=list(board_part(table, "SW1")["box"]))


def set_board(side, value):
    return lambda table: table["board"].__setitem__(side, value)


def set_part(ref, key, value):
    return lambda table: board_part(table, ref).__setitem__(key, value)


def standing(ref):
    """A diode's footprint made that of it standing up: 5.58 x 3.29 mm round its origin."""
    def edit(table):
        p = board_part(table, ref)
        p["box"] = [p["x"] - 3.935, p["y"] - 1.645, p["x"] + 1.645, p["y"] + 1.645]
    return edit


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
    "a 1N5817 standing up, too tall for the plate": (standing("DS1"), (
        "part DS1's box is 5.58 x 3.29 mm, a footprint for it standing up",
        "built for it lying flat (3 mm)", "lay it flat on the board and run make pcb")),
    "a battery holder of a millimetre square": (set_part("BT1", "box", [5.0, 30.0, 6.0, 31.0]), (
        "battery holder BT1's box is 1 x 1 mm", "AAA, 10.5 mm across",)),
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
    # the old parts take 20 KB of the 28 left: the new top (300 KB) cannot fit
    fill = ["sh", "-c", 'for p in top bottom door caps lever; do '
            'printf "old $p" > "$0/california-speed-$p.stl" || exit 98; done; exec "$@"',
            str(out)]
    p = make_case("--out", str(out),
                  prefix=places.full_disk(out, size_kb=64, free_kb=28, seen=seen)
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
    assert contents(out) == OLD  # the five new parts were ready, and none replaced its old
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
