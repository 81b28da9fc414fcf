"""The board held against what a fab, a class and Raspberry Pi's own footprint expect
(issue 45): every part named on the silkscreen in legible strokes, read back both from
the board (pcbnew) and from the silkscreen gerber the fab prints (KiCad plots text as
strokes: each label's strokes in the gerber are matched against the strokes KiCad draws
for each candidate word); the OLED's pins named in the order the copper wires them to the
pin map's pins; the Pico's pads reaching past its edge with the holes under its USB shell;
the holder's boss holes taking either figure; vias with margin; the Schottky lying flat.
KiCad's pcbnew imports only in Debian's /usr/bin/python3: the board is read there."""
import json
import os
import re
import subprocess

import pytest

from hardware import pinmap
from tools.boardcode import ROOT
from tools.pcb import KICAD_PYTHON, kicad_missing

BOARD = os.path.join(ROOT, "hardware", "pcb", "california-speed.kicad_pcb")
PLACEMENT = os.path.join(ROOT, "hardware", "pcb", "placement.json")
NO_KICAD = kicad_missing()
pytestmark = pytest.mark.skipif(NO_KICAD != "", reason=NO_KICAD)
OLED_WORDS = ("GND", "VCC", "SCL", "SDA")

# Read in Debian's Python: plain pcbnew, none of make pcb's own code.
READ = r'''
import json, sys, pcbnew
b = pcbnew.LoadBoard(sys.argv[1])
MM = 1e6
def box(t):
    r = t.GetEffectiveTextShape().BBox()
    return [r.GetLeft() / MM, r.GetTop() / MM, r.GetRight() / MM, r.GetBottom() / MM]
def text(t, owner):
    return {"owner": owner, "text": t.GetShownText(False), "layer": t.GetLayerName(),
            "visible": t.IsVisible(), "height": t.GetTextHeight() / MM,
            "thickness": t.GetTextThickness() / MM, "angle": t.GetTextAngleDegrees(),
            "mirrored": t.IsMirrored(), "box": box(t),
            "halign": int(t.GetHorizJustify()), "valign": int(t.GetVertJustify())}
texts, strokes, parts = [], [], {}
silk = ("F.Silkscreen", "B.Silkscreen")
for d in b.GetDrawings():
    if d.GetLayerName() in silk and isinstance(d, pcbnew.PCB_TEXT):
        texts.append(text(d, ""))
    elif d.GetLayerName() in silk:
        strokes.append(d.GetWidth() / MM)
for fp in b.Footprints():
    ref = fp.GetReference()
    r = fp.Reference()
    parts[ref] = {"label": text(r, ref), "board_only": fp.IsBoardOnly(),
                  "x": fp.GetPosition().x / MM, "y": fp.GetPosition().y / MM,
                  "pads": [{"number": p.GetNumber(), "net": p.GetNetname(),
                            "x": p.GetPosition().x / MM, "y": p.GetPosition().y / MM,
                            "size": sorted([p.GetBoundingBox().GetWidth() / MM,
                                            p.GetBoundingBox().GetHeight() / MM]),
                            "box": [p.GetBoundingBox().GetLeft() / MM,
                                    p.GetBoundingBox().GetTop() / MM,
                                    p.GetBoundingBox().GetRight() / MM,
                                    p.GetBoundingBox().GetBottom() / MM],
                            "drill": p.GetDrillSize().x / MM,
                            "plated": p.GetAttribute() != pcbnew.PAD_ATTRIB_NPTH}
                           for p in fp.Pads()]}
    if r.IsVisible() and r.GetLayerName() in silk:
        texts.append(text(r, ref))
    for item in fp.GraphicalItems():
        if item.GetLayerName() in silk and isinstance(item, pcbnew.PCB_TEXT):
            texts.append(text(item, ref))
        elif item.GetLayerName() in silk:
            strokes.append(item.GetWidth() / MM)
vias = [(v.GetWidth(pcbnew.F_Cu) / MM, v.GetDrill() / MM) for v in b.GetTracks()
        if v.GetClass() == "PCB_VIA"]
print(json.dumps({"texts": texts, "strokes": strokes, "parts": parts, "vias": vias}))
'''

