"""Key scripts for the board VM's bench (twins/boardvm/board/vmbench.py): a scripted
tour of everything the handheld does, and a seeded random key stream.

Times are wall milliseconds since the bench started; keys are the names of `make play`
scripts (A0-A3, Af0-Af3, B0-B3, Bf0-Bf3, MENU), sent to the GPIO pins of the default
pin map, where the buttons are wired.
"""
import random

from firmware import settings
from hardware import config, pinmap
from hardware.seats import PILE_CHOICES
from twins.desktop.play import KEY_NAMES

# The default wiring: key number -> GPIO number.
_GPIO = [int(p[2:]) for p in config.key_pins({s[0]: s[2] for s in pinmap.SETTINGS})]
UP, DOWN, LEFT, RIGHT = "A0", "A1", "A2", "A3"  # A's near row in the menus
STEP = 300  # ms between menu presses
# How many choices each line of the settings page has on the direct build (firmware/
# settings.py FIELDS, PILES as hardware/seats.py offers it there; the last field,
# handicap_ms, is on HANDICAP's line), LANGUAGE included: the tour walks every language.
# (On the matrix build, on_matrix, PILES has one choice more: the tour leaves it at 6.)
N_SETTINGS_CHOICES = tuple(len(PILE_CHOICES[0]) if f[0] == "piles" else len(f[1])
                           for f in settings.FIELDS[:-1])
HANDICAP = settings.KEYS.index("handicap")
SOAK_HANDICAP = 10  # HANDICAP's steps the tour leaves it at: A's presses held 50 ms


def gpio(key):
    """The GPIO number a key name (or key number) is wired to."""
    return _GPIO[KEY_NAMES[key] if isinstance(key, str) else key]


class Script:
    """A bench script being written; `t` is the time the next step starts."""

    def __init__(self, t=0):
        self.t = t
        self.lines = []
        self.random_from = -1  # where a random stream starts

    def text(self):
        """The script: lines sorted by time (stable, so same-time lines keep their order)."""
        return "".join("%d %s\n" % item for item in sorted(self.lines, key=lambda x: x[0]))

    def at(self, t, what):
        self.lines.append((t, what))

    def down(self, key, t=None):
        self.at(self.t if t is None else t, "%d 1" % gpio(key))

    def up(self, key, t=None):
        self.at(self.t if t is None else t, "%d 0" % gpio(key))

    def tap(self, key, hold=80, gap=STEP):
        """Press key now for hold ms; the next step starts gap ms later."""
        self.down(key)
        self.up(key, self.t + hold)
        self.t += gap

    def taps(self, key, n, hold=80, gap=STEP):
        for _ in range(n):
            self.tap(key, hold, gap)

    def hold(self, key, ms, gap=STEP):
        """Hold key for ms (MENU held: pause, or leave the self-test)."""
        self.tap(key, ms, ms + gap)

    def wait(self, ms):
        self.t += ms

    def shot(self, name):
        self.at(self.t, "shot %s" % name)

    def fault(self):
        self.at(self.t, "fault")

    def power(self):
        """Switch the board off and on again (a hard reset): code.py starts at the menu."""
        self.at(self.t, "power")
        self.t += 1500

    def end(self):
        self.at(self.t, "end")

    def mash(self, ms, rng, players="AB", gap=(90, 400)):
        """Players press random pile keys for ms (each press held 40-120 ms)."""
        end = self.t + ms
        keys = [k for k in KEY_NAMES if k[0] in players and k != "MENU"]
        while self.t < end:
            self.tap(rng.choice(keys), rng.randint(40, 120), rng.randint(*gap))


def settings_tour(s):
    """Main menu -> SETTINGS: every value of every setting, back (saved); statistics.
    HANDICAP, a scale from end to end, goes to B 50MS and is left at A 50MS: the soak's
    matches hold A's presses, so the held presses are in its figures."""
    s.taps(DOWN, 3)
    s.tap(RIGHT)  # SETTINGS
    for i, n in enumerate(N_SETTINGS_CHOICES):
        if i == HANDICAP:
            s.taps(LEFT, SOAK_HANDICAP)
            s.taps(RIGHT, 2 * SOAK_HANDICAP)
        else:
            s.taps(RIGHT, n)  # through every value and back to where it was
        s.tap(DOWN)
    s.shot("settings")
    s.tap("MENU")  # back to the main menu (on SETTINGS, the item left), saved
    s.tap(DOWN)
    s.tap(RIGHT)  # STATISTICS
    s.shot("statistics")
    s.tap("MENU")


