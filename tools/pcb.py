"""make pcb: the handheld's printed circuit board, generated from the pin map.

One board for the matrix build (hardware/pinmap.py's CS_MATRIX_ROWS, CS_MATRIX_COLUMNS,
CS_MENU, CS_PIEZO, CS_I2C_SDA and CS_I2C_SCL; hardware/keymap.py's MATRIX_KEYMAP says
which key is which player's): 24 pile keys with a diode each, MENU, the Pico, the OLED on a
4-pin header, the piezo, a power switch and the 3 x AAA holder on the back. Writes the KiCad
project under hardware/pcb/ (placed, routed and poured: row wires on the top copper, column
wires on the bottom, the rest routed on a grid by code) with nets.json and placement.json
beside it, and dist/pcb/ (gerbers and drills zipped, BOM, placement) and the pictures of
both sides under docs/.

It needs KiCad 9's pcbnew, which imports in Debian's /usr/bin/python3 (not in a venv):
/usr/bin/python3 -m tools.pcb [--out DIR] [--dist DIR] [--docs DIR] [--no-pictures];
/usr/bin/python3 -m tools.pcb --nets-of BOARD reads a board's copper back into the
nets.json beside it, which the chip twin's matrix build is wired from (make chip --nets).
KiCad works in a private temporary folder; every output is then written under a temporary
name beside it and all are renamed into place together, so a failure or Ctrl-C leaves
every file as it was.
"""
import contextlib
import csv
import heapq
import io
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from hardware import pinmap  # noqa: E402
from hardware.keymap import MATRIX_KEYMAP, place_of, player_of, is_far  # noqa: E402
from tools import cli, files  # noqa: E402

NAME = "california-speed"
LIBS = "/usr/share/kicad/footprints"
LIB = "california-speed"  # the project's own footprints (made here, from datasheets)
NS = uuid.uuid5(uuid.NAMESPACE_URL, "california-speed/hardware/pcb")

G = 0.635  # the routing grid: a quarter of the Pico's 2.54 mm pitch
TRACK = 0.25
CLEAR = 0.2
VIA, VIA_DRILL = 0.6, 0.3
EDGE_CLEAR = 0.5
HOLE_CLEAR = 0.25

# Placement (mm, y down; player A sits at the bottom edge, B at the top).
COL_PITCH = 10.16  # column wires every 4 Pico pitches: they pass between its pads
X_COL0 = 13.335  # column 0's wire (B.Cu), left of its switches
ROW_CY = {"B near": 9.74, "B far": 21.17, "A far": 57.57, "A near": 69.0}
MATRIX_ROW_NAMES = ("A near", "A far", "B far", "B near")  # CS_MATRIX_ROWS' order
PICO_X0 = 36.095  # the Pico's end away from USB; its USB end is the board's right edge
PICO_CY = 39.37
W = PICO_X0 + 51.0 + 0.4  # the Pico's USB end 0.4 mm in: its socket overhangs the edge
H = 77.47
OLED_PIN1 = (14.605, 27.305)  # the header's GND pin; GND VCC SCL SDA to the right
# The 3 x AAA holder on the back: its pad 1 (+) and rotation. Its two bosses fall between
# column wires 2 and 3, under the OLED; its pads at the left edge, clear of the Pico.
BAT = (4.88, 51.4, 180.0)

# Raspberry Pi Pico datasheet (RP-008307-DS, section 2.1 "Pico mechanical specification"):
# 51 x 21 mm, 40 castellated pins on a 2.54 mm pitch, the two rows 17.78 mm apart, the first
# pin 1.37 mm from the USB end; the micro-USB socket overhangs that end by about 1.3 mm.
PICO_W, PICO_L, PICO_ROWS = 21.0, 51.0, 17.78
# Pico pin numbers (1-40, round the board from pin 1 by the USB socket) of its GPIO and power.
PICO_GPIO = {n: p for n, p in zip(
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
     26, 27, 28],
    [1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20, 21, 22, 24, 25, 26, 27, 29,
     31, 32, 34])}
PICO_GND = (3, 8, 13, 18, 23, 28, 33, 38)
PICO_3V3, PICO_VSYS = 36, 39
# A common 0.96 inch SSD1306 I2C module: 27.3 x 27.8 mm, its 4 pins along the top edge.
OLED_W, OLED_H, OLED_TOP = 27.3, 27.8, 2.0
# Its glass (the 21.74 x 10.86 mm active area): centre from pin 1 (x right, y down), size.
OLED_GLASS = ((1.5 * 2.54, 11.43), (21.74, 10.86))

