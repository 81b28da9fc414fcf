"""What each key means, decided here once: key numbers to roles, roles to players, rows,
places, piles and menu moves, and the keys' names.

Each player has eight buttons mirroring the two rows as seen from their own seat: the
near row is their own row, left to right from their seat; the far row is the opponent's
row, also left to right as they see it. Key numbers follow the scanner's pin order:
0-3 A near, 4-7 A far, 8-11 B near, 12-15 B far, 16 MENU. Role byte for a pile button:
player << 3 | far << 2 | place; ROLE_MENU for MENU; ROLE_NONE for an unmapped key.
In the menus a row's buttons, near or far alike, are UP, DOWN, LEFT and RIGHT from the
player's own left, and MENU is BACK.

The keys' names (A0, Bf3, MENU) are in hardware/keynames.py: the board never imports
them, so they cost its heap nothing.
"""
from hardware.seats import column

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

ROLE_MENU = const(0x40)
ROLE_NONE = const(0xFF)
KEY_COUNT = const(17)
MENU_KEY = const(16)
DEBOUNCE_SCANS = const(2)  # a contact must read the same on this many scans in a row

KEYMAP = bytes(range(16)) + bytes((ROLE_MENU,))

UP = const(0)  # what a button means in the menus (nav_of)
DOWN = const(1)
LEFT = const(2)
RIGHT = const(3)
BACK = const(4)


def role_of(key_number: int, keymap: bytes = KEYMAP) -> int:
    """The role of a key number; ROLE_NONE for a key with no mapping."""
    if type(key_number) is not int or key_number < 0 or key_number >= len(keymap):
        return ROLE_NONE
    return keymap[key_number]


def pile_of(role: int, n: int) -> int:
    """The engine pile a pile-button role presses with n piles per row, or -1."""
    if role > 15:
        return -1
    place = role & 3
    if place >= n:
        return -1
    player = (role >> 3) & 1
    owner = 1 - player if role & 4 else player  # far row: the opponent's row
    return owner * n + column(owner, column(player, place, n), n)


def player_of(role: int) -> int:
    """The player (0 = A, 1 = B) whose button this pile role is."""
    return (role >> 3) & 1


def is_far(role: int) -> bool:
    """True for a far-row pile button (the opponent's row)."""
    return role <= 15 and bool(role & 4)


def place_of(role: int) -> int:
    """A pile button's place in its row, 0..3 from its player's own left."""
    return role & 3


def nav_of(role: int) -> int:
    """What a button means in the menus: UP, DOWN, LEFT, RIGHT (by its place, near or far
    row alike), BACK for MENU, or -1."""
    if role == ROLE_MENU:
        return BACK
    if role > 15:
        return -1
    return role & 3


def key_bit(key_number: int) -> int:
    """The key's bit in a set of keys held as an int."""
    return 1 << key_number
