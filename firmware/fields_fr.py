"""Français : les mots de la page des réglages, chaque réglage et ses choix, dans l'ordre
de firmware/settings.py (firmware/fields_en.py dit pourquoi ils sont à part)."""
from firmware.lang_fr import LEVELS

# RÉGLAGES, dans l'ordre de firmware/settings.py.
FIELDS = (
    ("MATCH", ("1 PARTIE", "2 VICTOIRES", "3 VICTOIRES", "4 VICTOIRES", "5 VICTOIRES")),
    ("PILES", ("4 PAR RANGÉE", "3 PAR RANGÉE", "6 PAR RANGÉE")),
    ("PÉNALITÉ", ("400 MS", "200 MS", "800 MS", "AUCUNE")),
    ("PAIRE PAR", ("VALEUR", "COULEUR", "VAL./COUL.")),
    ("DOUBLES", ("NON", "OUI")),
    ("IMPASSE", ("ÉGALITÉ", "MOINS GAGNE")),
    ("ORDI", LEVELS),
    ("SON", ("OUI", "NON")),
    ("CONTRASTE", ("FORT", "MOYEN", "FAIBLE", "MINIMUM")),
    ("ÉCRAN PIVOTÉ", ("NON", "OUI")),
    ("AIDES", ("NON", "OUI", "POUR 3 MATCHS", "POUR 2 MATCHS", "POUR 1 MATCH")),
    ("VEILLE", ("2 MIN", "5 MIN", "10 MIN", "1 MIN", "JAMAIS")),
    ("HANDICAP", ("B+8", "B+6", "B+4", "B+2", "AUCUN", "A+2", "A+4", "A+6", "A+8")),
    ("HANDICAP AUTO", ("NON", "OUI")),
    ("LANGUE", ("ENGLISH", "FRANÇAIS", "PORTUGUÊS")),
)