PARTS = {  # value, (library, footprint), manufacturer part number, build note
    "SW": ("6x6 mm tactile switch", ("Button_Switch_THT", "SW_PUSH_6mm"), "TE 1825910-6"),
    "D": ("1N4148", ("Diode_THT", "D_DO-35_SOD27_P7.62mm_Horizontal"), "1N4148"),
    "DS": ("1N5817", ("Diode_THT", "D_DO-41_SOD81_P2.54mm_Vertical_AnodeUp"), "1N5817"),
    "BT": ("3 x AAA holder", ("Battery", "BatteryHolder_Keystone_2479_3xAAA"),
           "Keystone 2479"),
    "LS": ("passive piezo", ("Buzzer_Beeper", "Buzzer_TDK_PS1240P02BT_D12.2mm_H6.5mm"),
           "TDK PS1240P02BT"),
    "SWP": ("power switch", ("Button_Switch_THT", "SW_Slide_SPDT_Angled_CK_OS102011MA1Q"),
            "C&K OS102011MA1QN1"),
    "H": ("M2.5 mounting hole", ("MountingHole", "MountingHole_2.7mm_M2.5"), ""),
    "U": ("Raspberry Pi Pico", (LIB, "RaspberryPi_Pico_Castellated"), "Raspberry Pi SC0915"),
    "J": ("SSD1306 OLED 128x64 I2C", (LIB, "SSD1306_OLED_I2C_Module"), "4-pin 0.96 in module"),
}


PROG = "make pcb"


def fail(message):
    """One line on stderr and exit 2."""
    cli.fail(PROG, message)


try:
    import pcbnew
except ImportError:
    pcbnew = None


KICAD_PYTHON = "/usr/bin/python3"  # Debian's, where pcbnew imports (the Makefile's too)


def kicad_missing():
    """'' when KiCad 9 is here (kicad-cli, and pcbnew in KICAD_PYTHON), else why not: for
    the tests that read a board, which skip without it."""
    if os.path.exists(KICAD_PYTHON) and shutil.which("kicad-cli") and subprocess.run(
            [KICAD_PYTHON, "-c", "import pcbnew"], capture_output=True).returncode == 0:
        return ""
    return ("KiCad 9 (pcbnew in %s, kicad-cli) is not installed: apt-get install -t "
            "bookworm-backports kicad kicad-footprints" % KICAD_PYTHON)


def need_pcbnew():
    if pcbnew is None:
        fail("KiCad 9's pcbnew does not import in %s: run it with Debian's /usr/bin/python3 "
             "(apt-get install kicad)" % sys.executable)

MM = 1_000_000


def nm(v):
    return int(round(v * MM))


def pt(x, y):
    return pcbnew.VECTOR2I(nm(x), nm(y))


def mm(p):
    return (p.x / MM, p.y / MM)


def gpio(name):
    """The Pico pin number of a GP name."""
    return PICO_GPIO[int(name[2:])]


def setting(name):
    return str(pinmap.default(name))


def key_name(key):
    """A matrix key's name as the self-test says it: A near 1 .. B far 6."""
    role = MATRIX_KEYMAP[key]
    return "%s %s %d" % ("AB"[player_of(role)], "far" if is_far(role) else "near",
                         place_of(role) + 1)


# --- footprints -----------------------------------------------------------------------

def stable(item, name):
    """Give an item a UUID derived from its name, so every run writes the same bytes."""
    item.m_Uuid.Clone(pcbnew.KIID(str(uuid.uuid5(NS, name))))


def library_footprint(board, lib, name):
    fp = pcbnew.FootprintLoad(os.path.join(LIBS, lib + ".pretty"), name)
    if fp is None:
        fail("KiCad's footprint %s:%s is missing: install kicad-footprints" % (lib, name))
    fp.SetParent(board)
    return fp


def _line(fp, layer, a, b, width=0.12):
    s = pcbnew.PCB_SHAPE(fp, pcbnew.SHAPE_T_SEGMENT)
    s.SetStart(pt(*a))
    s.SetEnd(pt(*b))
    s.SetLayer(layer)
    s.SetWidth(nm(width))
    fp.Add(s)


def _rect(fp, layer, x0, y0, x1, y1, width=0.12):
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)),
                 ((x0, y1), (x0, y0))):
        _line(fp, layer, a, b, width)


def _pad(fp, number, x, y, size, drill, shape, offset=(0.0, 0.0)):
    p = pcbnew.PAD(fp)
    p.SetNumber(str(number))
    p.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
    p.SetLayerSet(p.PTHMask())
    p.SetShape(shape)
    p.SetSize(pt(*size))
    p.SetDrillSize(pt(drill, drill))
    p.SetOffset(pcbnew.F_Cu, pt(*offset))
    p.SetPosition(pt(x, y))
    fp.Add(p)
    return p


def pico_footprint(board):
    """The Pico from its datasheet (PICO_* above): drawn upright, USB at the top, pin 1 at
    the top left. Oval pads reach 0.4 mm past the edge, so it solders flat by its
    castellations, or on two 20-pin headers through the same holes."""
    fp = pcbnew.FOOTPRINT(board)
    fp.SetFPID(pcbnew.LIB_ID(LIB, "RaspberryPi_Pico_Castellated"))
    fp.SetLibDescription("Raspberry Pi Pico (RP2040), castellated or on headers; datasheet "
                         "RP-008307-DS section 2.1")
    half = PICO_ROWS / 2
    first = -(19 * 2.54) / 2
    for k in range(1, 41):
        left = k <= 20
        x = -half if left else half
        y = first + ((k - 1) if left else (40 - k)) * 2.54
        shape = pcbnew.PAD_SHAPE_RECT if k == 1 else pcbnew.PAD_SHAPE_OVAL
        _pad(fp, k, x, y, (2.8, 1.7), 1.0, shape, (-0.6 if left else 0.6, 0.0))
    w, h = PICO_W / 2, PICO_L / 2
    _rect(fp, pcbnew.F_Fab, -w, -h, w, h, 0.1)
    _rect(fp, pcbnew.F_Fab, -4.0, -h - 1.3, 4.0, -h + 4.0, 0.1)  # the micro-USB socket
    _rect(fp, pcbnew.F_CrtYd, -w - 0.5, -h - 0.25, w + 0.5, h + 0.25, 0.05)
    _line(fp, pcbnew.F_SilkS, (-w - 0.2, h + 0.2), (w + 0.2, h + 0.2))
    return fp


