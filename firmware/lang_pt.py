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
LOW_CELLS = "PILHA FRACA"

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

# Os níveis da CPU (NÍVEL CPU no menu, CPU nos ajustes).
LEVELS = ("INICIANTE", "CASUAL", "RÁPIDO", "ÁGIL", "RELÂMPAGO")

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
CELLS = "PILHAS"
GHOST = "FANTASMA: VER SERIAL"

# A tela de erro.
ERROR = ("DESCULPE - PAROU", "DETALHES: SERIAL", "TECLA: REINICIAR")
