"""The matrix build's wiring diagram, hardware/wiring-matrix.svg (MatrixDiagram): the direct
build's parts (tools/wiring_direct.py), the 24 keys as a grid of 4 row wires and 6 column
wires, each key a switch and a diode drawn with its stripe towards its row wire."""
from tools.pins import GND_PINS, PIN_3V3
from tools.wiring_direct import (BODY_S, COLOUR, COLOURS, LEG, OLED_PAD_Y, OLED_Y, PIN_PITCH,
                                 Diagram, esc)
from tools.wiring_lanes import Wire, order_lanes


M_COLOURS = (
    ("A near", COLOUR["A near"], "row A near (A's own piles)"),
    ("A far", COLOUR["A far"], "row A far (B's piles)"),
    ("B far", COLOUR["B far"], "row B far (A's piles)"),
    ("B near", COLOUR["B near"], "row B near (B's own piles)"),
    ("Column", "#546e7a", "column wires, straight across the box"),
) + COLOURS[4:-1] + (("GND", COLOUR["GND"], "GND (MENU, piezo, OLED)"),)
COLOUR["Column"] = M_COLOURS[4][1]

M_GRID_X, M_CELL = 330, 130     # the key grid's left edge, a column's width
M_TRACK, M_BODY = 16, 36        # a column wire's and a switch body's offset in its cell
M_DIODE = 96                    # a diode's offset in its cell
M_DIODE_TOP, M_DIODE_BOTTOM, M_BUS = 26, 46, 56  # below a switch's middle
# The rows' switch middles, top to bottom (on the box: B's edge, B's far row, the
# screen, A's far row, A's edge).
M_ROW_Y = {"B near": 700, "B far": 850, "A far": 1050, "A near": 1200}
M_ROW_X = (40, 52, 64, 76)      # where each row wire comes down, by CS_MATRIX_ROWS order
M_TOP_EDGE = 152                # the row wires' lanes start above this
M_MENU = (352, 190)             # MENU's body (left, middle) and the piezo's middle
M_PIEZO = (300, 260)
M_GND_Y = 150                   # MENU's and the piezo's GND wire runs along here
M_OLED_WIRE_X = {"GND": 1130, "VCC": 1145, "SCL": 1170, "SDA": 1185}
M_OLED_JOG_Y = 818              # the highest of the OLED wires' jogs to its pins