def oled_footprint(board):
    """The OLED module on its 4-pin header: pins GND VCC SCL SDA from the left, the
    module's outline below them (it stands on the header above the board)."""
    fp = pcbnew.FOOTPRINT(board)
    fp.SetFPID(pcbnew.LIB_ID(LIB, "SSD1306_OLED_I2C_Module"))
    fp.SetLibDescription("SSD1306 128x64 I2C OLED module, 0.96 inch, 27.3 x 27.8 mm, "
                         "4-pin header GND VCC SCL SDA")
    for i in range(4):
        _pad(fp, i + 1, i * 2.54, 0.0, (1.7, 1.7), 1.0,
             pcbnew.PAD_SHAPE_RECT if i == 0 else pcbnew.PAD_SHAPE_CIRCLE)
    cx = 1.5 * 2.54
    x0, x1 = cx - OLED_W / 2, cx + OLED_W / 2
    y0, y1 = -OLED_TOP, OLED_H - OLED_TOP
    _rect(fp, pcbnew.F_Fab, x0, y0, x1, y1, 0.1)
    (gx, gy), (gw, gh) = OLED_GLASS
    _rect(fp, pcbnew.F_Fab, gx - gw / 2, gy - gh / 2, gx + gw / 2, gy + gh / 2, 0.1)
    _rect(fp, pcbnew.F_CrtYd, x0 - 0.25, y0 - 0.25, x1 + 0.25, y1 + 0.25, 0.05)
    for i, label in enumerate(("GND", "VCC", "SCL", "SDA")):
        t = pcbnew.PCB_TEXT(fp)
        t.SetText(label)
        t.SetLayer(pcbnew.F_SilkS)
        t.SetPosition(pt(i * 2.54, 2.6))
        t.SetTextSize(pt(0.8, 0.8))
        t.SetTextThickness(nm(0.15))
        t.SetTextAngleDegrees(90)
        fp.Add(t)
    return fp


# --- the board --------------------------------------------------------------------------

class Board:
    """The board being made: its footprints by reference and its nets by name."""

    def __init__(self):
        self.board = pcbnew.BOARD()
        self.nets = {}
        self.parts = {}
        self.tracks = []  # (layer, (x0, y0), (x1, y1), net name)
        self.vias = []  # ((x, y), net name)

    def net(self, name):
        if name not in self.nets:
            n = pcbnew.NETINFO_ITEM(self.board, name)
            self.board.Add(n)
            self.nets[name] = n
        return self.nets[name]

    def place(self, ref, fp, x, y, rotation=0.0, back=False, nets=None, value=None):
        fp.SetReference(ref)
        fp.SetValue(value or PARTS[ref.rstrip("0123456789")][0])
        self.board.Add(fp)
        stable(fp, "fp/" + ref)
        fp.SetPosition(pt(x, y))
        fp.SetOrientationDegrees(rotation)
        if back:
            fp.Flip(pt(x, y), pcbnew.FLIP_DIRECTION_LEFT_RIGHT)
        for i, pad in enumerate(fp.Pads()):
            stable(pad, "pad/%s/%d" % (ref, i))
            if nets and pad.GetNumber() in nets:
                pad.SetNet(self.net(nets[pad.GetNumber()]))
        for i, item in enumerate(fp.GraphicalItems()):
            stable(item, "gr/%s/%d" % (ref, i))
        for i, field in enumerate(fp.GetFields()):
            stable(field, "field/%s/%d" % (ref, i))
        fp.Reference().SetVisible(False)
        for item in list(fp.GraphicalItems()):
            # the diodes' "K" (their stripe says it) and the holder's outline, drawn across
            # the switches' pads on the back
            if item.GetLayer() in (pcbnew.F_SilkS, pcbnew.B_SilkS) and (
                    ref.startswith("BT") or isinstance(item, pcbnew.PCB_TEXT)):
                fp.Remove(item)
        self.parts[ref] = fp
        return fp

    def pad_at(self, ref, number):
        """The positions of a part's pads of one number (a switch has two of each)."""
        return [mm(p.GetPosition()) for p in self.parts[ref].Pads()
                if p.GetNumber() == str(number)]

    def track(self, layer, a, b, net):
        if abs(a[0] - b[0]) < 1e-6 and abs(a[1] - b[1]) < 1e-6:
            return
        t = pcbnew.PCB_TRACK(self.board)
        t.SetStart(pt(*a))
        t.SetEnd(pt(*b))
        t.SetWidth(nm(TRACK))
        t.SetLayer(layer)
        t.SetNet(self.net(net))
        self.board.Add(t)
        stable(t, "track/%d" % len(self.tracks))
        self.tracks.append((layer, a, b, net))

    def via(self, p, net):
        v = pcbnew.PCB_VIA(self.board)
        v.SetPosition(pt(*p))
        v.SetWidth(nm(VIA))
        v.SetDrill(nm(VIA_DRILL))
        v.SetNet(self.net(net))
        self.board.Add(v)
        stable(v, "via/%d" % len(self.vias))
        self.vias.append((p, net))