# Draw words on a board of their own, as given, and save it (for their gerber strokes).
DRAW = r'''
import json, sys, pcbnew
words, path = json.loads(sys.argv[1]), sys.argv[2]
b = pcbnew.BOARD()
for w in words:
    t = pcbnew.PCB_TEXT(b)
    t.SetText(w["text"])
    t.SetLayer(b.GetLayerID(w["layer"]))
    t.SetTextSize(pcbnew.VECTOR2I(int(w["height"] * 1e6), int(w["height"] * 1e6)))
    t.SetTextThickness(int(w["thickness"] * 1e6))
    t.SetHorizJustify(w["halign"])
    t.SetVertJustify(w["valign"])
    t.SetTextAngleDegrees(w["angle"])
    t.SetMirrored(w["mirrored"])
    t.SetPosition(pcbnew.VECTOR2I(int(w["x"] * 1e6), int(w["y"] * 1e6)))
    b.Add(t)
pcbnew.SaveBoard(path, b)
'''


def kicad(code, *args):
    p = subprocess.run([KICAD_PYTHON, "-c", code] + [str(a) for a in args],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout.strip().splitlines()[-1]) if p.stdout.strip() else None


@pytest.fixture(scope="module")
def board():
    return kicad(READ, BOARD)


def silk_gerbers(board_file, folder):
    """{layer: [segment]} of a board's two silkscreen gerbers (kicad-cli, as make pcb
    exports them for the fab): each segment ((x0, y0), (x1, y1), aperture width)."""
    os.makedirs(folder, exist_ok=True)
    subprocess.run(["kicad-cli", "pcb", "export", "gerbers", "--no-x2", "--no-netlist", "-l",
                    "F.Silkscreen,B.Silkscreen", "-o", str(folder) + "/", str(board_file)],
                   capture_output=True, check=True)
    out = {}
    for layer, ext in (("F.Silkscreen", ".gto"), ("B.Silkscreen", ".gbo")):
        [name] = [n for n in os.listdir(folder) if n.endswith(ext)]
        with open(os.path.join(folder, name)) as f:
            out[layer] = segments(f.read())
    return out


def segments(gerber):
    """The strokes of an RS-274X file: every D01 move with a round aperture."""
    m = re.search(r"%FSLAX(\d)(\d)Y", gerber)
    scale = 10 ** int(m.group(2))
    apertures = {a: float(w) for a, w in re.findall(r"%ADD(\d+)C,([\d.]+)", gerber)}
    width, x, y, out = None, 0.0, 0.0, []
    for block in gerber.replace("\n", "").split("*"):
        d = re.fullmatch(r"(?:G54)?D(\d+)", block)
        if d and int(d.group(1)) >= 10:
            width = apertures.get(d.group(1))
            continue
        move = re.fullmatch(r"(?:G0?1)?(?:X(-?\d+))?(?:Y(-?\d+))?D0?([123])", block)
        if not move:
            continue
        nx = int(move.group(1)) / scale if move.group(1) else x
        ny = int(move.group(2)) / scale if move.group(2) else y
        if move.group(3) == "1" and width is not None:
            out.append(((x, -y), (nx, -ny), width))  # gerber y up, the board's down
        x, y = nx, ny
    return out


def inside(segs, box, margin):
    x0, y0, x1, y1 = box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin
    return [s for s in segs if all(x0 <= p[0] <= x1 and y0 <= p[1] <= y1 for p in s[:2])]


def shape(segs):
    """Strokes moved to their own corner, rounded: what a word looks like, wherever it is."""
    if not segs:
        return frozenset()
    ox = min(min(a[0], b[0]) for a, b, _ in segs)
    oy = min(min(a[1], b[1]) for a, b, _ in segs)
    return frozenset(tuple(sorted(((round(a[0] - ox, 2), round(a[1] - oy, 2)),
                                   (round(b[0] - ox, 2), round(b[1] - oy, 2))))) + (w,)
                     for a, b, w in segs)


def test_every_part_is_named_on_the_silkscreen_in_legible_strokes(board):
    parts = {r: p for r, p in board["parts"].items() if not p["board_only"]}
    assert len(parts) == 58  # 25 switches, 24 diodes, 3 resistors, 6 more
    for ref, p in parts.items():
        label = p["label"]
        assert label["visible"] and label["layer"].endswith("Silkscreen"), ref
        assert label["text"] == ref
        assert label["height"] >= 1.0 and label["thickness"] >= 0.15, ref
    assert board["strokes"] and min(board["strokes"]) >= 0.15
    assert all(t["height"] >= 1.0 and t["thickness"] >= 0.15 for t in board["texts"])
    words = {t["text"] for t in board["texts"]}
    assert {"A", "B", "+", "-", "MIT licence", "California Speed"} <= words
    assert any(w.startswith("board rev ") for w in words)


