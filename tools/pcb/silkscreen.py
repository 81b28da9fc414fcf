"""The silkscreen: every part's reference where it can be read and clear of the pads, the
holder's outline and its + and - on the back, A and B at each player's end, and the
board's name, revision and licence. Each label takes the first of its places that is
clear; a label with no clear place stops the run, so none is ever printed over a pad."""
import math

from tools.pcb import H, NAME, REVISION, REVISION_DATE, STROKE, W, fail, kind
from tools.pcb.footprints import mm, nm, pcbnew, pt, stable

PAD_CLEAR = 0.2  # silk from a pad's copper (the fab clips silk off pads; this keeps it whole)
SILK_CLEAR = 0.15  # between two silkscreen items
EDGE = 0.5  # from the board's edge
# What is printed besides the references: (text, layer, size, where to try, angle)
PLAYERS = (("A", 3.0, ((77.5, 71.0), (77.5, 68.5)), 0),  # A reads from the bottom edge
           ("B", 3.0, ((77.5, 6.5), (77.5, 9.0)), 180))  # B from the top
TITLE = ("California Speed", "board rev " + REVISION, "MIT licence")


def box(item):
    """An item's bounding box in mm: (x0, y0, x1, y1); a text's is its strokes'."""
    b = (item.GetEffectiveTextShape().BBox() if isinstance(item, pcbnew.PCB_TEXT)
         else item.GetBoundingBox())
    return (b.GetLeft() / 1e6, b.GetTop() / 1e6, b.GetRight() / 1e6, b.GetBottom() / 1e6)


def apart(a, b, gap):
    """True when boxes a and b are at least gap apart."""
    return a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1] or b[3] + gap <= a[1]


class Silk:
    """What a label must keep clear of, on one side: every pad and hole (all are through
    the board), the edge, and the silkscreen already drawn on that side."""

    def __init__(self, b):
        self.b = b
        self.pads = [box(p) for fp in b.board.Footprints() for p in fp.Pads()]
        self.drawn = {pcbnew.F_SilkS: [], pcbnew.B_SilkS: []}
        self.rings = {pcbnew.F_SilkS: [], pcbnew.B_SilkS: []}  # (centre, radius, width)
        for fp in b.board.Footprints():
            for item in fp.GraphicalItems():
                self.note(item)

    def note(self, item):
        layer = item.GetLayer()
        if layer not in self.drawn:
            return
        if isinstance(item, pcbnew.PCB_SHAPE) and item.GetShape() == pcbnew.SHAPE_T_CIRCLE:
            self.rings[layer].append((mm(item.GetCenter()), item.GetRadius() / 1e6,
                                      item.GetWidth() / 1e6))
        elif isinstance(item, pcbnew.PCB_SHAPE) and item.GetShape() == pcbnew.SHAPE_T_RECT:
            x0, y0, x1, y1 = box(item)  # its four sides, each a stroke wide
            w = item.GetWidth() / 1e6
            self.drawn[layer] += [(x0, y0, x1, y0 + w), (x0, y1 - w, x1, y1),
                                  (x0, y0, x0 + w, y1), (x1 - w, y0, x1, y1)]
        else:
            self.drawn[layer].append(box(item))

    def clear(self, b, layer):
        """True when box b may be printed on layer."""
        if b[0] < EDGE or b[1] < EDGE or b[2] > W - EDGE or b[3] > H - EDGE:
            return False
        if not all(apart(b, p, PAD_CLEAR) for p in self.pads):
            return False
        if not all(apart(b, d, SILK_CLEAR) for d in self.drawn[layer]):
            return False
        for (cx, cy), r, w in self.rings[layer]:
            near = math.hypot(max(b[0] - cx, 0, cx - b[2]), max(b[1] - cy, 0, cy - b[3]))
            far = max(math.hypot(x - cx, y - cy) for x in (b[0], b[2]) for y in (b[1], b[3]))
            if near - SILK_CLEAR <= r + w / 2 and far + SILK_CLEAR >= r - w / 2:
                return False
        return True

    def put(self, text, places, what):
        """Move text to the first of places ((x, y, angle)) where it is clear; stop the run
        in words if it is clear nowhere."""
        layer = text.GetLayer()
        for x, y, angle in places:
            text.SetTextAngleDegrees(angle)
            text.SetPosition(pt(x, y))
            if self.clear(box(text), layer):
                self.drawn[layer].append(box(text))
                return
        fail("the silkscreen has no clear place for %s" % what)


def around(x, y, angle=0, steps=(1.5, 2.5, 3.5, 4.5, 5.5)):
    """Places round (x, y): the point itself, then further out in eight directions."""
    yield x, y, angle
    for d in steps:
        for dx, dy in ((0, 1), (0, -1), (-1, 0), (1, 0), (-1, 1), (1, 1), (-1, -1), (1, -1)):
            yield x + dx * d, y + dy * d, angle


def pads_of(fp, number):
    return [mm(p.GetPosition()) for p in fp.Pads() if p.GetNumber() == str(number)]


