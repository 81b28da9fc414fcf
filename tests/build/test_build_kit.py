"""The build kit: the generated wiring diagrams (the direct build's and the matrix
build's), settings.toml and pin tables, the bill of materials and the build guide agree
with hardware/pinmap.py, hardware/keymap.py and with each other."""
import csv
import glob
import os
import re
import tomllib
import xml.etree.ElementTree as ET

import pytest

from hardware import config, keymap, pinmap
from tools import wiring

from tools.boardcode import ROOT
PICO_GPIO = frozenset("GP%d" % n for n in list(range(23)) + [26, 27, 28])
DEFAULTS = {s[0]: s[2] for s in pinmap.SETTINGS}
SVG_NS = "{http://www.w3.org/2000/svg}"


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


BUILDS = ("direct", "matrix")
COLUMNS = len(DEFAULTS["CS_MATRIX_COLUMNS"].split(","))
MATRIX_KEYS = len(keymap.MATRIX_KEYMAP) - 1  # the pile keys (MENU is the map's last key)


def default_pins(build="direct"):
    """Every GPIO the default pin map of a build uses, with what it is."""
    pins: dict = {}
    values = dict(DEFAULTS, CS_KEYS=build)
    if build == "direct":
        names = ["key %d" % k for k in range(keymap.KEY_COUNT)]
    else:
        rows, cols = config.matrix_pins(values)
        names = (["row %d" % r for r in range(len(rows))] + ["column %d" % c for c in
                 range(len(cols))] + ["MENU"])
    names += ["CS_I2C_SDA", "CS_I2C_SCL", "CS_PIEZO"]
    for name, pin in zip(names, config.all_pins(values), strict=True):
        pins.setdefault(pin, []).append(name)
    return pins


def key_name(key):
    """A matrix key's name as the tables and the diagram give it, from its role alone."""
    role = keymap.MATRIX_KEYMAP[key]
    return "%s %s %d" % ("AB"[keymap.player_of(role)], "far" if keymap.is_far(role) else "near",
                         keymap.place_of(role) + 1)


# ----------------------------------------------------------------------------- generated files

def test_generated_files_are_up_to_date():
    assert wiring.stale() == [], (
        "generated files differ from hardware/pinmap.py; run `python -m tools.wiring`")


def test_check_names_each_file_that_differs(tmp_path, capsys):
    written = wiring.write(str(tmp_path))
    assert sorted(written) == sorted(["hardware/wiring.svg", "hardware/wiring-matrix.svg",
                                      "settings.toml", "docs/pins.md"])
    assert wiring.main(["--check"], root=str(tmp_path)) == 0
    (tmp_path / "docs" / "pins.md").write_text("edited by hand\n", encoding="utf-8")
    (tmp_path / "settings.toml").unlink()
    capsys.readouterr()
    assert wiring.main(["--check"], root=str(tmp_path)) == 1
    err = capsys.readouterr().err
    assert "docs/pins.md" in err and "settings.toml" in err
    assert "wiring.svg" not in err and "wiring-matrix.svg" not in err
    assert wiring.main([], root=str(tmp_path)) == 0
    assert wiring.stale(str(tmp_path)) == []


def test_generating_twice_gives_identical_bytes():
    first = wiring.generate()
    second = wiring.generate()
    assert first == second
    for text in first.values():
        assert "/work/" not in text and "/home/" not in text and "C:\\" not in text


# ----------------------------------------------------------------------------- settings.toml

def test_settings_toml_parses_and_has_every_default():
    text = read("settings.toml")
    data = tomllib.loads(text)
    assert list(data) == [s[0] for s in pinmap.SETTINGS] + ["CIRCUITPY_SAFE_MODE_DELAY"]
    assert data["CIRCUITPY_SAFE_MODE_DELAY"] == 0  # no reset button to wait for
    for s in pinmap.SETTINGS:
        assert data[s[0]] == s[2], s[0]
        assert type(data[s[0]]) is type(s[2]), s[0]
    assert re.search(r"^CS_I2C_ADDRESS = 0x3C$", text, re.M)  # hex, as the module says it
    assert text.isascii()


