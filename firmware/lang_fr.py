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
LOW_CELLS = "PILES USÉES"

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

# Les niveaux de l'ordinateur (NIVEAU ORDI au menu, ORDI dans les réglages).
LEVELS = ("DÉBUTANT", "AMATEUR", "RAPIDE", "VIF", "ÉCLAIR")

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
CELLS = "PILES"
GHOST = "FANTÔME : VOIR SÉRIE"

# L'écran d'erreur.
ERROR = ("OUPS - ARRÊT", "DÉTAILS : PORT SÉRIE", "TOUCHE : REDÉMARRER")
