"""Deterministic scenes on the virtual handheld: the main screens, reached by scripted keys
from stacked decks. They make the golden screenshots (tests/firmware/golden), the README's
pictures and the I2C figures per kind of screen change.

    python -m twins.desktop.scenes --write tests/firmware/golden     # regenerate the goldens (scale 1)
    python -m twins.desktop.scenes --write docs --scale 4   # bigger pictures for people
"""
import argparse
import os
import sys

from engine import Rules
from tools import boardcode
from twins.desktop.play import run_script, parse_decks

DECKS = "5c 9d Jh 2s 7c 8c / 5d Kc 3h 8s 4c 6c"  # piles 0 (5c) and 4 (5d) match
ONE_LEFT = "5c 9d Jh 2s 7c / 5d Kc 3h 8s 4c 6c"  # A's last card is on the match
_START = "400 A3 tap\n"  # RIGHT on "2 PLAYERS" in the main menu deals the match
# Six piles a row (Long Speed): pairs 5c-5d (piles 0, 6), Ks-Kc (3, 7), 10h-10s (5, 11)
SIX = "5c 9d Jh Ks 7c 10h Qd 8c Ac 2d / 5d Kc 3h 8s 4c 10s 6c 2h 9s 3d"
_LONG = {"piles_per_row": 6, "keys": "matrix"}  # Long Speed: the build with six keys a row
# HINTS ON (SETTINGS, down to HINTS, LEFT from a new handheld's NEXT 3 MATCHES), back to
# the main menu, then 2 PLAYERS: the match is dealt at 3250 ms
_HINTS = ("400 A1 tap\n550 A1 tap\n700 A1 tap\n850 A3 tap\n"
          + "".join("%d A1 tap\n" % (1000 + 150 * i) for i in range(10))
          + "2500 A2 tap\n2650 MENU tap\n2800 A0 tap\n2950 A0 tap\n3100 A0 tap\n3250 A3 tap\n")

# name: (decks, key script, rules options, what it shows)
SCENES = {
    "menu": (DECKS, "", {}, "the main menu"),
    "settings": (DECKS, "400 A1 tap\n550 A1 tap\n700 A1 tap\n850 A3 tap\n1000 A1 tap\n"
                 "1150 A3 tap\n", {}, "the settings, piles changed to 3 a row"),
    "statistics": (DECKS, "400 A0 tap\n550 A0 tap\n700 A0 tap\n850 A3 tap\n", {},
                   "the statistics (none yet)"),
    "pause": (DECKS, _START + "900 MENU tap\n1000 MENU tap\n", {},
              "MENU pressed twice in a match: paused"),
    "howto": (DECKS, "400 A0 tap\n550 A0 tap\n700 A3 tap\n850 A1 tap\n", {},
              "HOW TO PLAY, its second page: a pair"),
    "selftest": (DECKS, "0 MENU down\n500 MENU up\n1500 A1 down\n1600 Bf2 down\n", {},
                 "MENU held at power-up: the self-test, two keys held"),
    "deal": (DECKS, _START, {}, "a fresh deal (a new handheld's hints mark the pair)"),
    "cover": (DECKS, _START + "700 A0 tap\n", {}, "A covered pile 0 (5c) with 7c"),
    "foul": (DECKS, _START + "700 A1 tap\n", {"after": 150},
             "A pressed a pile with no match: a foul"),
    "collision": (DECKS, _START + "700 A0 tap\n750 Bf3 tap\n", {},
                  "B pressed the pile A had just covered: too late"),
    "stall": (DECKS, _START + "700 A0 tap\n900 B0 tap\n", {}, "no match left: stall"),
    "redeal": (DECKS, _START + "700 A0 tap\n900 B0 tap\n", {"after": 1300},
               "collected and dealt again after the stall"),
    "game_over": (ONE_LEFT, _START + "700 A0 tap\n", {}, "A placed the last card: won"),
    "match_over": (ONE_LEFT, _START + "700 A0 tap\n", {"wins_needed": 1},
                   "A won the match"),
    "six_deal": (SIX, _START, _LONG, "a fresh deal, six piles a row (Long Speed)"),
    "six_cover": (SIX, _START + "700 A0 tap\n900 B1 tap\n", _LONG,
                  "six a row: A covered pile 0 (5c) with Qd, B pile 7 (Kc) with 6c"),
    "six_hint": (SIX, _HINTS, _LONG, "six a row, HINTS ON: six piles underlined"),
    "six_foul": (SIX, _START + "700 B2 tap\n", dict(_LONG, after=150),
                 "six a row: B pressed a pile with no match: a foul"),
}


# The main screens again in French and Portuguese: NAME_fr, NAME_pt (and error_fr, ...).
IN_LANGUAGES = ("menu", "settings", "statistics", "howto", "pause", "selftest", "foul",
                "collision", "stall", "game_over", "match_over", "error", "six_foul")