def rules(bd):
    """The design rules: 0.25 mm tracks, 0.2 mm clearance, 0.6/0.3 mm vias; what most fabs'
    cheapest service makes."""
    ds = bd.GetDesignSettings()
    ds.SetCopperLayerCount(2)
    ds.m_MinClearance = nm(CLEAR)
    ds.m_TrackMinWidth = nm(TRACK)
    ds.m_ViasMinSize = nm(VIA)
    ds.m_MinThroughDrill = nm(VIA_DRILL)
    ds.m_CopperEdgeClearance = nm(EDGE_CLEAR)
    ds.m_HoleClearance = nm(HOLE_CLEAR)
    nc = ds.m_NetSettings.GetDefaultNetclass()
    nc.SetClearance(nm(CLEAR))
    nc.SetTrackWidth(nm(TRACK))
    nc.SetViaDiameter(nm(VIA))
    nc.SetViaDrill(nm(VIA_DRILL))



def link_switch(b, ref):
    """A tactile switch's two legs of each side are one contact inside it; KiCad wants the
    board to join them too: pad 1's pair on the bottom copper, pad 2's on the top."""
    for number, layer in (("1", pcbnew.B_Cu), ("2", pcbnew.F_Cu)):
        a, c = b.pad_at(ref, number)
        b.track(layer, a, c, pad(b, ref, number).GetNetname())


def matrix_nets():
    """Rows and columns from the pin map: [(row net, GP name)], [(column net, GP name)]."""
    rows = setting("CS_MATRIX_ROWS").split(",")
    cols = setting("CS_MATRIX_COLUMNS").split(",")
    return ([("ROW_%s_%s" % (MATRIX_ROW_NAMES[r].replace(" ", "_").upper(), g), g)
             for r, g in enumerate(rows)],
            [("COL%d_%s" % (c + 1, g), g) for c, g in enumerate(cols)])


def build():
    """Place every part, lay the matrix's wires on their channels and route the rest."""
    b = Board()
    bd = b.board
    for i, (a, c) in enumerate((((0, 0), (W, 0)), ((W, 0), (W, H)), ((W, H), (0, H)),
                                ((0, H), (0, 0)))):
        s = pcbnew.PCB_SHAPE(bd, pcbnew.SHAPE_T_SEGMENT)
        s.SetStart(pt(*a))
        s.SetEnd(pt(*c))
        s.SetLayer(pcbnew.Edge_Cuts)
        s.SetWidth(nm(0.1))
        bd.Add(s)
        stable(s, "edge/%d" % i)

    rows, cols = matrix_nets()
    # The Pico, USB to the right: pins 1-20 face B's rows, 21-40 A's.
    pico_nets = {str(p): "GND" for p in PICO_GND}
    for net, g in rows + cols:
        pico_nets[str(gpio(g))] = net
    pico_nets.update({str(gpio(setting("CS_I2C_SDA"))): "SDA_" + setting("CS_I2C_SDA"),
                      str(gpio(setting("CS_I2C_SCL"))): "SCL_" + setting("CS_I2C_SCL"),
                      str(gpio(setting("CS_MENU"))): "MENU_" + setting("CS_MENU"),
                      str(gpio(setting("CS_PIEZO"))): "PIEZO_" + setting("CS_PIEZO"),
                      str(PICO_3V3): "+3V3", str(PICO_VSYS): "VSYS"})
    b.place("U1", pico_footprint(bd), PICO_X0 + PICO_L / 2, PICO_CY, -90, nets=pico_nets)
    b.place("J1", oled_footprint(bd), *OLED_PIN1, nets={
        "1": "GND", "2": "+3V3", "3": "SCL_" + setting("CS_I2C_SCL"),
        "4": "SDA_" + setting("CS_I2C_SDA")})

    # The matrix: key 6r + c at row r (A near, A far, B far, B near), column c from A's
    # left; a column's switches on one wire, each switch through its diode (anode to the
    # switch, cathode to the row wire: keypad.KeyMatrix(columns_to_anodes=True) pulls the
    # columns up and drives one row low at a time).
    for key in range(24):
        r, c = divmod(key, 6)
        row_name = MATRIX_ROW_NAMES[r]
        b_side = row_name.startswith("B")
        cx = X_COL0 + COL_PITCH / 2 + c * COL_PITCH
        cy = ROW_CY[row_name]
        local = "K%d" % (key + 1)
        sw = library_footprint(bd, *PARTS["SW"][1])
        # SW_PUSH_6mm's pad 1 pair is at its top edge: B's switches are turned round.
        if b_side:
            b.place("SW%d" % (key + 1), sw, cx + 3.25, cy + 2.25, 180,
                    nets={"1": cols[c][0], "2": local})
        else:
            b.place("SW%d" % (key + 1), sw, cx - 3.25, cy - 2.25, 0,
                    nets={"1": cols[c][0], "2": local})
        d = library_footprint(bd, *PARTS["D"][1])
        s = -1 if b_side else 1
        yd = cy + s * 5.2
        b.place("D%d" % (key + 1), d, cx - s * 3.81, yd, 180 if b_side else 0,
                nets={"1": rows[r][0], "2": local})
        # switch pad 2 (the player's side) to the diode's anode, on the top copper
        b.track(pcbnew.F_Cu, (cx + s * 3.25, cy + s * 2.25), (cx + s * 3.81, yd), local)
        # the cathode down (or up) to the row wire
        b.track(pcbnew.F_Cu, (cx - s * 3.81, yd), (cx - s * 3.81, cy + s * 7.2), rows[r][0])
        # the column wire's branch to the switch's pad 1
        x_col = cx - COL_PITCH / 2
        b.track(pcbnew.B_Cu, (x_col, cy - s * 2.25), (cx - 3.25, cy - s * 2.25), cols[c][0])
        link_switch(b, "SW%d" % (key + 1))
    for r, row_name in enumerate(MATRIX_ROW_NAMES):
        s = -1 if row_name.startswith("B") else 1
        y = ROW_CY[row_name] + s * 7.2
        x0 = X_COL0 + COL_PITCH / 2 - s * 3.81
        b.track(pcbnew.F_Cu, (x0, y), (x0 + 5 * COL_PITCH, y), rows[r][0])
    top = ROW_CY["B near"] + 2.25
    bottom = ROW_CY["A near"] - 2.25
    for c in range(6):
        x = X_COL0 + c * COL_PITCH
        b.track(pcbnew.B_Cu, (x, top), (x, bottom), cols[c][0])

    menu = library_footprint(bd, *PARTS["SW"][1])
    b.place("SW25", menu, 3.5, 12.75, 0, nets={"1": "MENU_" + setting("CS_MENU"), "2": "GND"},
            value="MENU")
    link_switch(b, "SW25")
    b.place("LS1", library_footprint(bd, *PARTS["LS"][1]), 4.4, 62.0, 0,
            nets={"1": "PIEZO_" + setting("CS_PIEZO"), "2": "GND"})
    b.place("SWP1", library_footprint(bd, *PARTS["SWP"][1]), W - 0.25 - 6.745, 62.0, 90,
            nets={"2": "BAT+", "1": "BAT_ON"})
    b.place("DS1", library_footprint(bd, *PARTS["DS"][1]), 83.04, 52.4, 180,
            nets={"1": "VSYS", "2": "BAT_ON"})
    b.place("BT1", library_footprint(bd, *PARTS["BT"][1]), BAT[0], BAT[1], BAT[2], back=True,
            nets={"1": "BAT+", "2": "GND"})
    for i, (x, y) in enumerate(((3.5, 3.5), (W - 3.5, 3.5), (3.5, H - 3.5),
                                (W - 3.5, H - 3.5))):
        b.place("H%d" % (i + 1), library_footprint(bd, *PARTS["H"][1]), x, y)
    return b




