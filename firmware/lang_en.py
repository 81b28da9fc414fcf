"""English: every word the handheld shows.

A language is one module like this one (firmware/lang_fr.py, lang_pt.py): the same names,
the same shapes, capitals only (the font draws A-Z, digits, some punctuation and the
accented capitals of French and Portuguese). tests/firmware/test_lang.py draws every string of
every language where it is shown and fails on one that overflows or has no glyph. The
widths: an info-line message 12 characters, a banner 10, a page title 19, a menu line 20
(its label, a space and its value), a line of text 21.
"""
from firmware.glyphs import ICON_LOCK

NAME = "ENGLISH"

# During play, on a player's info line (12 characters).
# A refused press, on the line of the seat that made it, in HOW TO PLAY's words:
FOUL = "FOUL!"  # a pile that could not be covered
LOCKED = chr(ICON_LOCK) + " LOCKED"  # a press in the lockout after a foul (a padlock first)
TOO_LATE = "TOO LATE"  # a collision: someone else covered that pile first
LOST_TOSS = "LOST TOSS"  # both pressed it at once: the coin chose the other seat
NO_MATCH = "NO MATCH"  # play has stalled: the rows are collected and dealt again
NEXT = "ANY KEY:NEXT"  # after a game
TO_MENU = "ANY KEY:MENU"  # after the match
JOINED = "B JOINS IN"  # someone took the computer's seat
KEYS_LOST = "KEYS LOST"  # the key queue overflowed
KEY_UNKNOWN = "KEY ?"  # a key the key map does not know
KEY_HELD = "KEY HELD"  # a key down for seconds: ignored until released
LOW_CELLS = "LOW BATTERY"  # a match starts on cells nearly spent (15 % left)

# At the end of a game, across each player's row (10 characters).
YOU_WIN = "YOU WIN!"
YOU_LOSE = "YOU LOSE"
DRAW = "DRAW"
MATCH_WON = "MATCH WON!"
MATCH_LOST = "MATCH LOST"

# Pages. The main menu's items (in this order: firmware/menus.py) also title the pages
# they open.
TITLE = "CALIFORNIA SPEED"
MAIN = ("2 PLAYERS", "VS COMPUTER", "CPU LEVEL", "SETTINGS", "STATISTICS", "HOW TO PLAY",
        "SELF TEST")
PAUSED = "PAUSED"
PAUSE = ("RESUME", "DECLARE DRAW", "QUIT MATCH")
BACK = "MENU:BACK"  # the hint at the foot of a page, after the arrows

# The computer's levels (CPU LEVEL on the main menu, CPU on the settings page).
LEVELS = ("ROOKIE", "CASUAL", "QUICK", "SHARP", "LIGHTNING")

# STATISTICS: a label for each line (firmware/statspage.py gives the values).
STATS = ("MATCHES", "GAMES", "WINS A", "WINS B", "DRAWS", "FASTEST WIN", "LONGEST",
         "AVG COVER", "STREAK")
SECONDS = "%d.%d S"  # seconds and tenths

# SELF TEST (for builders).
SELFTEST = "SELF TEST  HOLD MENU"
SELFTEST_INFO = "I2C %02X %dK MEM %s"  # address, bus kHz, free memory
NEAR = "NEAR"  # a key of a player's near row
FAR = "FAR"
KEY = "KEY %d"  # a key the key map does not know
DOWN = "DOWN"  # pressed
UP = "UP"  # released
CELLS = "CELLS"  # on batteries: before the charge left, in %
GHOST = "GHOST KEY: SEE SERIAL"  # a key a diode should have stopped: the line below
# names the two it may be, the serial console where their diodes are

# The error screen: what happened goes between the first line and the other two.
ERROR = ("SORRY - IT STOPPED", "DETAILS: SERIAL PORT", "ANY KEY: RESTART")
