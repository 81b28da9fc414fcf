"""The grid router for the nets that do not run on the matrix's channels, and the ground
pour on both copper layers."""
import heapq
import math

from tools.pcb import (CLEAR, EDGE_CLEAR, G, H, HOLE_CLEAR, PICO_CY, PICO_L, PICO_ROWS,
                       PICO_3V3, PICO_X0, TRACK, VIA, VIA_DRILL, W, fail, gpio, setting)
from tools.pcb.footprints import MM, mm, nm, pcbnew, stable
from tools.pcb import matrix_nets
from tools.pcb.layout import pad

FREE, BLOCKED = -1, -2


def _seg_point(ax, ay, bx, by, px, py):
    dx, dy = bx - ax, by - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L))
    return math.hypot(ax + t * dx - px, ay + t * dy - py)


def _seg_seg(a, b, c, d):
    """The distance between segments ab and cd."""
    def cross(o, p, q):
        return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])
    d1, d2 = cross(c, d, a), cross(c, d, b)
    d3, d4 = cross(a, b, c), cross(a, b, d)
    if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 and d2 and d3 and d4:
        return 0.0
    return min(_seg_point(*c, *d, *a), _seg_point(*c, *d, *b), _seg_point(*a, *b, *c),
               _seg_point(*a, *b, *d))


class Shape:
    """Copper (or a hole) as the router sees it: a segment with a radius, or a rectangle."""

    def __init__(self, net, layers, a=None, b=None, r=0.0, rect=None, bare=False):
        self.net, self.layers, self.a, self.b, self.r, self.rect = net, layers, a, b, r, rect
        self.bare = bare  # a hole with no copper round it (NPTH)

    def dist(self, p, q):
        """Distance from segment pq to this shape's edge (0 inside)."""
        if self.rect:
            x0, y0, x1, y1 = self.rect
            dx = max(0.0, x0 - max(p[0], q[0]), min(p[0], q[0]) - x1)
            dy = max(0.0, y0 - max(p[1], q[1]), min(p[1], q[1]) - y1)
            return math.hypot(dx, dy)
        return max(0.0, _seg_seg(p, q, self.a, self.b) - self.r)

    def bbox(self):
        if self.rect:
            return self.rect
        return (min(self.a[0], self.b[0]) - self.r, min(self.a[1], self.b[1]) - self.r,
                max(self.a[0], self.b[0]) + self.r, max(self.a[1], self.b[1]) + self.r)


def pad_shapes(pad, net):
    """A pad's copper, and its hole (as a shape of net BLOCKED: no via comes near it)."""
    box = pad.GetBoundingBox()
    x0, y0 = mm(box.GetOrigin())
    x1, y1 = mm(box.GetEnd())
    layers = (0, 1)
    out = []
    if pad.GetAttribute() != pcbnew.PAD_ATTRIB_NPTH:
        if pad.GetShape() in (pcbnew.PAD_SHAPE_RECT, pcbnew.PAD_SHAPE_ROUNDRECT):
            out.append(Shape(net, layers, rect=(x0, y0, x1, y1)))
        else:
            r = min(x1 - x0, y1 - y0) / 2
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            hx, hy = max(0.0, (x1 - x0) / 2 - r), max(0.0, (y1 - y0) / 2 - r)
            out.append(Shape(net, layers, (cx - hx, cy - hy), (cx + hx, cy + hy), r))
    hx, hy = mm(pad.GetPosition())
    hr = pad.GetDrillSize().x / MM / 2
    out.append(Shape(BLOCKED, layers, (hx, hy), (hx, hy), hr,
                     bare=pad.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH))
    return out