def test_settings_toml_explains_itself():
    text = read("settings.toml")
    header = text.split("\n\n")[0]
    assert "os.getenv" in header and "start-up" in header
    assert "default" in header and "serial console" in header
    assert "tools/wiring.py" in header
    lines = text.splitlines()
    for s in pinmap.SETTINGS:
        at = next(i for i, line in enumerate(lines) if line.startswith(s[0] + " = "))
        comments: list = []
        i = at - 1
        while i >= 0 and lines[i].startswith("#"):
            comments.insert(0, lines[i])
            i -= 1
        block = " ".join(comments)
        assert s[3].lower().split(" (")[0] in block.lower(), s[0]
        assert "Allowed:" in block, s[0]
        if s[1] == "pins":  # how many names, from the setting's own count
            assert "Allowed: %d Pico pin names" % s[4] in block, s[0]
            assert len(s[2].split(",")) == s[4], s[0]


def test_settings_toml_says_which_build_reads_which_key_pins():
    text = read("settings.toml")
    block = text.split("CS_KEYS = ")[0].rsplit("\n\n", 1)[1]
    for key in ("CS_KEYS_A", "CS_KEYS_B", "CS_MATRIX_ROWS", "CS_MATRIX_COLUMNS", "CS_MENU"):
        assert key in block, key
    assert "direct:" in block and "matrix:" in block and "diode" in block
    rows = text.split("CS_MATRIX_ROWS = ")[0].rsplit("\n\n", 1)[1]
    assert "A near, A far, B far, B near" in rows and "near row left to right" not in rows
    columns = text.split("CS_MATRIX_COLUMNS = ")[0].rsplit("\n\n", 1)[1]
    assert "from A's left" in columns and "near row left to right" not in columns


def test_the_firmware_reads_settings_toml_as_the_defaults():
    data = tomllib.loads(read("settings.toml"))
    said: list = []
    values = config.read(data.get, lambda name: name if name in PICO_GPIO else None, said.append)
    assert said == []
    assert values == DEFAULTS


def test_the_example_message_in_settings_toml_is_the_firmwares():
    said: list = []
    config.read(lambda key: "GP99" if key == "CS_MENU" else None,
                lambda name: name if name in PICO_GPIO else None, said.append)
    assert said and ("#   " + said[0]) in read("settings.toml")


# ----------------------------------------------------------------------------- the pin map

@pytest.mark.parametrize("build", BUILDS)
def test_no_pin_is_used_twice(build):
    pins = default_pins(build)
    assert {p: u for p, u in pins.items() if len(u) > 1} == {}
    names = config.all_pins(dict(DEFAULTS, CS_KEYS=build))
    assert len(names) == len(set(names))
    keys = keymap.KEY_COUNT if build == "direct" else 4 + COLUMNS + 1
    assert len(pins) == keys + 3
    assert all(p in PICO_GPIO for p in pins)
    assert wiring.check_pin_map() == []
    # the firmware's own reader takes the build's defaults without a word
    said: list = []
    values = config.read(dict(CS_KEYS=build).get, lambda n: n if n in PICO_GPIO else None,
                         said.append)
    assert said == [] and values["CS_KEYS"] == build


def test_check_pin_map_names_a_clash_in_either_build(monkeypatch):
    settings = [s if s[0] != "CS_MATRIX_COLUMNS" else
                s[:2] + ("GP16,GP17,GP18,GP19,GP20,GP14",) + s[3:] for s in pinmap.SETTINGS]
    monkeypatch.setattr(pinmap, "SETTINGS", tuple(settings))
    assert wiring.check_pin_map() == [
        "GP14 is used twice on the matrix build (Column 6 and MENU)"]
    with pytest.raises(ValueError):
        wiring.generate()


