"""The schematic, from the same source as the board: the pin map's Pico pins, the matrix
drawn as a matrix (column and row wires, a switch and its diode at each crossing), the
OLED with its pull-ups, the piezo, MENU and the battery's path, as KiCad 9's .kicad_sch
with its own symbol library. Its symbols carry the UUIDs the board's footprints point to,
so KiCad's DRC can hold the two together (kicad-cli pcb drc --schematic-parity)."""
import uuid

from tools.pcb import (NAME, NS, OLED_PINS, PICO_PIN_NAMES, REVISION,
                       REVISION_DATE, kind, matrix_nets, setting, symbol_uuid)

LIB = NAME  # the symbol library's name, beside the schematic
ROOT_UUID = str(uuid.uuid5(NS, "schematic"))
SYM_LIB_TABLE = """(sym_lib_table
\t(version 7)
\t(lib (name "%s")(type "KiCad")(uri "${KIPRJMOD}/%s.kicad_sym")(options "")(descr "The handheld's symbols, made by tools/pcb/schematic.py"))
)
""" % (LIB, LIB)


class Q(str):
    """A quoted string in the S-expression."""


def q(text):
    return Q(text)


def num(v):
    text = ("%.4f" % v).rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def sexpr(node, depth=0):
    """KiCad's S-expression text of nested lists, one list a line, tabs for depth."""
    if isinstance(node, Q):
        return '"%s"' % node.replace("\\", "\\\\").replace('"', '\\"')
    if isinstance(node, (int, float)) and not isinstance(node, bool):
        return num(node)
    if not isinstance(node, list):
        return str(node)
    simple = all(not isinstance(n, list) for n in node)
    if simple:
        return "(" + " ".join(sexpr(n) for n in node) + ")"
    head = [sexpr(n) for n in node if not isinstance(n, list)]
    tail = [sexpr(n, depth + 1) for n in node if isinstance(n, list)]
    pad = "\t" * (depth + 1)
    return "(" + " ".join(head) + "".join("\n" + pad + t for t in tail) + "\n" + "\t" * depth + ")"


def font(size=1.27, hide=False, justify=None):
    effects = ["effects", ["font", ["size", size, size]]]
    if justify:
        effects.append(["justify"] + justify.split())
    if hide:
        effects.append(["hide", "yes"])
    return effects


def stroke(width=0.254):
    return ["stroke", ["width", width], ["type", "default"]]


# --- the symbols: (pins, graphics, whether pin names show) -------------------------------
# A pin: (number, name, x, y, angle, length), symbol coordinates (y up); (x, y) is where a
# wire joins it, angle the way it points into the body.

def pico_symbol():
    pins = []
    for k in range(1, 41):
        left = k <= 20
        y = 24.13 - ((k - 1) if left else (40 - k)) * 2.54
        pins.append((k, PICO_PIN_NAMES.get(k, "GP%d" % k), -12.7 if left else 12.7, y,
                     0 if left else 180, 2.54))
    return pins, [["rectangle", ["start", -10.16, 26.67], ["end", 10.16, -26.67], stroke(),
                   ["fill", ["type", "background"]]]], True


def oled_symbol():
    pins = [(i + 1, name, -10.16, 3.81 - i * 2.54, 0, 2.54) for i, name in enumerate(OLED_PINS)]
    return pins, [["rectangle", ["start", -7.62, 6.35], ["end", 7.62, -6.35], stroke(),
                   ["fill", ["type", "background"]]]], True


def two_pin(horizontal, body):
    """A two-pin part: pins 1 and 2 at the ends (left/right or top/bottom)."""
    if horizontal:
        pins = [(1, "~", -5.08, 0, 0, 2.54), (2, "~", 5.08, 0, 180, 2.54)]
    else:
        pins = [(1, "~", 0, 3.81, 270, 1.27), (2, "~", 0, -3.81, 90, 1.27)]
    return pins, body, False


def poly(*points, width=0.254, fill="none"):
    return ["polyline", ["pts"] + [["xy", x, y] for x, y in points], stroke(width),
            ["fill", ["type", fill]]]


def circle(x, y, r, fill="none"):
    return ["circle", ["center", x, y], ["radius", r], stroke(), ["fill", ["type", fill]]]


