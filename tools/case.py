"""make case: a printable case for the handheld's board, from hardware/pcb/placement.json.

Two parts screwed together round the board (M2.5 screws from the back through the four
mounting holes into the top's bosses): the top, with a hole over each switch for its
printed cap, the OLED's window over the glass, a slot in the side for the power switch and
an opening for the Pico's USB socket; the bottom, the tray under the board and its
batteries, with the battery door that slides into rails in its floor. The caps are printed
apart (a plunger onto the switch's stem, a flange under the top, a shaft through it).
Writes dist/case/california-speed-{top,bottom,door,caps}.stl, every part where it sits on
the assembled handheld (mm; x to the right, y up from A's edge, z up from the board's back):
.venv/bin/python -m tools.case [--placement FILE] [--out DIR] [--picture PNG]
A table no case can be built from (a part off the board, switches on each other, a board
no 220 mm printer bed takes) is refused in a line; the parts are written whole, or none is.
"""
import contextlib
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import trimesh  # noqa: E402
from manifold3d import CrossSection, Error, JoinType, Manifold, OpType  # noqa: E402

from tools.cli import Parser, fail as cli_fail, output_file  # noqa: E402
from tools.files import (FileProblem, cannot_write, folder_problem, read_json,  # noqa: E402
                         replacing)
from tools.pcb import NAME, OLED_GLASS, PICO_L, PICO_W  # noqa: E402

PROG = "make case"
PLACEMENT = os.path.join(ROOT, "hardware", "pcb", "placement.json")

# Each part's height above the board (mm), by its reference's letters, with the source.
HEIGHTS = {
    "SW": 4.3,   # 6x6 tactile switch, TE FSMJ series (catalogue 8-1773450-9 p. C10): body
                 # 3.5, stem top 4.3 (the lowest stem; the caps' plungers are cut for it)
    "D": 2.5,    # 1N4148 lying flat: DO-35 body 2.0 diameter (JEDEC) and its stand-off
    "DS": 8.5,   # 1N5817 standing: DO-41 body 5.2 long (JEDEC) on 1 mm of lead, the other
                 # lead bent back over its top (2.7 mm body, a 2.3 mm loop)
    "LS": 6.5,   # TDK PS1240P02BT piezo: 12.2 diameter, 6.5 high (its KiCad footprint's name)
    "SWP": 4.7,  # C&K OS102011MA1QN1, right angle: the body on its side, 4.4 + stand-off
    "U": 4.0,    # Raspberry Pi Pico soldered flat: 1.0 board (RP-008307-DS 2.1) and its
                 # micro-USB socket, about 3 high
    "J": 5.2,    # SSD1306 0.96 in module on its own pin header: 2.5 plastic, 1.2 board,
                 # 1.5 glass
    "BT": 13.0,  # Keystone 2479 3 x AAA holder with its cells: AAA 10.5 diameter (IEC R03)
                 # on the holder's floor and pins, rounded up
    "H": 0.0,    # mounting hole
}
PCB_T = 1.6     # the board's thickness (KiCad's default, what the fab makes)
PICO_T = 1.0    # the Pico's own board
CLEAR = 0.5     # round the board and above its tallest part on each side
WALL = 2.0      # side walls
PLATE = 2.0     # the top's plate
FLOOR = 3.0     # the bottom's floor, in thirds: under the door's rails, the rails, over them
CORNER = 3.0    # the outside's corner radius
SEGMENTS = 48

BOSS_R = 2.9    # screw bosses, inside the mounting holes' 3 mm keep-out
PILOT_R = 1.05  # M2.5 self-tapping into the top's bosses
SCREW_R = 1.45  # M2.5 clearance through the bottom
HEAD_R, HEAD_DEPTH = 2.6, 1.6  # the screw head's counterbore in the floor

GRILLE_R, GRILLE_PITCH = 0.8, 3.0  # the sound holes over the piezo
SW_BODY = 6.0                  # the switch's body is 6 x 6 mm (as HEIGHTS)
CAP_HOLE_R = 3.0               # the top's hole for each cap's shaft
CAP_SHAFT_R = 2.7              # 0.3 mm round it
CAP_PROUD = 1.5                # the shaft stands this far above the top
CAP_FLANGE_R, CAP_FLANGE = 4.0, 1.0  # under the plate: the cap cannot fall out
CAP_PLUNGER_R = 1.75           # onto the switch's 3.5 mm stem
CAP_PLAY = 0.2                 # the flange's gap under the plate

