"""The case's five parts as solids, each where it sits on the assembled handheld (mm; x to
the right, y up from A's edge, z up from the board's back): the top, the bottom, the battery
door, the 25 caps and the power switch's lever extension."""
import math

import numpy as np
from manifold3d import CrossSection, JoinType, Manifold, OpType

from tools.case.figures import (COUNTERBORE, GLASS_H, HEIGHTS, LEVER, LEVER_TRAVEL, OLED,
                                OLED_GLASS, PCB_T, PICO_L, PICO_T, PILOT_R, PLUG, SCREW_L,
                                SCREW_R, TIP_SKIN, USB_H)
from tools.case.table import CLEAR, FOOT_R, WALL, centre, of, on_board, tallest

PLATE = 2.0     # the top's plate
FLOOR = 3.0     # the bottom's floor, at least: deeper where the screws need it
CORNER = 3.0    # the outside's corner radius
SEGMENTS = 48
BOSS_R = 2.9    # screw bosses, inside the mounting holes' 3 mm keep-out
GRILLE_R, GRILLE_PITCH = 0.8, 3.0  # the sound holes over the piezo
CAP_HOLE_R = 3.0     # the top's hole for each cap
CAP_SHAFT_R = 2.4    # 0.6 mm of play round it
CAP_PROUD = 1.5      # how far a cap stands above the top
CAP_GAP = 0.3        # between a cap's foot and the plate, its switch up
WINDOW_MARGIN = 0.5  # round the sight lines to the glass, at the plate's underside
DOOR_LIP, DOOR_GAP = 1.5, 0.25     # the door's dovetail under the floor's edges; its play
NOTCH = DOOR_LIP + 0.5             # the notch it slides in by, past the holder's sides
LEVER_FIT, SLOT_FIT = 0.15, 0.25   # round the lever in its extension; round the extension
GRIP = 1.2                         # the extension's sides round the lever


class Case:
    """The heights every part is cut to, from the tallest parts on each side of the board
    and the screws' length."""

    def __init__(self, placement):
        self.placement = placement
        self.w, self.h = placement["board"]
        self.under = PCB_T + tallest(placement, "front") + CLEAR  # the plate's underside
        self.top = self.under + PLATE
        self.floor = -(tallest(placement, "back") + CLEAR)  # the floor's inside
        # deep enough that a screw seated in its counterbore ends TIP_SKIN under the top
        self.bottom = min(self.floor - FLOOR, self.top - TIP_SKIN - SCREW_L - COUNTERBORE[1])
        self.seat = self.bottom + COUNTERBORE[1]  # where a screw's head bears

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