SYMBOLS = {
    "Pico": pico_symbol,
    "OLED": oled_symbol,
    "R": lambda: two_pin(False, [["rectangle", ["start", -1.016, 2.54], ["end", 1.016, -2.54],
                                  stroke(), ["fill", ["type", "none"]]]]),
    # a diode: pin 1 the cathode (right), pin 2 the anode (left)
    "D": lambda: ([(1, "K", 5.08, 0, 180, 2.54), (2, "A", -5.08, 0, 0, 2.54)],
                  [poly((-1.27, 1.27), (1.27, 0), (-1.27, -1.27), (-1.27, 1.27)),
                   poly((1.27, 1.27), (1.27, -1.27)), poly((-2.54, 0), (2.54, 0), width=0)],
                  False),
    "SW": lambda: two_pin(True, [circle(-2.032, 0, 0.508), circle(2.032, 0, 0.508),
                                 poly((-2.54, 1.27), (2.54, 1.27)),
                                 poly((0, 1.27), (0, 2.54))]),
    "Piezo": lambda: two_pin(True, [circle(0, 0, 2.54), poly((-1.27, 0.635), (-1.27, -0.635))]),
    # the holder: pin 1 (+) at the top
    "Battery": lambda: ([(1, "+", 0, 5.08, 270, 2.54), (2, "-", 0, -5.08, 90, 2.54)],
                        [poly((-2.032, 2.54), (2.032, 2.54)), poly((-1.016, 1.27), (1.016, 1.27)),
                         poly((-2.032, -1.27), (2.032, -1.27)),
                         poly((-1.016, -2.54), (1.016, -2.54))], False),
    # the slide switch: 2 the common (left), 1 and 3 its throws (right)
    "SPDT": lambda: ([(2, "~", -5.08, 0, 0, 2.54), (1, "~", 5.08, 2.54, 180, 2.54),
                      (3, "~", 5.08, -2.54, 180, 2.54)],
                     [circle(-2.032, 0, 0.508), circle(2.032, 2.54, 0.508),
                      circle(2.032, -2.54, 0.508), poly((-1.524, 0.254), (1.778, 2.032))],
                     False),
}
SYMBOL_OF_KIND = {"U": "Pico", "J": "OLED", "R": "R", "D": "D", "DS": "D", "SW": "SW",
                  "LS": "Piezo", "BT": "Battery", "SWP": "SPDT"}


def library_symbol(name, prefix=""):
    """A symbol of the library (prefix "california-speed:" for the copy in the schematic)."""
    pins, graphics, names = SYMBOLS[name]()
    out = ["symbol", q(prefix + name)]
    out.append(["pin_names", ["offset", 1.016]] + ([] if names else [["hide", "yes"]]))
    if not names:
        out.append(["pin_numbers", ["hide", "yes"]])
    out += [["exclude_from_sim", "no"], ["in_bom", "yes"], ["on_board", "yes"]]
    for field, value, hide in (("Reference", "U" if name == "Pico" else name[0], False),
                               ("Value", name, False), ("Footprint", "", True),
                               ("Datasheet", "~", True), ("Description", "", True)):
        out.append(["property", q(field), q(value), ["at", 0, 0, 0], font(hide=hide)])
    out.append(["symbol", q(name + "_0_1")] + graphics)
    unit = ["symbol", q(name + "_1_1")]
    for number, pin_name, x, y, angle, length in pins:
        unit.append(["pin", "passive", "line", ["at", x, y, angle], ["length", length],
                     ["name", q(pin_name), font()], ["number", q(str(number)), font()]])
    out += [unit, ["embedded_fonts", "no"]]
    return out


def symbol_library():
    """The .kicad_sym beside the schematic."""
    return sexpr(["kicad_symbol_lib", ["version", 20241209], ["generator", q("make_pcb")],
                  ["generator_version", q("9.0")]] +
                 [library_symbol(n) for n in sorted(SYMBOLS)]) + "\n"


def pin_points(name, x, y):
    """{pin number: (x, y)} of a symbol placed at (x, y), unrotated (schematic y down)."""
    return {str(n): (round(x + px, 4), round(y - py, 4))
            for n, _, px, py, _, _ in SYMBOLS[name]()[0]}