# The OLED module's glass from its pin 1, as the board's footprint draws it.
GLASS_CENTRE, GLASS_SIZE = OLED_GLASS
WINDOW_MARGIN = 0.3  # round the glass at the plate's underside; it widens 45 degrees upward
# The Pico's micro-USB socket (tools/pcb.py pico_footprint draws it): 8 wide, 1.3 mm past
# the Pico's end, about 2.6 high on top of it. The opening: a plug's moulding (about 11 x
# 7.5 mm) with room round it.
USB_H = 2.6
PLUG = (12.0, 8.5)
# The power switch's lever (KiCad's SW_Slide_SPDT_Angled_CK_OS102011MA1Q, from pad 1): 2 mm
# wide at x 0..2, sticking out at y 2.2..6.2; it slides to x 2..4. The slot gives it
# 1.5 mm either side and 5.5 mm above the board.
LEVER = ((0.0, 2.0), (2.2, 6.2))
LEVER_TRAVEL, LEVER_SLOT_H = 2.0, 5.5
DOOR_RAIL, DOOR_GAP = 1.5, 0.2  # the door's rails under the floor's edges; its play


BED = 220.0  # a common printer's bed (mm): the case's outside must fit on it
BOARD_SIZES = (PICO_W, BED - 2 * (CLEAR + WALL))  # each side: the Pico across it, up to the bed
SIDES = ("front", "back")


class PlacementError(Exception):
    pass


def load(path):
    """placement.json as {board: (width, height), parts: [...]}, or PlacementError saying
    in a line what is wrong with it: a case that cannot be built is refused here."""
    try:
        data = read_json(path, "placement")
    except FileProblem as e:
        raise PlacementError(str(e))
    shape = ("%s is not a placement table of make pcb (a board's width and height, parts "
             "with ref, side, x, y, rotation and box): run make pcb to write it again" % path)
    if not (isinstance(data, dict) and isinstance(data.get("board"), dict)
            and isinstance(data.get("parts"), list)):
        raise PlacementError(shape)
    size = []
    for side in ("width", "height"):
        mm = number(data["board"].get(side), path, "the board's " + side)
        if not BOARD_SIZES[0] <= mm <= BOARD_SIZES[1]:
            raise PlacementError(
                "%s: the board's %s is %g mm: the case takes a board of %g to %g mm a side "
                "(the Pico across it; the case, %g mm wider, on a %g mm printer bed)"
                % ((path, side, mm) + BOARD_SIZES + (2 * (CLEAR + WALL), BED)))
        size.append(mm)
    parts = [read_part(p, path, shape, size) for p in data["parts"]]
    refs = {kind(p) for p in parts}
    for k, what in (("SW", "switches SW1.."), ("J", "OLED J1"), ("U", "Pico U1"),
                    ("LS", "piezo LS1"), ("BT", "battery holder BT1"),
                    ("SWP", "power switch SWP1"), ("H", "mounting holes H1..")):
        if k not in refs:
            raise PlacementError("%s has no %s: run make pcb to write it again" % (path, what))
    placement = {"board": tuple(size), "parts": parts}
    switches_apart(placement, path)
    oled = of(placement, "J")[0]
    (gx, gy), (gw, gh) = on_board(oled, *GLASS_CENTRE), GLASS_SIZE
    if not within(size, [gx - gw / 2, gy - gh / 2, gx + gw / 2, gy + gh / 2]):
        raise PlacementError("%s: the glass of OLED %s, at (%g, %g), is off the board "
                             "(%g x %g mm): its window would be over nothing"
                             % ((path, oled["ref"], gx, gy) + tuple(size)))
    return placement


