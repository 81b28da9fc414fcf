"""The direct build's wiring diagram, hardware/wiring.svg (Diagram), drawn from
hardware/pinmap.py and the pin facts of tools/pins.py (CPython, stdlib only): the Pico (all
40 pins, physical layout), the OLED, the piezo, MENU and the two players' button clusters
laid out as on the box, every wire coloured by group and labelled. The SVG is written by
hand as text: wires are routed on lanes (tools/wiring_lanes.py), a wire that must cross
another hops over it, and a dot marks every real connection. The matrix build's diagram
(tools/wiring_matrix.py) is this one turned and redrawn; tools/wiring.py writes both."""
from hardware import pinmap
from tools.pins import GND_PINS, PICO_PINS, PIN_3V3, parts, physical_pin
from tools.wiring_lanes import Wire, order_lanes


# Colours by group (wire, and the ring round the pin it starts at).
COLOURS = (
    ("A near", "#1565c0", "A's near row (A's own piles)"),
    ("A far", "#00a0bd", "A's far row (B's piles)"),
    ("B near", "#7b1fa2", "B's near row (B's own piles)"),
    ("B far", "#d81b60", "B's far row (A's piles)"),
    ("MENU", "#6d4c41", "MENU button"),
    ("Piezo", "#ef6c00", "piezo buzzer"),
    ("SDA", "#2e7d32", "OLED SDA (I2C data)"),
    ("SCL", "#a59c00", "OLED SCL (I2C clock)"),
    ("3V3", "#d50000", "3.3 V to the OLED"),
    ("GND", "#212121", "GND (ground rail)"),
)
COLOUR = {g: c for g, c, _ in COLOURS}

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
W, H = 1480, 1250

# The Pico, lying on its side with the USB connector on the left: pins 1-20 along the
# bottom edge (left to right), pins 21-40 along the top edge (right to left).
PICO_X0, PICO_X1 = 300, 1082
PICO_Y0, PICO_Y1 = 520, 720
PIN_PITCH = 38
PIN_FIRST_X = PICO_X0 + 30
PAD_R = 10

# Button clusters: 4 columns of CELL_W; each cell has (left to right) the signal track of
# its farther row, that of its nearer row, the switch, its label, and its GND drop.
CELL_W = 200
CLUSTER_X = 320
T_FARTHER, T_CLOSER = 10, 22   # track offsets: the row farther from the Pico, the closer one
BODY_X, BODY_S = 34, 46         # switch body offset and size
LEG = 17                        # legs sit this far above/below the body's middle
GND_X = 186                     # GND drop offset
TRUNK_GAP_X = 204               # a trunk between two columns

# Rows (y of the middle of the switch bodies) and rails, top to bottom.
B_NEAR_RAIL, B_NEAR_Y, B_FAR_RAIL, B_FAR_Y = 128, 175, 298, 340
A_FAR_Y, A_FAR_RAIL, A_NEAR_Y, A_NEAR_RAIL = 923, 962, 1067, 1108
LANE = 12

OLED_X, OLED_Y = 50, 884        # the module's top-left corner (header along the top)
OLED_PIN_X = (80, 110, 140, 170)  # GND, VCC, SCL, SDA as printed on most modules
OLED_PAD_Y = OLED_Y + 12
OLED_H = 112
AROUND_LEFT_X = 250             # a wire from the top edge goes round the Pico's left end

SIDE_X = 1230                   # piezo and MENU, to the right of the Pico
PIEZO_Y, MENU_Y = 590, 664
SIDE_GND_X = (1384, 1400)       # their GND drops to the bottom rail


def pin_xy(n):
    """(x, y) of the middle of physical pin n's pad."""
    if n <= 20:
        return PIN_FIRST_X + (n - 1) * PIN_PITCH, PICO_Y1 - 14
    return PIN_FIRST_X + (40 - n) * PIN_PITCH, PICO_Y0 + 14


def pin_edge(n):
    """(x, y) where a wire leaves pin n's side of the board."""
    x, _ = pin_xy(n)
    return x, (PICO_Y1 if n <= 20 else PICO_Y0)


