"""The Pico's pins and the handheld's wired parts, from hardware/pinmap.py (CPython,
stdlib only): what tools/wiring.py writes into settings.toml and docs/pins.md, and what
tools/wiring_direct.py and tools/wiring_matrix.py draw."""
from hardware import pinmap

# ----------------------------------------------------------------------------- the Pico

# Raspberry Pi Pico physical pins 1-40 (1-20 down the left side with the USB at the top,
# 21-40 up the right side).
PICO_PINS = (
    None,
    "GP0", "GP1", "GND", "GP2", "GP3", "GP4", "GP5", "GND", "GP6", "GP7",
    "GP8", "GP9", "GND", "GP10", "GP11", "GP12", "GP13", "GND", "GP14", "GP15",
    "GP16", "GP17", "GND", "GP18", "GP19", "GP20", "GP21", "GND", "GP22", "RUN",
    "GP26", "GP27", "GND", "GP28", "ADC_VREF", "3V3(OUT)", "3V3_EN", "GND", "VSYS", "VBUS",
)
GND_PINS = tuple(n for n in range(1, 41) if PICO_PINS[n] == "GND")
PIN_3V3 = PICO_PINS.index("3V3(OUT)")
# The GPIO names a setting may use (the pins the Pico brings out).
GPIO_NAMES = tuple("GP%d" % n for n in list(range(23)) + [26, 27, 28])


def physical_pin(name):
    """The Pico's physical pin number (1-40) of a pin name such as 'GP4'."""
    try:
        return PICO_PINS.index(name)
    except ValueError:
        raise ValueError("%r is not a Pico pin name (GP0-GP22, GP26-GP28)" % (name,))


def _setting(name):
    for s in pinmap.SETTINGS:
        if s[0] == name:
            return s
    raise KeyError(name)


def parts():
    """Every wired part with its default pin, in key order then the rest:
    dicts with key (scanner key number or None), name, what, pin, phys, setting, group."""
    out = []
    for player, setting in (("A", "CS_KEYS_A"), ("B", "CS_KEYS_B")):
        names = [n.strip() for n in pinmap.default(setting).split(",")]
        for i, pin in enumerate(names):
            row = "near" if i < 4 else "far"
            col = i % 4 + 1
            other = "B" if player == "A" else "A"
            whose = ("%s's own pile" % player) if row == "near" else ("%s's pile" % other)
            out.append({
                "key": (0 if player == "A" else 8) + i,
                "name": "%s %s %d" % (player, row, col),
                "what": "%s's %s row, button %d from %s's left (%s)"
                        % (player, row, col, player, whose),
                "pin": pin, "phys": physical_pin(pin),
                "setting": setting, "nth": "%s of 8" % _ordinal(i + 1),
                "group": "%s %s" % (player, row),
                "player": player, "row": row, "col": col - 1,
            })
    menu = pinmap.default("CS_MENU")
    out.append({"key": 16, "name": "MENU", "what": "MENU button (hold at power-up: self-test)",
                "pin": menu, "phys": physical_pin(menu), "setting": "CS_MENU",
                "group": "MENU"})
    piezo = pinmap.default("CS_PIEZO")
    out.append({"key": None, "name": "Piezo +", "what": "passive piezo buzzer, + leg "
                "(optionally through 100 ohm)", "pin": piezo, "phys": physical_pin(piezo),
                "setting": "CS_PIEZO", "group": "Piezo"})
    for setting, label, what in (("CS_I2C_SDA", "OLED SDA", "OLED data (I2C SDA)"),
                                 ("CS_I2C_SCL", "OLED SCL", "OLED clock (I2C SCL)")):
        pin = pinmap.default(setting)
        out.append({"key": None, "name": label, "what": what, "pin": pin,
                    "phys": physical_pin(pin), "setting": setting,
                    "group": label.split()[1]})
    return out


# The matrix build's rows, in CS_MATRIX_ROWS order (keymap.py: row r is keys 6r..6r+5).
MATRIX_ROW_NAMES = ("A near", "A far", "B far", "B near")


def _pins_of(setting):
    return [n.strip() for n in str(pinmap.default(setting)).split(",")]


def matrix_keys():
    """The matrix build's 24 pile keys, key number order (row x 6 + column): dicts with
    key, row (0-3, CS_MATRIX_ROWS order), col (0-5, the column from A's left), name (as
    the player sees it: 'B far 6' is B's far row, 6th from B's left), player, group."""
    from hardware import keymap
    cols = len(_pins_of("CS_MATRIX_COLUMNS"))
    out = []
    for key in range(len(keymap.MATRIX_KEYMAP) - 1):
        role = keymap.MATRIX_KEYMAP[key]
        player = "AB"[keymap.player_of(role)]
        row = "far" if keymap.is_far(role) else "near"
        out.append({"key": key, "row": key // cols, "col": key % cols,
                    "name": "%s %s %d" % (player, row, keymap.place_of(role) + 1),
                    "player": player, "group": "%s %s" % (player, row)})
    return out


def matrix_parts():
    """Every wired part of the matrix build with its default pin: the 4 row wires, the
    6 column wires, MENU, the piezo and the OLED's bus (dicts as parts(), and for a row
    or column wire: keys, the matrix_keys() it serves, and row or col)."""
    keys = matrix_keys()
    rows, cols = _pins_of("CS_MATRIX_ROWS"), _pins_of("CS_MATRIX_COLUMNS")
    out = []
    for r, pin in enumerate(rows):
        name = MATRIX_ROW_NAMES[r]
        out.append({"key": None, "name": "Row %s" % name,
                    "what": "%s's %s row: the striped (cathode) ends of its %d diodes"
                            % (name[0], name[2:], len(cols)),
                    "pin": pin, "phys": physical_pin(pin), "setting": "CS_MATRIX_ROWS",
                    "nth": "%s of %d" % (_ordinal(r + 1), len(rows)), "group": name,
                    "row": r, "keys": [k for k in keys if k["row"] == r]})
    for c, pin in enumerate(cols):
        out.append({"key": None, "name": "Column %d" % (c + 1),
                    "what": "column %d from A's left, straight across the box: one leg "
                            "of each of its %d switches" % (c + 1, len(rows)),
                    "pin": pin, "phys": physical_pin(pin), "setting": "CS_MATRIX_COLUMNS",
                    "nth": "%s of %d" % (_ordinal(c + 1), len(cols)), "group": "Column",
                    "col": c, "keys": [k for k in keys if k["col"] == c]})
    for p in parts():
        if p["key"] is None or p["name"] == "MENU":
            if p["name"] == "MENU":
                p = dict(p, key=len(keys))
            out.append(p)
    return out


def build_parts(build):
    """parts() for "direct", matrix_parts() for "matrix"."""
    return matrix_parts() if build == "matrix" else parts()


def _ordinal(n):
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, "%dth" % n)