def set_quick_matches(s):
    """Settings: matches of one game, matching by rank or suit (games end in seconds)."""
    s.taps(DOWN, 3)
    s.tap(RIGHT)
    s.taps(LEFT, 1)  # MATCH: FIRST TO 2 -> 1 GAME
    s.taps(DOWN, 3)
    s.taps(RIGHT, 2)  # MATCH BY: RANK -> RANK/SUIT
    s.tap("MENU")  # back, on SETTINGS
    s.taps(UP, 3)  # 2 PLAYERS


def tour(seed=1):
    """The scripted part: every screen and path of the handheld, in about 20 minutes.
    Returns the Script (its t is where it ends)."""
    rng = random.Random(seed)
    s = Script(1000)
    s.shot("menu")
    settings_tour(s)
    s.taps(UP, 2)  # from STATISTICS, the item left, to CPU LEVEL
    s.tap(RIGHT)
    s.tap(LEFT)
    s.taps(DOWN, 3)
    s.tap(RIGHT)  # HOW TO PLAY: its pages from both seats
    s.taps(DOWN, 2)
    s.tap("B1")
    s.tap("A0")
    s.tap("MENU")
    s.tap(DOWN)
    s.tap(RIGHT)  # SELF TEST from the menu
    s.wait(1500)
    for key in sorted(KEY_NAMES, key=KEY_NAMES.get):
        if key != "MENU":
            s.tap(key, 60, 120)
    s.shot("selftest")
    s.hold("MENU", 1800)  # leave it

    s.power()  # a 2-player match: quick rules, pause, resume, an agreed draw
    set_quick_matches(s)
    s.tap(RIGHT)  # 2 PLAYERS
    s.shot("deal")
    s.mash(6000, rng)
    s.hold("MENU", 800)  # pause
    s.shot("pause")
    s.tap(RIGHT)  # RESUME
    s.mash(4000, rng)
    s.tap("MENU", 60, 150)  # pause by a double press
    s.tap("MENU", 60, 400)
    s.tap(DOWN)
    s.tap(RIGHT)  # DECLARE DRAW
    s.wait(1500)
    s.tap("A0")  # the next game
    s.mash(50000, rng)

    for _ in range(5):  # a solo match at each CPU level (the level steps round all five)
        s.power()
        s.taps(DOWN, 2)  # CPU LEVEL: the next one
        s.tap(RIGHT)
        s.tap(UP)  # VS COMPUTER
        s.tap(RIGHT)
        s.mash(25000, rng, players="A", gap=(150, 700))
        s.hold("MENU", 800)  # pause, quit
        s.taps(DOWN, 2)
        s.tap(RIGHT)

    s.power()  # the error screen, and a key that restarts
    s.wait(1000)
    s.fault()
    s.wait(1000)
    s.shot("error")
    s.tap("B2")
    s.wait(2000)

    s.power()  # idle: the screen sleeps (2 min), then the board asks for deep sleep (+10 min)
    s.wait(13 * 60000)
    s.hold("MENU", 600)  # the pin alarm wakes it; MENU held at the wake is not the self-test
    s.wait(1000)
    s.shot("woken")

    s.down("MENU")  # MENU held at power-up opens the self-test; held 1.5 s leaves it
    s.power()
    s.wait(500)
    s.up("MENU")
    s.tap("Bf1")
    s.hold("MENU", 1800)
    return s


def random_stream(s, minutes, seed=2):
    """Random presses, taps and holds of every key, MENU included, for minutes."""
    rng = random.Random(seed)
    end = s.t + minutes * 60000
    names = sorted(KEY_NAMES)
    while s.t < end:
        key = rng.choice(names + ["MENU"] * 2)
        r = rng.random()
        if r < 0.8:
            s.tap(key, rng.randint(30, 200), rng.randint(60, 900))
        elif r < 0.95:
            s.hold(key, rng.randint(300, 2500))
        else:
            s.wait(rng.randint(1000, 20000))
    return s


def soak(random_minutes=12, seed=1):
    """The whole soak: the tour, then a random stream; ends with `end`."""
    s = tour(seed)
    s.power()
    s.random_from = s.t
    random_stream(s, random_minutes, seed + 1)
    s.wait(1000)
    s.end()
    return s


MATRIX = 'CS_KEYS = "matrix"\n'  # the settings.toml of the matrix build (boardvm.run)


def on_matrix(script):
    """A script's text for the matrix build: each press by the matrix key with the same
    role (the same pile, menu move or MENU), by the contact the bench names it by
    (boardvm.key_contacts: 'row.column')."""
    from hardware.keymap import KEYMAP, MATRIX_KEYMAP
    from twins.boardvm.boardvm import key_contacts
    contacts = key_contacts(MATRIX)
    by_gpio = {str(g): contacts[MATRIX_KEYMAP.index(KEYMAP[k])] for k, g in enumerate(_GPIO)}
    out = []
    for line in script.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in by_gpio:
            parts[1] = by_gpio[parts[1]]
        out.append(" ".join(parts))
    return "\n".join(out) + "\n"
