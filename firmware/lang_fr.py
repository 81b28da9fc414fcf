"""Français : tous les mots que la console affiche (les mêmes noms que firmware/lang_en.py,
qui dit les largeurs ; tests/firmware/test_lang.py les vérifie)."""
from firmware.glyphs import ICON_LOCK

NAME = "FRANÇAIS"

# En jeu, sur la ligne d'un joueur (12 caractères).
FOUL = "FAUTE !"
LOCKED = chr(ICON_LOCK) + " BLOQUÉ"
TOO_LATE = "TROP TARD"
LOST_TOSS = "TIRAGE PERDU"
NO_MATCH = "PAS DE PAIRE"
NEXT = "TOUCHE:SUITE"
TO_MENU = "TOUCHE:MENU"
JOINED = "B ARRIVE"
KEYS_LOST = "APPUIS RATÉS"
KEY_UNKNOWN = "TOUCHE ?"
KEY_HELD = "TOUCHE TENUE"

# En fin de partie, sur la rangée de chaque joueur (10 caractères).
YOU_WIN = "GAGNÉ !"
YOU_LOSE = "PERDU"
DRAW = "ÉGALITÉ"
MATCH_WON = "VICTOIRE !"
MATCH_LOST = "DÉFAITE"

# Les pages.
TITLE = "CALIFORNIA SPEED"
MAIN = ("2 JOUEURS", "CONTRE L'ORDI", "NIVEAU ORDI", "RÉGLAGES", "STATISTIQUES",
        "COMMENT JOUER", "AUTOTEST")
PAUSED = "PAUSE"
PAUSE = ("REPRENDRE", "PARTIE NULLE", "QUITTER LE MATCH")
BACK = "MENU:RETOUR"

# RÉGLAGES, dans l'ordre de firmware/settings.py.
FIELDS = (
    ("MATCH", ("1 PARTIE", "2 VICTOIRES", "3 VICTOIRES", "4 VICTOIRES", "5 VICTOIRES")),
    ("PILES", ("4 PAR RANGÉE", "3 PAR RANGÉE", "6 PAR RANGÉE")),
    ("PÉNALITÉ", ("400 MS", "200 MS", "800 MS", "AUCUNE")),
    ("PAIRE PAR", ("VALEUR", "COULEUR", "VAL./COUL.")),
    ("DOUBLES", ("NON", "OUI")),
    ("IMPASSE", ("ÉGALITÉ", "MOINS GAGNE")),
    ("ORDI", ("DÉBUTANT", "AMATEUR", "RAPIDE", "VIF", "ÉCLAIR")),
    ("SON", ("OUI", "NON")),
    ("CONTRASTE", ("FORT", "MOYEN", "FAIBLE", "MINIMUM")),
    ("ÉCRAN PIVOTÉ", ("NON", "OUI")),
    ("AIDES", ("NON", "OUI", "POUR 3 MATCHS", "POUR 2 MATCHS", "POUR 1 MATCH")),
    ("VEILLE", ("2 MIN", "5 MIN", "10 MIN", "1 MIN", "JAMAIS")),
    ("HANDICAP", ("B+8", "B+6", "B+4", "B+2", "AUCUN", "A+2", "A+4", "A+6", "A+8")),
    ("HANDICAP AUTO", ("NON", "OUI")),
    ("LANGUE", ("ENGLISH", "FRANÇAIS", "PORTUGUÊS")),
)

# STATISTIQUES.
STATS = ("MATCHS", "PARTIES", "VICTOIRES A", "VICTOIRES B", "ÉGALITÉS", "PLUS RAPIDE",
         "PLUS LONGUE", "RÉFLEXE MOYEN", "SÉRIE")
SECONDS = "%d,%d S"

# AUTOTEST (pour qui monte la console).
SELFTEST = "AUTOTEST  TENIR MENU"
SELFTEST_INFO = "I2C %02X %dK MÉM %s"
NEAR = "PRÈS"
FAR = "LOIN"
KEY = "TOUCHE %d"
DOWN = "APPUYÉE"  # une touche
UP = "LÂCHÉE"
GHOST = "FANTÔME : VOIR SÉRIE"

# L'écran d'erreur.
ERROR = ("OUPS - ARRÊT", "DÉTAILS : PORT SÉRIE", "TOUCHE : REDÉMARRER")
