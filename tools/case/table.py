"""The board's placement table (hardware/pcb/placement.json, which make pcb writes) read for
the case, and refused in a line when no case can be built from it."""
import json
import math

from tools.case.figures import AAA, DS_FLAT, HEIGHTS, OLED_GLASS, PICO_W, SW_BODY
from tools.files import FileProblem, read_json

CLEAR = 0.5      # round the board and above its tallest part on each side
WALL = 2.0       # side walls
BED = 220.0      # a common printer's bed (mm): the case's outside must fit on it
BOARD_SIZES = (PICO_W, BED - 2 * (CLEAR + WALL))  # each side: the Pico across it, up to the bed
SIDES = ("front", "back")
FOOT_R = 4.0   # a cap's foot, under the plate: two switches need twice this between centres
NEEDED = (("SW", "switches SW1.."), ("J", "OLED J1"), ("U", "Pico U1"), ("LS", "piezo LS1"),
          ("BT", "battery holder BT1"), ("SWP", "power switch SWP1"),
          ("H", "mounting holes H1.."))


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
    for k, what in NEEDED:
        if k not in refs:
            raise PlacementError("%s has no %s: run make pcb to write it again" % (path, what))
    placement = {"board": tuple(size), "parts": parts}
    switches_apart(placement, path)
    schottky_flat(placement, path)
    holder = of(placement, "BT")[0]
    x0, y0, x1, y1 = holder["box"]
    if min(x1 - x0, y1 - y0) < AAA:
        raise PlacementError("%s: battery holder %s's box is %g x %g mm: its cells (AAA, %g "
                             "mm across) would not pass its door"
                             % (path, holder["ref"], x1 - x0, y1 - y0, AAA))
    oled = of(placement, "J")[0]
    (gx, gy), (gw, gh) = on_board(oled, *OLED_GLASS[0]), OLED_GLASS[1]
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
                             "HEIGHTS in tools/case/figures.py" % (path, ref, kind(part)))
    return part


def within(board, box):
    """Whether a box (x0, y0, x1, y1, board mm) lies within the board's outline."""
    return 0 <= box[0] and 0 <= box[1] and box[2] <= board[0] and box[3] <= board[1]


def switches_apart(placement, path):
    """PlacementError unless no two switches' bodies overlap and their caps' feet (under
    the plate) cannot touch."""
    seen = []
    for sw in of(placement, "SW"):
        for other in seen:
            if overlap(body(sw), body(other)):
                raise PlacementError("%s: switches %s and %s overlap: each switch's %g x %g "
                                     "mm body needs a place of its own"
                                     % (path, other["ref"], sw["ref"], SW_BODY, SW_BODY))
            apart = math.dist(centre(sw), centre(other))
            if apart < 2 * FOOT_R:
                raise PlacementError("%s: switches %s and %s are %.2f mm apart: their caps "
                                     "need %g mm between centres"
                                     % (path, other["ref"], sw["ref"], apart, 2 * FOOT_R))
        seen.append(sw)


def schottky_flat(placement, path):
    """PlacementError when a Schottky's footprint is too short for it to lie flat: the plate
    over it is built for HEIGHTS["DS"]."""
    for ds in of(placement, "DS"):
        x0, y0, x1, y1 = ds["box"]
        if max(x1 - x0, y1 - y0) < DS_FLAT:
            raise PlacementError(
                "%s: part %s's box is %g x %g mm, a footprint for it standing up (8.5 mm "
                "tall): the case's plate is built for it lying flat (%g mm), in a footprint "
                "at least %g mm long: lay it flat on the board and run make pcb"
                % (path, ds["ref"], x1 - x0, y1 - y0, HEIGHTS["DS"], DS_FLAT))


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
    """The tallest part on a side of the board: every part on the front lies under the
    plate, every part on the back over the floor."""
    return max([HEIGHTS[kind(p)] for p in placement["parts"] if p["side"] == side] + [0.0])