@pytest.mark.parametrize("key,value,said", [
    ("CS_MATRIX_COLUMNS", "GP16,GP17,GP18,GP19,GP20,GP14",
     "GP14 is used twice on the matrix build (Column 6 and MENU)"),
    ("CS_MATRIX_ROWS", "GP6,GP7,GP22,GP26",
     "Row B far on pin 29: tools/wiring.py draws the matrix build with the row wires"),
])
def test_wiring_says_why_it_cannot_generate(monkeypatch, tmp_path, capsys, key, value, said):
    settings = [s if s[0] != key else s[:2] + (value,) + s[3:] for s in pinmap.SETTINGS]
    monkeypatch.setattr(pinmap, "SETTINGS", tuple(settings))
    assert wiring.main([], root=str(tmp_path)) == 1
    assert said in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.parametrize("name,phys", [("GP4", 6), ("GP5", 7), ("GP15", 20), ("GP28", 34),
                                       ("GP0", 1), ("GP16", 21), ("GP22", 29), ("GP26", 31),
                                       ("3V3(OUT)", 36), ("VSYS", 39)])
def test_physical_pin_numbers(name, phys):
    assert wiring.physical_pin(name) == phys


def test_the_pico_pin_list():
    assert len(wiring.PICO_PINS) == 41 and wiring.PICO_PINS[0] is None
    assert wiring.GND_PINS == (3, 8, 13, 18, 23, 28, 33, 38)
    gpios = [n for n in wiring.PICO_PINS[1:] if n.startswith("GP")]
    assert sorted(gpios) == sorted(PICO_GPIO)
    with pytest.raises(ValueError):
        wiring.physical_pin("GP23")


@pytest.mark.parametrize("build,svg_rel", [("direct", "hardware/wiring.svg"),
                                           ("matrix", "hardware/wiring-matrix.svg")])
def test_every_gpio_appears_in_the_svg_and_in_pins_md(build, svg_rel):
    svg = read(svg_rel)
    md = read("docs/pins.md")
    column = BUILDS.index(build)
    for pin in default_pins(build):
        phys = wiring.physical_pin(pin)
        assert re.search(r"\b%s\b" % pin, svg), pin
        assert re.search(r"\| %s \| %d \|" % (pin, phys), md), pin  # by part
        row = re.search(r"^\| %d \| %s \| (.*) \| (.*) \|$" % (phys, pin), md, re.M)
        assert row and row.group(1 + column) not in ("", "-"), pin  # by Pico pin


def test_pins_md_has_the_columns_and_every_settings_key():
    md = read("docs/pins.md")
    assert "| Key | What it is | Default pin | Pico pin | settings.toml key |" in md
    assert ("| Wire | What it is | Default pin | Pico pin | settings.toml key | Keys it serves |"
            in md)
    for s in pinmap.SETTINGS:
        assert "`%s`" % s[0] in md
    for n in range(1, 41):
        assert re.search(r"^\| %d \| %s \|" % (n, re.escape(str(wiring.PICO_PINS[n]))), md,
                         re.M)


