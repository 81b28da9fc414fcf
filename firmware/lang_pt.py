"""Português (Brasil): todas as palavras que o aparelho mostra (os mesmos nomes de
firmware/lang_en.py, que diz as larguras; tests/firmware/test_lang.py confere)."""
from firmware.glyphs import ICON_LOCK

NAME = "PORTUGUÊS"

# Durante o jogo, na linha de cada jogador (12 caracteres).
FOUL = "FALTA!"
LOCKED = chr(ICON_LOCK) + " BLOQUEADO"
TOO_LATE = "TARDE DEMAIS"
LOST_TOSS = "SORTEIO: NÃO"
NO_MATCH = "SEM PAR"
NEXT = "TECLA:SEGUIR"
TO_MENU = "TECLA:MENU"
JOINED = "B ENTROU"
KEYS_LOST = "TECLAS: ERRO"
KEY_UNKNOWN = "TECLA?"
KEY_HELD = "TECLA PRESA"

# No fim de um jogo, sobre a fileira de cada jogador (10 caracteres).
YOU_WIN = "VENCEU!"
YOU_LOSE = "PERDEU"
DRAW = "EMPATE"
MATCH_WON = "VITÓRIA!"
MATCH_LOST = "DERROTA"

# As páginas.
TITLE = "CALIFORNIA SPEED"
MAIN = ("2 JOGADORES", "CONTRA A CPU", "NÍVEL CPU", "AJUSTES", "ESTATÍSTICAS",
        "COMO JOGAR", "AUTOTESTE")
PAUSED = "PAUSA"
PAUSE = ("CONTINUAR", "DECLARAR EMPATE", "SAIR DA PARTIDA")
BACK = "MENU:VOLTAR"

# AJUSTES, na ordem de firmware/settings.py.
FIELDS = (
    ("PARTIDA", ("1 JOGO", "2 VITÓRIAS", "3 VITÓRIAS", "4 VITÓRIAS", "5 VITÓRIAS")),
    ("PILHAS", ("4 POR FILEIRA", "3 POR FILEIRA", "6 POR FILEIRA")),
    ("PUNIÇÃO", ("400 MS", "200 MS", "800 MS", "NENHUMA")),
    ("PAR POR", ("VALOR", "NAIPE", "VALOR/NAIPE")),
    ("PAR NA PILHA", ("NÃO", "SIM")),
    ("IMPASSE", ("EMPATE", "MENOS VENCE")),
    ("CPU", ("INICIANTE", "CASUAL", "RÁPIDO", "ÁGIL", "RELÂMPAGO")),
    ("SOM", ("SIM", "NÃO")),
    ("CONTRASTE", ("ALTO", "MÉDIO", "BAIXO", "MÍNIMO")),
    ("GIRAR TELA", ("NÃO", "SIM")),
    ("DICAS", ("NÃO", "SIM", "POR 3 PARTIDAS", "POR 2 PARTIDAS", "POR 1 PARTIDA")),
    ("REPOUSO", ("2 MIN", "5 MIN", "10 MIN", "1 MIN", "NUNCA")),
    ("HANDICAP", ("B+8", "B+6", "B+4", "B+2", "IGUAL", "A+2", "A+4", "A+6", "A+8")),
    ("HANDICAP AUTO", ("NÃO", "SIM")),
    ("IDIOMA", ("ENGLISH", "FRANÇAIS", "PORTUGUÊS")),
)

# ESTATÍSTICAS.
STATS = ("PARTIDAS", "JOGOS", "VITÓRIAS A", "VITÓRIAS B", "EMPATES", "MAIS RÁPIDO",
         "MAIS LONGO", "TEMPO MÉDIO", "SEQUÊNCIA")
SECONDS = "%d,%d S"

# AUTOTESTE (para quem monta o aparelho).
SELFTEST = "AUTOTESTE SEGURE MENU"
SELFTEST_INFO = "I2C %02X %dK MEM %s"
NEAR = "PERTO"
FAR = "LONGE"
KEY = "TECLA %d"
DOWN = "APERTADA"  # uma tecla
UP = "SOLTA"
GHOST = "FANTASMA: VER SERIAL"

# A tela de erro.
ERROR = ("DESCULPE - PAROU", "DETALHES: SERIAL", "TECLA: REINICIAR")
