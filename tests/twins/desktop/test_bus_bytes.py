"""The bytes the handheld sends its OLED and keeps in its nvm, over a tour of every screen
and over a whole match, byte for byte as they were before issue 24 rebuilt the firmware's
insides (commit 3573ff3). Those are what a player sees and what a power cycle keeps: a
change meant to alter them updates these digests, as it would a golden screen. (Issue 47
altered them: a new handheld's hints mark the coverable piles, a refused press is said
for a second, HOW TO PLAY has seven pages.)"""
import hashlib
import random

from firmware.app import App
from twins.desktop import virtual
from hardware.keymap import KEY_COUNT
from tools.keynames import key_named
from twins.desktop.keypad import load_script
from twins.desktop.play import KEY_NAMES, MAX_MS
from twins.desktop.scripted import match_script

UP, DOWN, LEFT, RIGHT, MENU = (key_named(n) for n in ("A0", "A1", "A2", "A3", "MENU"))


def _digest(hw):
    """(writes, bytes on the bus, the writes' digest, the nvm's digest)."""
    h = hashlib.sha256()
    for address, payload in hw.bus.log:
        h.update(bytes([address]) + len(payload).to_bytes(4, "little") + payload)
    return (len(hw.bus.log), hw.bus.bytes_sent, h.hexdigest()[:16],
            hashlib.sha256(bytes(hw.flash.data)).hexdigest()[:16])


def test_a_tour_of_every_screen_sends_and_keeps_the_same_bytes():
    """Settings changed, statistics scrolled, HOW TO PLAY turned, the CPU level chosen, a
    match against the computer mashed (paused by MENU twice, resumed, paused by holding
    MENU, quit), the self-test and its long MENU, then sleep and a waking key."""
    hw = virtual.init(seed=5, bus_log=True)
    app = App(hw)
    at = [500]

    def tap(key, gap=250, hold=60):
        hw.buttons.tap(key, hw.ms(at[0]), hold)
        at[0] += gap

    def run_to(ms):
        while hw.elapsed < ms:
            app.step()

    for key in (DOWN, DOWN, DOWN, RIGHT, DOWN, RIGHT, DOWN, RIGHT, UP, LEFT, MENU,  # settings
                DOWN, RIGHT, DOWN, DOWN, UP, MENU,  # statistics
                DOWN, RIGHT, DOWN, DOWN, RIGHT, LEFT, 9, MENU,  # HOW TO PLAY
                UP, UP, UP, RIGHT, RIGHT, LEFT, UP, RIGHT):  # CPU level, VS COMPUTER
        tap(key)
    rng = random.Random(1)
    for _ in range(150):
        tap(rng.randrange(16), gap=rng.randrange(80, 400))
    tap(MENU, gap=200)
    tap(MENU, gap=700)
    tap(RIGHT, gap=500)
    for _ in range(100):
        tap(rng.randrange(16), gap=rng.randrange(80, 400))
    tap(MENU, gap=1500, hold=900)
    for key in (DOWN, DOWN, RIGHT):  # QUIT
        tap(key, gap=1000 if key == RIGHT else 250)
    for key in (DOWN,) * 6 + (RIGHT,):  # SELF TEST
        tap(key, gap=3000 if key == RIGHT else 250)
    tap(5)
    tap(12)
    tap(MENU, gap=2500, hold=1800)
    run_to(at[0] + 2000)
    run_to(at[0] + 11 * 60000)  # the screen goes off after its minutes
    at[0] = hw.elapsed + 100
    tap(RIGHT, gap=1000)
    run_to(hw.elapsed + 3000)
    assert _digest(hw) == (1976, 47952, "d047e15f446ec53a", "92d0ac5d0a936af3")


def test_a_match_through_the_keys_sends_and_keeps_the_same_bytes():
    script, checks = match_script(3, covers=30)[:2]
    hw = virtual.init(seed=3, bus_log=True)
    app = App(hw)
    hw.buttons.schedule(load_script(script, KEY_NAMES, MAX_MS, KEY_COUNT),
                        offset_ms=hw.ms(0))
    while hw.elapsed < max(checks) + 5000:
        app.step()
    assert _digest(hw) == (2706, 40669, "3f0c66f3c98faabc", "fa75c4c85a42ee49")