# --- the grid router (for the nets that do not run on the matrix's channels) ---------------

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
            for pad in fp.Pads():
                net = pad.GetNetname()
                for s in pad_shapes(pad, self.id(net)):
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

    def route(self, net, island):
        """Join the pads `island` (one piece of copper of `net`) to the rest of the net's
        copper by the cheapest path on the grid."""
        n = self.id(net)
        start = set()
        for p in island:
            s = pad_shapes(p, n)[0]
            x0, y0, x1, y1 = s.bbox()
            for j in range(max(0, int(y0 / G)), min(self.ny, int(y1 / G) + 2)):
                for i in range(max(0, int(x0 / G)), min(self.nx, int(x1 / G) + 2)):
                    if s.dist((i * G, j * G), (i * G, j * G)) <= 0.0:
                        start.update(((0, j * self.nx + i), (1, j * self.nx + i)))
        pads = self.own.get(net, set()) - start  # the rest of the net: where the path ends
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


# --- routing, pour, files --------------------------------------------------------------

def pad(b, ref, number):
    return [p for p in b.parts[ref].Pads() if p.GetNumber() == str(number)][0]


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
                           ("CS_MENU", "SW25", 1), ("CS_PIEZO", "LS1", 1)):
        r.route(pad(b, ref, number).GetNetname(), [pad(b, "U1", gpio(setting(g)))])
    for net, ref, number in (("+3V3", "J1", 2), ("VSYS", "DS1", 1), ("BAT_ON", "SWP1", 1),
                             ("BAT+", "BT1", 1)):
        r.route(net, [pad(b, ref, number)])
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


# --- the files --------------------------------------------------------------------------

LIB_TABLE = """(fp_lib_table
\t(version 7)
\t(lib (name "%s")(type "KiCad")(uri "${KIPRJMOD}/%s.pretty")(options "")(descr "The handheld's own footprints, made by tools/pcb.py"))
%s)
"""
MADE_FOOTPRINTS = {"U1": "RaspberryPi_Pico_Castellated", "J1": "SSD1306_OLED_I2C_Module"}
# What make pcb writes: the KiCad project (--out), the fab's files (--dist), the pictures (--docs)
KICAD_FILES = (NAME + ".kicad_pcb", NAME + ".kicad_pro", "fp-lib-table") + tuple(
    os.path.join(LIB + ".pretty", name + ".kicad_mod") for name in MADE_FOOTPRINTS.values())