def reference_places(ref, fp):
    """Where a part's reference is tried, best first: inside a diode's or resistor's body
    (clear of the cathode's stripe), a switch's middle, else round the part."""
    k = kind(ref)
    pads = [mm(p.GetPosition()) for p in fp.Pads() if p.GetNumber()]
    cx = sum(x for x, _ in pads) / len(pads)
    cy = sum(y for _, y in pads) / len(pads)
    if k in ("D", "DS", "R"):
        (x1, y1), (x2, y2) = pads_of(fp, 1)[0], pads_of(fp, 2)[0]
        along = {"D": 0.563, "DS": 0.556, "R": 0.5}[k]  # the body's free middle
        angle = 90 if abs(x2 - x1) < abs(y2 - y1) else 0
        yield x1 + (x2 - x1) * along, y1 + (y2 - y1) * along, angle
    elif k == "J":
        (x, y) = pads_of(fp, 1)[0]
        yield x - 2.4, y, 0
    elif k == "LS":
        yield cx, cy + 3.0, 0
    elif k == "SWP":
        yield cx, cy - 8.5, 0
    yield from around(cx, cy)
    if k == "BT":
        yield from around(cx, cy + 8, steps=(3, 6, 9))


def holder_marks(b, silk):
    """The holder's outline on the back, broken round every pad and hole, and its + and -
    beside its pins (the library's outline crossed the switches' pads there)."""
    bt, bd = b.parts["BT1"], b.board
    c = bt.GetCourtyard(pcbnew.B_CrtYd).BBox()
    x0, y0, x1, y1 = (c.GetLeft() / 1e6, c.GetTop() / 1e6, c.GetRight() / 1e6,
                      c.GetBottom() / 1e6)
    x0, y0, x1, y1 = x0 + 0.3, y0 + 0.3, x1 - 0.3, y1 - 0.3
    n = 0
    for a, c in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x0, y1), (x1, y1)),
                 ((x0, y0), (x0, y1))):
        for s, e in clear_runs(a, c, silk.pads):
            line = pcbnew.PCB_SHAPE(bd, pcbnew.SHAPE_T_SEGMENT)
            line.SetStart(pt(*s))
            line.SetEnd(pt(*e))
            line.SetLayer(pcbnew.B_SilkS)
            line.SetWidth(nm(STROKE))
            bd.Add(line)
            stable(line, "outline/BT1/%d" % n)
            silk.note(line)
            n += 1
    for sign, number in (("+", 1), ("-", 2)):
        x, y = pads_of(bt, number)[0]
        t = text_on(bd, sign, pcbnew.B_SilkS, 2.0, "mark/BT1/%s" % number)
        silk.put(t, list(around(x, y, steps=(3.0, 3.5, 4.0)))[1:], "the holder's %s" % sign)


def clear_runs(a, c, obstacles):
    """The parts of the straight, level or upright line a-c that keep PAD_CLEAR (and the
    stroke) from every obstacle box."""
    horizontal = a[1] == c[1]
    lo, hi = (a[0], c[0]) if horizontal else (a[1], c[1])
    at = a[1] if horizontal else a[0]
    gap = PAD_CLEAR + STROKE / 2
    cuts = []
    for o in obstacles:
        across = (o[1], o[3]) if horizontal else (o[0], o[2])
        if across[0] - gap < at < across[1] + gap:
            along = (o[0], o[2]) if horizontal else (o[1], o[3])
            cuts.append((along[0] - gap, along[1] + gap))
    runs, start = [], lo
    for c0, c1 in sorted(cuts):
        if c0 > start:
            runs.append((start, min(c0, hi)))
        start = max(start, c1)
    if start < hi:
        runs.append((start, hi))
    return [((s, at), (e, at)) if horizontal else ((at, s), (at, e))
            for s, e in runs if e - s >= 1.0 and s < hi]


def text_on(parent, words, layer, size, name, thickness=None):
    """A text item on a silkscreen layer (mirrored on the back, as the fab prints it)."""
    t = pcbnew.PCB_TEXT(parent)
    t.SetText(words)
    t.SetLayer(layer)
    t.SetTextSize(pt(size, size))
    t.SetTextThickness(nm(thickness or max(STROKE, size * 0.15)))
    t.SetMirrored(layer == pcbnew.B_SilkS)
    parent.Add(t)
    stable(t, name)
    return t


def labels(b):
    """Every label of the board onto its silkscreen."""
    silk = Silk(b)
    for ref, fp in sorted(b.parts.items()):
        if ref.startswith("J"):  # the OLED's pin names are its footprint's
            for item in fp.GraphicalItems():
                if isinstance(item, pcbnew.PCB_TEXT):
                    silk.drawn[item.GetLayer()].append(box(item))
    holder_marks(b, silk)
    for ref, fp in sorted(b.parts.items(), key=lambda p: (kind(p[0]) != "BT", p[0])):
        label = fp.Reference()
        if label.IsVisible():
            silk.put(label, reference_places(ref, fp), ref)
    bd = b.board
    for words, size, places, angle in PLAYERS:
        t = text_on(bd, words, pcbnew.F_SilkS, size, "player/" + words)
        silk.put(t, [(x, y, angle) for x, y in places], "player " + words)
    for i, words in enumerate(TITLE):
        t = text_on(bd, words, pcbnew.B_SilkS, 1.5, "title/%d" % i, thickness=0.2)
        silk.put(t, around(70.0, 36.0 + i * 2.6, steps=(1.0, 2.0, 3.0)),
                 "the board's name")
    tb = bd.GetTitleBlock()
    tb.SetTitle("California Speed (%s)" % NAME)
    tb.SetRevision(REVISION)
    tb.SetDate(REVISION_DATE)
    tb.SetComment(0, "MIT licence")
