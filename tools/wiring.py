"""Builds the handheld's build kit from hardware/pinmap.py (CPython, stdlib only).

    .venv/bin/python -m tools.wiring            write the four files below
    .venv/bin/python -m tools.wiring --check    write nothing; exit 1, naming each file
                                                that differs from what would be generated

(`python tools/wiring.py ...` works the same.) It writes:

    hardware/wiring.svg   the direct build's wiring diagram (CS_KEYS = "direct"): the Pico
                          (all 40 pins, physical layout), the OLED, the piezo, MENU and the
                          two players' button clusters laid out as on the box, every wire
                          coloured by group and labelled
    hardware/wiring-matrix.svg  the matrix build's (CS_KEYS = "matrix", Long Speed): the
                          same Pico, OLED, piezo and MENU, the 4 row wires, the 6 column
                          wires and the 24 keys, each with its diode the right way round
    settings.toml         the shipped settings file: every key of pinmap.SETTINGS with its
                          default, each with a comment saying what it is and what is allowed
    docs/pins.md          the pin tables (by part for each build, and by Pico pin)

Everything comes from the DEFAULTS of pinmap.SETTINGS; the output depends on nothing
else (no clock, no machine paths), so the same pin map always gives the same bytes.
The diagrams are tools/wiring_direct.py and tools/wiring_matrix.py, their wire router
tools/wiring_lanes.py; this file has the pin facts and writes settings.toml and
docs/pins.md.
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:  # run as a script rather than with -m
    sys.path.insert(0, ROOT)

from hardware import pinmap  # noqa: E402
from tools.wiring_direct import Diagram  # noqa: E402
from tools.wiring_matrix import MatrixDiagram  # noqa: E402
from tools.files import write_atomic  # noqa: E402

SVG_REL = "hardware/wiring.svg"
MATRIX_SVG_REL = "hardware/wiring-matrix.svg"
SETTINGS_REL = "settings.toml"
PINS_REL = "docs/pins.md"

# The pin facts and the parts (tools/pins.py, which the diagrams read too).
from tools.pins import (  # noqa: E402,F401
    GND_PINS, GPIO_NAMES, MATRIX_ROW_NAMES, PICO_PINS, PIN_3V3, _ordinal, _pins_of, _setting,
    build_parts, matrix_keys, matrix_parts, parts, physical_pin)


def _i2c_pairs():
    """Which GPIOs are SDA and SCL of I2C0 and I2C1 (RP2040: GPn is I2C(n//2 % 2), SDA
    when n is even)."""
    out = []
    for block in (0, 1):
        names: dict = {}
        for name in GPIO_NAMES:
            n = int(name[2:])
            if (n // 2) % 2 == block:
                names.setdefault("SCL" if n % 2 else "SDA", []).append(name)
        out.append("I2C%d SDA on %s with I2C%d SCL on %s"
                   % (block, _or(names["SDA"]), block, _or(names["SCL"])))
    return "; or ".join(out)


def _or(names):
    return ", ".join(names[:-1]) + " or " + names[-1]


def check_pin_map():
    """Problems with the default pin map of either build (a pin used twice, a name that is
    no Pico GPIO)."""
    problems = []
    for build in _setting("CS_KEYS")[4]:
        seen: dict = {}
        for p in build_parts(build):
            if p["pin"] not in GPIO_NAMES:
                problems.append("%s: %s is not a Pico GPIO the handheld can use"
                                % (p["name"], p["pin"]))
            if p["pin"] in seen:
                problems.append("%s is used twice on the %s build (%s and %s)"
                                % (p["pin"], build, seen[p["pin"]], p["name"]))
            seen[p["pin"]] = p["name"]
    return problems


# ----------------------------------------------------------------------------- settings.toml

def _toml_value(setting, value):
    if isinstance(value, str):
        return '"%s"' % value
    if setting[0].endswith("_ADDRESS"):
        return "0x%02X" % value
    return "%d" % value


def _example_message():
    """What the firmware's own settings reader says about a bad MENU pin."""
    from hardware import config
    said: list = []
    config.read(lambda key: "GP99" if key == "CS_MENU" else None,
                lambda name: name if name in GPIO_NAMES else None, said.append)
    return said[0]


# The order of a "pins" setting's names, as settings.toml and docs/pins.md say it.
_PINS_ORDER = {
    "CS_KEYS_A": "the near row left to right, then the far row left to right, as the "
                 "player sees them",
    "CS_MATRIX_ROWS": "one a row wire, in the order A near, A far, B far, B near",
    "CS_MATRIX_COLUMNS": "one a column wire, from A's left as A sees them (column 1 "
                         "holds A's button 1 and B's last)",
}
_PINS_ORDER["CS_KEYS_B"] = _PINS_ORDER["CS_KEYS_A"]

# What settings.toml adds under a setting: which build reads it.
_BUILD_NOTE = {
    "CS_KEYS": "direct: the keys are on CS_KEYS_A, CS_KEYS_B and CS_MENU (17 switches, "
               "each between its pin and GND). matrix: on CS_MATRIX_ROWS, "
               "CS_MATRIX_COLUMNS and CS_MENU (24 switches, each with a diode, on 4 row "
               "and 6 column wires; MENU between its pin and GND; docs/BUILD.md, \"The "
               "matrix build\"). The other build's key pins are not used.",
    "CS_MENU": "Both builds: MENU is always on its own pin, between it and GND.",
}


def _allowed(setting):
    kind = setting[1]
    if kind == "pin" and setting[0] in ("CS_I2C_SDA", "CS_I2C_SCL"):
        return ("one Pico pin name in quotes, GP0-GP22 or GP26-GP28; SDA and SCL must be "
                "a pair of one I2C block (docs/pins.md lists them)")
    if kind == "pin":
        return "one Pico pin name in quotes, GP0-GP22 or GP26-GP28"
    if kind == "pins":
        return ("%d Pico pin names in quotes, separated by commas: %s"
                % (setting[4], _PINS_ORDER.get(setting[0], "in the order above")))
    if kind == "word":
        return "one of %s, in quotes" % ", ".join('"%s"' % v for v in setting[4])
    if kind == "choice":
        hexa = setting[0].endswith("_ADDRESS")
        values = ["0x%02X" % v if hexa else str(v) for v in setting[4]]
        return "one of %s%s" % (", ".join(values), " (write it in hex, as here)" if hexa else "")
    return "a whole number from %d to %d (no quotes, no underscores)" % (setting[4], setting[5])


def settings_toml():
    """The text of the shipped settings.toml."""
    L = [
        "# California Speed - settings.toml: the handheld's pins, bus settings and language.",
        "#",
        "# GENERATED by tools/wiring.py from hardware/pinmap.py: the values below are the",
        "# defaults (regenerate with `python -m tools.wiring`; docs/pins.md has the table).",
        "#",
        "# It sits at the top of the CIRCUITPY drive. The firmware reads it once at start-up,",
        "# asking for each key with os.getenv(). To use other pins, edit a value here and save:",
        "# the board restarts. A key that is missing takes its default. A value that is not",
        "# valid (an unknown pin, a number out of range, a pin used twice) is not used: the",
        "# firmware takes the default instead and says so on the serial console, e.g.",
        "#   " + _example_message(),
        "# Pin names are the Pico's GPIO names (GP0-GP22, GP26-GP28), not the physical pin",
        "# numbers 1-40. CS_KEYS says how the keys are wired: \"direct\" (a pin per key) or",
        "# \"matrix\" (Long Speed's 4 x 6 diode matrix); each build reads its own key pins.",
    ]
    for s in pinmap.SETTINGS:
        L.append("")
        L.append("# %s" % s[3][:1].upper() + s[3][1:] + ".")
        if s[0] in _BUILD_NOTE:
            L.append("# " + _BUILD_NOTE[s[0]])
        L.append("# Allowed: %s." % _allowed(s))
        if s[1] == "pin":
            L.append("# Default %s is Pico pin %d." % (s[2], physical_pin(s[2])))
        elif s[1] == "pins":
            phys = ", ".join(str(physical_pin(n.strip())) for n in str(s[2]).split(","))
            L.append("# Default: Pico pins %s." % phys)
        L.append("%s = %s" % (s[0], _toml_value(s, s[2])))
    L += ["",
          "# CircuitPython's own setting, not the firmware's: how many seconds it waits at "
          "start-up for a press of a reset button, which would start it in safe mode. The "
          "handheld has no reset button, so it waits none: it starts, and wakes from deep "
          "sleep (a reset), a second sooner. Delete the line for CircuitPython's 1 s.",
          "CIRCUITPY_SAFE_MODE_DELAY = 0"]
    return "\n".join(_wrap_comments(L)) + "\n"


def _wrap_comments(lines, width=88):
    """Comment lines longer than width, split on spaces (the text stays ASCII)."""
    out = []
    for line in lines:
        if not line.startswith("# ") or len(line) <= width:
            out.append(line)
            continue
        words = line[2:].split(" ")
        cur = "#"
        for w in words:
            if len(cur) + 1 + len(w) > width and cur != "#":
                out.append(cur)
                cur = "#  "
            cur += " " + w
        out.append(cur)
    return out


# ----------------------------------------------------------------------------- docs/pins.md

def pins_md():
    """The text of docs/pins.md."""
    L = [
        "# Pins",
        "",
        "<!-- GENERATED by tools/wiring.py from hardware/pinmap.py; do not edit by hand.",
        "     Regenerate with `python -m tools.wiring` (tests check that it is current). -->",
        "",
        "The default wiring of the handheld, for both key builds: the **direct build** "
        "(`CS_KEYS = \"direct\"`, the default: a pin per key, 4 piles a row, drawn in "
        "[wiring.svg](../hardware/wiring.svg)) and the **matrix build** (`CS_KEYS = "
        "\"matrix\"`, Long Speed: 24 keys on a diode matrix, up to 6 piles a row, drawn in "
        "[wiring-matrix.svg](../hardware/wiring-matrix.svg)). The same pins are the "
        "defaults in `settings.toml` (a key there moves a part to another pin). A *Pico "
        "pin* is the physical pin number 1-40: pins 1-20 run down the left side of the "
        "board with the USB connector at the top, pins 21-40 run back up the right side.",
        "",
        "*Key* is the number the key scanner gives the button (the self-test names it, "
        "e.g. `A NEAR 1`). Each player's *near* row is their own row of piles and the "
        "*far* row the opponent's, both counted from the left **as that player sees "
        "them** (B sits opposite A, so B's buttons are mounted turned round). The OLED, "
        "the piezo and MENU are wired the same way in both builds.",
        "",
        "## By part: the direct build",
        "",
        "Every button goes between its pin and GND; the firmware turns on the Pico's "
        "internal pull-up resistors, so no resistors are needed.",
        "",
        "| Key | What it is | Default pin | Pico pin | settings.toml key |",
        "|---|---|---|---|---|",
    ]
    for p in parts():
        key = "%d" % p["key"] if p["key"] is not None else "-"
        where = "`%s`" % p["setting"] + (", %s" % p["nth"] if "nth" in p else "")
        L.append("| %s | **%s**: %s | %s | %d | %s |"
                 % (key, p["name"], p["what"], p["pin"], p["phys"], where))
    gnd = ", ".join(str(n) for n in GND_PINS)
    L.append("| - | **OLED VCC**: display power, 3.3 V | 3V3(OUT) | %d | - |" % PIN_3V3)
    L.append("| - | **GND**: OLED GND, piezo -, the other leg of every button "
             "(any GND pin; they are joined inside the Pico) | GND | %s | - |" % gnd)
    L += _matrix_md(gnd)
    L += [
        "",
        "## Other settings",
        "",
        "| settings.toml key | What it is | Default | Allowed |",
        "|---|---|---|---|",
    ]
    for s in pinmap.SETTINGS:
        if s[1] not in ("int", "choice", "word"):
            continue
        L.append("| `%s` | %s | %s | %s |" % (s[0], s[3], _toml_value(s, s[2]), _allowed(s)))
    L += [
        "",
        "## By Pico pin",
        "",
        "| Pico pin | Name | Direct build | Matrix build |",
        "|---|---|---|---|",
    ]
    used: dict = {}
    for column, build in ((0, "direct"), (1, "matrix")):
        for p in build_parts(build):
            used.setdefault(p["phys"], ["-", "-"])[column] = "%s (`%s`)" % (p["name"],
                                                                          p["setting"])
    used[PIN_3V3] = ["OLED VCC"] * 2
    used[PICO_PINS.index("VSYS")] = ["nothing (an optional battery pack goes here through "
                                     "a diode: see [BUILD.md](BUILD.md))"] * 2
    for n in range(1, 41):
        name = PICO_PINS[n]
        what = used.get(n, ["", ""])
        if name == "GND":
            what = ["ground (any GND pin will do)"] * 2
        L.append("| %d | %s | %s | %s |" % (n, name, what[0], what[1]))
    L += [
        "",
        "## Choosing other pins",
        "",
        "- Any of GP0-GP22 and GP26-GP28 can take a button, a row or column wire or the "
        "piezo; a pin must not be used twice within a build (the firmware then says so on "
        "the serial console and uses this default map). The direct build's key pins and "
        "the matrix build's may share pins: a board reads only its own build's.",
        "- SDA and SCL must be a pair of one I2C block of the RP2040: " + _i2c_pairs() + ".",
        "- Change `settings.toml` on the CIRCUITPY drive; to change the shipped defaults, "
        "edit `hardware/pinmap.py` and run `python -m tools.wiring`.",
    ]
    return "\n".join(L) + "\n"


def _matrix_md(gnd):
    """docs/pins.md's matrix-build section: its wires, and which key is where."""
    wires = matrix_parts()
    keys = matrix_keys()
    rows = [p for p in wires if p["setting"] == "CS_MATRIX_ROWS"]
    cols = [p for p in wires if p["setting"] == "CS_MATRIX_COLUMNS"]
    L = [
        "",
        "## By part: the matrix build",
        "",
        "Set `CS_KEYS = \"matrix\"` in `settings.toml`. The %d pile keys sit on %d row "
        "wires and %d column wires (the firmware scans them with "
        "`keypad.KeyMatrix(rows, columns, columns_to_anodes=True)`): each key is a switch "
        "and a small-signal diode (1N4148) in series: from its **column** wire to one leg "
        "of the switch, from the diagonally opposite leg to the diode's **anode**, and "
        "from the diode's **cathode, the end with the stripe**, to its **row** wire. A "
        "diode the wrong way round makes a key that never reads; a key without its diode "
        "makes ghost keys. The key switches need no GND and no resistors (the firmware "
        "turns on the pull-ups). A column is a place on the glass from A's left, so its "
        "wire runs straight across the box: B's button 1 of a row (on B's left) is on "
        "column %d." % (len(keys), len(rows), len(cols), len(cols)),
        "",
        "| Wire | What it is | Default pin | Pico pin | settings.toml key | Keys it serves |",
        "|---|---|---|---|---|---|",
    ]
    for p in wires:
        where = "`%s`" % p["setting"] + (", %s" % p["nth"] if "nth" in p else "")
        if "keys" in p:
            serves = ", ".join("%d %s" % (k["key"], k["name"]) for k in p["keys"])
        else:
            serves = "%d MENU" % p["key"] if p["key"] is not None else "-"
        L.append("| **%s** | %s | %s | %d | %s | %s |"
                 % (p["name"], p["what"], p["pin"], p["phys"], where, serves))
    L.append("| **OLED VCC** | display power, 3.3 V | 3V3(OUT) | %d | - | - |" % PIN_3V3)
    L.append("| **GND** | OLED GND, piezo -, MENU's other leg (any GND pin) | GND | %s | - "
             "| - |" % gnd)
    L += [
        "",
        "Which key is where, in the order the rows sit on the box (B's edge at the top, "
        "as in the matrix diagram): each cell is the key number and the key's name, at "
        "the crossing of its row and column wire.",
        "",
        "| Row wire | " + " | ".join("%s (%s)" % (c["name"], c["pin"]) for c in cols) + " |",
        "|---|" + "---|" * len(cols),
    ]
    for r in sorted(rows, key=lambda p: ("B near", "B far", "A far", "A near")
                    .index(MATRIX_ROW_NAMES[p["row"]])):
        cells = ["%d %s" % (k["key"], k["name"]) for k in r["keys"]]
        L.append("| **%s** (%s) | %s |" % (r["name"], r["pin"], " | ".join(cells)))
    return L


def wiring_svg():
    """hardware/wiring.svg's text (tools/wiring_direct.py's Diagram)."""
    return Diagram().svg()


def wiring_matrix_svg():
    """hardware/wiring-matrix.svg's text (tools/wiring_matrix.py's MatrixDiagram)."""
    return MatrixDiagram().svg()


OUTPUTS = ((SVG_REL, wiring_svg), (MATRIX_SVG_REL, wiring_matrix_svg),
           (SETTINGS_REL, settings_toml), (PINS_REL, pins_md))


def generate():
    """{relative path: text} of every generated file."""
    problems = check_pin_map()
    if problems:
        raise ValueError("hardware/pinmap.py: " + "; ".join(problems))
    return {rel: make() for rel, make in OUTPUTS}


def stale(root=None, files=None):
    """The relative paths under root (default: the repository) whose bytes differ from
    what would be generated (a missing file differs)."""
    root = ROOT if root is None else root
    files = generate() if files is None else files
    out = []
    for rel, text in files.items():
        try:
            with open(os.path.join(root, rel), "rb") as f:
                got = f.read()
        except OSError:
            got = None
        if got != text.encode("utf-8"):
            out.append(rel)
    return out


def write(root=None, files=None):
    """Write every generated file under root (default: the repository)."""
    root = ROOT if root is None else root
    files = generate() if files is None else files
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        write_atomic(path, text.encode("utf-8"), mode=0o644)
    return sorted(files)


def main(argv=None, root=None):
    p = argparse.ArgumentParser(description="Generate the wiring diagrams, settings.toml and "
                                            "docs/pins.md from hardware/pinmap.py.")
    p.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 naming each file that differs from what "
                        "would be generated")
    a = p.parse_args(argv)
    try:
        files = generate()
    except ValueError as e:  # a pin map the firmware or the drawings cannot take
        print("wiring: %s" % e, file=sys.stderr)
        return 1
    if a.check:
        bad = stale(root, files)
        for rel in bad:
            print("wiring: %s is not what tools/wiring.py generates from hardware/pinmap.py; "
                  "run `python -m tools.wiring`" % rel, file=sys.stderr)
        if bad:
            return 1
        print("wiring: %s up to date" % ", ".join(sorted(files)))
        return 0
    for rel in write(root, files):
        print("wrote %s" % rel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