def number(value, path, what):
    """A finite JSON number as a float, else PlacementError: true or "12" is not one."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value):
        raise PlacementError("%s: %s is %s, not a number" % (path, what,
                                                             json.dumps(value)[:40]))
    return float(value)


def read_part(p, path, shape, board):
    """One part of the table, its numbers numbers, its box a box, the whole on the board."""
    if not (isinstance(p, dict) and isinstance(p.get("ref"), str)):
        raise PlacementError(shape)
    ref = p["ref"]
    for k in ("side", "x", "y", "rotation", "box"):
        if k not in p:
            raise PlacementError("%s: part %s has no %s: run make pcb to write the table "
                                 "again" % (path, ref, k))
    x, y, rotation = (number(p[k], path, "part %s's %s" % (ref, k))
                      for k in ("x", "y", "rotation"))
    if p["side"] not in SIDES:
        raise PlacementError("%s: part %s's side is %s, not front or back"
                             % (path, ref, json.dumps(p["side"])[:40]))
    if not isinstance(p["box"], list) or len(p["box"]) != 4:
        raise PlacementError("%s: part %s's box is %s, not four numbers x0 y0 x1 y1"
                             % (path, ref, json.dumps(p["box"])[:40]))
    box = [number(v, path, "part %s's box" % ref) for v in p["box"]]
    if not (box[0] < box[2] and box[1] < box[3]):
        raise PlacementError("%s: part %s's box %s is inverted: x0 y0 x1 y1 with x0 < x1 "
                             "and y0 < y1" % (path, ref, " ".join("%g" % v for v in box)))
    if not within(board, box) or not within(board, [x, y, x, y]):
        raise PlacementError("%s: part %s, at (%g, %g) in a box %s, is off the board "
                             "(%g x %g mm): every part must lie within its outline"
                             % ((path, ref, x, y, " ".join("%g" % v for v in box))
                                + tuple(board)))
    part = {"ref": ref, "side": p["side"], "x": x, "y": y, "rotation": rotation, "box": box}
    if kind(part) not in HEIGHTS:
        raise PlacementError("%s: the case knows no height for part %s: add its kind %r to "
                             "HEIGHTS in tools/case.py" % (path, ref, kind(part)))
    return part


def within(board, box):
    """Whether a box (x0, y0, x1, y1, board mm) lies within the board's outline."""
    return 0 <= box[0] and 0 <= box[1] and box[2] <= board[0] and box[3] <= board[1]


def switches_apart(placement, path):
    """PlacementError unless no two switches' bodies overlap and their caps' flanges
    (under the plate) cannot touch."""
    seen = []
    for sw in of(placement, "SW"):
        for other in seen:
            if overlap(body(sw), body(other)):
                raise PlacementError("%s: switches %s and %s overlap: each switch's %g x %g "
                                     "mm body needs a place of its own"
                                     % (path, other["ref"], sw["ref"], SW_BODY, SW_BODY))
            apart = math.dist(centre(sw), centre(other))
            if apart < 2 * CAP_FLANGE_R:
                raise PlacementError("%s: switches %s and %s are %.2f mm apart: their caps "
                                     "need %g mm between centres"
                                     % (path, other["ref"], sw["ref"], apart,
                                        2 * CAP_FLANGE_R))
        seen.append(sw)


def body(sw):
    """The corners of a switch's body round its box's centre, turned as the switch is."""
    (x, y), a, h = centre(sw), math.radians(sw["rotation"]), SW_BODY / 2
    return [(x + dx * math.cos(a) + dy * math.sin(a), y - dx * math.sin(a) + dy * math.cos(a))
            for dx, dy in ((-h, -h), (h, -h), (h, h), (-h, h))]


def overlap(a, b):
    """Whether two convex outlines overlap: no side of either separates them."""
    for outline in (a, b):
        for (x0, y0), (x1, y1) in zip(outline, outline[1:] + outline[:1]):
            normal = (y0 - y1, x1 - x0)
            pa, pb = ([normal[0] * x + normal[1] * y for x, y in o] for o in (a, b))
            if max(pa) <= min(pb) or max(pb) <= min(pa):
                return False
    return True


def kind(part):
    return part["ref"].rstrip("0123456789")


def of(placement, k):
    return [p for p in placement["parts"] if kind(p) == k]


def centre(part):
    """A part's courtyard centre (a switch's body centre)."""
    x0, y0, x1, y1 = part["box"]
    return (x0 + x1) / 2, (y0 + y1) / 2


def on_board(part, lx, ly):
    """A point of a part's footprint (mm from its origin) on the board: KiCad turns a
    footprint anticlockwise as seen from the front, y down."""
    a = math.radians(part["rotation"])
    return (part["x"] + lx * math.cos(a) + ly * math.sin(a),
            part["y"] - lx * math.sin(a) + ly * math.cos(a))


def tallest(placement, side):
    return max([HEIGHTS[kind(p)] for p in placement["parts"] if p["side"] == side] + [0.0])


