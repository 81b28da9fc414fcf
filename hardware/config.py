"""Reads the handheld's settings (settings.toml on the board) against the pin map.

Board-neutral: the caller passes getenv (os.getenv on the board, a dict's get on the
desktop), a test for pin names, and where to say things. A missing value takes the
default; a bad one takes the default and the console names the key, the value and why.
"""
from hardware import pinmap

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from collections.abc import Callable


def _check(setting: tuple, value: object, pin_ok: "Callable[[str], bool]") -> str | int | None:
    kind = setting[1]
    if kind == "pin":
        return value if isinstance(value, str) and pin_ok(value) else None
    if kind == "pins":
        if not isinstance(value, str):
            return None
        names = [n.strip() for n in value.split(",")]
        if len(names) != 8 or not all(pin_ok(n) for n in names):
            return None
        return ",".join(names)
    if isinstance(value, str):  # newer CircuitPython gives every value as text
        try:
            value = int(value.strip(), 0)
        except ValueError:
            return None
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    if kind == "choice":
        return value if value in setting[4] else None
    return value if setting[4] <= value <= setting[5] else None


def read(getenv: "Callable[[str], object]", pin_ok: "Callable[[str], bool]",
         console: "Callable[[str], None]") -> dict:
    """{settings.toml key: value} for every setting of the pin map, checked."""
    values = {}  # type: dict
    for s in pinmap.SETTINGS:
        value = getenv(s[0])
        if value is None:
            values[s[0]] = s[2]
            continue
        good = _check(s, value, pin_ok)
        if good is None:
            console("settings.toml: %s = %r is not valid (%s); using %r"
                    % (s[0], value, s[3], s[2]))
            good = s[2]
        values[s[0]] = good
    used = key_pins(values) + [values["CS_I2C_SDA"], values["CS_I2C_SCL"], values["CS_PIEZO"]]
    if len(set(used)) != len(used):
        twice = sorted(set(p for p in used if used.count(p) > 1))
        console("settings.toml: pin %s used twice; using the default pin map"
                % ", ".join(twice))
        values = {s[0]: s[2] for s in pinmap.SETTINGS}
    return values


def key_pins(values: dict) -> list[str]:
    """The 17 key pins in key-number order (A near, A far, B near, B far, MENU)."""
    pins = values["CS_KEYS_A"].split(",") + values["CS_KEYS_B"].split(",")
    pins.append(values["CS_MENU"])
    return pins
