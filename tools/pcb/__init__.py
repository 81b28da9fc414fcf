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

The package: this file holds the board's figures and parts (importable without KiCad);
footprints.py the parts' footprints, layout.py where they go and the matrix's wires,
routing.py the grid router and the ground pour, outputs.py the files made from the board,
make.py the command.
"""
import os
import shutil
import subprocess
import sys
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from hardware import pinmap  # noqa: E402
from hardware.keymap import MATRIX_KEYMAP, place_of, player_of, is_far  # noqa: E402
from tools import cli  # noqa: E402

NAME = "california-speed"
LIBS = "/usr/share/kicad/footprints"
LIB = "california-speed"  # the project's own footprints (made here, from datasheets)
NS = uuid.uuid5(uuid.NAMESPACE_URL, "california-speed/hardware/pcb")

G = 0.635  # the routing grid: a quarter of the Pico's 2.54 mm pitch
TRACK = 0.25
CLEAR = 0.2
VIA, VIA_DRILL = 0.8, 0.4  # a low-cost fab makes 0.6 / 0.3 at least: margin over it
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
# Its bosses: KiCad's footprint puts them 24.00 mm apart (holes 3.45), KiCad's own 3D-model
# script for the part, citing Keystone's drawing, 23.495 (bosses 3.5): holes of 4.0 midway
# take a 3.5 mm boss at either (0.12 mm to spare a side) while the pins locate the holder.
BAT_BOSSES = ((24.00, 23.495), 4.0)

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
# Raspberry Pi's own land pattern (RPi_Pico_SMD_TH, from the Pico's design files): pads
# 3.5 x 1.7 mm reaching 1.04 mm past the module's edge, for the iron and for inspection;
# and holes under the micro-USB shell's legs (datasheet section 2.2: solder pooled there
# tilts the module): (x from the centre line, mm from the USB end, diameter).
PICO_PAD, PICO_PAD_REACH = (3.5, 1.7), 1.04
PICO_USB_HOLES = ((-2.725, 1.5, 1.8), (2.725, 1.5, 1.8), (-2.425, 4.53, 1.5),
                  (2.425, 4.53, 1.5))
# A common 0.96 inch SSD1306 I2C module: 27.3 x 27.8 mm, its 4 pins along the top edge.
OLED_W, OLED_H, OLED_TOP = 27.3, 27.8, 2.0
# Its glass (the 21.74 x 10.86 mm active area): centre from pin 1 (x right, y down), size.
OLED_GLASS = ((1.5 * 2.54, 11.43), (21.74, 10.86))
OLED_PINS = ("GND", "VCC", "SCL", "SDA")  # its header from the left, as printed on it

# The silkscreen's text: what a fab prints legibly (1.0 mm high, 0.15 mm strokes at least).
TEXT, STROKE = 1.0, 0.15
REVISION, REVISION_DATE = "1", "2026-12-04"  # the date makes the guide's bytes the same

PARTS = {  # value, (library, footprint), manufacturer part number
    "SW": ("6x6 mm tactile switch", ("Button_Switch_THT", "SW_PUSH_6mm"),
           "C&K PTS645SM50-2 LFS"),  # 5.0 mm tall: the case is cut for it (hardware/bom.csv)
    "D": ("1N4148", ("Diode_THT", "D_DO-35_SOD27_P7.62mm_Horizontal"), "1N4148"),
    "DS": ("1N5817", ("Diode_THT", "D_DO-41_SOD81_P10.16mm_Horizontal"), "1N5817"),
    "BT": ("3 x AAA holder", ("Battery", "BatteryHolder_Keystone_2479_3xAAA"),
           "Keystone 2479"),
    "LS": ("passive piezo", ("Buzzer_Beeper", "Buzzer_TDK_PS1240P02BT_D12.2mm_H6.5mm"),
           "TDK PS1240P02BT"),
    "SWP": ("power switch", ("Button_Switch_THT", "SW_Slide_SPDT_Angled_CK_OS102011MA1Q"),
            "C&K OS102011MA1QN1"),
    "H": ("M2.5 mounting hole", ("MountingHole", "MountingHole_2.7mm_M2.5"), ""),
    "U": ("Raspberry Pi Pico", (LIB, "RaspberryPi_Pico_Castellated"), "Raspberry Pi SC0915"),
    "J": ("SSD1306 OLED 128x64 I2C", (LIB, "SSD1306_OLED_I2C_Module"), "4-pin 0.96 in module"),
    "R": ("resistor", ("Resistor_THT", "R_Axial_DIN0207_L6.3mm_D2.5mm_P7.62mm_Horizontal"),
          ""),
}
# The resistors: value, part number, and whether a board has it fitted. The pull-ups are
# on most OLED modules already (CircuitPython's I2C will not start without them); the
# piezo's resistor is fitted: it spares GP15 the piezo's charging current and costs no
# loudness (a piezo of some tens of nF with 100 ohm charges in microseconds, against a
# 4 kHz tone's 250).
RESISTORS = {
    "R1": ("4.7k", "4.7 kOhm 1/4 W axial", False),  # SDA to 3V3
    "R2": ("4.7k", "4.7 kOhm 1/4 W axial", False),  # SCL to 3V3
    "R3": ("100", "100 Ohm 1/4 W axial", True),  # GP15 to the piezo
}
NOT_FITTED = "not fitted: only if your OLED module has no pull-ups"


def kind(ref):
    """A reference's kind, its letters: SW12 -> SW."""
    return ref.rstrip("0123456789")