class Case:
    """The heights every part is cut to (z up from the board's back; y up from A's edge)."""

    def __init__(self, placement):
        self.placement = placement
        self.w, self.h = placement["board"]
        self.front, self.back = tallest(placement, "front"), tallest(placement, "back")
        self.under = PCB_T + self.front + CLEAR  # the plate's underside
        self.top = self.under + PLATE
        self.floor = -(self.back + CLEAR)  # the floor's inside
        self.bottom = self.floor - FLOOR

    def xy(self, x, y):
        """Board millimetres (y down) to the case's (y up)."""
        return x, self.h - y


def box(x0, y0, z0, x1, y1, z1):
    return Manifold.cube((x1 - x0, y1 - y0, z1 - z0)).translate((x0, y0, z0))


def cylinder(x, y, z0, z1, r):
    return Manifold.cylinder(z1 - z0, r, r, SEGMENTS).translate((x, y, z0))


def union(parts):
    return Manifold.batch_boolean(list(parts), OpType.Add)


def rounded(c, z0, z1):
    """The outside: the board grown by CLEAR and WALL, its corners rounded."""
    out = CLEAR + WALL
    sq = CrossSection.square((c.w + 2 * out - 2 * CORNER, c.h + 2 * out - 2 * CORNER))
    sq = sq.translate((-out + CORNER, -out + CORNER)).offset(CORNER, JoinType.Round,
                                                             circular_segments=SEGMENTS)
    return sq.extrude(z1 - z0).translate((0, 0, z0))


def cavity(c, z0, z1):
    return box(-CLEAR, -CLEAR, z0, c.w + CLEAR, c.h + CLEAR, z1)


def holes(c):
    return [c.xy(p["x"], p["y"]) for p in of(c.placement, "H")]


def switches(c):
    """Every switch's centre (the pile keys and MENU), in the case's millimetres."""
    return [c.xy(*centre(p)) for p in of(c.placement, "SW")]


def glass(c):
    """The OLED glass's centre in the case's millimetres."""
    return c.xy(*on_board(of(c.placement, "J")[0], *GLASS_CENTRE))


