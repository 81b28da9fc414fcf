"""The board laid out: the outline, every part placed with its nets, the matrix's row
and column wires on their channels, and the design rules."""
import math

from tools.pcb import (BAT, BAT_BOSSES, COL_PITCH, CLEAR, EDGE_CLEAR, H, HOLE_CLEAR,
                       LIB, MADE_FOOTPRINTS, MATRIX_ROW_NAMES, NAME, OLED_PIN1, OLED_PINS,
                       PARTS, PICO_3V3, PICO_CY, PICO_GND, PICO_L, PICO_VSYS, PICO_X0,
                       RESISTORS, ROW_CY, STROKE, TEXT, TRACK, VIA, VIA_DRILL, W, X_COL0, gpio,
                       kind, matrix_nets, setting, symbol_uuid, unconnected)
from tools.pcb.footprints import (library_footprint, mm, nm, oled_footprint, pcbnew,
                                  pico_footprint, pt, stable)
from tools.pcb.silkscreen import labels


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
        fp.SetValue(value or (RESISTORS[ref][0] if ref in RESISTORS else PARTS[kind(ref)][0]))
        fp.SetDNP(ref in RESISTORS and not RESISTORS[ref][2])
        # the schematic's symbol of the same reference (tools/pcb/schematic.py)
        fp.SetPath(pcbnew.KIID_PATH("/" + symbol_uuid(ref)))
        fp.SetSheetname("/")
        fp.SetSheetfile(NAME + ".kicad_sch")
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
        silk = (pcbnew.F_SilkS, pcbnew.B_SilkS)
        for item in list(fp.GraphicalItems()):
            if item.GetLayer() not in silk:
                continue
            # the library's "K" and "+" (the silkscreen module writes its own) and the
            # holder's outline, drawn across the switches' pads on the back (redrawn clear)
            if ref.startswith("BT") or (isinstance(item, pcbnew.PCB_TEXT)
                                        and item.GetText() in ("K", "+")):
                fp.Remove(item)
            elif isinstance(item, pcbnew.PCB_SHAPE):
                item.SetWidth(max(item.GetWidth(), nm(STROKE)))
        label = fp.Reference()
        label.SetTextSize(pt(TEXT, TEXT))
        label.SetTextThickness(nm(STROKE))
        label.SetVisible(kind(ref) != "H")  # a mounting hole is no part
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
    """The design rules: 0.25 mm tracks, 0.2 mm clearance, 0.8/0.4 mm vias (what most fabs'
    cheapest service makes, vias with margin), silkscreen text 1.0 mm high, 0.15 mm strokes."""
    ds = bd.GetDesignSettings()
    ds.SetCopperLayerCount(2)
    ds.m_MinClearance = nm(CLEAR)
    ds.m_TrackMinWidth = nm(TRACK)
    ds.m_ViasMinSize = nm(VIA)
    ds.m_MinThroughDrill = nm(VIA_DRILL)
    ds.m_CopperEdgeClearance = nm(EDGE_CLEAR)
    ds.m_HoleClearance = nm(HOLE_CLEAR)
    ds.m_MinSilkTextHeight = nm(TEXT)
    ds.m_MinSilkTextThickness = nm(STROKE)
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
    oled = b.place("J1", oled_footprint(bd), *OLED_PIN1, nets={
        str(i + 1): oled_net(name) for i, name in enumerate(OLED_PINS)})
    # its GND joins by a track alone: the pull-ups' tracks cut the pour round it to an
    # island on the back, which KiCad calls a starved thermal
    [p for p in oled.Pads() if p.GetNumber() == "1"][0].SetLocalZoneConnection(
        pcbnew.ZONE_CONNECTION_NONE)

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
    piezo = "PIEZO_" + setting("CS_PIEZO")
    b.place("LS1", library_footprint(bd, *PARTS["LS"][1]), 4.4, 61.0, 0,
            nets={"1": "PIEZO", "2": "GND"})
    resistor = PARTS["R"][1]
    # R3, the piezo's: GP15 to the piezo; R1 and R2, the OLED's pull-ups if it has none
    b.place("R3", library_footprint(bd, *resistor), 4.9, 69.3, 0,
            nets={"1": piezo, "2": "PIEZO"})
    for ref, y, net in (("R1", 20.4, oled_net("SDA")), ("R2", 23.45, oled_net("SCL"))):
        b.place(ref, library_footprint(bd, *resistor), 3.0, y, 0, nets={"1": "+3V3", "2": net})
    b.place("SWP1", library_footprint(bd, *PARTS["SWP"][1]), W - 0.25 - 6.745, 62.0, 90,
            nets={"2": "BAT+", "1": "BAT_ON"})
    # the Schottky lying flat (2.7 mm tall, not 8.5 standing), cathode up towards VSYS
    b.place("DS1", library_footprint(bd, *PARTS["DS"][1]), 75.9, 52.8, -90,
            nets={"1": "VSYS", "2": "BAT_ON"})
    bt = b.place("BT1", library_footprint(bd, *PARTS["BT"][1]), BAT[0], BAT[1], BAT[2],
                 back=True, nets={"1": "BAT+", "2": "GND"})
    boss_holes(bt)
    for i, (x, y) in enumerate(((3.5, 3.5), (W - 3.5, 3.5), (3.5, H - 3.5),
                                (W - 3.5, H - 3.5))):
        hole = b.place("H%d" % (i + 1), library_footprint(bd, *PARTS["H"][1]), x, y)
        hole.SetBoardOnly(True)  # no part: the schematic has no symbol for it
    for ref, fp in b.parts.items():
        for p in fp.Pads():
            if p.GetNumber() and not p.GetNetname() and not fp.IsBoardOnly():
                p.SetNet(b.net(unconnected(ref, p.GetNumber())))
    labels(b)
    return b


def oled_net(pin):
    """The net of the OLED's pin by its name (OLED_PINS), from the pin map."""
    return {"GND": "GND", "VCC": "+3V3", "SCL": "SCL_" + setting("CS_I2C_SCL"),
            "SDA": "SDA_" + setting("CS_I2C_SDA")}[pin]


def boss_holes(bt):
    """The holder's two boss holes, where either figure for the bosses puts them: KiCad's
    footprint has them 24.00 mm apart, KiCad's 3D model of the same holder (after
    Keystone's drawing) 23.495; each hole is widened round the middle of the two places."""
    bt.SetFPID(pcbnew.LIB_ID(LIB, MADE_FOOTPRINTS["BT1"]))  # KiCad's, but for the holes
    holes = [p for p in bt.Pads() if p.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH]
    (xa, ya), (xb, yb) = (mm(p.GetPosition()) for p in holes)
    mx, my = (xa + xb) / 2, (ya + yb) / 2
    spread = sum(BAT_BOSSES[0]) / 2 / math.hypot(xb - xa, yb - ya)
    for p, (x, y) in zip(holes, ((xa, ya), (xb, yb))):
        p.SetPosition(pt(mx + (x - mx) * spread, my + (y - my) * spread))
        p.SetDrillSize(pt(BAT_BOSSES[1], BAT_BOSSES[1]))
        p.SetSize(pcbnew.F_Cu, pt(BAT_BOSSES[1], BAT_BOSSES[1]))


def pad(b, ref, number):
    return [p for p in b.parts[ref].Pads() if p.GetNumber() == str(number)][0]