def glass(c, below):
    """The corners (x0, y0, x1, y1) of the glass's active area on the case, its centre
    `below` mm under the OLED's pins."""
    oled = of(c.placement, "J")[0]
    w, h = OLED["active"]
    pts = [c.xy(*on_board(oled, OLED_GLASS[0][0] + dx, below + dy))
           for dx in (-w / 2, w / 2) for dy in (-h / 2, h / 2)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def window(c):
    """The window over the glass, wherever the footprint or the module's drawing puts it:
    at the plate's underside it reaches past the glass as far as the glass lies under it
    (the sight line of a player at 45 degrees), and it widens upward at 45 degrees."""
    spans = [glass(c, below) for below in (OLED_GLASS[0][1], OLED["below_pins"])]
    rise = c.under - (PCB_T + GLASS_H) + WINDOW_MARGIN  # both players look along y
    x0 = min(s[0] for s in spans) - WINDOW_MARGIN
    x1 = max(s[2] for s in spans) + WINDOW_MARGIN
    y0, y1 = min(s[1] for s in spans) - rise, max(s[3] for s in spans) + rise
    e = 0.5
    low = box(x0 + e, y0 + e, c.under - e - 0.001, x1 - e, y1 - e, c.under - e)
    out = PLATE + e
    high = box(x0 - out, y0 - out, c.top + e, x1 + out, y1 + out, c.top + e + 0.001)
    return Manifold.batch_hull([low, high])


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


def grille(c):
    """Seven sound holes over the piezo, a hexagon round its centre."""
    x, y = c.xy(*centre(of(c.placement, "LS")[0]))
    return [(x, y)] + [(x + GRILLE_PITCH * math.cos(a * math.pi / 3),
                        y + GRILLE_PITCH * math.sin(a * math.pi / 3)) for a in range(6)]


def lever_frame(c):
    """The power switch's own millimetres on the case (x along its lever's travel, y out
    along the lever, z up) as a 3 x 4 matrix, and how far out along the lever the cavity's
    wall is."""
    swp = of(c.placement, "SWP")[0]
    a = math.radians(swp["rotation"])
    frame = np.array([[math.cos(a), math.sin(a), 0.0, swp["x"]],
                      [math.sin(a), -math.cos(a), 0.0, c.h - swp["y"]],
                      [0.0, 0.0, 1.0, 0.0]])
    (ox, oy), (dx, dy) = frame[:2, 3], frame[:2, 1]
    reach = [(edge - o) / d for o, d, low, high in ((ox, dx, 0, c.w), (oy, dy, 0, c.h))
             if abs(d) > 1e-9 for edge in (low - CLEAR, high + CLEAR) if (edge - o) / d > 0]
    return frame, min(reach)


def lever_slot(c):
    """The extension's slot in the top's side wall, open at the wall's foot: its width
    and its travel, run out through the wall."""
    frame, wall = lever_frame(c)
    (lx0, lx1), _, (_, lz1) = LEVER
    side = LEVER_FIT + GRIP + SLOT_FIT
    slot = box(lx0 - side, wall - 1, PCB_T - 1, lx1 + side + LEVER_TRAVEL, wall + WALL + 1,
               PCB_T + lz1 + 1.2 + 0.3)
    return slot.transform(frame)


def lever(c):
    """The lever's extension: a block over the lever's tip, wider than its slot so that it
    cannot come out, a stem through the slot to 0.5 mm inside the case's outside, and a
    pocket that takes the lever from below. Printed on its top face."""
    frame, wall = lever_frame(c)
    (lx0, lx1), (_, ly1), (lz0, lz1) = LEVER
    z0, z1 = PCB_T + lz0 - 1.0, PCB_T + lz1 + 1.2
    side = LEVER_FIT + GRIP
    wide = side + SLOT_FIT + LEVER_TRAVEL / 2 + 1.0  # half its width, wider than the slot
    mid = (lx0 + lx1) / 2
    block = box(mid - wide, ly1 - 2.5, z0, mid + wide, wall - SLOT_FIT, z1)
    stem = box(lx0 - side, wall - SLOT_FIT - 0.01, z0, lx1 + side, wall + WALL - 0.5, z1)
    pocket = box(lx0 - LEVER_FIT, ly1 - 3.5, z0 - 1, lx1 + LEVER_FIT, ly1 + SLOT_FIT,
                 PCB_T + lz1 + LEVER_FIT)
    return (block + stem - pocket).transform(frame)


def holder(c):
    """The battery holder's box on the case: x0, x1, y0, y1."""
    x0, y0, x1, y1 = of(c.placement, "BT")[0]["box"]
    (ax, ay), (bx, by) = c.xy(x0, y1), c.xy(x1, y0)
    return ax, bx, ay, by


def dovetail(c, x0, x1, y0, y1, gap):
    """The door's plate from x0 to x1 in the floor: y0..y1 at the floor's outside, widening
    at 45 degrees by DOOR_LIP up to the floor's inside, so that it hangs on the floor's
    edges. Without a gap, the way it slides in (open to the cavity); with one, the door."""
    zb = c.floor - DOOR_LIP - 0.05  # a little steeper than 45 degrees
    z0, z1 = (c.bottom + gap, c.floor) if gap else (c.bottom - 1, c.floor + 0.5)
    lo, hi = y0 + gap, y1 - gap
    slope = DOOR_LIP * (z1 - zb) / (c.floor - zb)
    outline = [(lo, z0), (hi, z0), (hi, zb), (hi + slope, z1), (lo - slope, z1), (lo, zb)]
    solid = CrossSection([outline]).extrude(x1 - x0)  # (y, z, x)
    return solid.transform(np.array([[0, 0, 1, x0], [1, 0, 0, 0], [0, 1, 0, 0]], float))


def door_way(c):
    """The door's way: its dovetail in the floor, under the battery holder, and a notch in
    the left wall, floor to rim, that the door's own piece of wall fills."""
    x0, x1, y0, y1 = holder(c)
    notch = box(-CLEAR - WALL - 1, y0 - NOTCH, c.bottom - 1, -CLEAR, y1 + NOTCH, PCB_T + 1)
    return dovetail(c, -CLEAR - 0.01, x1, y0, y1, 0.0) + notch


def door(c):
    """The battery door: its plate, its piece of the left wall, and three V grooves on its
    outside for a thumb to slide it out."""
    x0, x1, y0, y1 = holder(c)
    g = DOOR_GAP
    plate = dovetail(c, -CLEAR - 0.01, x1 - g, y0, y1, g)
    piece = box(-CLEAR - WALL, y0 - NOTCH + g, c.bottom + g, -CLEAR, y1 + NOTCH - g, PCB_T - g)
    z = c.bottom + g
    groove = CrossSection([[(-0.59, z - 0.01), (0.59, z - 0.01), (0, z + 0.6)]])
    groove = groove.extrude(y1 - y0 - 6).transform(  # (x, z, y) to (x, y, z)
        np.array([[1, 0, 0, 0], [0, 0, 1, y0 + 3], [0, 1, 0, 0]], float))
    grooves = [groove.translate((x, 0, 0)) for x in (-CLEAR + 1.5, -CLEAR + 3.5, -CLEAR + 5.5)]
    return plate + piece - union(grooves)


def top(c):
    shell = rounded(c, PCB_T, c.top) - cavity(c, PCB_T - 1, c.under)
    bosses = union(cylinder(x, y, PCB_T, c.under + 0.1, BOSS_R) for x, y in holes(c))
    tip = c.seat + SCREW_L + 0.3  # a screw's tip, and room for what it cuts
    cuts = [cylinder(x, y, PCB_T - 1, tip, PILOT_R) for x, y in holes(c)]
    cuts += [cylinder(x, y, c.under - 1, c.top + 1, CAP_HOLE_R) for x, y in switches(c)]
    cuts += [cylinder(x, y, c.under - 1, c.top + 1, GRILLE_R) for x, y in grille(c)]
    cuts += [window(c), box(*usb_path(c)), lever_slot(c)]
    return (shell + bosses) - union(cuts)


def bottom(c):
    shell = rounded(c, c.bottom, PCB_T) - cavity(c, c.floor, PCB_T + 1)
    bosses = union(cylinder(x, y, c.floor - 0.1, 0.0, BOSS_R) for x, y in holes(c))
    cuts = [cylinder(x, y, c.bottom - 1, 1.0, SCREW_R) for x, y in holes(c)]
    cuts += [cylinder(x, y, c.bottom - 1, c.seat, COUNTERBORE[0] / 2) for x, y in holes(c)]
    cuts += [door_way(c), box(*usb_path(c))]
    return (shell + bosses) - union(cuts)


def caps(c):
    """A cap for every switch, where it sits when the switch is up: a foot on the switch's
    actuator, under the plate, and a shaft up through the top. Printed on its foot."""
    stem = PCB_T + HEIGHTS["SW"]
    foot = c.under - CAP_GAP
    out = []
    for x, y in switches(c):
        out += [cylinder(x, y, stem, foot, FOOT_R),
                cylinder(x, y, foot - 0.1, c.top + CAP_PROUD, CAP_SHAFT_R)]
    return union(out)


PARTS = (("top", top), ("bottom", bottom), ("door", door), ("caps", caps), ("lever", lever))


def build(placement):
    """{part name: manifold}."""
    c = Case(placement)
    return {name: make(c) for name, make in PARTS}