def test_no_label_touches_a_pad(board):
    pads = [p["box"] for part in board["parts"].values() for p in part["pads"]]
    for t in board["texts"]:
        x0, y0, x1, y1 = t["box"]
        for p in pads:
            assert (x1 + 0.15 <= p[0] or p[2] + 0.15 <= x0 or y1 + 0.15 <= p[1]
                    or p[3] + 0.15 <= y0), (t["owner"], t["text"])


def oled_labels(board):
    """The OLED's four pin names on the board, left to right, and the role the copper gives
    each of its pads, left to right: the net of the pin map's SDA or SCL GPIO, of the Pico's
    3V3(OUT) (pin 36), or GND."""
    from tools.pcb import PICO_GPIO
    pico = {p["number"]: p["net"] for p in board["parts"]["U1"]["pads"]}
    role = {pico[str(PICO_GPIO[int(pinmap.default("CS_I2C_SDA")[2:])])]: "SDA",
            pico[str(PICO_GPIO[int(pinmap.default("CS_I2C_SCL")[2:])])]: "SCL",
            pico["36"]: "VCC", pico["3"]: "GND"}
    pads = sorted(board["parts"]["J1"]["pads"], key=lambda p: p["x"])
    labels = sorted((t for t in board["texts"] if t["owner"] == "J1" and t["text"] != "J1"),
                    key=lambda t: t["box"][0])
    return labels, [role.get(p["net"]) for p in pads], pads


def test_the_oleds_pins_are_named_beside_their_pads_in_the_pin_maps_order(board):
    labels, roles, pads = oled_labels(board)
    assert [t["text"] for t in labels] == roles == ["GND", "VCC", "SCL", "SDA"]
    for t, p in zip(labels, pads):  # each under its own pad
        assert t["box"][0] < p["x"] < t["box"][2] and t["box"][1] > p["y"]


def test_the_silkscreen_gerber_prints_every_label_and_reads_the_oleds_in_order(
        board, tmp_path):
    fab = silk_gerbers(BOARD, tmp_path / "fab")
    # each label's strokes, drawn on a board of their own, are in the fab's gerber
    alone = tmp_path / "alone.kicad_pcb"
    kicad(READ_POSITIONS, BOARD, alone)
    drawn = silk_gerbers(alone, tmp_path / "alone")
    for layer in drawn:
        missing = {s[:2] for s in drawn[layer]} - {s[:2] for s in fab[layer]}
        assert not missing, (layer, sorted(missing)[:5])
    for t in board["texts"]:
        assert inside(fab[t["layer"]], t["box"], t["thickness"]), (t["owner"], t["text"])
    # the OLED's labels read back from the gerber: which word KiCad's strokes spell there
    labels, roles, _ = oled_labels(board)
    sample = labels[0]
    candidates = [dict(sample, text=w, x=i * 10.0, y=0.0) for i, w in enumerate(OLED_WORDS)]
    words_board = tmp_path / "words.kicad_pcb"
    kicad(DRAW, json.dumps(candidates), words_board)
    alphabet = silk_gerbers(words_board, tmp_path / "words")["F.Silkscreen"]
    looks = {}
    for i, w in enumerate(OLED_WORDS):
        near = [s for s in alphabet if i * 10 - 4 < s[0][0] < i * 10 + 4]
        looks[shape(near)] = w
    assert len(looks) == 4 and frozenset() not in looks
    read = [looks.get(shape(inside(fab["F.Silkscreen"], t["box"], t["thickness"])), "?")
            for t in labels]
    assert read == roles, read


# Every silkscreen text of a board, redrawn where it stands on an empty board.
READ_POSITIONS = READ.replace('print(json.dumps({"texts"', 'texts_only(texts)\nprint(json.dumps({"texts"').replace(
    "import json, sys, pcbnew", r'''import json, sys, pcbnew
def texts_only(texts):
    out = pcbnew.BOARD()
    for d in list(b.GetDrawings()) + [i for fp in b.Footprints()
                                      for i in list(fp.GraphicalItems()) + [fp.Reference()]]:
        if isinstance(d, pcbnew.PCB_TEXT) and d.GetLayerName() in silk and d.IsVisible():
            t = pcbnew.PCB_TEXT(out)
            t.SetText(d.GetShownText(False)); t.SetLayer(d.GetLayer())
            t.SetTextSize(d.GetTextSize()); t.SetTextThickness(d.GetTextThickness())
            t.SetHorizJustify(d.GetHorizJustify()); t.SetVertJustify(d.GetVertJustify())
            t.SetTextAngle(d.GetDrawRotation()); t.SetMirrored(d.IsMirrored())
            t.SetPosition(d.GetTextPos()); t.SetKeepUpright(False)
            out.Add(t)
    pcbnew.SaveBoard(sys.argv[2], out)''')