class Router:
    """A two-layer grid router: top copper prefers horizontal runs, bottom vertical, a via
    costs eight steps. Every step and via is checked against the copper already there."""

    def __init__(self, b, keepouts):
        self.b = b
        self.nx = int(W / G) + 1
        self.ny = int(H / G) + 1
        self.margin = int(math.ceil((EDGE_CLEAR + TRACK / 2 + 0.01) / G))
        size = self.nx * self.ny
        self.h = [[FREE] * size for _ in range(2)]  # step (i, j) -> (i + 1, j)
        self.v = [[FREE] * size for _ in range(2)]  # step (i, j) -> (i, j + 1)
        self.via = [FREE] * size
        self.own = {}  # net -> set of (layer, index) inside its copper
        self.net_id = {}
        for fp in b.board.Footprints():
            for p in fp.Pads():
                net = p.GetNetname()
                for s in pad_shapes(p, self.id(net)):
                    self.add(s, net if net and s.net != BLOCKED else None)
        for layer, a, c, net in b.tracks:
            self.add(Shape(self.id(net), (self.lay(layer),), a, c, TRACK / 2), net)
        for x0, y0, x1, y1, layer in keepouts:
            self.add(Shape(BLOCKED, (layer,), rect=(x0, y0, x1, y1), bare=True), None)

    def id(self, net):
        return self.net_id.setdefault(net, len(self.net_id))

    @staticmethod
    def lay(layer):
        return 0 if layer == pcbnew.F_Cu else 1

    def add(self, s, net):
        """Mark the steps and vias this shape forbids to other nets. A hole (net BLOCKED)
        keeps every via's drill HOLE_CLEAR away, and a bare hole every track too."""
        hole = s.net == BLOCKED
        t = TRACK / 2 + (HOLE_CLEAR if hole else CLEAR) + 0.01
        vr = VIA_DRILL / 2 + HOLE_CLEAR + 0.01 if hole else VIA / 2 + CLEAR + 0.01
        if hole and s.bare:
            vr = VIA / 2 + HOLE_CLEAR + 0.01
        x0, y0, x1, y1 = s.bbox()
        reach = max(t, vr)
        i0, i1 = max(0, int((x0 - reach) / G) - 1), min(self.nx - 1, int((x1 + reach) / G) + 1)
        j0, j1 = max(0, int((y0 - reach) / G) - 1), min(self.ny - 1, int((y1 + reach) / G) + 1)
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                k = j * self.nx + i
                p = (i * G, j * G)
                d = s.dist(p, p)
                if d < vr:
                    self.via[k] = self._mark(self.via[k], s.net)
                if hole and not s.bare:
                    continue
                for layer in s.layers:
                    if i + 1 < self.nx and s.dist(p, ((i + 1) * G, p[1])) < t:
                        self.h[layer][k] = self._mark(self.h[layer][k], s.net)
                    if j + 1 < self.ny and s.dist(p, (p[0], (j + 1) * G)) < t:
                        self.v[layer][k] = self._mark(self.v[layer][k], s.net)
                    if net is not None and d <= 0.0:
                        self.own.setdefault(net, set()).add((layer, k))

    @staticmethod
    def _mark(state, net):
        if state == FREE:
            return net
        return state if state == net else BLOCKED

    def cells(self, pads, n):
        """The grid's nodes, both layers, inside these pads' copper."""
        inside = set()
        for p in pads:
            s = pad_shapes(p, n)[0]
            x0, y0, x1, y1 = s.bbox()
            for j in range(max(0, int(y0 / G)), min(self.ny, int(y1 / G) + 2)):
                for i in range(max(0, int(x0 / G)), min(self.nx, int(x1 / G) + 2)):
                    if s.dist((i * G, j * G), (i * G, j * G)) <= 0.0:
                        inside.update(((0, j * self.nx + i), (1, j * self.nx + i)))
        return inside

    def route(self, net, island, to=None):
        """Join the pads `island` (one piece of copper of `net`) to the rest of the net's
        copper (or to the pads `to` only) by the cheapest path on the grid."""
        n = self.id(net)
        start = self.cells(island, n)
        rest = self.own.get(net, set()) if to is None else self.cells(to, n)
        pads = rest - start  # where the path ends
        sources = start
        target = island[0]
        if not pads or not sources:
            fail("the router found no copper for net %s" % net)
        nx, m = self.nx, self.margin
        dist = {}
        prev = {}
        heap = []
        for s in sorted(sources):
            dist[s] = 0
            heap.append((0, s))
        heapq.heapify(heap)
        end = None
        while heap:
            d, node = heapq.heappop(heap)
            if dist.get(node) != d:
                continue
            if node in pads:
                end = node
                break
            layer, k = node
            i, j = k % nx, k // nx
            steps = []
            if i + 1 < nx - m and self.h[layer][k] in (FREE, n):
                steps.append(((layer, k + 1), 1 if layer == 0 else 2))
            if i - 1 >= m and self.h[layer][k - 1] in (FREE, n):
                steps.append(((layer, k - 1), 1 if layer == 0 else 2))
            if j + 1 < self.ny - m and self.v[layer][k] in (FREE, n):
                steps.append(((layer, k + nx), 1 if layer == 1 else 2))
            if j - 1 >= m and self.v[layer][k - nx] in (FREE, n):
                steps.append(((layer, k - nx), 1 if layer == 1 else 2))
            if self.via[k] in (FREE, n) and m <= i < nx - m and m <= j < self.ny - m:
                steps.append(((1 - layer, k), 8))
            for nxt, cost in steps:
                nd = d + cost
                if nd < dist.get(nxt, 1 << 30):
                    dist[nxt] = nd
                    prev[nxt] = node
                    heapq.heappush(heap, (nd, nxt))
        if end is None:
            fail("the router found no way for net %s to %s pad %s" % (
                net, target.GetParentFootprint().GetReference(), target.GetNumber()))
        path = [end]
        while path[-1] in prev:
            path.append(prev[path[-1]])
        path.reverse()
        self.lay_path(net, path)

    def lay_path(self, net, path):
        nx = self.nx
        layers = (pcbnew.F_Cu, pcbnew.B_Cu)
        runs = [[path[0]]]
        for node in path[1:]:
            if node[0] != runs[-1][-1][0]:
                p = (node[1] % nx * G, node[1] // nx * G)
                self.b.via(p, net)
                self.add(Shape(self.id(net), (0, 1), p, p, VIA / 2), net)
                runs.append([node])
            else:
                runs[-1].append(node)
        for run in runs:
            pts = [(k % nx * G, k // nx * G) for _, k in run]
            corners = [pts[0]]
            for a, c, d in zip(pts, pts[1:], pts[2:]):
                if (c[0] - a[0]) * (d[1] - c[1]) != (c[1] - a[1]) * (d[0] - c[0]):
                    corners.append(c)
            corners.append(pts[-1])
            for a, c in zip(corners, corners[1:]):
                self.b.track(layers[run[0][0]], a, c, net)
                self.add(Shape(self.id(net), (run[0][0],), a, c, TRACK / 2), net)


def route(b):
    """The nets off the matrix's channels, each routed on the grid in this order."""
    rows, cols = matrix_nets()
    x0 = PICO_X0
    # No top copper under the Pico between its rows: it lies flat on the board.
    keepouts = [(x0 + 0.5, PICO_CY - PICO_ROWS / 2 + 1.4, x0 + PICO_L - 0.5,
                 PICO_CY + PICO_ROWS / 2 - 1.4, 0)]
    r = Router(b, keepouts)
    for net, g in cols + rows:
        r.route(net, [pad(b, "U1", gpio(g))])
    for g, ref, number in (("CS_I2C_SDA", "J1", 4), ("CS_I2C_SCL", "J1", 3),
                           ("CS_MENU", "SW25", 1), ("CS_PIEZO", "R3", 1)):
        r.route(pad(b, ref, number).GetNetname(), [pad(b, "U1", gpio(setting(g)))],
                to=[pad(b, ref, number)])
    r.route("+3V3", [pad(b, "J1", 2)], to=[pad(b, "U1", PICO_3V3)])
    for net, ref, number in (("VSYS", "DS1", 1), ("BAT_ON", "SWP1", 1),
                             ("BAT+", "BT1", 1), ("PIEZO", "R3", 2)):
        r.route(net, [pad(b, ref, number)])
    # the pull-ups' pads: to the OLED's SDA, SCL and VCC, and R2's 3V3 to R1's
    for (ref, number), (to, to_number) in ((("R1", 2), ("J1", 4)), (("R2", 2), ("J1", 3)),
                                           (("R1", 1), ("J1", 2)), (("R2", 1), ("R1", 1))):
        r.route(pad(b, ref, number).GetNetname(), [pad(b, ref, number)],
                to=[pad(b, to, to_number)])
    # ground by tracks too, so that no part hangs on the pour alone
    for ref, number in (("J1", 1), ("SW25", 2), ("LS1", 2), ("BT1", 2)):
        r.route("GND", [p for p in b.parts[ref].Pads() if p.GetNumber() == str(number)])
    return r


def pour(b, r):
    """Ground on both copper layers, stitched with vias wherever both are free."""
    bd = b.board
    gnd = b.net("GND")
    for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
        z = pcbnew.ZONE(bd)
        z.SetLayer(layer)
        z.SetNet(gnd)
        poly = z.Outline()
        poly.NewOutline()
        for x, y in ((0.3, 0.3), (W - 0.3, 0.3), (W - 0.3, H - 0.3), (0.3, H - 0.3)):
            poly.Append(nm(x), nm(y))
        z.SetLocalClearance(nm(0.3))
        z.SetMinThickness(nm(0.25))
        z.SetThermalReliefGap(nm(0.4))
        z.SetThermalReliefSpokeWidth(nm(0.4))
        z.SetPadConnection(pcbnew.ZONE_CONNECTION_THERMAL)
        z.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
        bd.Add(z)
        stable(z, "zone/%d" % layer)
    # stitching vias every 5.08 mm where nothing else is near
    n = r.id("GND")
    step = int(round(5.08 / G))
    for j in range(step // 2, r.ny, step):
        for i in range(step // 2, r.nx, step):
            k = j * r.nx + i
            p = (i * G, j * G)
            if not (4 <= i < r.nx - 4 and 4 <= j < r.ny - 4):
                continue
            if all(r.via[k + d] == FREE for d in (0, 1, -1, r.nx, -r.nx)):
                b.via(p, "GND")
                r.add(Shape(n, (0, 1), p, p, VIA / 2 + 0.3), "GND")