PROJECT = KICAD_FILES + ("nets.json", "placement.json")
FAB = (NAME + "-gerbers.zip", NAME + "-bom.csv", NAME + "-placement.csv")
PICTURES = ("pcb-front.png", "pcb-back.png")


def save(path, board):
    """pcbnew.SaveBoard, or stop in words."""
    if not pcbnew.SaveBoard(path, board):
        fail("pcbnew could not save the board as %s" % path)


def write_project(b, work):
    """The KiCad project in the folder work: the board, its project file, its footprint
    library and its table. Returns the board loaded back with its zones filled (pcbnew fills
    zones only on a board loaded with its project); the run loads no other, since every
    LoadBoard after a process's first prints 12 lines of wxWidgets' debug output."""
    lib = os.path.join(work, LIB + ".pretty")
    os.makedirs(lib)
    libs = sorted({PARTS[k][1][0] for k in PARTS} - {LIB})
    std = "".join('\t(lib (name "%s")(type "KiCad")(uri "${KICAD9_FOOTPRINT_DIR}/%s.pretty")'
                  '(options "")(descr ""))\n' % (n, n) for n in libs)
    with open(os.path.join(work, "fp-lib-table"), "w") as f:
        f.write(LIB_TABLE % (LIB, LIB, std))
    path = os.path.join(work, NAME + ".kicad_pcb")
    save(path, b.board)
    bd = pcbnew.LoadBoard(path)
    rules(bd)
    pcbnew.ZONE_FILLER(bd).Fill(bd.Zones())
    save(path, bd)
    # the two made footprints, as they are on the board, into the project's library
    for ref in MADE_FOOTPRINTS:
        fp = pcbnew.FOOTPRINT(b.parts[ref])
        fp.SetPosition(pt(0, 0))
        fp.SetOrientationDegrees(0)
        fp.SetReference("REF**")
        for p in fp.Pads():
            p.SetNetCode(0)
        pcbnew.PCB_IO_MGR.PluginFind(pcbnew.PCB_IO_MGR.KICAD_SEXP).FootprintSave(lib, fp)
    return bd


def loaded(board):
    """board itself, or the board in the file it names."""
    return pcbnew.LoadBoard(board) if isinstance(board, str) else board


def read_back(board):
    """What the board joins, read from its copper (pcbnew's nets, not their names): for each
    key of the matrix the GPIO its switch's column and its diode's row reach, and the GPIO
    of MENU, the piezo and the OLED's SDA and SCL. The form of nets.json."""
    bd = loaded(board)
    parts = {fp.GetReference(): fp for fp in bd.Footprints()}
    gp_of_pin = {p: "GP%d" % g for g, p in PICO_GPIO.items()}
    gpio_of_net = {}
    for p in parts["U1"].Pads():
        if int(p.GetNumber()) in gp_of_pin and p.GetNetCode():
            gpio_of_net.setdefault(p.GetNetCode(), []).append(gp_of_pin[int(p.GetNumber())])

    def reach(ref, number):
        codes = {p.GetNetCode() for p in parts[ref].Pads() if p.GetNumber() == str(number)}
        return ",".join(sorted(g for c in codes for g in gpio_of_net.get(c, [])))

    def through_diode(ref):
        codes = {p.GetNetCode() for p in parts[ref].Pads() if p.GetNumber() == "2"}
        for d, fp in sorted(parts.items()):
            if d.startswith("D") and not d.startswith("DS") and any(
                    p.GetNumber() == "2" and p.GetNetCode() in codes for p in fp.Pads()):
                return d, reach(d, 1)
        return None, ""

    keys = {}
    for key in range(24):
        ref = "SW%d" % (key + 1)
        diode, row = through_diode(ref)
        keys[key_name(key)] = {"key": key, "switch": ref, "diode": diode,
                               "column": reach(ref, 1), "row": row}
    return {"keys": keys, "MENU": reach("SW25", 1), "piezo": reach("LS1", 1),
            "SDA": reach("J1", 4), "SCL": reach("J1", 3)}


def placement(board):
    """Each part: reference, value, side, position and rotation (mm, degrees; y down from
    the board's top left, A's edge at the bottom) and its courtyard's size: the form of
    placement.json, for the case."""
    parts = []
    for fp in sorted(loaded(board).Footprints(), key=lambda f: f.GetReference()):
        side = pcbnew.B_CrtYd if fp.IsFlipped() else pcbnew.F_CrtYd
        box = fp.GetCourtyard(side).BBox()
        x, y = mm(fp.GetPosition())
        parts.append({"ref": fp.GetReference(), "value": fp.GetValue(),
                      "side": "back" if fp.IsFlipped() else "front",
                      "x": round(x, 3), "y": round(y, 3),
                      "rotation": round(fp.GetOrientationDegrees(), 1),
                      "box": [round(v, 3) for v in (*mm(box.GetOrigin()), *mm(box.GetEnd()))]})
    return {"board": {"width": round(W, 3), "height": round(H, 3)}, "parts": parts}