def pico(board):
    u = board["parts"]["U1"]
    return u, [p for p in u["pads"] if p["plated"]], [p for p in u["pads"] if not p["plated"]]


def test_the_picos_pads_are_raspberry_pis_and_reach_a_millimetre_past_its_edge(board):
    from tools.pcb import PICO_W
    u, pads, _ = pico(board)
    assert len(pads) == 40
    for p in pads:
        assert p["size"] == pytest.approx([1.7, 3.5], abs=0.01), p["number"]
        reach = max(abs(p["box"][1] - u["y"]), abs(p["box"][3] - u["y"])) - PICO_W / 2
        assert reach >= 1.0, (p["number"], reach)


def test_the_pico_has_holes_under_its_usb_shell(board):
    from tools.pcb import PICO_L
    u, _, holes = pico(board)
    usb_end = u["x"] + PICO_L / 2  # the Pico lies along x, its USB end at the right edge
    found = sorted((round(usb_end - h["x"], 2), round(h["y"] - u["y"], 3), h["drill"])
                   for h in holes)
    assert found == [(1.5, -2.725, 1.8), (1.5, 2.725, 1.8), (4.53, -2.425, 1.5),
                     (4.53, 2.425, 1.5)]


def test_the_holders_boss_holes_take_either_figure_for_its_bosses(board):
    holes = [p for p in board["parts"]["BT1"]["pads"] if not p["plated"]]
    assert len(holes) == 2
    (a, b) = holes
    centres = ((a["x"] + b["x"]) / 2, (a["y"] + b["y"]) / 2)
    axis = ((b["x"] - a["x"]), (b["y"] - a["y"]))
    length = (axis[0] ** 2 + axis[1] ** 2) ** 0.5
    for spacing in (24.00, 23.495):  # KiCad's footprint; KiCad's model, after Keystone
        for h, s in ((a, -1), (b, 1)):
            boss = (centres[0] + s * axis[0] / length * spacing / 2,
                    centres[1] + s * axis[1] / length * spacing / 2)
            off = ((boss[0] - h["x"]) ** 2 + (boss[1] - h["y"]) ** 2) ** 0.5
            assert off + 3.5 / 2 <= h["drill"] / 2, (spacing, off)  # a 3.5 mm boss fits


def test_vias_have_margin_over_a_fabs_minimum(board):
    assert board["vias"]
    assert min(w for w, _ in board["vias"]) >= 0.8 and min(d for _, d in board["vias"]) >= 0.4


def test_the_schottky_lies_flat_and_nothing_under_the_plate_stands_tall():
    with open(PLACEMENT) as f:
        parts = {p["ref"]: p for p in json.load(f)["parts"]}
    x0, y0, x1, y1 = parts["DS1"]["box"]
    assert max(x1 - x0, y1 - y0) > 12  # a horizontal DO-41: 10.16 mm between its pads
    p = kicad(READ, BOARD)["parts"]["DS1"]["pads"]
    assert abs(p[0]["x"] - p[1]["x"]) + abs(p[0]["y"] - p[1]["y"]) == pytest.approx(10.16)


def test_the_pull_ups_and_the_piezos_resistor_have_pads_and_the_piezo_still_reaches_gp15(
        board):
    nets = {r: {p["number"]: p["net"] for p in board["parts"][r]["pads"]}
            for r in ("R1", "R2", "R3", "LS1", "J1")}
    assert {nets["R1"]["1"], nets["R2"]["1"]} == {nets["J1"]["2"]}  # to 3V3, the OLED's VCC
    assert {nets["R1"]["2"], nets["R2"]["2"]} == {nets["J1"]["4"], nets["J1"]["3"]}
    assert nets["R3"]["2"] == nets["LS1"]["1"]
    with open(os.path.join(ROOT, "hardware", "pcb", "nets.json")) as f:
        assert json.load(f)["piezo"] == pinmap.default("CS_PIEZO")
