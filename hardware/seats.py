"""Seats and limits, named once: where each seat's piles sit on the glass and under its
keys, which way each seat faces, and how many piles a row each build shows and presses.

Seat A sits at the glass's bottom edge and B at its top edge, across the table from A.
A place counts from the seat's own left, so A's left is the screen's left and B's left
is the screen's right. Keymap, the play screen, the self-test, the settings and the
desktop's keyboard all ask here.

Two builds: "direct" (a pin per key, 4 keys a row) and "matrix" (Long Speed: a 4 x 6 diode
matrix, 6 keys a row; settings.toml's CS_KEYS says which a board is: the words are
hardware/pinmap.py's, and the desktop's list of them is tools/keynames.BUILDS).
"""
try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

PILES_A_ROW = const(6)  # the most piles a row the handheld shows (Long Speed)
KEYS_A_ROW = (4, 6)  # a player's row of keys, by build
PILE_CHOICES = ((4, 3), (4, 3, 6))  # the piles a row the settings offer, by build, default first
FACING = (0, 180)  # the display's rotation that faces seat A, seat B


def build_of(name: object) -> int:
    """The build's index (0 direct, 1 matrix: the order of KEYS_A_ROW, PILE_CHOICES and
    tools/keynames.BUILDS) for a CS_KEYS value; the direct build for any other."""
    return 1 if name == "matrix" else 0


def column(player: int, place: int, n: int) -> int:
    """The column on the glass (0: the screen's left) of a seat's place in a row of n
    (0: the seat's own left). The same turn takes a column back to the seat's place."""
    return n - 1 - place if player else place
