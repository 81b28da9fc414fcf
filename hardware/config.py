"""Reads the handheld's settings (settings.toml on the board) against the pin map.

Board-neutral: the caller passes getenv (os.getenv on the board, a dict's get on the
desktop), what a pin name means, and where to say things. A missing value takes the
default; a bad one takes the default and the console names the key, the value and why,
one line for each. Whatever settings.toml says, the result is a pin map the board can
start with.
"""
from hardware import pinmap

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from collections.abc import Callable


def _check(setting: tuple, value: object, pin_of: "Callable[[str], object]") -> str | int | None:
    _key, kind, _default, _text, *allowed = setting  # allowed: (choices,) or (low, high)
    if kind == "pin":
        return value if isinstance(value, str) and pin_of(value) else None
    if kind == "pins":
        if not isinstance(value, str):
            return None
        names = [n.strip() for n in value.split(",")]
        if len(names) != allowed[0] or not all(pin_of(n) for n in names):
            return None
        return ",".join(names)
    if kind == "word":
        word = value.strip().lower() if isinstance(value, str) else ""
        return word if word in allowed[0] else None
    if isinstance(value, str):  # CircuitPython 10 gives every value as text
        try:
            value = int(value.strip(), 0)
        except ValueError:
            return None
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    if kind == "choice":
        return value if value in allowed[0] else None
    low, high = allowed
    return value if low <= value <= high else None


def read(getenv: "Callable[[str], object]", pin_of: "Callable[[str], object]",
         console: "Callable[[str], None]") -> dict:
    """{settings.toml key: value} for every setting of the pin map, checked; never raises
    for what settings.toml says. pin_of(name) is the pin a name means (the board's pin
    object; any value that is the same for two names of one pin), or None if it is not a
    pin the handheld may use. Pins are compared as pins, so no pin serves twice; a fallback
    that would clash takes the whole default pin map, which is clash-free."""
    values = {}  # type: dict
    for s in pinmap.SETTINGS:
        try:
            value = getenv(s[0])
        except Exception as e:  # a settings.toml the board cannot read
            console("settings.toml: %s cannot be read (%r); using %r" % (s[0], e, s[2]))
            value = None
        if value is None:
            values[s[0]] = s[2]
            continue
        good = _check(s, value, pin_of)
        if good is None:
            console("settings.toml: %s = %s is not valid (%s); using %r"
                    % (s[0], shown(value), s[3], s[2]))
            good = s[2]
        values[s[0]] = good
    if not pinmap.i2c_pair(values["CS_I2C_SDA"], values["CS_I2C_SCL"]):
        console("settings.toml: SDA=%s SCL=%s are not a pair of one I2C block; using %s/%s"
                % (values["CS_I2C_SDA"], values["CS_I2C_SCL"], pinmap.default("CS_I2C_SDA"),
                   pinmap.default("CS_I2C_SCL")))
        values["CS_I2C_SDA"] = pinmap.default("CS_I2C_SDA")
        values["CS_I2C_SCL"] = pinmap.default("CS_I2C_SCL")
    names = all_pins(values)
    pins = [pin_of(n) for n in names]
    twice = [n for i, n in enumerate(names) if pins[i] in pins[:i]]
    if twice:
        console("settings.toml: pin %s used twice; using the default pin map"
                % ", ".join(sorted(set(twice))))
        for s in pinmap.SETTINGS:
            if s[1] in ("pin", "pins"):
                values[s[0]] = s[2]
    return values


def shown(value: object) -> str:
    """A value as the console shows it: its repr, cut to 24 characters."""
    text = repr(value)
    return text if len(text) <= 24 else text[:20] + "...'"


def all_pins(values: dict) -> list[str]:
    """Every pin the handheld's build uses: its key pins, then SDA, SCL and the piezo."""
    if values["CS_KEYS"] == "matrix":
        rows, columns = matrix_pins(values)
        keys = rows + columns + [values["CS_MENU"]]
    else:
        keys = key_pins(values)
    return keys + [values["CS_I2C_SDA"], values["CS_I2C_SCL"], values["CS_PIEZO"]]


def key_pins(values: dict) -> list[str]:
    """The direct build's 17 key pins in key-number order (A near, A far, B near, B far,
    MENU)."""
    pins = values["CS_KEYS_A"].split(",") + values["CS_KEYS_B"].split(",")
    pins.append(values["CS_MENU"])
    return pins


def matrix_pins(values: dict) -> "tuple[list[str], list[str]]":
    """The matrix build's row pins (A near, A far, B far, B near) and column pins."""
    return values["CS_MATRIX_ROWS"].split(","), values["CS_MATRIX_COLUMNS"].split(",")