def test_pins_md_names_the_keys_each_matrix_wire_serves():
    md = read("docs/pins.md")
    section = md.split("## By part: the matrix build")[1].split("\n## ")[0]
    assert "columns_to_anodes=True" in section and "stripe" in section
    rows = DEFAULTS["CS_MATRIX_ROWS"].split(",")
    cols = DEFAULTS["CS_MATRIX_COLUMNS"].split(",")
    wires = [("Row %s" % n, pin, "CS_MATRIX_ROWS", r, [k for k in range(MATRIX_KEYS)
                                                          if k // COLUMNS == r])
             for r, (n, pin) in enumerate(zip(("A near", "A far", "B far", "B near"), rows))]
    wires += [("Column %d" % (c + 1), pin, "CS_MATRIX_COLUMNS", c,
               [k for k in range(MATRIX_KEYS) if k % COLUMNS == c]) for c, pin in enumerate(cols)]
    for name, pin, key, nth, keys in wires:
        m = re.search(r"^\| \*\*%s\*\* \| [^|]+ \| %s \| %d \| `%s`, (\d)\w\w of \d \| ([^|]+) \|$"
                      % (name, pin, wiring.physical_pin(pin), key), section, re.M)
        assert m, name
        assert int(m.group(1)) == nth + 1, name
        assert m.group(2).split(", ") == ["%d %s" % (k, key_name(k)) for k in keys], name
    menu = re.search(r"^\| \*\*MENU\*\* \|.*\| (\d+) MENU \|$", section, re.M)
    assert menu and int(menu.group(1)) == MATRIX_KEYS
    # the key grid: B's edge first, B's button 1 on the last column, A's on the first
    grid = [line for line in section.split("Which key is where")[1].splitlines()
            if line.startswith("| **Row ")]
    assert [g.split("**")[1] for g in grid] == ["Row B near", "Row B far", "Row A far",
                                                "Row A near"]
    assert grid[0].rstrip(" |").endswith("B near 1") and "| 0 A near 1 |" in grid[3]


# ----------------------------------------------------------------------------- the diagram

def svg_texts():
    root = ET.fromstring(read("hardware/wiring.svg").encode("utf-8"))
    assert root.tag == SVG_NS + "svg"
    return root, ["".join(t.itertext()) for t in root.iter(SVG_NS + "text")]


def test_svg_is_well_formed_and_labels_every_wire():
    root, texts = svg_texts()
    for p in wiring.parts():
        if p["key"] is None:
            continue
        label = "%s · %s · pin %d" % (p["name"], p["pin"], p["phys"])
        assert label in texts, label
    joined = "\n".join(texts)
    assert "Piezo + · %s · pin %d" % (DEFAULTS["CS_PIEZO"],
                                      wiring.physical_pin(DEFAULTS["CS_PIEZO"])) in joined
    for name in ("GND", "VCC", "SCL", "SDA"):
        assert name in texts
    # all 40 pads are numbered
    for n in range(1, 41):
        assert str(n) in texts
    paths = list(root.iter(SVG_NS + "path"))
    assert len(paths) > 40


def test_svg_draws_player_b_turned_round():
    svg = read("hardware/wiring.svg")

    def x_of(label):
        m = re.search(r'<text x="(\d+)" y="(\d+)"[^>]*><tspan font-weight="bold">%s</tspan>'
                      % re.escape(label), svg)
        assert m, label
        return int(m.group(1)), int(m.group(2))

    (a1, a1y), (a4, _) = x_of("A near 1"), x_of("A near 4")
    (b1, b1y), (b4, _) = x_of("B near 1"), x_of("B near 4")
    assert a1 < a4 and b1 > b4  # B's left is the drawing's right
    assert b1y < a1y  # B at the top
    assert x_of("A far 1")[1] < a1y and x_of("B far 1")[1] > b1y  # near rows at the edges


def matrix_svg():
    return ET.fromstring(read("hardware/wiring-matrix.svg").encode("utf-8"))


def test_matrix_svg_draws_24_keys_24_diodes_and_menu():
    root = matrix_svg()
    groups = list(root.iter(SVG_NS + "g"))
    keys = [g for g in groups if g.get("class") == "key"]
    diodes = [g for g in groups if g.get("class") == "diode"]
    inset = [g for g in groups if g.get("id") == "inset"][0]
    in_inset = set(inset.iter())
    diodes = [d for d in diodes if d not in in_inset]
    assert len(keys) == MATRIX_KEYS == 24
    assert len(diodes) == MATRIX_KEYS
    titles = sorted(g.find(SVG_NS + "title").text for g in keys)
    assert titles == sorted("%s · key %d" % (key_name(k), k) for k in range(MATRIX_KEYS))
    menu = [g for g in groups if g.get("id") == "menu"]
    assert len(menu) == 1 and menu[0].find(SVG_NS + "title").text == "MENU · key %d" % MATRIX_KEYS
    texts = ["".join(t.itertext()) for t in root.iter(SVG_NS + "text")]
    for name, setting in (("MENU", "CS_MENU"), ("Piezo +", "CS_PIEZO")):
        pin = DEFAULTS[setting]
        assert any(t.startswith("%s · %s · pin %d" % (name, pin, wiring.physical_pin(pin)))
                   for t in texts), name
    for name in ("GND", "VCC", "SCL", "SDA"):
        assert name in texts
    for n in range(1, 41):
        assert str(n) in texts


def test_matrix_svg_labels_every_row_and_column_wire():
    texts = ["".join(t.itertext()) for t in matrix_svg().iter(SVG_NS + "text")]
    for name, pin in zip(("A near", "A far", "B far", "B near"),
                         DEFAULTS["CS_MATRIX_ROWS"].split(",")):
        assert "Row %s · %s · pin %d" % (name, pin, wiring.physical_pin(pin)) in texts, name
    for c, pin in enumerate(DEFAULTS["CS_MATRIX_COLUMNS"].split(",")):
        assert "COLUMN %d" % (c + 1) in texts
        assert "%s · pin %d" % (pin, wiring.physical_pin(pin)) in texts, pin


def test_matrix_svg_draws_each_diode_with_its_stripe_towards_its_row_wire():
    root = matrix_svg()
    buses = {}  # row name: y of the row wire's run along its keys
    for path in root.iter(SVG_NS + "path"):
        title = path.find(SVG_NS + "title")
        if title is not None and title.text.startswith("Row "):
            last = re.findall(r"(\d+) (\d+)", path.get("d"))[-1]
            buses[title.text.split(" · ")[0][4:]] = int(last[1])
    assert sorted(buses) == ["A far", "A near", "B far", "B near"]
    seen = 0
    for g in root.iter(SVG_NS + "g"):
        title = g.find(SVG_NS + "title")
        if g.get("class") != "diode" or "towards row" not in title.text:
            continue
        body, stripe = g.findall(SVG_NS + "rect")[:2]
        assert stripe.get("fill") == "#111111"
        y0 = int(body.get("y"))
        y1 = y0 + int(body.get("height"))
        bus = buses[title.text.rsplit("towards row ", 1)[1]]
        near, far = sorted((y0, y1), key=lambda y: abs(y - bus))  # the body's ends
        stripe_y = int(stripe.get("y")) + int(stripe.get("height")) / 2
        assert abs(stripe_y - near) < abs(stripe_y - far), title.text  # the cathode's end
        # the symbol's triangle points at the stripe: its lone corner is nearer it
        corners = [int(y) for y in re.findall(r"[ML]\d+ (\d+)", g.find(SVG_NS + "path").get("d"))]
        apex = [y for y in corners if corners.count(y) == 1]
        base = [y for y in corners if corners.count(y) == 2]
        assert len(apex) == 1 and abs(apex[0] - near) < abs(base[0] - near), title.text
        seen += 1
    assert seen == MATRIX_KEYS


def test_matrix_svg_puts_each_column_straight_across_and_b_turned_round():
    root = matrix_svg()
    where = {}
    for g in root.iter(SVG_NS + "g"):
        if g.get("class") == "key":
            body = [r for r in g.findall(SVG_NS + "rect") if r.get("width") == "46"][0]
            name = g.find(SVG_NS + "title").text.split(" · ")[0]
            where[name] = (int(body.get("x")), int(body.get("y")))
    for k in range(MATRIX_KEYS):  # one x a column: key k's column is k % 6
        assert where[key_name(k)][0] == where[key_name(k % COLUMNS)][0]
    assert where["A near 1"][0] < where["A near 6"][0]
    assert where["B near 1"][0] > where["B near 6"][0]  # B's left is the drawing's right
    assert where["B near 1"][0] == where["A near 6"][0]
    ys = [where["%s 1" % row][1] for row in ("B near", "B far", "A far", "A near")]
    assert ys == sorted(ys)  # B's edge at the top, A's at the bottom


# ----------------------------------------------------------------------------- the BOM

def bom_rows():
    with open(os.path.join(ROOT, "hardware", "bom.csv"), newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == ["part", "quantity", "example_part_number",
                                     "approx_price_usd", "notes", "build"]
        rows = list(reader)
    assert {r["build"] for r in rows} == {"breadboard", "board", "case"}
    return rows


def build_total(rows, build):
    """What one handheld of a build costs on breadboards: every breadboard row but the
    optional ones and the other build's."""
    other = "(%s build)" % BUILDS[1 - BUILDS.index(build)]
    return sum(int(r["quantity"]) * float(r["approx_price_usd"]) for r in rows
               if r["build"] == "breadboard" and "(optional" not in r["part"]
               and other not in r["part"])


def test_the_boards_parts_cost_what_the_guide_says():
    """The board's rows (the printed board and the parts soldered on it) add up to the
    soldering guide's total, and each of its table's rows is one of them."""
    board = [r for r in bom_rows() if r["build"] == "board"]
    total = sum(int(r["quantity"]) * float(r["approx_price_usd"]) for r in board)
    guide = read("docs/BUILD.md").split("### What it costs")[1].split("\n---")[0]
    assert "**about $%.2f**" % total in guide
    for r in board:
        assert re.search(r"\| %.2f \| %d \|" % (float(r["approx_price_usd"]), int(r["quantity"])),
                         guide), r["part"]


def test_bom_parses_with_numbers_and_a_total():
    rows = bom_rows()
    for r in rows:
        assert int(r["quantity"]) > 0, r["part"]
        assert float(r["approx_price_usd"]) >= 0, r["part"]
        assert r["example_part_number"].strip() and r["notes"].strip(), r["part"]
    direct, matrix = build_total(rows, "direct"), build_total(rows, "matrix")
    assert 20 < direct < matrix < 100
    for total in (direct, matrix):  # the guide's prices are the list's
        assert re.search(r"about \*{0,2}\$%d\b" % round(total), read("docs/BUILD.md"))


def test_bom_lists_the_parts_the_build_needs():
    rows = [r for r in bom_rows() if r["build"] == "breadboard"]
    by = {r["part"].lower(): r for r in rows}

    def row(*words):
        found = [r for p, r in by.items() if all(w in p for w in words)]
        assert len(found) == 1, words
        return found[0]

    assert int(row("tactile", "switch", "(direct build)")["quantity"]) == keymap.KEY_COUNT == 17
    assert int(row("tactile", "switch", "(matrix build)")["quantity"]) == MATRIX_KEYS + 1 == 25
    diodes = row("1n4148")
    assert "(matrix build)" in diodes["part"] and int(diodes["quantity"]) == MATRIX_KEYS == 24
    assert "stripe" in diodes["notes"] and "the direct build needs none" in diodes["notes"]
    assert int(row("pico")["quantity"]) == 1
    oled = row("ssd1306")
    assert "SH1106" in oled["notes"] and "NOT compatible" in oled["notes"]
    assert "0x3D" in oled["notes"]
    assert "passive" in row("piezo")["part"].lower()
    boards = [r for p, r in by.items() if "breadboard" in p]
    assert sum(int(r["quantity"]) for r in boards) == 5
    assert row("usb cable")
    assert "(optional" in row("100 ohm")["part"]


# ----------------------------------------------------------------------------- BUILD.md

def test_build_md_has_a_check_after_every_step():
    text = read("docs/BUILD.md")
    steps = re.split(r"^## ", text, flags=re.M)
    step_sections = [s for s in steps if s.startswith("Step ")]
    assert len(step_sections) >= 7
    for s in step_sections:
        assert "**CHECK" in s, s.splitlines()[0]


def test_build_md_has_the_matrix_build_with_a_check_after_every_step():
    text = read("docs/BUILD.md")
    sections = re.split(r"^## ", text, flags=re.M)
    at = [i for i, s in enumerate(sections) if s.startswith("The matrix build")]
    assert len(at) == 1
    steps = []
    for s in sections[at[0] + 1:]:
        if not s.startswith("Step M"):
            break
        steps.append(s)
    assert [s.split(":")[0] for s in steps] == ["Step M%d" % n for n in range(1, 7)]
    for s in steps:
        assert "**CHECK" in s, s.splitlines()[0]
    matrix = "".join(sections[at[0]:at[0] + 1] + steps)
    assert "](#the-matrix-build-long-speed)" in text
    for phrase in ('CS_KEYS = "matrix"', 'make uf2 ARGS="--keys matrix"', "-matrix-cp10.uf2",
                   "](../hardware/wiring-matrix.svg)", "1N4148", "stripe", "ghost",
                   "never lights", "25 keys", "not GND", "SELF TEST"):
        assert phrase in matrix, phrase
    # every row and column pin is named with its Pico pin
    for key in ("CS_MATRIX_ROWS", "CS_MATRIX_COLUMNS"):
        for pin in DEFAULTS[key].split(","):
            assert "%s (pin %d)" % (pin, wiring.physical_pin(pin)) in matrix, pin


def test_build_md_links_the_pin_table_the_diagram_and_the_bom():
    text = read("docs/BUILD.md")
    assert "](pins.md)" in text
    assert "](../hardware/wiring.svg)" in text
    assert "](../hardware/bom.csv)" in text
    for rel in ("docs/pins.md", "hardware/wiring.svg", "hardware/wiring-matrix.svg",
                "hardware/bom.csv",
                "tests/firmware/golden/menu.png", "tests/firmware/golden/selftest.png"):
        assert os.path.exists(os.path.join(ROOT, rel)), rel
    # the pin table is linked, not copied: no row of it appears in the guide
    assert "| GP6 | 9 |" not in text and "By Pico pin" not in text


def test_build_md_explains_the_messages_and_checks():
    text = read("docs/BUILD.md")
    for phrase in ("python -m tools.deploy", "BOOTSEL", "RPI-RP2", "CIRCUITPY",
                   "No display at I2C address 0x3c on SDA=GP4 SCL=GP5 (found:",
                   "No pull up found on SDA or SCL", "0x3D", "CS_I2C_ADDRESS = 0x3D",
                   "SELF TEST", "sweep", "KEY HELD", "was down at power-up",
                   "is not valid", "used twice", "swapped", "SH1106", "settings.toml",
                   "screen /dev/ttyACM0 115200"):
        assert phrase in text, phrase


def test_build_md_pin_mentions_agree_with_the_pin_map():
    text = read("docs/BUILD.md")
    mentions = re.findall(r"\b(GP\d+) \(pin (\d+)\)", text)
    mentions += [(n, p) for p, n in re.findall(r"\bpin (\d+) \((GND|VSYS|VBUS|3V3\(OUT\))\)",
                                               text)]
    mentions += re.findall(r"\b(GND|VSYS|VBUS|3V3\(OUT\)),? \(?pin (\d+)", text)
    assert len(mentions) >= 8
    for name, phys in mentions:
        assert wiring.PICO_PINS[int(phys)] == name, (name, phys)
    for key in ("CS_I2C_SDA", "CS_I2C_SCL", "CS_MENU", "CS_PIEZO"):
        pin = DEFAULTS[key]
        assert "%s (pin %d)" % (pin, wiring.physical_pin(pin)) in text, key
    # the console message quoted in the guide is the firmware's own wording
    assert "No display at I2C address 0x%02x on SDA=%s SCL=%s" % (
        int(DEFAULTS["CS_I2C_ADDRESS"]), DEFAULTS["CS_I2C_SDA"], DEFAULTS["CS_I2C_SCL"]) in text


def test_every_relative_link_in_the_readme_and_the_docs_reaches_a_file():
    """A reader (or the page, which serves the guide and the rules) follows each link to a
    picture or a file of the repository; an anchor is left to the Markdown."""
    broken = []
    for doc in ["README.md"] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
        path = os.path.join(ROOT, doc)
        for target in re.findall(r"\]\(([^)\s]+)\)", open(path, encoding="utf-8").read()):
            target = target.split("#")[0]
            if not target or re.match(r"[a-z]+:", target):
                continue
            if not os.path.exists(os.path.join(os.path.dirname(path), target)):
                broken.append("%s: %s" % (os.path.relpath(path, ROOT), target))
    assert broken == []