class MatrixDiagram(Diagram):
    """hardware/wiring-matrix.svg: the matrix build drawn as a grid, the rows in their
    order on the box. The Pico lies above the grid, USB on the right, so its column pins
    (bottom edge) fan straight down into the columns and its row pins (top edge) go round
    its left end to the rows, none crossing another; a column wire hops over the row
    wires it passes, as the wires cross on the breadboards."""

    width, height = 1560, 1360
    px0, px1, py0, py1 = 330, 1112, 310, 510
    usb_right = True
    title = "California Speed handheld: wiring of the matrix build (default pins)"
    oled_x, oled_y = 1250, 880

    def pin_xy(self, n):
        first = self.px0 + 30
        if n <= 20:
            return first + (20 - n) * PIN_PITCH, self.py0 + 14
        return first + (n - 21) * PIN_PITCH, self.py1 - 14

    def pin_on_top(self, n):
        return n <= 20

    def _edge(self, n):
        return self.pin_xy(n)[0], (self.py0 if n <= 20 else self.py1)

    def __init__(self):
        from tools.pins import matrix_keys, matrix_parts
        super().__init__()
        self.parts = matrix_parts()
        self.keys = matrix_keys()

    # ---- geometry

    def cell_x(self, c):
        return M_GRID_X + c * M_CELL

    def row_y(self, r):
        from tools.pins import MATRIX_ROW_NAMES
        return M_ROW_Y[MATRIX_ROW_NAMES[r]]

    def _oled_pad(self, name):
        return self.oled_x + 30 * (1 + ("GND", "VCC", "SCL", "SDA").index(name))

    # ---- routing

    def _check_sides(self):
        """The drawing's layout: row wires, MENU, the piezo and the OLED's bus on pins 1-20
        (the Pico's top edge here), column wires on pins 21-40, MENU right of the piezo."""
        for p in self.parts:
            if self.pin_on_top(p["phys"]) == ("col" in p):
                raise ValueError("%s on pin %d: tools/wiring.py draws the matrix build with "
                                 "%s on pins %s" % (p["name"], p["phys"], "the column wires"
                                                    if "col" in p else "the row wires, MENU, "
                                                    "the piezo and the OLED's SDA and SCL",
                                                    "21-40" if "col" in p else "1-20"))
        p_by = {p["name"]: p for p in self.parts}
        if p_by["MENU"]["phys"] >= p_by["Piezo +"]["phys"]:
            raise ValueError("tools/wiring.py draws the matrix build with MENU on a lower "
                             "pin than the piezo")

    def route(self):
        self._check_sides()
        p_by = {p["name"]: p for p in self.parts}
        top, bottom = [], []
        for p in self.parts:
            if "row" in p:
                top.append((Wire(p["name"], self.pin_xy(p["phys"])[0], M_ROW_X[p["row"]],
                                 back=True), p))
            elif "col" in p:
                bottom.append((Wire(p["name"], self.pin_xy(p["phys"])[0],
                                    self.cell_x(p["col"]) + M_TRACK), p))
        for name, pad in (("OLED SCL", "SCL"), ("OLED SDA", "SDA")):
            p = p_by[name]
            top.append((Wire(name, self.pin_xy(p["phys"])[0], M_OLED_WIRE_X[pad], back=True), p))
        bottom.append((Wire("3V3", self.pin_xy(PIN_3V3)[0], M_OLED_WIRE_X["VCC"]), None))
        # The OLED's GND: the GND pin on the bottom edge whose wire crosses fewest others.
        best: tuple = ()
        for n in GND_PINS:
            if self.pin_on_top(n):
                continue
            wire = Wire("GND OLED", self.pin_xy(n)[0], M_OLED_WIRE_X["GND"])
            _, cost = order_lanes([w for w, _ in bottom] + [wire])
            key = (cost, abs(M_OLED_WIRE_X["GND"] - wire.s))
            if not best or key < best[0]:
                best = (key, n, wire)
        self.oled_gnd_pin = best[1]
        bottom.append((best[2], None))
        self.top_lanes = self._lay(top, -1, M_TOP_EDGE)
        self.bottom_lanes = self._lay(bottom, +1, self.py1)
        self.top, self.bottom = top, bottom

    # ---- wires as polylines

    def build_paths(self):
        last_diode = self.cell_x(len(self.keys) // 4 - 1) + M_DIODE
        for w, p in self.top:
            y = self.top_lanes[w.name]
            x0, y0 = self._edge(p["phys"])
            self.used_pins[p["phys"]] = p["group"]
            if "row" in p:
                bus = self.row_y(p["row"]) + M_BUS
                pts = [(x0, y0), (x0, y), (w.t, y), (w.t, bus), (last_diode, bus)]
            else:
                pts = self._to_oled(x0, y0, y, w.t, p["name"].split()[1])
            self.paths.append((p["group"], pts, self._title(p)))
        for w, p in self.bottom:
            y = self.bottom_lanes[w.name]
            if p is not None:  # a column: down to the four switches
                x0, y0 = self._edge(p["phys"])
                self.used_pins[p["phys"]] = "Column"
                c = p["col"]
                ys = sorted(self.row_y(k["row"]) - LEG for k in p["keys"])
                pts = [(x0, y0), (x0, y), (w.t, y), (w.t, ys[-1]),
                       (self.cell_x(c) + M_BODY, ys[-1])]
                self.paths.append(("Column", pts, self._title(p)))
                for sy in ys[:-1]:
                    self.paths.append(("Column", [(w.t, sy), (self.cell_x(c) + M_BODY, sy)],
                                       "%s to a switch" % p["name"]))
                    self.dots.append((w.t, sy, "Column"))
            elif w.name == "3V3":
                x0, y0 = self._edge(PIN_3V3)
                self.used_pins[PIN_3V3] = "3V3"
                self.paths.append(("3V3", self._to_oled(x0, y0, y, w.t, "VCC"),
                                   "3V3(OUT) · pin %d → OLED VCC" % PIN_3V3))
            else:
                n = self.oled_gnd_pin
                x0, y0 = self._edge(n)
                self.used_pins[n] = "GND"
                self.paths.append(("GND", self._to_oled(x0, y0, y, w.t, "GND"),
                                   "GND · pin %d → OLED GND" % n))
        for k in self.keys:  # each key's diode leg down to its row wire
            x, y = self.cell_x(k["col"]), self.row_y(k["row"])
            self.paths.append((k["group"], [(x + M_BODY + BODY_S, y + LEG),
                                            (x + M_DIODE, y + LEG), (x + M_DIODE, y + M_BUS)],
                               "%s: diode to row %s" % (k["name"], k["group"])))
            self.dots.append((x + M_DIODE, y + M_BUS, k["group"]))
        self._side_paths()

    def _to_oled(self, x0, y0, lane, x, pad):
        """A wire from a pin's edge to its lane, along it to x, down beside the grid, then
        across to the OLED's pin (each pin's jog lower than the one to its right)."""
        jog = M_OLED_JOG_Y + 12 * (3 - ("GND", "VCC", "SCL", "SDA").index(pad))
        px = self._oled_pad(pad)
        pad_y = self.oled_y + OLED_PAD_Y - OLED_Y
        return [(x0, y0), (x0, lane), (x, lane), (x, jog), (px, jog), (px, pad_y)]

    def _side_paths(self):
        """MENU and the piezo, above the Pico's left end, and their GND wire over them."""
        p_by = {p["name"]: p for p in self.parts}
        menu, piezo = p_by["MENU"], p_by["Piezo +"]
        mx, my = M_MENU
        px, py = M_PIEZO
        x, y0 = self._edge(menu["phys"])
        self.paths.append(("MENU", [(x, y0), (x, my + LEG), (mx + BODY_S, my + LEG)],
                           self._title(menu)))
        x, y0 = self._edge(piezo["phys"])
        self.paths.append(("Piezo", [(x, y0), (x, py), (px + 22, py)], self._title(piezo)))
        mpx = self.pin_xy(menu["phys"])[0]
        gnd = min((n for n in GND_PINS if self.pin_on_top(n) and self.pin_xy(n)[0] > mpx),
                  key=lambda n: self.pin_xy(n)[0])
        x, y0 = self._edge(gnd)
        self.paths.append(("GND", [(x, y0), (x, M_GND_Y), (px - 22, M_GND_Y), (px - 22, py)],
                           "GND · pin %d → MENU, piezo −" % gnd))
        self.paths.append(("GND", [(mx - 10, M_GND_Y), (mx - 10, my - LEG), (mx, my - LEG)],
                           "MENU GND leg"))
        self.dots.append((mx - 10, M_GND_Y, "GND"))
        for part in (menu, piezo):
            self.used_pins[part["phys"]] = part["group"]
        self.used_pins[gnd] = "GND"
        self.side_gnd_pin = gnd

    # ---- drawing

    def _header(self):
        return "\n".join([
            '<text x="24" y="38" font-size="26" font-weight="bold" fill="#111">'
            'California Speed handheld — wiring of the matrix build (Long Speed)</text>',
            '<text x="24" y="62" font-size="13" fill="#444">Raspberry Pi Pico + SSD1306 '
            '128×64 I2C OLED + 24 keys on a 4 × 6 diode matrix (a switch and a 1N4148 each) '
            '+ MENU + passive piezo. settings.toml: CS_KEYS = "matrix". Default pins of '
            'hardware/pinmap.py.</text>',
        ])

    def _pico_view(self):
        return "USB on the right · pins 1–20 along the top edge, 21–40 along the bottom"

    def _usb_note(self, ym):
        return ['<text x="%d" y="%d" font-size="11" fill="#d8f0dc" text-anchor="end">'
                'USB: power and serial console ▶</text>' % (self.px1 - 20, ym + 44)]

    def _panels(self):
        from tools.pins import MATRIX_ROW_NAMES
        out = []
        x0 = M_GRID_X - 30
        x1 = self.cell_x(len(self.keys) // 4) + 4
        for player, (first, last) in (("B", ("B near", "B far")), ("A", ("A far", "A near"))):
            y0, y1 = M_ROW_Y[first] - 50, M_ROW_Y[last] + M_BUS + 12
            out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="10" fill="%s" '
                       'stroke="#d0d0d0"/>' % (x0, y0, x1 - x0, y1 - y0,
                                               "#f7f1fa" if player == "B" else "#eef4fb"))
        for r, name in enumerate(MATRIX_ROW_NAMES):
            y = M_ROW_Y[name]
            tx = x0 + 14
            out.append('<text x="%d" y="%d" font-size="12" font-weight="bold" fill="%s" '
                       'text-anchor="middle" transform="rotate(-90 %d %d)">%s ROW</text>'
                       % (tx, y + 4, COLOUR[name], tx, y + 4, name.upper()))
            p = next(q for q in self.parts if q.get("row") == r)
            out.append('<text x="%d" y="%d" font-size="11.5" fill="%s"><tspan '
                       'font-weight="bold">Row %s</tspan> · %s · pin %d</text>'
                       % (M_ROW_X[-1] + 10, y + M_BUS - 6, COLOUR[name], name, p["pin"],
                          p["phys"]))
        gap = (M_ROW_Y["B far"] + M_BUS + M_ROW_Y["A far"] - 30) // 2
        notes = (
            (gap - 24, "▲ B's rows: at B's edge of the box, turned round as B sees them: "
                       "B's button 1 is on column 6 (the right)."),
            (gap, "The screen sits here, between the far rows. Each column wire runs "
                  "straight across the box."),
            (gap + 24, "▼ A's rows: A's button 1 is on column 1 (the left)."),
        )
        for y, text in notes:
            out.append('<text x="%d" y="%d" font-size="12.5" fill="#333" stroke="#ffffff" '
                       'stroke-width="4" paint-order="stroke" stroke-linejoin="round">%s'
                       '</text>' % (x0 + 30, y, esc(text)))
        out.append('<text x="%d" y="%d" font-size="15" font-weight="bold" fill="#333">'
                   'PLAYER A sits here, at the bottom edge ▲ (player B at the top edge, '
                   'beyond row B near)</text>' % (x0, M_ROW_Y["A near"] + M_BUS + 40))
        y3 = self.bottom_lanes["3V3"]
        out.append('<text x="%d" y="%d" font-size="11" fill="%s" text-anchor="end">3V3(OUT) · '
                   'pin %d</text>' % (M_OLED_WIRE_X["GND"] - 6, y3 - 4, COLOUR["3V3"], PIN_3V3))
        return "\n".join(out)

    def _buttons(self):
        out = ['<g id="buttons">']
        for p in self.parts:
            if "col" in p:
                x = self.cell_x(p["col"]) + M_TRACK + 6
                y = M_ROW_Y["B near"] - 72
                out.append('<text x="%d" y="%d" font-size="11.5" font-weight="bold" '
                           'fill="%s">COLUMN %d</text>' % (x, y, COLOUR["Column"], p["col"] + 1))
                out.append('<text x="%d" y="%d" font-size="11" fill="%s">%s · pin %d</text>'
                           % (x, y + 13, COLOUR["Column"], p["pin"], p["phys"]))
        for k in self.keys:
            x, y = self.cell_x(k["col"]), self.row_y(k["row"])
            out.append('<g class="key"><title>%s · key %d</title>' % (k["name"], k["key"]))
            out += self._switch(x + M_BODY, y, k["group"], True)
            out.append("</g>")
            out.append(self._diode(x + M_DIODE, y + M_DIODE_TOP, y + M_DIODE_BOTTOM,
                                   "%s: stripe (cathode) towards row %s"
                                   % (k["name"], k["group"])))
            out.append('<text x="%d" y="%d" font-size="11.5" fill="%s"><tspan '
                       'font-weight="bold">%s</tspan> · key %d</text>'
                       % (x + M_TRACK + 8, y - BODY_S // 2 - 7, COLOUR[k["group"]],
                          k["name"], k["key"]))
        out.append("</g>")
        return "\n".join(out)

    def _diode(self, x, y0, y1, title, w=10, stripe=5):
        """A glass diode lying along x from y0 (anode) to y1 (cathode: the black stripe),
        with the symbol's triangle pointing at the stripe."""
        out = ['<g class="diode"><title>%s</title>' % esc(title)]
        out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="2" fill="#f2b27c" '
                   'stroke="#8d5524" stroke-width="1"/>' % (x - w // 2, y0, w, y1 - y0))
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#111111"/>'
                   % (x - w // 2, y1 - stripe - 1, w, stripe))
        t = (y1 - y0 - stripe) // 3
        out.append('<path d="M%d %d L%d %d L%d %d Z" fill="#7a3d12"/>'
                   % (x - w // 2 + 2, y0 + t, x + w // 2 - 2, y0 + t, x, y1 - stripe - 2))
        out.append("</g>")
        return "\n".join(out)

    def _oled_gnd_text(self):
        return "GND · pin %d" % self.oled_gnd_pin

    def _side_parts(self):
        p_by = {p["name"]: p for p in self.parts}
        menu, pz = p_by["MENU"], p_by["Piezo +"]
        mx, my = M_MENU
        px, py = M_PIEZO
        out = ['<g id="side">', '<g id="menu"><title>MENU · key %d</title>' % menu["key"]]
        out += self._switch(mx, my, "MENU", False)
        out.append("</g>")
        tx = self.pin_xy(self.side_gnd_pin)[0] + 12
        out.append('<text x="%d" y="%d" font-size="11.5" fill="%s"><tspan font-weight="bold">'
                   'MENU</tspan> · %s · pin %d · key %d</text>'
                   % (tx, my - 2, COLOUR["MENU"], menu["pin"], menu["phys"], menu["key"]))
        for k, text in enumerate(("its own pin and GND, no diode", "on the side of the box")):
            out.append('<text x="%d" y="%d" font-size="10.5" fill="#555">%s</text>'
                       % (tx, my + 12 + 12 * k, text))
        out.append('<circle cx="%d" cy="%d" r="22" fill="#2b2b2b" stroke="#000"/>' % (px, py))
        out.append('<circle cx="%d" cy="%d" r="6" fill="#777"/>' % (px, py))
        out.append('<text x="%d" y="%d" font-size="12" font-weight="bold" fill="%s" '
                   'text-anchor="middle">+</text>' % (px + 30, py - 6, COLOUR["Piezo"]))
        out.append('<text x="%d" y="%d" font-size="12" font-weight="bold" fill="#212121" '
                   'text-anchor="middle">−</text>' % (px - 30, py - 6))
        out.append('<text x="%d" y="%d" font-size="11.5" fill="%s" text-anchor="end">'
                   '<tspan font-weight="bold">Piezo +</tspan> · %s · pin %d</text>'
                   % (px - 40, py + 4, COLOUR["Piezo"], pz["pin"], pz["phys"]))
        out.append('<text x="%d" y="%d" font-size="10.5" fill="#555" text-anchor="end">'
                   'passive (optional 100 Ω in series)</text>' % (px - 40, py + 18))
        out.append("</g>")
        return "\n".join(out)

    def _legend(self):
        return self._legend_box(1250, 86, M_COLOURS, (
            "● a dot: wires joined",
            "⌒ a hop: wires cross, not joined",
            "Each key: column wire → switch → diode →",
            "row wire; the diode's stripe towards the",
            "row wire. No resistors, no GND on the keys.",
        ))

    def _inset(self):
        """One key, enlarged: which legs, and which way round the diode goes."""
        x, y, w = 1250, 446, 284
        out = self._inset_box(x, y, w, 356, "One key, up close")
        bx, by, bs = x + 86, y + 50, 70
        col, row = COLOUR["Column"], COLOUR["A near"]
        dx = bx + bs + 40
        out.append('<path d="M%d %d L%d %d L%d %d" fill="none" stroke="%s" stroke-width="3"/>'
                   % (x + 40, y + 36, x + 40, by + 13, bx - 12, by + 13, col))
        out.append('<circle cx="%d" cy="%d" r="4.5" fill="%s"/>' % (x + 40, by + 13, col))
        out.append('<path d="M%d %d L%d %d L%d %d" fill="none" stroke="%s" stroke-width="3"/>'
                   % (bx + bs + 12, by + bs - 13, dx, by + bs - 13, dx, by + bs + 110, row))
        out.append('<path d="M%d %d L%d %d" fill="none" stroke="%s" stroke-width="4"/>'
                   % (x + 24, by + bs + 110, x + w - 20, by + bs + 110, row))
        out.append('<circle cx="%d" cy="%d" r="5" fill="%s"/>' % (dx, by + bs + 110, row))
        out += self._big_switch(bx, by, bs, col, row, fill=row)
        out.append(self._diode(dx, by + bs + 14, by + bs + 82, "the diode: stripe (cathode) "
                               "towards the row wire", w=18, stripe=10))
        for k, (text, colour, ty) in enumerate((
                ("column wire", col, by - 4),
                ("anode (plain end)", "#8d5524", by + bs + 22),
                ("1N4148", "#333", by + bs + 48),
                ("cathode: the stripe", "#111", by + bs + 80),
                ("row wire", row, by + bs + 104))):
            anchor = "start" if k == 0 else "end"
            tx = x + 50 if k == 0 else dx - 16
            out.append('<text x="%d" y="%d" font-size="11" fill="%s" text-anchor="%s">%s</text>'
                       % (tx, ty, colour, anchor, text))
        lines = ("The column wire to one leg, the diode",
                 "to the diagonally opposite one. Stripe",
                 "the wrong way: the key never reads.",
                 "No diode: ghost keys when three keys",
                 "of a rectangle are held.")
        return self._inset_end(out, x + 12, by + bs + 134, lines)

    def _footer_lines(self):
        gnd = ", ".join(str(n) for n in GND_PINS)
        return (
            "Drawn as a grid; on the breadboards the Pico sits on the middle board between the "
            "far rows (docs/BUILD.md). The Pico's GND pins (%s) are all joined inside it." % gnd,
            "Generated by tools/wiring.py from hardware/pinmap.py — do not edit by hand. "
            "Pin tables: docs/pins.md. The direct build: hardware/wiring.svg.",
        )