def outward(c, part, lx0, lx1, ly0, ly1, beyond):
    """A footprint's rectangle (lx0..lx1, ly0..ly1, pointing to +ly) on the case, run out
    past the wall: (x0, y0, x1, y1)."""
    pts = [c.xy(*on_board(part, lx, ly)) for lx in (lx0, lx1) for ly in (ly0, ly1 + beyond)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def usb_path(c):
    """Where the USB socket and its plug go: the plug's moulding's size round the socket,
    from the Pico's end out past the case. (x0, y0, z0, x1, y1, z1)."""
    pico = of(c.placement, "U")[0]
    end = PICO_L / 2  # the Pico's USB end, up its footprint (-y)
    # the footprint's -y is its USB end: mirror it so outward() runs it to +ly
    flipped = dict(pico, rotation=pico["rotation"] + 180.0)
    x0, y0, x1, y1 = outward(c, flipped, -PLUG[0] / 2, PLUG[0] / 2, end, end,
                             CLEAR + WALL + 10)
    zc = PCB_T + PICO_T + USB_H / 2
    return x0, y0, zc - PLUG[1] / 2, x1, y1, zc + PLUG[1] / 2


def lever_path(c):
    """The power switch's lever over its travel, run out through the side wall."""
    swp = of(c.placement, "SWP")[0]
    (lx0, lx1), (ly0, ly1) = LEVER
    x0, y0, x1, y1 = outward(c, swp, lx0 - 1.5, lx1 + LEVER_TRAVEL + 1.5, ly0, ly1,
                             CLEAR + WALL + 10)
    return x0, y0, PCB_T, x1, y1, PCB_T + LEVER_SLOT_H


def grille(c):
    """Seven sound holes over the piezo, a hexagon round its centre."""
    x, y = c.xy(*centre(of(c.placement, "LS")[0]))
    return [(x, y)] + [(x + GRILLE_PITCH * math.cos(a * math.pi / 3),
                        y + GRILLE_PITCH * math.sin(a * math.pi / 3)) for a in range(6)]


def window(c):
    """The window over the glass: a frustum through the plate, 45 degrees."""
    gx, gy = glass(c)
    w, h = GLASS_SIZE[0] + 2 * WINDOW_MARGIN, GLASS_SIZE[1] + 2 * WINDOW_MARGIN
    low = box(gx - w / 2, gy - h / 2, c.under - 0.5, gx + w / 2, gy + h / 2, c.under)
    grow = PLATE + 0.5
    high = box(gx - w / 2 - grow, gy - h / 2 - grow, c.top, gx + w / 2 + grow,
               gy + h / 2 + grow, c.top + 0.5)
    return Manifold.batch_hull([low, high])


def top(c):
    shell = rounded(c, PCB_T, c.top) - cavity(c, PCB_T - 1, c.under)
    bosses = union(cylinder(x, y, PCB_T, c.under + 0.1, BOSS_R) for x, y in holes(c))
    cuts = [cylinder(x, y, PCB_T - 1, c.under, PILOT_R) for x, y in holes(c)]
    cuts += [cylinder(x, y, c.under - 1, c.top + 1, CAP_HOLE_R) for x, y in switches(c)]
    cuts += [cylinder(x, y, c.under - 1, c.top + 1, GRILLE_R) for x, y in grille(c)]
    cuts += [window(c), box(*usb_path(c)), box(*lever_path(c))]
    return (shell + bosses) - union(cuts)


def door_opening(c, gap):
    """The battery door's hole in the floor: the door's width through the floor, and the
    rails' grooves in its middle layer (FLOOR's thirds) reaching under the edges, both
    running out to the left through the wall, which the door slides in from. With a gap,
    the door itself."""
    bt = of(c.placement, "BT")[0]
    x0, y0, x1, y1 = bt["box"]
    (_, ylo), (xhi, yhi) = c.xy(x0, y1), c.xy(x1, y0)
    left = -CLEAR - WALL - (0 if gap else 1)
    low = c.bottom - (0 if gap else 1)
    face = box(left, ylo + gap, low, xhi - gap, yhi - gap, c.floor)
    if not gap:  # open to the cavity inside the wall
        face += box(-CLEAR, ylo, c.floor - 1, xhi, yhi, c.floor + 1)
    rails = box(left, ylo - DOOR_RAIL + gap, c.bottom + FLOOR / 3, xhi + DOOR_RAIL - gap,
                yhi + DOOR_RAIL - gap, c.bottom + 2 * FLOOR / 3 - gap)
    return face + rails


def bottom(c):
    shell = rounded(c, c.bottom, PCB_T) - cavity(c, c.floor, PCB_T + 1)
    bosses = union(cylinder(x, y, c.floor - 0.1, 0.0, BOSS_R) for x, y in holes(c))
    cuts = [cylinder(x, y, c.bottom - 1, 1.0, SCREW_R) for x, y in holes(c)]
    cuts += [cylinder(x, y, c.bottom - 1, c.bottom + HEAD_DEPTH, HEAD_R) for x, y in holes(c)]
    cuts += [door_opening(c, 0.0), box(*usb_path(c))]
    return (shell + bosses) - union(cuts)


def door(c):
    """The battery door; three grooves on its face by the wall for a thumb."""
    d = door_opening(c, DOOR_GAP)
    x = -CLEAR - WALL
    _, y0, _, _, y1, _ = d.bounding_box()
    grip = union(box(x + 2 + 2.5 * i, y0 + 4, c.bottom - 1, x + 3 + 2.5 * i, y1 - 4,
                     c.bottom + 0.5) for i in range(3))
    return d - grip


def caps(c):
    """A cap for every switch, where it sits when the switch is up."""
    stem = PCB_T + HEIGHTS["SW"]
    flange_top = c.under - CAP_PLAY
    out = []
    for x, y in switches(c):
        out += [cylinder(x, y, stem, flange_top - CAP_FLANGE + 0.1, CAP_PLUNGER_R),
                cylinder(x, y, flange_top - CAP_FLANGE, flange_top, CAP_FLANGE_R),
                cylinder(x, y, flange_top - 0.1, c.top + CAP_PROUD, CAP_SHAFT_R)]
    return union(out)


PARTS = (("top", top), ("bottom", bottom), ("door", door), ("caps", caps))


def build(placement):
    """{part name: manifold}."""
    c = Case(placement)
    return {name: make(c) for name, make in PARTS}


def mesh(solid):
    """A manifold's triangles as the trimesh written to its STL."""
    m = solid.to_mesh()
    return trimesh.Trimesh(m.vert_properties[:, :3], m.tri_verts, process=False)


def unsound(solid, triangles):
    """'' when a part is a closed mesh with a volume, else what is wrong with it."""
    if solid.is_empty() or not len(triangles.faces) or solid.volume() <= 0:
        return "comes out empty"
    if solid.status() != Error.NoError:
        return "is not a solid (%s)" % solid.status().name
    if not triangles.is_watertight:
        return "comes out open (not a closed mesh)"
    return ""


@contextlib.contextmanager
def writing(path):
    """Stop in one line when path cannot be written."""
    try:
        yield
    except OSError as e:
        cli_fail(PROG, cannot_write(path, e))


def picture(solids, path):
    """The parts drawn apart (the top and its caps lifted off, the door slid out), shaded;
    cut into small triangles so that matplotlib's depth order holds."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection
    lift = {"top": (0, 0, 20), "caps": (0, 0, 20), "bottom": (0, 0, 0), "door": (-35, 0, 0)}
    colour = {"top": (0.93, 0.55, 0.18), "caps": (0.25, 0.45, 0.8), "bottom": (0.3, 0.3, 0.32),
              "door": (0.55, 0.55, 0.58)}
    light = np.array([0.3, -0.5, 0.81])
    tris, colours = [], []
    for name, solid in solids.items():
        mesh = solid.refine_to_length(4.0).to_mesh()
        t = mesh.vert_properties[:, :3][mesh.tri_verts] + np.array(lift[name])
        n = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
        n /= np.linalg.norm(n, axis=1, keepdims=True) + 1e-12
        tris.append(t)
        colours.append(np.outer(0.3 + 0.7 * np.clip(n @ light, 0, 1), colour[name]))
    tris, colours = np.concatenate(tris), np.concatenate(colours)
    fig = plt.figure(figsize=(8, 5.6), dpi=100)
    ax = fig.add_subplot(projection="3d")
    ax.add_collection3d(Poly3DCollection(tris, facecolors=colours, edgecolors=colours,
                                         linewidths=0.3))
    lo, hi = tris.min(axis=(0, 1)), tris.max(axis=(0, 1))
    for axis, a, b in zip("xyz", lo, hi):
        getattr(ax, "set_%slim" % axis)(a, b)
    ax.set_box_aspect(tuple(hi - lo), zoom=0.95)
    ax.view_init(elev=30, azim=-50)
    ax.set_axis_off()
    fig.subplots_adjust(0, 0, 1, 1)
    fig.savefig(path, dpi=100, bbox_inches="tight", pad_inches=0.05)
    plt.close(fig)


def main(argv=None):
    ap = Parser(prog=PROG, description=__doc__.split("\n")[0])
    ap.add_argument("--placement", default=PLACEMENT,
                    help="the board's placement table (default hardware/pcb/placement.json, "
                         "which make pcb writes)")
    ap.add_argument("--out", default=os.path.join(ROOT, "dist", "case"),
                    help="the STLs' folder (default dist/case; made if missing)")
    ap.add_argument("--picture", type=output_file, metavar="PNG",
                    help="also draw the parts into this PNG (docs/case.png)")
    args = ap.parse_args(argv)
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        cli_fail(PROG, "--out %s is not a folder: give a folder (it is made if missing)"
                 % args.out)
    problem = folder_problem(args.out, "--out " + args.out, make=True)
    if problem:
        cli_fail(PROG, problem)
    try:
        placement = load(args.placement)
    except PlacementError as e:
        cli_fail(PROG, "--placement %s" % e)
    solids = build(placement)
    meshes = {name: mesh(solid) for name, solid in solids.items()}
    for name, solid in solids.items():
        problem = unsound(solid, meshes[name])
        if problem:
            cli_fail(PROG, "--placement %s: the case's %s %s: nothing written"
                     % (args.placement, name, problem))
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        cli_fail(PROG, "--out %s: cannot make the folder (%s)" % (args.out, e.strerror or e))
    said = []
    # every file under a temporary name first, then all renamed: one that cannot be
    # written leaves every old one as it was
    with contextlib.ExitStack() as outputs:
        for name, solid in solids.items():
            path = os.path.join(args.out, "%s-%s.stl" % (NAME, name))
            outputs.enter_context(writing(path))
            meshes[name].export(outputs.enter_context(replacing(path)), file_type="stl")
            x0, y0, z0, x1, y1, z1 = solid.bounding_box()
            said.append("wrote %s (%.1f x %.1f x %.1f mm, %.1f cm3)" % (
                os.path.relpath(path), x1 - x0, y1 - y0, z1 - z0, solid.volume() / 1000))
        if args.picture:
            outputs.enter_context(writing(args.picture))
            picture(solids, outputs.enter_context(replacing(args.picture)))
            said.append("drew %s" % os.path.relpath(args.picture))
    for line in said:
        print("%s: %s" % (PROG, line))


if __name__ == "__main__":
    main()