class Diagram:
    """Builds the SVG: routes every wire, then draws parts, wires, hops, dots and labels."""

    # The canvas, and the Pico's place and way round (the matrix diagram turns it).
    width, height = W, H
    px0, px1, py0, py1 = PICO_X0, PICO_X1, PICO_Y0, PICO_Y1
    usb_right = False
    title = "California Speed handheld: wiring (default pins)"
    oled_x, oled_y = OLED_X, OLED_Y

    def pin_xy(self, n):
        """(x, y) of the middle of physical pin n's pad."""
        return pin_xy(n)

    def pin_on_top(self, n):
        """True for a pin on the Pico's top edge in the drawing."""
        return n > 20

    def __init__(self):
        self.parts = parts()
        self.paths = []   # (group, [points], title) polylines of wires
        self.dots = []    # (x, y, group)
        self.used_pins = {}  # physical pin -> group
        self.crossings = 0  # wires that must cross (each drawn with a hop)

    # ---- routing

    def route(self):
        p_by = {p["name"]: p for p in self.parts}
        cells = {}
        for player in "AB":
            for row in ("near", "far"):
                for c in range(4):
                    cells[(player, row, c)] = p_by["%s %s %d" % (player, row, c + 1)]
        bottom: list = []  # (Wire, part or None) for the channel under the Pico
        top: list = []     # the channel above it
        # Each player's cluster: which row is nearer the Pico; the farther row's wires go
        # round one end of the cluster (the end their pins are nearer) into the gap
        # between the rows; the GND trunk comes in from the other side.
        self.cluster = {}
        for player, closer, farther, side in (("A", "far", "near", "bottom"),
                                              ("B", "far", "near", "top")):
            info = self._cluster_geometry(player, closer, farther, cells)
            self.cluster[player] = info
            chan = bottom if side == "bottom" else top
            for c in range(4):
                p = cells[(player, closer, c)]
                chan.append((Wire(p["name"], self._src_x(p["phys"], side),
                                  self._closer_track(player, c, p)), p))
            wraps = info["wrap_x"]
            far_parts = sorted((cells[(player, farther, c)] for c in range(4)),
                               key=lambda p: pin_xy(p["phys"])[0])
            for k, p in enumerate(far_parts):
                chan.append((Wire(p["name"], self._src_x(p["phys"], side), wraps[k]), p))
        # Power and the OLED.
        sda = p_by["OLED SDA"]
        scl = p_by["OLED SCL"]
        bottom.append((Wire("OLED SCL", self._src_x(scl["phys"], "bottom"), OLED_PIN_X[2]), scl))
        bottom.append((Wire("OLED SDA", self._src_x(sda["phys"], "bottom"), OLED_PIN_X[3]), sda))
        top.append((Wire("3V3 up", pin_xy(PIN_3V3)[0], AROUND_LEFT_X, back=True), None))
        bottom.append((Wire("3V3", AROUND_LEFT_X, OLED_PIN_X[1]), None))
        # MENU (lower) and the piezo (upper), right of the Pico: their wires turn back up
        # to them, MENU's outside the piezo's (no crossing while MENU's pin is the left one).
        for name, v in (("MENU", SIDE_X - 38), ("Piezo +", SIDE_X - 50)):
            p = p_by[name]
            side = "bottom" if p["phys"] <= 20 else "top"
            chan = bottom if side == "bottom" else top
            chan.append((Wire(name, self._src_x(p["phys"], side), v, back=True), p))
        # GND trunks: try every GND pin on the cluster's side and every trunk place, keep
        # the one with the fewest crossings (then the first).
        for player, chan, side in (("A", bottom, "bottom"), ("B", top, "top")):
            info = self.cluster[player]
            best: tuple = ()
            for x in info["trunk_choices"]:
                for n in GND_PINS:
                    if (n <= 20) != (side == "bottom"):
                        continue
                    trial = chan + [(Wire("GND " + player, pin_xy(n)[0], x), None)]
                    _, cost = order_lanes([w for w, _ in trial])
                    key = (cost, abs(pin_xy(n)[0] - x))
                    if not best or key < best[0]:
                        best = (key, n, x)
            _, n, x = best
            info["trunk_x"], info["trunk_pin"] = x, n
            chan.append((Wire("GND " + player, pin_xy(n)[0], x), None))
            self.used_pins[n] = "GND"
        self.used_pins[PIN_3V3] = "3V3"
        self.bottom_lanes = self._lay(bottom, +1, PICO_Y1)
        self.top_lanes = self._lay(top, -1, PICO_Y0)
        self.bottom, self.top = bottom, top
        # The gaps between the rows.
        for player in "AB":
            self._route_between(player, cells)

    def _src_x(self, phys, side):
        want_bottom = side == "bottom"
        if (phys <= 20) != want_bottom:
            raise ValueError("pin %d is on the other side of the Pico from its part; "
                             "tools/wiring.py cannot draw that layout" % phys)
        return pin_xy(phys)[0]

    def _closer_track(self, player, c, p):
        """x of the track down to a switch of the row nearer the Pico: straight below (or
        above) its pin when the pin is close enough, so the wire does not jog."""
        x = self._col_x(player, c) + T_CLOSER
        px = pin_xy(p["phys"])[0]
        return px if abs(px - x) <= 8 else x

    def _col_x(self, player, c):
        """Left edge of the cell of column c (0 = the player's left) in the drawing."""
        if player == "B":  # B sits opposite: B's left is the drawing's right
            c = 3 - c
        return CLUSTER_X + c * CELL_W

    def _cluster_geometry(self, player, closer, farther, cells):
        far_mean = sum(pin_xy(cells[(player, farther, c)]["phys"])[0] for c in range(4))
        near_mean = sum(pin_xy(cells[(player, closer, c)]["phys"])[0] for c in range(4))
        wrap_left = far_mean <= near_mean
        if wrap_left:
            wrap_x = [CLUSTER_X - 46 + 12 * k for k in range(4)]
            link_x = CLUSTER_X + 4 * CELL_W + 20
            gaps = [CLUSTER_X + c * CELL_W + TRUNK_GAP_X for c in range(2, -1, -1)]
        else:
            wrap_x = [CLUSTER_X + 4 * CELL_W + 10 + 12 * k for k in range(4)]
            link_x = CLUSTER_X - 20
            gaps = [CLUSTER_X + c * CELL_W + TRUNK_GAP_X for c in range(3)]
        return {"wrap_left": wrap_left, "wrap_x": wrap_x, "link_x": link_x,
                "trunk_choices": [link_x] + gaps}

    def _lay(self, chan, direction, edge):
        wires = [w for w, _ in chan]
        lanes, cost = order_lanes(wires)
        self.crossings += cost
        return {w.name: edge + direction * (14 + LANE * lanes[i]) for i, w in enumerate(wires)}

    def _route_between(self, player, cells):
        info = self.cluster[player]
        if player == "A":
            edge, direction = A_FAR_RAIL, +1
        else:
            edge, direction = B_FAR_RAIL, -1
        far_parts = sorted((cells[(player, "near", c)] for c in range(4)),
                           key=lambda p: pin_xy(p["phys"])[0])
        wires = []
        for k, p in enumerate(far_parts):
            wires.append(Wire(p["name"], info["wrap_x"][k], self._col_x(player, p["col"]) +
                              T_FARTHER))
        lanes, cost = order_lanes(wires)
        self.crossings += cost
        info["between"] = {w.name: (w, edge + direction * (12 + LANE * lanes[i]))
                           for i, w in enumerate(wires)}

    # ---- geometry of parts

    def leg(self, p, which):
        """(x, y) of a button's signal leg or GND leg (diagonally opposite corners)."""
        if p["name"] == "MENU":
            x0, yc, up = SIDE_X - BODY_S // 2, MENU_Y, True
        else:
            x0 = self._col_x(p["player"], p["col"]) + BODY_X
            yc = self._row_y(p)
            up = p["player"] == "A"  # A's wires come from above, B's from below
        if which == "signal":
            return x0, yc + (-LEG if up else LEG)
        return x0 + BODY_S, yc + (LEG if up else -LEG)

    def _row_y(self, p):
        return {("A", "far"): A_FAR_Y, ("A", "near"): A_NEAR_Y,
                ("B", "far"): B_FAR_Y, ("B", "near"): B_NEAR_Y}[(p["player"], p["row"])]

    # ---- wires as polylines

    def build_paths(self):
        for chan, lanes, side in ((self.bottom, self.bottom_lanes, "bottom"),
                                  (self.top, self.top_lanes, "top")):
            for w, p in chan:
                y = lanes[w.name]
                if p is not None:
                    self.used_pins[p["phys"]] = p["group"]
                if w.name.startswith("GND "):
                    self._trunk_path(w, y, side)
                elif w.name == "3V3 up":
                    self._power_path(y)
                elif w.name == "3V3":
                    continue  # drawn with "3V3 up"
                elif w.name.startswith("OLED"):
                    x0, y0 = pin_edge(p["phys"])
                    self.paths.append((p["group"], [(x0, y0), (x0, y), (w.t, y),
                                                    (w.t, OLED_PAD_Y)], self._title(p)))
                elif p["name"] in ("MENU", "Piezo +"):
                    self._side_path(p, w, y)
                else:
                    self._key_path(p, w, y, side)
        self._rails()

    def _title(self, p):
        return "%s · %s · pin %d" % (p["name"], p["pin"], p["phys"])

    def _key_path(self, p, w, y, side):
        x0, y0 = pin_edge(p["phys"])
        info = self.cluster[p["player"]]
        sx, sy = self.leg(p, "signal")
        if w.name in info["between"]:
            bw, by = info["between"][w.name]
            pts = [(x0, y0), (x0, y), (w.t, y), (w.t, by), (bw.t, by), (bw.t, sy), (sx, sy)]
        else:
            pts = [(x0, y0), (x0, y), (w.t, y), (w.t, sy), (sx, sy)]
        self.paths.append((p["group"], pts, self._title(p)))

    def _side_path(self, p, w, y):
        x0, y0 = pin_edge(p["phys"])
        if p["name"] == "MENU":
            tx, ty = self.leg(p, "signal")
        else:
            tx, ty = SIDE_X - 22, PIEZO_Y
        self.paths.append((p["group"], [(x0, y0), (x0, y), (w.t, y), (w.t, ty), (tx, ty)],
                           self._title(p)))

    def _power_path(self, y_top):
        x0, y0 = pin_edge(PIN_3V3)
        y_bottom = self.bottom_lanes["3V3"]
        pts = [(x0, y0), (x0, y_top), (AROUND_LEFT_X, y_top), (AROUND_LEFT_X, y_bottom),
               (OLED_PIN_X[1], y_bottom), (OLED_PIN_X[1], OLED_PAD_Y)]
        self.paths.append(("3V3", pts, "3V3(OUT) · pin %d → OLED VCC" % PIN_3V3))

    def _trunk_path(self, w, y, side):
        player = "A" if side == "bottom" else "B"
        info = self.cluster[player]
        n = info["trunk_pin"]
        x0, y0 = pin_edge(n)
        rail = A_FAR_RAIL if player == "A" else B_FAR_RAIL
        pts = [(x0, y0), (x0, y), (w.t, y), (w.t, rail)]
        self.paths.append(("GND", pts, "GND · pin %d" % n))
        self.dots.append((w.t, rail, "GND"))

    def _rails(self):
        """GND rails under/over each row, the drops from each switch, the link between the
        two rails of a cluster, the OLED's and the side parts' GND."""
        for player in "AB":
            info = self.cluster[player]
            for row in ("near", "far"):
                rail = {("A", "far"): A_FAR_RAIL, ("A", "near"): A_NEAR_RAIL,
                        ("B", "far"): B_FAR_RAIL, ("B", "near"): B_NEAR_RAIL}[(player, row)]
                xs = [info["link_x"]]
                for c in range(4):
                    p = [q for q in self.parts if q.get("player") == player and
                         q.get("row") == row and q.get("col") == c][0]
                    gx, gy = self.leg(p, "gnd")
                    drop = self._col_x(player, c) + GND_X
                    self.paths.append(("GND", [(gx, gy), (drop, gy), (drop, rail)],
                                       "%s GND leg" % p["name"]))
                    self.dots.append((drop, rail, "GND"))
                    xs.append(drop)
                if row == "far":
                    xs.append(info["trunk_x"])
                lo, hi = min(xs), max(xs)
                if player == "A" and row == "near":
                    lo = min(lo, OLED_X - 14)
                    hi = max(hi, SIDE_GND_X[1])
                self.paths.append(("GND rail", [(lo, rail), (hi, rail)], "GND rail"))
            link = info["link_x"]
            self.paths.append(("GND", [(link, A_FAR_RAIL if player == "A" else B_FAR_RAIL),
                                       (link, A_NEAR_RAIL if player == "A" else B_NEAR_RAIL)],
                               "GND: joins the two rails"))
            for rail in ((A_FAR_RAIL, A_NEAR_RAIL) if player == "A" else
                         (B_FAR_RAIL, B_NEAR_RAIL)):
                self.dots.append((link, rail, "GND"))
        # The OLED's GND goes round its left side to the bottom rail.
        gx = OLED_PIN_X[0]
        self.paths.append(("GND", [(gx, OLED_PAD_Y), (gx, OLED_Y - 10), (OLED_X - 14, OLED_Y - 10),
                                   (OLED_X - 14, A_NEAR_RAIL)], "OLED GND"))
        self.dots.append((OLED_X - 14, A_NEAR_RAIL, "GND"))
        # MENU's and the piezo's GND legs drop to the bottom rail.
        menu_gx, menu_gy = self.leg({"name": "MENU"}, "gnd")
        self.paths.append(("GND", [(menu_gx, menu_gy), (SIDE_GND_X[0], menu_gy),
                                   (SIDE_GND_X[0], A_NEAR_RAIL)], "MENU GND leg"))
        self.dots.append((SIDE_GND_X[0], A_NEAR_RAIL, "GND"))
        self.paths.append(("GND", [(SIDE_X + 22, PIEZO_Y), (SIDE_GND_X[1], PIEZO_Y),
                                   (SIDE_GND_X[1], A_NEAR_RAIL)], "piezo − leg"))
        self.dots.append((SIDE_GND_X[1], A_NEAR_RAIL, "GND"))

    # ---- drawing

    def svg(self):
        self.route()
        self.build_paths()
        out: list = []
        a = out.append
        a('<?xml version="1.0" encoding="UTF-8"?>')
        w, h = self.width, self.height
        a('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
          'font-family="%s">' % (w, h, w, h, FONT))
        a("<title>%s</title>" % self.title)
        a('<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>' % (w, h))
        a(self._header())
        a(self._panels())
        a(self._pico())
        a(self._wires())
        a(self._buttons())
        a(self._oled())
        a(self._side_parts())
        a(self._legend())
        a(self._inset())
        a(self._footer())
        a("</svg>")
        return "\n".join(s for s in out if s) + "\n"

    def _header(self):
        return "\n".join([
            '<text x="24" y="38" font-size="26" font-weight="bold" fill="#111">'
            'California Speed handheld — wiring</text>',
            '<text x="24" y="62" font-size="13" fill="#444">Raspberry Pi Pico + SSD1306 '
            '128×64 I2C OLED + 17 push buttons + passive piezo. Default pins of '
            'hardware/pinmap.py (settings.toml). Seen from above, as on the box.</text>',
        ])

    def _panels(self):
        out = []
        x0 = CLUSTER_X - 80
        x1 = CLUSTER_X + 4 * CELL_W + 8
        for player, y0, y1, fill in (("B", B_NEAR_RAIL - 14, B_FAR_Y + 52, "#f7f1fa"),
                                     ("A", A_FAR_Y - 52, A_NEAR_RAIL + 14, "#eef4fb")):
            out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="10" fill="%s" '
                       'stroke="#d0d0d0"/>' % (x0, y0, x1 - x0, y1 - y0, fill))
            for row in ("near", "far"):
                y = self._row_y({"player": player, "row": row})
                tx = x0 + 14
                out.append('<text x="%d" y="%d" font-size="12" font-weight="bold" fill="%s" '
                           'text-anchor="middle" transform="rotate(-90 %d %d)">%s ROW</text>'
                           % (tx, y, COLOUR["%s %s" % (player, row)], tx, y, row.upper()))
        out.append('<text x="%d" y="%d" font-size="15" font-weight="bold" fill="#333">'
                   'PLAYER B sits here, at the top edge, facing A ▼</text>'
                   % (x0, B_NEAR_RAIL - 36))
        out.append('<text x="%d" y="%d" font-size="12" fill="#555">B\'s buttons are mounted '
                   'turned round: B\'s left is the right of this drawing (B near 1 is on the '
                   'right).</text>' % (x0, B_NEAR_RAIL - 20))
        out.append('<text x="%d" y="%d" font-size="15" font-weight="bold" fill="#333">'
                   'PLAYER A sits here, at the bottom edge ▲</text>' % (x0, A_NEAR_RAIL + 36))
        out.append('<text x="%d" y="%d" font-size="12" fill="#555">A\'s left is the left of '
                   'this drawing. Each player\'s near row is their own piles, the far row the '
                   'opponent\'s.</text>' % (x0, A_NEAR_RAIL + 52))
        y3 = self.bottom_lanes["3V3"]
        out.append('<text x="%d" y="%d" font-size="11" fill="%s" text-anchor="end">3V3(OUT) · '
                   'pin %d</text>' % (AROUND_LEFT_X - 8, y3 - 5, COLOUR["3V3"], PIN_3V3))
        return "\n".join(out)

    def _pico(self):
        out = ['<g id="pico">']
        # The USB connector on the left (or right) end.
        x0, x1, y0, y1 = self.px0, self.px1, self.py0, self.py1
        ym = (y0 + y1) // 2
        out.append('<rect x="%d" y="%d" width="34" height="44" rx="3" fill="#b0b7bd" '
                   'stroke="#6b737a"/>' % (x1 - 12 if self.usb_right else x0 - 22, ym - 22))
        out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="#23803c" '
                   'stroke="#155a28" stroke-width="2"/>' % (x0, y0, x1 - x0, y1 - y0))
        out += self._usb_note(ym)
        out.append('<text x="%d" y="%d" font-size="22" font-weight="bold" fill="#ffffff" '
                   'text-anchor="middle">Raspberry Pi Pico</text>' % ((x0 + x1) // 2, ym - 2))
        out.append('<text x="%d" y="%d" font-size="12" fill="#d8f0dc" text-anchor="middle">'
                   'top view · %s</text>' % ((x0 + x1) // 2, ym + 18, self._pico_view()))
        for n in range(1, 41):
            x, y = self.pin_xy(n)
            name = PICO_PINS[n]
            group = self.used_pins.get(n)
            ring = COLOUR.get(group, "#8a7a3a") if group else "#8a7a3a"
            width = 3.5 if group else 1.2
            if name == "GND":
                out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#e8d9a0" '
                           'stroke="%s" stroke-width="%s"/>'
                           % (x - PAD_R, y - PAD_R, 2 * PAD_R, 2 * PAD_R, ring, width))
            else:
                out.append('<circle cx="%d" cy="%d" r="%d" fill="#e8d9a0" stroke="%s" '
                           'stroke-width="%s"/>' % (x, y, PAD_R, ring, width))
            out.append('<text x="%d" y="%d" font-size="9" font-weight="bold" fill="#222" '
                       'text-anchor="middle">%d</text>' % (x, y + 3, n))
            lines = _pin_label_lines(name)
            step = 11
            for k, line in enumerate(lines):
                if not self.pin_on_top(n):
                    ty = y - 18 - (len(lines) - 1 - k) * step
                else:
                    ty = y + 26 + k * step
                colour = "#ffffff" if group else "#b9dcc0"
                weight = ' font-weight="bold"' if group else ""
                out.append('<text x="%d" y="%d" font-size="10"%s fill="%s" '
                           'text-anchor="middle">%s</text>' % (x, ty, weight, colour, line))
        out.append("</g>")
        return "\n".join(out)

    def _pico_view(self):
        return "USB on the left · pins 1–20 along the bottom edge, 21–40 along the top"

    def _usb_note(self, ym):
        return ['<text x="%d" y="%d" font-size="11" fill="#333" text-anchor="end">%s</text>'
                % (AROUND_LEFT_X - 8, ym - 12 + 13 * k, text)
                for k, text in enumerate(("USB (micro-B):", "power and", "serial console"))]

    def _wires(self):
        segs = []  # (x0, y0, x1, y1, path index)
        for i, (_, pts, _) in enumerate(self.paths):
            for (xa, ya), (xb, yb) in zip(pts, pts[1:]):
                segs.append((xa, ya, xb, yb, i))
        out = ['<g id="wires" fill="none" stroke-linecap="round" stroke-linejoin="round">']
        n_hops = 0
        def net_of(j):  # every GND wire is one net; every other wire is its own
            return "GND" if self.paths[j][0].startswith("GND") else j

        for i, (group, pts, title) in enumerate(self.paths):
            net = net_of(i)
            d = ["M%d %d" % pts[0]]
            for (xa, ya), (xb, yb) in zip(pts, pts[1:]):
                if ya == yb and xa != xb:
                    hops = []
                    for (ua, va, ub, vb, j) in segs:
                        if j == i or ua != ub:
                            continue
                        if net_of(j) == net:
                            continue
                        if min(xa, xb) < ua < max(xa, xb) and min(va, vb) < ya < max(va, vb):
                            hops.append(ua)
                    step = 1 if xb > xa else -1
                    for hx in sorted(set(hops), reverse=step < 0):
                        d.append("L%d %d" % (hx - 6 * step, ya))
                        d.append("A6 6 0 0 %d %d %d" % (1 if step > 0 else 0, hx + 6 * step, ya))
                        n_hops += 1
                d.append("L%d %d" % (xb, yb))
            width = 4.5 if group == "GND rail" else 2.6
            colour = COLOUR["GND" if net == "GND" else group]
            out.append('<path d="%s" stroke="%s" stroke-width="%s"><title>%s</title></path>'
                       % (" ".join(d), colour, width, esc(title)))
        for x, y, group in self.dots:
            out.append('<circle cx="%d" cy="%d" r="4.5" fill="%s"/>' % (x, y, COLOUR[group]))
        out.append("</g>")
        self.hops = n_hops
        return "\n".join(out)

    def _switch(self, x0, yc, group, up):
        """A 4-leg tactile switch; the used legs (diagonally opposite) in the wire colour."""
        out = []
        s = BODY_S
        for dx in (0, s):
            for dy in (-LEG, LEG):
                used = (dx == 0 and dy == (-LEG if up else LEG)) or \
                       (dx == s and dy == (LEG if up else -LEG))
                colour = (COLOUR[group] if dx == 0 else COLOUR["GND"]) if used else "#9e9e9e"
                lx = x0 - 5 if dx == 0 else x0 + s
                out.append('<rect x="%d" y="%d" width="5" height="4" fill="%s"/>'
                           % (lx, yc + dy - 2, colour))
        out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="4" fill="#fafafa" '
                   'stroke="#424242" stroke-width="1.6"/>' % (x0, yc - s // 2, s, s))
        out.append('<circle cx="%d" cy="%d" r="13" fill="%s" stroke="#212121" '
                   'stroke-width="1.2"/>' % (x0 + s // 2, yc, COLOUR[group]))
        return out

    def _buttons(self):
        out = ['<g id="buttons">']
        for p in self.parts:
            if p["key"] is None or p["key"] > 15:
                continue
            x0 = self._col_x(p["player"], p["col"])
            yc = self._row_y(p)
            up = p["player"] == "A"
            out += self._switch(x0 + BODY_X, yc, p["group"], up)
            ty = yc - BODY_S // 2 - 8 if up else yc + BODY_S // 2 + 16
            out.append(self._key_label(x0 + 104, ty, p))
        out.append("</g>")
        return "\n".join(out)

    def _key_label(self, x, y, p):
        return ('<text x="%d" y="%d" font-size="11.5" text-anchor="middle" fill="%s">'
                '<tspan font-weight="bold">%s</tspan> · %s · pin %d</text>'
                % (x, y, COLOUR[p["group"]], p["name"], p["pin"], p["phys"]))

    def _oled(self):
        x, y = self.oled_x, self.oled_y
        pad_y = y + OLED_PAD_Y - OLED_Y
        out = ['<g id="oled">']
        out.append('<rect x="%d" y="%d" width="180" height="%d" rx="6" fill="#1d3f72" '
                   'stroke="#0f2448" stroke-width="2"/>' % (x, y, OLED_H))
        out.append('<rect x="%d" y="%d" width="156" height="%d" fill="#0a0a0a"/>'
                   % (x + 12, y + 36, OLED_H - 44))
        for k, text in enumerate(("B\'s piles (upside down)", "SSD1306 128×64", "A\'s piles")):
            out.append('<text x="%d" y="%d" font-size="11" fill="#7fd4ff" text-anchor="middle">'
                       '%s</text>' % (x + 90, y + 54 + 20 * k, text))
        for px, name in zip(OLED_PIN_X, ("GND", "VCC", "SCL", "SDA")):
            px += x - OLED_X
            out.append('<circle cx="%d" cy="%d" r="6" fill="#e8d9a0" stroke="#6b5a1f"/>'
                       % (px, pad_y))
            out.append('<text x="%d" y="%d" font-size="10" font-weight="bold" fill="#ffffff" '
                       'text-anchor="middle">%s</text>' % (px, pad_y + 20, name))
        addr = pinmap.default("CS_I2C_ADDRESS")
        sda = pinmap.default("CS_I2C_SDA")
        scl = pinmap.default("CS_I2C_SCL")
        lines = (
            ("OLED 0.96\" I2C · address 0x%02X" % addr, "#111", True),
            ("VCC ← 3V3(OUT) · pin %d" % PIN_3V3, COLOUR["3V3"], False),
            ("GND ← " + self._oled_gnd_text(), COLOUR["GND"], False),
            ("SCL ← %s · pin %d" % (scl, physical_pin(scl)), COLOUR["SCL"], False),
            ("SDA ← %s · pin %d" % (sda, physical_pin(sda)), COLOUR["SDA"], False),
            ("Pin order varies by module:", "#555", False),
            ("follow the labels on yours.", "#555", False),
        )
        for k, (text, colour, bold) in enumerate(lines):
            out.append('<text x="%d" y="%d" font-size="11"%s fill="%s">%s</text>'
                       % (x - 6, y + OLED_H + 15 + 12 * k, ' font-weight="bold"' if bold else "",
                          colour, esc(text)))
        out.append("</g>")
        return "\n".join(out)

    def _oled_gnd_text(self):
        return "GND rail"

    def _side_parts(self):
        p_by = {p["name"]: p for p in self.parts}
        out = ['<g id="side">']
        menu = p_by["MENU"]
        out += self._switch(SIDE_X - BODY_S // 2, MENU_Y, "MENU", True)
        lx = SIDE_X - BODY_S // 2 - 4
        out.append('<text x="%d" y="%d" font-size="11.5" fill="%s">'
                   '<tspan font-weight="bold">MENU</tspan> · %s · pin %d</text>'
                   % (lx, MENU_Y + BODY_S // 2 + 16, COLOUR["MENU"], menu["pin"], menu["phys"]))
        out.append('<text x="%d" y="%d" font-size="10.5" fill="#555">on the side of the box'
                   '</text>' % (lx, MENU_Y + BODY_S // 2 + 30))
        pz = p_by["Piezo +"]
        out.append('<circle cx="%d" cy="%d" r="22" fill="#2b2b2b" stroke="#000"/>'
                   % (SIDE_X, PIEZO_Y))
        out.append('<circle cx="%d" cy="%d" r="6" fill="#777"/>' % (SIDE_X, PIEZO_Y))
        out.append('<text x="%d" y="%d" font-size="12" font-weight="bold" fill="%s" '
                   'text-anchor="middle">+</text>' % (SIDE_X - 30, PIEZO_Y - 6,
                                                      COLOUR["Piezo"]))
        out.append('<text x="%d" y="%d" font-size="12" font-weight="bold" fill="#212121" '
                   'text-anchor="middle">−</text>' % (SIDE_X + 30, PIEZO_Y - 6))
        out.append('<text x="%d" y="%d" font-size="11.5" fill="%s" text-anchor="middle">'
                   '<tspan font-weight="bold">Piezo +</tspan> · %s · pin %d</text>'
                   % (SIDE_X, PIEZO_Y - 32, COLOUR["Piezo"], pz["pin"], pz["phys"]))
        out.append('<text x="%d" y="%d" font-size="10.5" fill="#555" text-anchor="middle">'
                   'passive piezo (optional 100 Ω in series)</text>' % (SIDE_X, PIEZO_Y - 46))
        out.append("</g>")
        return "\n".join(out)

    def _inset(self):
        """One switch, enlarged: which two legs to use."""
        x, y = 1158, 764
        out = self._inset_box(x, y, 212, 236, "One button, up close")
        bx, by, bs = x + 71, y + 48, 70
        out += self._big_switch(bx, by, bs, "#1565c0", "#212121")
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888" stroke-width="1.2" '
                   'stroke-dasharray="4 3"/>' % (bx - 6, by + 13, bx + bs + 6, by + bs - 13))
        out.append('<text x="%d" y="%d" font-size="11" fill="#1565c0" text-anchor="end">'
                   'to its pin</text>' % (bx - 16, by + 17))
        out.append('<text x="%d" y="%d" font-size="11" fill="#212121">to GND</text>'
                   % (bx + bs + 16, by + bs - 9))
        lines = ("Use two diagonally opposite legs:",
                 "one to the button's pin, one to",
                 "GND. That works whichever way",
                 "round the switch sits. Push each",
                 "switch across the centre gap",
                 "of its breadboard.")
        return self._inset_end(out, x + 12, by + bs + 26, lines)

    def _inset_box(self, x, y, w, h, title):
        """The opening of an inset: its group, its box and its title."""
        return ['<g id="inset">',
                '<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="#fbfbfb" '
                'stroke="#cfcfcf"/>' % (x, y, w, h),
                '<text x="%d" y="%d" font-size="13" font-weight="bold" fill="#222">%s</text>'
                % (x + 12, y + 22, title)]

    def _inset_end(self, out, x, y, lines):
        """An inset's text under its picture, and its end: the inset's SVG."""
        for k, text in enumerate(lines):
            out.append('<text x="%d" y="%d" font-size="11" fill="#333">%s</text>'
                       % (x, y + 15 * k, text))
        out.append("</g>")
        return "\n".join(out)

    def _big_switch(self, bx, by, bs, first, second, fill="#1565c0"):
        """An enlarged switch: its top-left leg in the colour first, the diagonally
        opposite leg in second, the other two grey."""
        out = []
        for dx in (-12, bs):
            for dy in (10, bs - 16):
                used = (dx < 0 and dy == 10) or (dx > 0 and dy != 10)
                colour = (first if dx < 0 else second) if used else "#9e9e9e"
                out.append('<rect x="%d" y="%d" width="12" height="6" fill="%s"/>'
                           % (bx + dx, by + dy, colour))
        out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="#fafafa" '
                   'stroke="#424242" stroke-width="2"/>' % (bx, by, bs, bs))
        out.append('<circle cx="%d" cy="%d" r="20" fill="%s" stroke="#212121"/>'
                   % (bx + bs // 2, by + bs // 2, fill))
        return out

    def _legend(self):
        return self._legend_box(1180, 86, COLOURS, (
            "● a dot: wires joined",
            "⌒ a hop: wires cross, not joined",
            "Each button: its pin to one leg, GND to",
            "the diagonally opposite leg. No resistors:",
            "the firmware turns on the pull-ups.",
        ))

    def _legend_box(self, x, y, colours, notes):
        out = ['<g id="legend">']
        out.append('<rect x="%d" y="%d" width="284" height="%d" rx="8" fill="#fbfbfb" '
                   'stroke="#cfcfcf"/>' % (x, y, 28 + 19 * len(colours) + 96))
        out.append('<text x="%d" y="%d" font-size="14" font-weight="bold" fill="#222">'
                   'Wire colours</text>' % (x + 12, y + 22))
        for k, (group, colour, text) in enumerate(colours):
            yy = y + 42 + 19 * k
            out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="%s"/>'
                       % (x + 12, yy - 4, x + 44, yy - 4, colour, 4.5 if group == "GND" else 3))
            out.append('<text x="%d" y="%d" font-size="11.5" fill="#222">%s</text>'
                       % (x + 52, yy, esc(text)))
        yy = y + 42 + 19 * len(colours) + 4
        for k, text in enumerate(notes):
            out.append('<text x="%d" y="%d" font-size="11" fill="#333">%s</text>'
                       % (x + 12, yy + 16 * k, esc(text)))
        out.append("</g>")
        return "\n".join(out)

    def _footer(self):
        return "\n".join('<text x="24" y="%d" font-size="12" fill="#444">%s</text>'
                         % (self.height - 34 + 16 * k, esc(t))
                         for k, t in enumerate(self._footer_lines()))

    def _footer_lines(self):
        gnd = ", ".join(str(n) for n in GND_PINS)
        return (
            "The Pico's GND pins (%s) are all joined inside it: any of them will do. "
            "Power: the USB cable, or a power bank (see docs/BUILD.md)." % gnd,
            "Generated by tools/wiring.py from hardware/pinmap.py — do not edit by hand. "
            "Pin table: docs/pins.md. Moved a part? Change settings.toml on the board.",
        )


def _pin_label_lines(name):
    return {"ADC_VREF": ("ADC", "VREF"), "3V3(OUT)": ("3V3", "OUT"), "3V3_EN": ("3V3", "EN")
            }.get(name, (name,))


def esc(text):
    """text with &, < and > written as SVG text takes them."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
