"""The handheld's pin map: the one source of truth for the wiring, settings.toml and docs.

Each setting: (settings.toml key, kind, default, what it is, ...). Kinds: "pin" (a board
pin name), "pins" (comma-separated pin names, then how many), "int" (then its lowest and highest value),
"choice" (then the allowed values), "word" (then the allowed words). The firmware reads the
keys with os.getenv and falls back to the default, saying which, when a value is bad.
CS_KEYS says which build a board is (hardware/seats.py): "direct", a pin per key, in the
scanner's key-number order: A near 0-3, A far 0-3, B near 0-3, B far 0-3, then MENU; or
"matrix" (Long Speed), 24 pile keys on a 4 x 6 diode matrix (rows A near, A far, B far,
B near; columns the places on the glass from A's left) and MENU on its own pin (see
keymap.py). A build uses only its own key pins.
"""

# The Pico's GPIO names on its header: the only values a pin setting may take.
GP_NAMES = tuple(["GP%d" % i for i in range(23)] + ["GP26", "GP27", "GP28"])

KEYS_A = ("GP6", "GP7", "GP8", "GP9", "GP10", "GP11", "GP12", "GP13")
KEYS_B = ("GP18", "GP19", "GP20", "GP21", "GP22", "GP26", "GP27", "GP28")

SETTINGS = (
    ("CS_I2C_SDA", "pin", "GP4", "OLED SDA (I2C0 SDA)"),
    ("CS_I2C_SCL", "pin", "GP5", "OLED SCL (I2C0 SCL)"),
    ("CS_I2C_ADDRESS", "choice", 0x3C, "OLED I2C address (0x3C, or 0x3D)", (0x3C, 0x3D)),
    ("CS_I2C_HZ", "choice", 400000, "I2C clock in Hz (100000, 400000 or 1000000)",
     (100000, 400000, 1000000)),
    ("CS_KEYS", "word", "direct", "the key build: direct (a pin per key, 4 piles a row) or "
     "matrix (a 4 x 6 diode matrix, up to 6 piles a row)", ("direct", "matrix")),
    ("CS_KEYS_A", "pins", ",".join(KEYS_A), "direct build, player A: near row left to right, "
     "then far row", 8),
    ("CS_KEYS_B", "pins", ",".join(KEYS_B), "direct build, player B: near row left to right, "
     "then far row", 8),
    # (The matrix build's defaults are written out: a name for them would cost the board an
    # interned name for good.)
    ("CS_MATRIX_ROWS", "pins", "GP6,GP7,GP8,GP9", "matrix build, rows (diode cathodes): "
     "A near, A far, B far, B near", 4),
    ("CS_MATRIX_COLUMNS", "pins", "GP16,GP17,GP18,GP19,GP20,GP21", "matrix build, columns (diode "
     "anodes): the places on the glass from A's left", 6),
    ("CS_MENU", "pin", "GP14", "MENU button"),
    ("CS_PIEZO", "pin", "GP15", "piezo buzzer (PWM)"),
    ("CS_KEY_INTERVAL_MS", "int", 1, "key scan interval in ms", 1, 50),
    # Not wiring either: the CPU clock a boot runs at (microcontroller.cpu.frequency, set
    # before I2C and PWM start). Lower draws less; 125 is CircuitPython's own.
    ("CS_CPU_MHZ", "choice", 125, "CPU clock in MHz (125 is CircuitPython's own; lower "
     "draws less current)", (48, 64, 96, 125)),
    # Not wiring, but what a classroom sets on every board it hands out: the language
    # (firmware/lang.py's CODES) until someone chooses one in SETTINGS.
    ("CS_LANGUAGE", "word", "en", "language until one is chosen in SETTINGS (en English, "
     "fr French, pt Brazilian Portuguese)", ("en", "fr", "pt")),
)


def i2c_pair(sda: object, scl: object) -> bool:
    """True when SDA and SCL can be the two pins of one RP2040 I2C block: SDA an even GPIO,
    SCL an odd one, both of I2C0 (GPIO // 2 even) or both of I2C1."""
    if not (isinstance(sda, str) and isinstance(scl, str) and sda in GP_NAMES
            and scl in GP_NAMES):
        return False
    a, b = int(sda[2:]), int(scl[2:])
    return a % 2 == 0 and b % 2 == 1 and (a // 2) % 2 == (b // 2) % 2


def default(name: str) -> str | int | None:
    """The default value of a setting, or None if there is no such setting."""
    for s in SETTINGS:
        if s[0] == name:
            return s[2]
    return None