def bom(board):
    """The board's parts by kind: [(value, part number, quantity, references)]."""
    rows = {}
    for fp in loaded(board).Footprints():
        ref = fp.GetReference()
        kind = ref.rstrip("0123456789")
        if kind == "H":
            continue
        value, _, number = PARTS[kind]
        rows.setdefault((value, number), []).append(ref)
    order = lambda r: (r.rstrip("0123456789"), int(r[len(r.rstrip("0123456789")):]))  # noqa
    return [(v, n, len(refs), " ".join(sorted(refs, key=order)))
            for (v, n), refs in sorted(rows.items())]


def json_bytes(data):
    return (json.dumps(data, indent=1, sort_keys=True) + "\n").encode()


def csv_bytes(header, rows):
    text = io.StringIO()
    w = csv.writer(text)
    w.writerow(header)
    w.writerows(rows)
    return text.getvalue().encode()


def run(args, work):
    """kicad-cli, saying what failed in one line. Its settings are a fresh set in work, so
    none of the user's KiCad settings (colours, 3D model paths) enters the files, and its
    temporary files go there too."""
    env = dict(os.environ, KICAD_CONFIG_HOME=os.path.join(work, "kicad-settings"),
               TMPDIR=work)
    p = subprocess.run(["kicad-cli"] + args, capture_output=True, text=True, env=env,
                       stdin=subprocess.DEVNULL)
    if p.returncode == -signal.SIGINT:  # Ctrl-C reached it first
        raise KeyboardInterrupt
    if p.returncode:
        said = (p.stderr or p.stdout).strip().splitlines()
        fail("kicad-cli %s failed: %s" % (" ".join(args[:3]), said[-1] if said else
                                          "exit status %d" % p.returncode))
    return p


def fab_files(path, board, work):
    """dist/pcb/'s files, {name: bytes}: the fab's zip (gerbers and drills of the board
    file path), the BOM and the placement."""
    fab = os.path.join(work, "fab")
    os.makedirs(fab)
    run(["pcb", "export", "gerbers", "--no-x2", "--no-netlist", "-l",
         "F.Cu,B.Cu,F.Mask,B.Mask,F.Silkscreen,B.Silkscreen,Edge.Cuts", "-o", fab + "/", path],
        work)
    run(["pcb", "export", "drill", "--format", "excellon", "--excellon-separate-th",
         "-o", fab + "/", path], work)
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(os.listdir(fab)):
            z.write(os.path.join(fab, name), name)
    parts = [[p["ref"], p["value"], p["side"], p["x"], p["y"], p["rotation"]]
             for p in placement(board)["parts"]]
    return dict(zip(FAB, (
        zipped.getvalue(),
        csv_bytes(["value", "part_number", "quantity", "references"], bom(board)),
        csv_bytes(["ref", "value", "side", "x_mm", "y_mm", "rotation"], parts))))


def kicad_made(path):
    """The bytes of a file KiCad made in the work folder, or stop in words."""
    try:
        return files.read_bytes(path, "board")
    except files.FileProblem as e:
        fail("KiCad made no %s: %s" % (os.path.basename(path), e))


def pictures(board, work):
    """docs/'s pictures of both sides, {name: bytes}: kicad-cli's render of a copy of the
    board with its parts' 3D models taken off (board's too), so that they are the same
    whichever KiCad packages are installed (kicad-packages3d would draw the parts)."""
    folder = os.path.join(work, "render")
    os.makedirs(folder)
    for fp in board.Footprints():
        fp.Models().clear()
    path = os.path.join(folder, NAME + ".kicad_pcb")
    save(path, board)
    made = {}
    for name, side in zip(PICTURES, ("top", "bottom")):
        png = os.path.join(folder, name)
        run(["pcb", "render", "--side", side, "--width", "1200", "--height", "1070",
             "--background", "opaque", "--quality", "basic", "-o", png, path], work)
        made[name] = kicad_made(png)
    return made


@contextlib.contextmanager
def scratch():
    """A private temporary folder for KiCad's work, removed at the end; a file that cannot
    be written there stops the run in one line."""
    try:
        with tempfile.TemporaryDirectory(prefix="make-pcb-") as work:
            yield work
    except OSError as e:
        fail("%s (the temporary folder KiCad works in; TMPDIR says where)"
             % files.cannot_write(e.filename or tempfile.gettempdir(), e))


def put(made):
    """Write every file of made ({path: bytes}) under a temporary name beside it, then
    rename them all into place: a failure (one line) or Ctrl-C before the renames leaves
    every file as it was and no temporary one."""
    where = None
    interrupt = signal.getsignal(signal.SIGINT)
    try:
        with contextlib.ExitStack() as renames:
            for where, data in made.items():
                os.makedirs(os.path.dirname(where), exist_ok=True)
                with open(renames.enter_context(files.replacing(where)), "wb") as f:
                    f.write(data)
            # the renames, on leaving the block, take a moment: no Ctrl-C splits them
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    except OSError as e:
        fail(files.cannot_write(getattr(e, "filename2", None) or where, e))
    signal.signal(signal.SIGINT, interrupt)


