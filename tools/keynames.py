"""The keys' names, for scripts, tests and the desktop: A0-A5 and B0-B5 are the near row (a
player's own piles from their own left), Af0-Af5 and Bf0-Bf5 the far row from the
player's own left, and MENU. Made from what hardware/keymap.py says each key means; the
board does not import this module (each function in the heap costs the board RAM)."""
from hardware import pinmap
from hardware.keymap import KEYMAP, ROLE_MENU, ROLE_NONE, is_far, place_of, player_of, role_of


def name_of(key_number: int, keymap: bytes = KEYMAP) -> str:
    """'A0', 'Bf3', 'MENU', or 'KEY 20' for a key with no role."""
    role = role_of(key_number, keymap)
    if role == ROLE_MENU:
        return "MENU"
    if role == ROLE_NONE:
        return "KEY %d" % key_number
    return "AB"[player_of(role)] + ("f" if is_far(role) else "") + str(place_of(role))


def key_named(name: str, keymap: bytes = KEYMAP) -> int:
    """The key number with that name (name_of), or -1."""
    for key in range(len(keymap)):
        if name_of(key, keymap) == name:
            return key
    return -1


# The key builds, in hardware/seats.py's order (build_of): the words CS_KEYS allows.
BUILDS = next(s[4] for s in pinmap.SETTINGS if s[0] == "CS_KEYS")