class Sheet:
    """The schematic being drawn: its symbols, wires, labels and no-connect marks."""

    def __init__(self, board_parts):
        self.parts = board_parts  # {ref: (value, footprint id, fitted)}
        self.items = []
        self.count = 0

    def uid(self, what):
        self.count += 1
        return q(str(uuid.uuid5(NS, "schematic/%s/%d" % (what, self.count))))

    def symbol(self, ref, x, y):
        """Place ref's symbol at (x, y); its pins' points."""
        name = SYMBOL_OF_KIND[kind(ref)]
        value, footprint, fitted = self.parts[ref]
        pins = pin_points(name, x, y)
        sym = ["symbol", ["lib_id", q(LIB + ":" + name)], ["at", x, y, 0], ["unit", 1],
               ["exclude_from_sim", "no"], ["in_bom", "yes"], ["on_board", "yes"],
               ["dnp", "no" if fitted else "yes"], ["uuid", q(symbol_uuid(ref))]]
        _, _, names = SYMBOLS[name]()
        top = min(p[1] for p in pins.values()) - 2.54
        for field, text, at, hide in (("Reference", ref, (x + 3.81, top - 1.27), False),
                                      ("Value", value, (x + 3.81, top + 1.27), False),
                                      ("Footprint", footprint, (x, y), True),
                                      ("Datasheet", "~", (x, y), True),
                                      ("Description", "", (x, y), True)):
            sym.append(["property", q(field), q(text), ["at", at[0], at[1], 0],
                        font(hide=hide, justify=None if hide else "left")])
        for number in sorted(pins, key=int):
            sym.append(["pin", q(number), ["uuid", self.uid("pin/%s/%s" % (ref, number))]])
        sym.append(["instances", ["project", q(NAME), ["path", q("/" + ROOT_UUID),
                                                         ["reference", q(ref)], ["unit", 1]]]])
        self.items.append(sym)
        return pins

    def wire(self, *points):
        for a, b in zip(points, points[1:]):
            self.items.append(["wire", ["pts", ["xy", *a], ["xy", *b]], stroke(0),
                               ["uuid", self.uid("wire")]])

    def junction(self, p):
        self.items.append(["junction", ["at", *p], ["diameter", 0], ["color", 0, 0, 0, 0],
                           ["uuid", self.uid("junction")]])

    def label(self, net, p, angle):
        """A global label (its name is the board's net name) at p, pointing angle."""
        justify = {0: "left", 90: "left", 180: "right", 270: "right"}[angle]
        self.items.append(["global_label", q(net), ["shape", "passive"], ["at", p[0], p[1], angle],
                           ["fields_autoplaced", "yes"], font(justify=justify),
                           ["uuid", self.uid("label")],
                           ["property", q("Intersheetrefs"), q("${INTERSHEET_REFS}"),
                            ["at", p[0], p[1], 0], font(hide=True)]])

    def stub(self, net, p, direction):
        """A short wire out of a pin at p (direction: left, right, up or down) and the net's
        label at its end."""
        dx, dy, angle = {"left": (-5.08, 0, 180), "right": (5.08, 0, 0), "up": (0, -5.08, 90),
                         "down": (0, 5.08, 270)}[direction]
        end = (round(p[0] + dx, 4), round(p[1] + dy, 4))
        self.wire(p, end)
        self.label(net, end, angle)

    def no_connect(self, p):
        self.items.append(["no_connect", ["at", *p], ["uuid", self.uid("nc")]])

    def text(self, words, x, y, size=2.54):
        self.items.append(["text", q(words), ["exclude_from_sim", "no"], ["at", x, y, 0],
                           font(size, justify="left"), ["uuid", self.uid("text")]])