def shown(path):
    """path as a user would type it: relative to here if it is below here."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def places(args):
    """Where this run writes: [(option, folder, the names of its files there)]."""
    out = [("--out", args.out, PROJECT)]
    if not args.board_only:
        out.append(("--dist", args.dist, FAB))
        if not args.no_pictures:
            out.append(("--docs", args.docs, PICTURES))
    return out


def place_problem(option, folder, names):
    """'' when every file of names can be written in folder (made if missing), else why
    not, in one line."""
    for name in names:
        path = os.path.join(folder, name)
        problem = files.folder_problem(os.path.dirname(path), "%s %s" % (option, folder),
                                       make=True)
        if problem:
            return problem
        if os.path.lexists(path) and files.output_problem(path):
            return "%s %s: %s" % (option, folder, files.output_problem(path))
    return ""


def make(args):
    """The board: its KiCad project into --out, the fab's files into --dist and the pictures
    into --docs (as asked), each place checked before any work."""
    for option, folder, names in places(args):
        problem = place_problem(option, folder, names)
        if problem:
            fail(problem)
    need_pcbnew()
    made = {}
    with scratch() as work:
        print("make pcb: placing and routing the board", flush=True)
        pcbnew.KIID.SeedGenerator(36)
        b = build()
        pour(b, route(b))
        bd = write_project(b, work)
        for name in KICAD_FILES:
            made[os.path.join(args.out, name)] = kicad_made(os.path.join(work, name))
        made[os.path.join(args.out, "nets.json")] = json_bytes(read_back(bd))
        made[os.path.join(args.out, "placement.json")] = json_bytes(placement(bd))
        board = os.path.join(work, NAME + ".kicad_pcb")
        if not args.board_only:
            print("make pcb: the fab's files (gerbers, drills, BOM, placement)", flush=True)
            for name, data in fab_files(board, bd, work).items():
                made[os.path.join(args.dist, name)] = data
            if not args.no_pictures:
                print("make pcb: the pictures of both sides", flush=True)
                for name, data in pictures(bd, work).items():
                    made[os.path.join(args.docs, name)] = data
    put(made)
    print("make pcb: wrote %s (%.1f x %.1f mm)" % (
        shown(os.path.join(args.out, NAME + ".kicad_pcb")), W, H))


def nets_json(board):
    return os.path.join(os.path.dirname(os.path.abspath(board)), "nets.json")


def nets_of(board):
    """make pcb --nets-of BOARD: BOARD's nets.json, beside it."""
    out = nets_json(board)
    problem = files.input_problem(board)
    if not problem and not board.endswith(".kicad_pcb"):
        problem = "%s is not a KiCad board (.kicad_pcb)" % board
    if not problem and files.output_problem(out):
        problem = "%s: %s" % (board, files.output_problem(out))
    if problem:
        fail("--nets-of %s" % problem)
    need_pcbnew()
    try:
        data = files.read_bytes(board, "board")
    except files.FileProblem as e:
        fail("--nets-of %s" % e)
    with scratch() as work:
        copy = os.path.join(work, os.path.basename(board))
        with open(copy, "wb") as f:
            f.write(data)
        try:
            nets = read_back(copy)
        except Exception:  # (pcbnew's IO_ERROR, no board at all, or a board without our parts)
            fail("--nets-of %s: not a board of this project: KiCad reads no Pico U1 with the "
                 "switches SW1..SW25, the OLED J1 and the piezo LS1 in it" % board)
    files.write_or_fail(out, json_bytes(nets), PROG)
    print("make pcb: wrote %s (the copper of %s)" % (shown(out), board))


def untouched(args):
    """What a stopped run leaves as it was, in words."""
    if args.nets_of is not None:
        return shown(nets_json(args.nets_of)) + " is as it was"
    names = [shown(folder) for _, folder, _ in places(args)]
    if len(names) == 1:
        return names[0] + " is as it was"
    return ", ".join(names[:-1]) + " and " + names[-1] + " are as they were"


def stop(signum, frame):
    """Ctrl-C: stop once, and let no second one cut short the clearing up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def main(argv=None):
    ap = cli.Parser(prog=PROG, description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "hardware", "pcb"),
                    help="the KiCad project's folder (default hardware/pcb)")
    ap.add_argument("--dist", default=os.path.join(ROOT, "dist", "pcb"),
                    help="the fab's files (default dist/pcb)")
    ap.add_argument("--docs", default=os.path.join(ROOT, "docs"),
                    help="where the pictures go (default docs)")
    ap.add_argument("--no-pictures", action="store_true",
                    help="skip the pictures (the slowest part)")
    ap.add_argument("--board-only", action="store_true",
                    help="write only the KiCad project (no dist/, no pictures)")
    ap.add_argument("--nets-of", metavar="BOARD",
                    help="instead: read a .kicad_pcb's copper back into the nets.json beside "
                         "it, which make chip ARGS=\"--keys matrix --nets FILE\" wires the "
                         "chip from (a board a teacher edited, say)")
    args = ap.parse_args(argv)
    for option in ("--out", "--dist", "--docs", "--nets-of"):
        if getattr(args, option[2:].replace("-", "_")) == "":
            fail("%s '' is an empty name: give %s" % (option, "a KiCad board (.kicad_pcb)"
                                                      if option == "--nets-of" else
                                                      "a folder (it is made if missing)"))
    signal.signal(signal.SIGINT, stop)
    with cli.ctrl_c(PROG, untouched(args) + "; nothing half-written"):
        if args.nets_of is not None:
            return nets_of(args.nets_of)
        return make(args)


if __name__ == "__main__":
    main()
