"""English words of the settings page: each setting's label and its choices, in
firmware/settings.py's order. In the heap only while the page is open (firmware/lang.py
fields()); the CPU levels are firmware/lang_en.py's, which the main menu shows too."""
from firmware.lang_en import LEVELS

# SETTINGS: each setting's label and its choices, in firmware/settings.py's order.
FIELDS = (
    ("MATCH", ("1 GAME", "FIRST TO 2", "FIRST TO 3", "FIRST TO 4", "FIRST TO 5")),
    ("PILES", ("4 A ROW", "3 A ROW", "6 A ROW")),
    ("LOCKOUT", ("400 MS", "200 MS", "800 MS", "OFF")),
    ("MATCH BY", ("RANK", "SUIT", "RANK/SUIT")),
    ("DOUBLES", ("OFF", "ON")),
    ("DEADLOCK", ("DRAW", "FEWER WIN")),
    ("CPU", LEVELS),
    ("SOUND", ("ON", "OFF")),
    ("CONTRAST", ("HIGH", "MEDIUM", "LOW", "LOWEST")),
    ("FLIP SCREEN", ("OFF", "ON")),
    ("HINTS", ("OFF", "ON", "NEXT 3 MATCHES", "NEXT 2 MATCHES", "NEXT MATCH")),
    ("SLEEP", ("2 MIN", "5 MIN", "10 MIN", "1 MIN", "NEVER")),
    ("HANDICAP", ("B+8", "B+6", "B+4", "B+2", "EVEN", "A+2", "A+4", "A+6", "A+8")),
    ("AUTO HANDICAP", ("OFF", "ON")),
    ("LANGUAGE", ("ENGLISH", "FRANÇAIS", "PORTUGUÊS")),
)
