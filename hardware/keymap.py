"""What each key means, decided here once: key numbers to roles, roles to players, rows,
places, piles and menu moves.

Each player has a near row of buttons (their own piles, left to right from their seat)
and a far row (the opponent's piles, also left to right as they see them). There are two
builds (hardware/seats.py):
- the direct build, a pin per key: 4 places a row; key numbers follow the scanner's pin
  order, 0-3 A near, 4-7 A far, 8-11 B near, 12-15 B far, 16 MENU (KEYMAP);
- the matrix build (Long Speed): 6 places a row on a 4 x 6 keypad.KeyMatrix, key number =
  row x 6 + column; rows 0 A near, 1 A far, 2 B far, 3 B near; a column is a place on the
  glass from A's left, so one column wire runs straight across the box (B's place p is
  column 5 - p); MENU, on a pin of its own, is key 24 (MATRIX_KEYMAP).
MENU is the last key of either map. Role byte for a pile button:
player << 4 | far << 3 | place; ROLE_MENU for MENU; ROLE_NONE for an unmapped key.
In the menus a row's first four buttons, near or far alike, are UP, DOWN, LEFT and RIGHT
from the player's own left, and MENU is BACK. In play a button presses the pile drawn over
it (pile_of), whatever the piles a row.

The keys' names (A0, Bf3, MENU) are in tools/keynames.py: the board never imports
them, so they cost its heap nothing.
"""
from hardware.seats import column

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

ROLE_MENU = const(0x40)
ROLE_NONE = const(0xFF)
_PILE_ROLES = const(0x1F)  # the highest role a pile button can have
KEY_COUNT = const(17)  # the direct build's keys (the matrix build's: len(MATRIX_KEYMAP))
MENU_KEY = const(16)  # the direct build's MENU
DEBOUNCE_SCANS = const(2)  # a contact must read the same on this many scans in a row

# The direct build: key k (0..15) is player k >> 3, far (k >> 2) & 1, place k & 3.
# (Literals: a comprehension's code would cost the board's heap while it loads.)
KEYMAP = b"\x00\x01\x02\x03\x08\x09\x0a\x0b\x10\x11\x12\x13\x18\x19\x1a\x1b\x40"
# The matrix build: row r, column c (key 6r + c); B's rows count places from B's left.
MATRIX_KEYMAP = (b"\x00\x01\x02\x03\x04\x05\x08\x09\x0a\x0b\x0c\x0d"
                 b"\x1d\x1c\x1b\x1a\x19\x18\x15\x14\x13\x12\x11\x10\x40")

UP = const(0)  # what a button means in the menus (nav_of)
DOWN = const(1)
LEFT = const(2)
RIGHT = const(3)
BACK = const(4)


def menu_key(keymap: bytes = KEYMAP) -> int:
    """MENU's key number in a key map, told by its role (the last key of either build's,
    where the target merges its scanners)."""
    return keymap.find(bytes((ROLE_MENU,)))


def role_of(key_number: int, keymap: bytes = KEYMAP) -> int:
    """The role of a key number; ROLE_NONE for a key with no mapping."""
    if type(key_number) is not int or key_number < 0 or key_number >= len(keymap):
        return ROLE_NONE
    return keymap[key_number]


def pile_of(role: int, n: int, keys: int = 4) -> int:
    """The engine pile a pile-button role presses with n piles a row on a build of keys
    buttons a row, or -1. The glass spreads a row's n cells over the width its keys span,
    so a key presses the cell drawn nearest over it: each its own when n == keys; with 3 on
    4 keys the middle two both press the middle pile, with 3 on 6 two keys a pile; with 4 on
    6 the two keys that sit exactly between two cells press nothing (either pile would be a
    guess, and a guess that fouls would punish the layout, not the player)."""
    if role > _PILE_ROLES:
        return -1
    place = role & 7
    if place >= keys:
        return -1
    at = (2 * place + 1) * n  # the key's centre along the row, in 1/(2 * keys) of a cell
    if at % (2 * keys) == 0:
        return -1  # on the line between two cells
    at //= 2 * keys
    player = (role >> 4) & 1
    owner = 1 - player if role & 8 else player  # far row: the opponent's row
    return owner * n + column(owner, column(player, at, n), n)


def player_of(role: int) -> int:
    """The player (0 = A, 1 = B) whose button this pile role is."""
    return (role >> 4) & 1


def is_far(role: int) -> bool:
    """True for a far-row pile button (the opponent's row)."""
    return role <= _PILE_ROLES and bool(role & 8)


def place_of(role: int) -> int:
    """A pile button's place in its row, 0..5 from its player's own left."""
    return role & 7


def nav_of(role: int) -> int:
    """What a button means in the menus: UP, DOWN, LEFT, RIGHT (a row's first four places,
    near or far row alike), BACK for MENU, or -1."""
    if role == ROLE_MENU:
        return BACK
    if role > _PILE_ROLES or role & 7 > 3:
        return -1
    return role & 3


def key_bit(key_number: int) -> int:
    """The key's bit in a set of keys held as an int."""
    return 1 << key_number
