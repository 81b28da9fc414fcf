"""Português (Brasil): as palavras da página de ajustes, cada ajuste e suas escolhas, na
ordem de firmware/settings.py (firmware/fields_en.py diz por que ficam à parte)."""
from firmware.lang_pt import LEVELS

# AJUSTES, na ordem de firmware/settings.py.
FIELDS = (
    ("PARTIDA", ("1 JOGO", "2 VITÓRIAS", "3 VITÓRIAS", "4 VITÓRIAS", "5 VITÓRIAS")),
    ("PILHAS", ("4 POR FILEIRA", "3 POR FILEIRA", "6 POR FILEIRA")),
    ("PUNIÇÃO", ("400 MS", "200 MS", "800 MS", "NENHUMA")),
    ("PAR POR", ("VALOR", "NAIPE", "VALOR/NAIPE")),
    ("PAR NA PILHA", ("NÃO", "SIM")),
    ("IMPASSE", ("EMPATE", "MENOS VENCE")),
    ("CPU", LEVELS),
    ("SOM", ("SIM", "NÃO")),
    ("CONTRASTE", ("ALTO", "MÉDIO", "BAIXO", "MÍNIMO")),
    ("GIRAR TELA", ("NÃO", "SIM")),
    ("DICAS", ("NÃO", "SIM", "POR 3 PARTIDAS", "POR 2 PARTIDAS", "POR 1 PARTIDA")),
    ("REPOUSO", ("2 MIN", "5 MIN", "10 MIN", "1 MIN", "NUNCA")),
    ("HANDICAP", ("B+8", "B+6", "B+4", "B+2", "IGUAL", "A+2", "A+4", "A+6", "A+8")),
    ("HANDICAP AUTO", ("NÃO", "SIM")),
    ("IDIOMA", ("ENGLISH", "FRANÇAIS", "PORTUGUÊS")),
)
