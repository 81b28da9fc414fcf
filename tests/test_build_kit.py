"""The build kit: the generated wiring diagram, settings.toml and pin table, the bill of
materials and the build guide agree with hardware/pinmap.py and with each other."""
import csv
import os
import re
import tomllib
import xml.etree.ElementTree as ET

import pytest

from hardware import config, keymap, pinmap
from tools import wiring

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PICO_GPIO = frozenset("GP%d" % n for n in list(range(23)) + [26, 27, 28])
DEFAULTS = {s[0]: s[2] for s in pinmap.SETTINGS}
SVG_NS = "{http://www.w3.org/2000/svg}"


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def default_pins():
    """Every GPIO the default pin map uses, with what it is."""
    pins: dict = {}
    for name, pin in zip(["key %d" % k for k in range(keymap.KEY_COUNT)],
                         config.key_pins(DEFAULTS)):
        pins.setdefault(pin, []).append(name)
    for key in ("CS_I2C_SDA", "CS_I2C_SCL", "CS_PIEZO"):
        pins.setdefault(DEFAULTS[key], []).append(key)
    return pins


# ----------------------------------------------------------------------------- generated files

def test_generated_files_are_up_to_date():
    assert wiring.stale() == [], (
        "generated files differ from hardware/pinmap.py; run `python -m tools.wiring`")


def test_check_names_each_file_that_differs(tmp_path, capsys):
    written = wiring.write(str(tmp_path))
    assert sorted(written) == sorted(["hardware/wiring.svg", "settings.toml", "docs/pins.md"])
    assert wiring.main(["--check"], root=str(tmp_path)) == 0
    (tmp_path / "docs" / "pins.md").write_text("edited by hand\n", encoding="utf-8")
    (tmp_path / "settings.toml").unlink()
    capsys.readouterr()
    assert wiring.main(["--check"], root=str(tmp_path)) == 1
    err = capsys.readouterr().err
    assert "docs/pins.md" in err and "settings.toml" in err
    assert "wiring.svg" not in err
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
    assert list(data) == [s[0] for s in pinmap.SETTINGS]
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

def test_no_pin_is_used_twice():
    pins = default_pins()
    assert {p: u for p, u in pins.items() if len(u) > 1} == {}
    assert len(pins) == keymap.KEY_COUNT + 3
    assert all(p in PICO_GPIO for p in pins)
    assert wiring.check_pin_map() == []


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


def test_every_gpio_appears_in_the_svg_and_in_pins_md():
    svg = read("hardware/wiring.svg")
    md = read("docs/pins.md")
    for pin in default_pins():
        phys = wiring.physical_pin(pin)
        assert re.search(r"\b%s\b" % pin, svg), pin
        assert re.search(r"\| %s \| %d \|" % (pin, phys), md), pin  # by part
        assert re.search(r"^\| %d \| %s \| \S" % (phys, pin), md, re.M), pin  # by Pico pin


def test_pins_md_has_the_columns_and_every_settings_key():
    md = read("docs/pins.md")
    assert "| Key | What it is | Default pin | Pico pin | settings.toml key |" in md
    for s in pinmap.SETTINGS:
        assert "`%s`" % s[0] in md
    for n in range(1, 41):
        assert re.search(r"^\| %d \| %s \|" % (n, re.escape(str(wiring.PICO_PINS[n]))), md,
                         re.M)


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


# ----------------------------------------------------------------------------- the BOM

def bom_rows():
    with open(os.path.join(ROOT, "hardware", "bom.csv"), newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == ["part", "quantity", "example_part_number",
                                     "approx_price_usd", "notes"]
        return list(reader)


def test_bom_parses_with_numbers_and_a_total():
    rows = bom_rows()
    total = 0.0
    for r in rows:
        assert int(r["quantity"]) > 0, r["part"]
        assert float(r["approx_price_usd"]) >= 0, r["part"]
        assert r["example_part_number"].strip() and r["notes"].strip(), r["part"]
        if "(optional" not in r["part"]:
            total += int(r["quantity"]) * float(r["approx_price_usd"])
    assert 20 < total < 100


def test_bom_lists_the_parts_the_build_needs():
    rows = bom_rows()
    by = {r["part"].lower(): r for r in rows}

    def row(*words):
        found = [r for p, r in by.items() if all(w in p for w in words)]
        assert len(found) == 1, words
        return found[0]

    assert int(row("tactile", "switch")["quantity"]) == keymap.KEY_COUNT == 17
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


def test_build_md_links_the_pin_table_the_diagram_and_the_bom():
    text = read("docs/BUILD.md")
    assert "](pins.md)" in text
    assert "](../hardware/wiring.svg)" in text
    assert "](../hardware/bom.csv)" in text
    for rel in ("docs/pins.md", "hardware/wiring.svg", "hardware/bom.csv",
                "tests/golden/menu.png", "tests/golden/selftest.png"):
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
