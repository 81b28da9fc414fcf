"""COMMENT JOUER, en français (quatre lignes de 21 caractères par page : voir
firmware/howto_en.py)."""
PAGES = (
    ("CHAQUE JOUEUR A LA", "MOITIÉ DU PAQUET ET", "POSE 4 CARTES. LE 1ER",
     "QUI LE VIDE GAGNE !"),
    ("DEUX PILES DE MÊME", "VALEUR, PEU IMPORTE", "LA RANGÉE ? APPUYEZ :",
     "VOTRE CARTE VA DESSUS"),
    ("L'AUTRE 5 RESTE", "JOUABLE : COUVREZ-LE", "AUSSI SI VOUS ÊTES",
     "RAPIDE. LE 1ER GAGNE."),
    ("PLUS RIEN À COUVRIR ?", "ARRÊT : PAS DE PAIRE.", "APPUI SUR UNE PILE",
     "NON JOUABLE : FAUTE !"),
    ("CHACUN MET SA RANGÉE", "SOUS SON PAQUET, PUIS", "ON POSE DE NOUVELLES",
     "PILES."),
)