def draw(sheet, pico_nets, matrix):
    """Every part and connection, from the nets the board's parts were given."""
    rows, cols = matrix
    # the Pico: each pin its net's label, or a no-connect mark
    pins = sheet.symbol("U1", 76.2, 101.6)
    for number, p in pins.items():
        net = pico_nets.get(number)
        if net:
            sheet.stub(net, p, "left" if int(number) <= 20 else "right")
        else:
            sheet.no_connect(p)
    sheet.text("Raspberry Pi Pico: the pins as hardware/pinmap.py sets them", 50.8, 68.58)
    # the OLED and its pull-ups (not fitted unless the module has none)
    oled = {"GND": "GND", "VCC": "+3V3", "SCL": "SCL_" + setting("CS_I2C_SCL"),
            "SDA": "SDA_" + setting("CS_I2C_SDA")}
    pins = sheet.symbol("J1", 160.02, 45.72)
    for i, name in enumerate(OLED_PINS):
        sheet.stub(oled[name], pins[str(i + 1)], "left")
    for ref, x, net in (("R1", 121.92, oled["SDA"]), ("R2", 134.62, oled["SCL"])):
        pins = sheet.symbol(ref, x, 45.72)
        sheet.stub("+3V3", pins["1"], "up")
        sheet.stub(net, pins["2"], "down")
    sheet.text("R1, R2: fit only if the OLED module has no pull-ups", 116.84, 27.94, 1.27)
    # the piezo through R3
    pins = sheet.symbol("R3", 121.92, 81.28)
    sheet.stub("PIEZO_" + setting("CS_PIEZO"), pins["1"], "up")
    sheet.stub("PIEZO", pins["2"], "down")
    pins = sheet.symbol("LS1", 149.86, 81.28)
    sheet.stub("PIEZO", pins["1"], "left")
    sheet.stub("GND", pins["2"], "right")
    # MENU
    pins = sheet.symbol("SW25", 149.86, 101.6)
    sheet.stub("MENU_" + setting("CS_MENU"), pins["1"], "left")
    sheet.stub("GND", pins["2"], "right")
    # the cells, the power switch and the Schottky to VSYS (Pico datasheet section 4.5)
    pins = sheet.symbol("BT1", 121.92, 129.54)
    sheet.stub("BAT+", pins["1"], "up")
    sheet.stub("GND", pins["2"], "down")
    pins = sheet.symbol("SWP1", 147.32, 129.54)
    sheet.stub("BAT+", pins["2"], "left")
    sheet.no_connect(pins["3"])
    d = sheet.symbol("DS1", 165.1, 127.0)
    sheet.wire(pins["1"], d["2"])
    sheet.label("BAT_ON", d["2"], 90)
    sheet.stub("VSYS", d["1"], "right")
    sheet.text("Power: 3 x AAA, switch, Schottky to VSYS; USB wins when both are in",
               116.84, 147.32, 1.27)
    # the matrix: column wires down, row wires across, at each crossing a switch from the
    # column to its diode's anode, the cathode to the row
    x0, y0, pitch_x, pitch_y = 210.82, 71.12, 33.02, 17.78
    sheet.text("The key matrix (keypad.KeyMatrix, columns_to_anodes=True): rows A near, "
               "A far, B far, B near", x0 - 12.7, y0 - 22.86)
    column_x = [x0 + c * pitch_x for c in range(6)]
    row_y = [y0 + r * pitch_y for r in range(4)]
    for c, (net, _) in enumerate(cols):
        top = (column_x[c], y0 - 7.62)
        sheet.label(net, top, 90)
        points = [top] + [(column_x[c], y) for y in row_y]
        sheet.wire(*points)
        for p in points[1:-1]:
            sheet.junction(p)
    for r, (net, _) in enumerate(rows):
        y = row_y[r] + 7.62
        left = (x0 - 10.16, y)
        sheet.label(net, left, 180)
        points = [left] + [(column_x[c] + 27.94, y) for c in range(6)]
        sheet.wire(*points)
        for p in points[1:-1]:
            sheet.junction(p)
        for c in range(6):
            key = 6 * r + c
            x = column_x[c]
            sw = sheet.symbol("SW%d" % (key + 1), x + 12.7, row_y[r])
            d = sheet.symbol("D%d" % (key + 1), x + 22.86, row_y[r])
            sheet.wire((x, row_y[r]), sw["1"])
            sheet.wire(sw["2"], d["2"])
            sheet.label("K%d" % (key + 1), d["2"], 90)
            sheet.wire(d["1"], (x + 27.94, y))


def schematic(board):
    """The .kicad_sch text of the board b (layout.Board): its parts' values and footprints
    and the nets its layout gave the Pico's pins."""
    parts = {}
    for ref, fp in b_parts(board):
        fitted = not fp.IsDNP()
        fpid = fp.GetFPID()
        parts[ref] = (fp.GetValue(), "%s:%s" % (fpid.GetLibNickname(), fpid.GetLibItemName()),
                      fitted)
    pico_nets = {p.GetNumber(): p.GetNetname() for p in board.parts["U1"].Pads()
                 if p.GetNumber() and not p.GetNetname().startswith("unconnected-")}
    sheet = Sheet(parts)
    draw(sheet, pico_nets, matrix_nets())
    used = sorted({SYMBOL_OF_KIND[kind(r)] for r in parts})
    doc = ["kicad_sch", ["version", 20250114], ["generator", q("make_pcb")],
           ["generator_version", q("9.0")], ["uuid", q(ROOT_UUID)], ["paper", q("A3")],
           ["title_block", ["title", q("California Speed")], ["date", q(REVISION_DATE)],
            ["rev", q(REVISION)],
            ["comment", 1, q("MIT licence. Made by make pcb (tools/pcb/schematic.py) from "
                             "hardware/pinmap.py: edit those, not this file.")]],
           ["lib_symbols"] + [library_symbol(n, LIB + ":") for n in used]]
    doc += sheet.items
    doc += [["sheet_instances", ["path", q("/"), ["page", q("1")]]], ["embedded_fonts", "no"]]
    return sexpr(doc) + "\n"


def b_parts(board):
    """The board's parts that have a symbol: all but the mounting holes."""
    return sorted((ref, fp) for ref, fp in board.parts.items() if kind(ref) in SYMBOL_OF_KIND)