def part_of(ref):
    """(BOM value, part number) of a part by its reference."""
    if ref in RESISTORS:
        value, number, fitted = RESISTORS[ref]
        return ("%s ohm resistor%s" % (value, "" if fitted else " (%s)" % NOT_FITTED), number)
    return PARTS[kind(ref)][0], PARTS[kind(ref)][2]

PROG = "make pcb"


def fail(message):
    """One line on stderr and exit 2."""
    cli.fail(PROG, message)


KICAD_PYTHON = "/usr/bin/python3"  # Debian's, where pcbnew imports (the Makefile's too)


def kicad_missing():
    """'' when KiCad 9 is here (kicad-cli, and pcbnew in KICAD_PYTHON), else why not: for
    the tests that read a board, which skip without it."""
    if os.path.exists(KICAD_PYTHON) and shutil.which("kicad-cli") and subprocess.run(
            [KICAD_PYTHON, "-c", "import pcbnew"], capture_output=True).returncode == 0:
        return ""
    return ("KiCad 9 (pcbnew in %s, kicad-cli) is not installed: apt-get install -t "
            "bookworm-backports kicad kicad-footprints" % KICAD_PYTHON)


def gpio(name):
    """The Pico pin number of a GP name."""
    return PICO_GPIO[int(name[2:])]


def setting(name):
    return str(pinmap.default(name))


# The names the board and the schematic share: KiCad's for the Pico's pins, a pin nothing
# joins, each part's symbol, and the matrix's rows and columns.
PICO_PIN_NAMES = {p: "GP%d" % g for g, p in PICO_GPIO.items()}
PICO_PIN_NAMES.update({p: "GND" for p in PICO_GND})
PICO_PIN_NAMES.update({30: "RUN", 33: "AGND", 35: "ADC_VREF", 36: "3V3(OUT)", 37: "3V3_EN",
                       39: "VSYS", 40: "VBUS"})


def unconnected(ref, number):
    """The name KiCad gives the net of a pin nothing joins (the board's pad takes it too)."""
    name = PICO_PIN_NAMES.get(int(number)) if kind(ref) == "U" else None
    return "unconnected-(%s-%sPad%s)" % (ref, name + "-" if name else "", number)


def symbol_uuid(ref):
    """The UUID of a part's symbol in the schematic, which its footprint carries."""
    return str(uuid.uuid5(NS, "symbol/" + ref))


def matrix_nets():
    """Rows and columns from the pin map: [(row net, GP name)], [(column net, GP name)]."""
    rows = setting("CS_MATRIX_ROWS").split(",")
    cols = setting("CS_MATRIX_COLUMNS").split(",")
    return ([("ROW_%s_%s" % (MATRIX_ROW_NAMES[r].replace(" ", "_").upper(), g), g)
             for r, g in enumerate(rows)],
            [("COL%d_%s" % (c + 1, g), g) for c, g in enumerate(cols)])


def key_name(key):
    """A matrix key's name as the self-test says it: A near 1 .. B far 6."""
    role = MATRIX_KEYMAP[key]
    return "%s %s %d" % ("AB"[player_of(role)], "far" if is_far(role) else "near",
                         place_of(role) + 1)


MADE_FOOTPRINTS = {"U1": "RaspberryPi_Pico_Castellated", "J1": "SSD1306_OLED_I2C_Module",
                   "BT1": "BatteryHolder_Keystone_2479_3xAAA_WideBosses"}
# What make pcb writes: the KiCad project (--out), the fab's files (--dist), the pictures (--docs)
KICAD_FILES = (NAME + ".kicad_pcb", NAME + ".kicad_pro", "fp-lib-table", NAME + ".kicad_sch",
               NAME + ".kicad_sym", "sym-lib-table") + tuple(
    os.path.join(LIB + ".pretty", name + ".kicad_mod") for name in MADE_FOOTPRINTS.values())
PROJECT = KICAD_FILES + ("nets.json", "placement.json")
FAB = (NAME + "-gerbers.zip", NAME + "-bom.csv", NAME + "-placement.csv")
PICTURES = ("pcb-front.png", "pcb-back.png")
SCHEMATIC_PDF, GUIDE = "schematic.pdf", "ibom.html"  # docs/'s, the README links them
DOCS = PICTURES + (SCHEMATIC_PDF, GUIDE)
# dist/pcb/'s copies of them, for the release (tools/release.py takes these names)
DIST = FAB + (NAME + "-schematic.pdf", NAME + "-ibom.html")