LANGUAGES = ("fr", "pt")


def names():
    """Every scene's name, the language variants included (the goldens' names)."""
    return list(SCENES) + ["error"] + ["%s_%s" % (n, code) for code in LANGUAGES
                                       for n in IN_LANGUAGES]


def _split(name):
    """(scene, language code or None) from a name such as 'menu_fr'."""
    base, _, code = name.rpartition("_")
    return (base, code) if code in LANGUAGES and base in IN_LANGUAGES else (name, None)


def play(name, **rules_extra):
    """Run a scene (NAME, or NAME_fr / NAME_pt in that language); returns (handheld, app)."""
    name, code = _split(name)
    decks, script, options, _ = SCENES[name]
    options = dict(options)
    after = options.pop("after", 400)
    keys = options.pop("keys", None)
    options.update(rules_extra)
    return run_script(script, seed=1, rules=Rules(**options), decks=parse_decks(decks),
                      after_ms=after, language=code,
                      settings={"CS_KEYS": keys} if keys else None)


def play_error(code="en"):
    """The error screen, as firmware.runner.run() shows it after an unexpected exception:
    from the note it left before restarting."""
    from twins.desktop import virtual
    from firmware import crash, lang, runner
    hw = virtual.init(seed=1)
    lang.use(code)
    runner.leave_note(hw, ValueError("piles_per_row: must be an integer 3..6, not 9"))
    crash.show(hw, *runner.take_note(hw))
    return hw


def screen(name):
    """The handheld showing a scene (any name of names())."""
    base, code = _split(name)
    return play_error(code or "en") if base == "error" else play(name)[0]


def event_bytes(name, key_ms):
    """I2C bytes sent by the main-loop pass that handled the key at key_ms, and by the
    refreshes that follow it within 100 ms (messages, sounds and timers land there)."""
    return event_span(name, key_ms).bytes_sent


def event_span(name, key_ms):
    """Like event_bytes, as a BusSpan (bytes and transactions, for bus time)."""
    decks, script, options, _ = SCENES[name]
    from twins.desktop import virtual
    from twins.desktop.keypad import load_script
    from firmware.app import App
    from hardware.seats import build_of
    from twins.desktop.play import KEYMAPS, key_names
    settings = {"CS_KEYS": options["keys"]} if "keys" in options else None
    keys_of = KEYMAPS[build_of(options.get("keys"))]
    events = load_script(script, key_names(keys_of), key_count=len(keys_of))
    opts = {k: v for k, v in options.items() if k not in ("after", "keys")}
    hw = virtual.init(seed=1, settings=settings)
    app = App(hw, Rules(**opts), decks=parse_decks(decks))
    hw.buttons.schedule(events, offset_ms=hw.ms(0))
    while hw.elapsed < key_ms:
        app.step()
    mark = hw.bus.mark()
    while hw.elapsed < key_ms + 100:
        app.step()
    return hw.bus.since(mark)


GOLDEN = os.path.join(boardcode.ROOT, "tests", "firmware", "golden")


def golden(name):
    """tests/firmware/golden/<name>.png as 128*64 bytes of 1/0, row-major (VirtualSSD1306.frame())."""
    from PIL import Image
    img = Image.open(os.path.join(GOLDEN, name + ".png")).convert("L")
    if img.size != (128, 64):
        raise ValueError("goldens are 128x64 (scale 1): %s is %dx%d" % ((name,) + img.size))
    return bytes(1 if v > 127 else 0 for v in img.tobytes())


def frame_diff(got, want):
    """Two frames as text, a row a line: '.' same, '+' lit only in got, '-' only in want."""
    return "\n".join("".join("." if got[y * 128 + x] == want[y * 128 + x]
                             else ("+" if got[y * 128 + x] else "-") for x in range(128))
                     for y in range(64))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m twins.desktop.scenes", description=__doc__.splitlines()[0])
    ap.add_argument("--write", metavar="DIR", required=True, help="write NAME.png files here")
    ap.add_argument("--scale", type=int, default=1, help="pixel size (default 1)")
    ap.add_argument("names", nargs="*", help="scenes (default: all): " + ", ".join(SCENES)
                    + ", error; and NAME_fr, NAME_pt for " + ", ".join(IN_LANGUAGES))
    args = ap.parse_args(argv)
    for name in args.names:
        if name not in names():
            ap.error("no scene %r (scenes: %s)" % (name, ", ".join(names())))
    os.makedirs(args.write, exist_ok=True)
    for name in args.names or names():
        hw = screen(name)
        path = os.path.join(args.write, name + ".png")
        hw.oled.to_png(path, scale=args.scale)
        base, code = _split(name)
        what = SCENES[base][3] if base in SCENES else "the error screen"
        what += " (%s)" % code if code else ""
        print("%-12s %s  (%s)" % (name, path, what), file=sys.stderr)


if __name__ == "__main__":
    main()
