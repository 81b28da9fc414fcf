"""make play: California Speed on the virtual handheld.

The firmware runs unchanged on the desktop; what you see is the SSD1306's decoded glass.
Front ends: a terminal (curses: works over ssh and in tmux), a window (pygame) when a
display is available, and a headless scripted mode (timestamped key events in; the final
frame as PNG and the I2C byte counts out) for tests and screenshots.
"""
import argparse
import os
import sys
import time

from firmware.lang import CODES
from hardware import keymap
from tools import keynames
from tools.keynames import BUILDS
from hardware.seats import KEYS_A_ROW, PILE_CHOICES, column
from tools.cli import bounded, output_file

KEYS_HELP = """\
  Player A (bottom row is yours)          Player B (top row is yours; reads upside down)
    top row:     [a] [s] [d] [f]            top row:     [j] [k] [l] [;]
    bottom row:  [z] [x] [c] [v]            bottom row:  [m] [,] [.] [/]
  Each key sits where its pile is on screen. MENU: [space]   quit: [Esc] or Ctrl-C
  Menus: a row's 1st key UP, 2nd DOWN, 3rd LEFT, 4th RIGHT/choose (A: z x c v). Pause: MENU twice"""
MATRIX_KEYS_HELP = """\
  Player A (bottom row is yours)                  Player B (top row is yours; reads upside down)
    top row:     [a] [s] [d] [f] [g] [h]            top row:     [7] [8] [9] [0] [-] [=]
    bottom row:  [z] [x] [c] [v] [b] [n]            bottom row:  [u] [i] [o] [p] [[] []]
  Each key sits where its pile is on screen. MENU: [space]   quit: [Esc] or Ctrl-C
  Menus: a row's 1st key UP, 2nd DOWN, 3rd LEFT, 4th RIGHT/choose (A: z x c v). Pause: MENU twice"""

# Keyboard key -> the handheld's key, by build (hardware/seats.py BUILDS). Each keyboard
# row is a row of piles as the glass shows it, its keys in the screen's columns from the
# left: A's near row and B's far row are the glass's bottom row, A's far row and B's near
# row its top row (hardware/seats.py: B's own left is the screen's right). (keys, seat,
# far row) from the bottom keyboard row of each hand up.
KEYBOARD_ROWS = (
    (("zxcv", "A", ""), ("asdf", "A", "f"), ("m,./", "B", "f"), ("jkl;", "B", "")),
    (("zxcvbn", "A", ""), ("asdfgh", "A", "f"), ("uiop[]", "B", "f"), ("7890-=", "B", "")),
)
KEYMAPS = (keymap.KEYMAP, keymap.MATRIX_KEYMAP)  # by build


def _keyboard(build):
    """{keyboard character: key number} of a build's layout; MENU is the space bar."""
    n, keys_of = KEYS_A_ROW[build], KEYMAPS[build]
    board = {ch: keynames.key_named("%s%s%d" % (seat, far, column(seat == "B", i, n)), keys_of)
             for keys, seat, far in KEYBOARD_ROWS[build] for i, ch in enumerate(keys)}
    board[" "] = keynames.key_named("MENU", keys_of)
    return board


def key_names(keys_of):
    """Names for scripts (keynames.name_of) of a key map: A0-A3 / B0-B3 the near row (own
    piles from own left), Af0-Af3 / Bf0-Bf3 the far row from the player's own left, MENU;
    on the matrix build A0-A5 and so on."""
    return {keynames.name_of(k, keys_of): k for k in range(len(keys_of))}


KEYBOARDS = (_keyboard(0), _keyboard(1))
KEYBOARD = KEYBOARDS[0]  # the direct build's
HELPS = (KEYS_HELP, MATRIX_KEYS_HELP)
KEY_NAMES = key_names(keymap.KEYMAP)  # the direct build's


MAX_MS = 3600000  # the longest script time, hold or --after: one simulated hour
DEFAULT_NVM = ".handheld-nvm.bin"  # the handheld's memory when make play is not told


def _parser():
    from tools.cli import Parser
    ap = Parser(prog="make play", description=__doc__.splitlines()[0],
                epilog=KEYS_HELP + "\n\n  --keys matrix (--piles 6, Long Speed):\n" +
                MATRIX_KEYS_HELP, formatter_class=argparse.RawTextHelpFormatter)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--terminal", action="store_true", help="play in the terminal")
    mode.add_argument("--window", action="store_true", help="play in a pygame window")
    mode.add_argument("--script", metavar="FILE",
                      help="headless: run key events from FILE ('<ms> <key> down|up|tap')")
    ap.add_argument("--png", metavar="FILE", type=output_file,
                    help="with --script: save the final frame")
    ap.add_argument("--scale", type=bounded(1, 16), default=4,
                    help="PNG pixel size, 1..16 (default 4)")
    ap.add_argument("--after", type=bounded(0, MAX_MS, " ms"), default=500, metavar="MS",
                    help="with --script: run this long after the last event (default 500)")
    ap.add_argument("--seed", type=bounded(0, 2 ** 30 - 1),
                    help="match seed (default: random; scripts: 1)")
    ap.add_argument("--decks", metavar="'A CARDS / B CARDS'",
                    help="stack the first game, top card first, e.g. '5c 9d Jh 2s 7c / 5d Kc 3h 8s 4c'")
    ap.add_argument("--piles", type=int, choices=sorted(PILE_CHOICES[1]),
                    help="piles per row (default: the handheld's settings); 6 plays Long "
                         "Speed on the matrix build")
    ap.add_argument("--keys", choices=BUILDS,
                    help="the key build: direct (4 keys a row, the default) or matrix (6 keys "
                         "a row on a diode matrix, MENU on its own pin; --piles 6 implies it)")
    ap.add_argument("--wins", type=int, choices=range(1, 6), metavar="1-5",
                    help="games to win the match (default: the handheld's settings)")
    ap.add_argument("--nvm", metavar="FILE",
                    help="the file of the handheld's saved settings and statistics (default "
                         "%s; with --script: none). Only a file that is new, empty or a "
                         "handheld's memory is taken; --nvm '' keeps the memory in RAM "
                         "only, and nothing is written" % DEFAULT_NVM)
    ap.add_argument("--lang", choices=CODES,
                    help="the handheld's language: en, fr or pt (default: its settings)")
    ap.add_argument("--i2c-hz", type=int, choices=(100000, 400000, 1000000),
                    help="I2C clock (default 400000)")
    ap.add_argument("--clock-start", type=bounded(0, 2 ** 29 - 1), metavar="TICKS",
                    help="ticks_ms at power-on (default 0x1FFF0000, as the board: the clock "
                         "wraps 65.5 s later)")
    ap.add_argument("--braille", action="store_true",
                    help="terminal: small braille pixels even when half blocks would fit")
    return ap


def _rules(args):
    """Rules from --piles/--wins, or None to use the handheld's settings."""
    from engine import Rules
    if args.piles is None and args.wins is None:
        return None
    return Rules(piles_per_row=args.piles or PILE_CHOICES[0][0], wins_needed=args.wins or 2)


def _build(args):
    """The key build --keys and --piles ask for, as its index in BUILDS: --keys, else the
    matrix build for --piles 6 and the direct build for any other."""
    return BUILDS.index(args.keys or ("matrix" if args.piles == 6 else "direct"))


def _check_build(parser, args):
    """--piles 6 with --keys direct: an error in one line (exit status 2)."""
    if args.keys == "direct" and args.piles == 6:
        parser.error("--piles 6 needs 6 keys a row and the direct build has %d: use --keys "
                     "matrix, or leave --keys out" % KEYS_A_ROW[0])


def _nvm_path(args):
    """The memory's file: --nvm's, else the default one for play, and none (RAM) for a
    script, so that goldens and screenshots never read a developer's saved settings."""
    if args.nvm is not None:
        return args.nvm
    return "" if args.script else DEFAULT_NVM


def _claim_nvm(parser, args):
    """Take the memory's file before anything runs, or stop in one line (exit status 2)."""
    from twins.desktop import virtual
    path = _nvm_path(args)
    problem = virtual.claim_memory(path) if path else ""
    if problem:
        parser.exit(2, "make play: error: --nvm %s\n" % problem)
    return path


def _clock_start(args):
    from twins.desktop import virtual
    return virtual.BOOT_TICKS if args.clock_start is None else args.clock_start


def _settings(args):
    settings = {"CS_I2C_HZ": args.i2c_hz} if args.i2c_hz else {}
    if _build(args):
        settings["CS_KEYS"] = BUILDS[_build(args)]
    return settings


# ---- headless ----

def parse_decks(text):
    """('A cards / B cards') -> (list, list) of card ids; ValueError naming the problem."""
    from tools.cards import parse_card
    halves = text.split("/")
    if len(halves) != 2:
        raise ValueError("decks: write A's cards, a '/', then B's cards")
    seen, decks = {}, ([], [])
    for who, half, deck in zip("AB", halves, decks):
        for token in half.split():
            card = parse_card(token)
            if card in seen:
                raise ValueError("decks: %s is dealt twice (%s in %s's deck, %s in %s's): a "
                                 "card is in one deck once" % (token, seen[card][0],
                                                               seen[card][1], token, who))
            seen[card] = (token, who)
            deck.append(card)
    return decks


def run_script(text, *, seed=1, rules=None, settings=None, after_ms=500, start_ms=None,
               decks=None, language=None, nvm_path=None):
    """Run a key script on a simulated handheld (its memory in nvm_path, else in RAM);
    returns (handheld, app). The keys are named as the build settings' CS_KEYS says."""
    from twins.desktop import virtual
    from hardware.seats import build_of
    from twins.desktop.keypad import load_script
    from firmware.app import App
    from engine.ticks import ticks_diff
    keys_of = KEYMAPS[build_of((settings or {}).get("CS_KEYS"))]
    events = load_script(text, key_names(keys_of), MAX_MS, len(keys_of))
    hw = virtual.init(seed=seed, settings=settings, nvm_path=nvm_path or None,
                      start_ms=virtual.BOOT_TICKS if start_ms is None else start_ms)
    app = App(hw, rules, decks=decks, language=language)
    hw.buttons.schedule(events, offset_ms=hw.ms(0))
    end = max([ms for ms, _, _ in events] or [0]) + after_ms
    elapsed = 0
    while elapsed <= end:
        before = hw.clock.now
        app.step()
        if app.restarting:  # (a new language): a fresh app, as firmware.runner.run() makes
            app = App(hw, rules)
        elapsed += ticks_diff(hw.clock.now, before)
    return hw, app


def _headless(args):
    from tools.cli import fail, read_text
    from tools.files import cannot_write
    text, problem = read_text(args.script, "script")
    if text is None:
        fail("make play", "--script " + problem)
    try:
        decks = parse_decks(args.decks) if args.decks is not None else None
        hw, app = run_script(text, seed=1 if args.seed is None else args.seed,
                             start_ms=_clock_start(args),
                             rules=_rules(args), settings=_settings(args),
                             after_ms=args.after, decks=decks, language=args.lang,
                             nvm_path=_nvm_path(args))
    except ValueError as e:
        fail("make play", "%s %s" % (args.script, e))
    if args.png:
        try:
            hw.oled.to_png(args.png, scale=args.scale)
        except OSError as e:
            fail("make play", cannot_write(args.png, e))
    hz = hw.bus.frequency
    print("simulated time   %d ms over %d main-loop passes" % (hw.elapsed, app.passes))
    print("I2C bytes        %d in %d transactions (%.1f ms of bus time at %d Hz)"
          % (hw.bus.bytes_sent, hw.bus.transactions, hw.bus.bus_seconds() * 1000, hz))
    print("key presses      %d handled" % app.filter.presses)
    for line in hw.console_lines:
        print("console: " + line)
    if args.png:
        print("frame            " + args.png)


# ---- terminal ----

class Taps:
    """Keys typed in a terminal, as taps of the handheld's buttons. A terminal sees a
    key's press, never its release, so each becomes a short tap; a key typed again soon
    after is pressed once its last tap's contact has rested longer than the firmware's
    bounce rule (firmware/keyfilter.py _BOUNCE_MS), so a quick double tap is two presses, never
    one press and a bounce."""

    def __init__(self, handheld):
        from firmware.keyfilter import _BOUNCE_MS
        from hardware.keymap import DEBOUNCE_SCANS
        scan = handheld.info["CS_KEY_INTERVAL_MS"] * (DEBOUNCE_SCANS + 1)  # seen, surely
        self.hold_ms = max(30, scan)
        self.rest_ms = _BOUNCE_MS + scan
        self.free_at = {}  # key number: ticks_ms when its contact has rested enough

    def typed(self, handheld, key):
        """A key typed now: tap it now, or as soon as its contact has rested."""
        from engine.ticks import ticks_add, ticks_diff
        now = handheld.clock.now
        free = self.free_at.get(key, now)
        at = free if ticks_diff(free, now) > 0 else now
        handheld.buttons.tap(key, at, self.hold_ms)
        self.free_at[key] = ticks_add(at, self.hold_ms + self.rest_ms)


_BRAILLE_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10),
                 (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))


def frame_lines(frame, width=128, height=64, braille=True):
    """The frame as text lines: braille (2x4 pixels a character) or half blocks (1x2)."""
    lines = []
    if braille:
        for y in range(0, height, 4):
            row = []
            for x in range(0, width, 2):
                bits = 0
                for dx, dy, b in _BRAILLE_BITS:
                    if frame[(y + dy) * width + x + dx]:
                        bits |= b
                row.append(chr(0x2800 + bits))
            lines.append("".join(row))
    else:
        chars = " \u2580\u2584\u2588"
        for y in range(0, height, 2):
            top = frame[y * width:(y + 1) * width]
            bottom = frame[(y + 1) * width:(y + 2) * width]
            lines.append("".join(chars[t | (b << 1)] for t, b in zip(top, bottom)))
    return lines


def _run_interactive(args, front):
    """The handheld in real time with a front end's hook; restarts it after a watchdog
    reset as the board would. Returns the handheld."""
    from twins.desktop import virtual
    from firmware.runner import run
    app_options = {"rules": _rules(args), "language": args.lang,
                   "decks": parse_decks(args.decks) if args.decks is not None else None}
    while True:
        try:
            return run(virtual, app_options=app_options, realtime=True, seed=args.seed,
                       settings=_settings(args), nvm_path=_nvm_path(args) or None,
                       on_idle=front, start_ms=_clock_start(args))
        except virtual.WatchdogReset:
            continue


def _terminal(args):
    import curses
    state = {"bytes": -1, "drawn": 0.0}

    def front(stdscr):
        curses.curs_set(0)
        stdscr.nodelay(True)
        help_lines = HELPS[_build(args)].splitlines()
        keyboard = KEYBOARDS[_build(args)]

        def pump(handheld):
            if state.get("hand") is not handheld:  # (a new one after a watchdog reset)
                state["hand"], state["taps"] = handheld, Taps(handheld)
            while True:
                try:
                    ch = stdscr.get_wch()
                except curses.error:
                    break
                if ch in ("\x1b", "\x03"):
                    handheld.stop = True
                    return
                key = keyboard.get(ch.lower() if isinstance(ch, str) else None)
                if key is not None:
                    state["taps"].typed(handheld, key)
            now = time.monotonic()
            if handheld.bus.bytes_sent != state["bytes"] or now - state["drawn"] > 0.5:
                state["bytes"] = handheld.bus.bytes_sent
                state["drawn"] = now
                rows, cols = stdscr.getmaxyx()  # again each time: the window may change
                _draw(stdscr, handheld, args.braille or cols < 132 or rows < 40, help_lines)

        _run_interactive(args, pump)

    try:
        curses.wrapper(front)
    except KeyboardInterrupt:
        pass
    except curses.error as e:
        from tools.cli import fail
        fail("make play", "the terminal is too small or not a terminal (%s); try a bigger "
             "window, or --script for headless use" % e)
    _say_saves(state.get("hand"))


def _say_saves(hw):
    """On leaving play: why the memory's file does not hold the last saves, if it does not."""
    if hw is not None and hw.flash.note:
        print("make play: " + hw.flash.note, file=sys.stderr)


def _draw(stdscr, hw, braille, help_lines):
    import curses
    stdscr.erase()
    lines = frame_lines(hw.oled.frame(), braille=braille)
    width = len(lines[0])
    rows, cols = stdscr.getmaxyx()
    need_w, need_h = width + 2, len(lines) + 3  # the glass, its frame and the status line
    if cols < need_w or rows < need_h:
        import textwrap
        words = ("make the window at least %dx%d (it is %dx%d); Esc quits"
                 % (need_w, need_h, cols, rows))
        lines = textwrap.wrap(words, max(cols - 1, 1), break_long_words=False)
        for y, line in enumerate(lines[:rows]):
            try:
                stdscr.addstr(y, 0, line[:max(cols - 1, 1)])
            except curses.error:
                pass
        stdscr.refresh()
        return
    y = 0
    try:
        stdscr.addstr(y, 0, "\u250c" + "\u2500" * width + "\u2510")
        for line in lines:
            y += 1
            stdscr.addstr(y, 0, "\u2502" + line + "\u2502")
        y += 1
        stdscr.addstr(y, 0, "\u2514" + "\u2500" * width + "\u2518")
        y += 1
        note = "California Speed  |  I2C bytes %d  |  %s" % (
            hw.bus.bytes_sent, "\u266a" if hw.buzzer.hz else " ")
        stdscr.addstr(y, 0, note)
        if hw.flash.note:  # (under the status line: saves that do not land)
            import textwrap
            for line in textwrap.wrap(hw.flash.note, max(cols - 1, 1)):
                y += 1
                stdscr.addstr(y, 0, line)
        for line in help_lines:
            y += 1
            stdscr.addstr(y, 0, line)
    except curses.error:
        pass  # a small terminal: show what fits
    stdscr.refresh()


# ---- window ----

class NoWindow(Exception):
    """pygame could not open a window on a real display."""


def _open_window(size):
    """A pygame window of size, on a real display. SDL's own complaints while it looks for
    one (video, audio, XDG) are kept off the terminal; pygame falls back to its offscreen
    or dummy driver when there is no display, which is no window to play in, unless
    SDL_VIDEODRIVER asked for it."""
    import tempfile
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    with tempfile.TemporaryFile() as noise:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(noise.fileno(), 2)
        try:
            import pygame
            pygame.display.init()  # (not pygame.init(): no sound is played, so no mixer)
            pygame.font.init()
            screen = pygame.display.set_mode(size)
        except Exception as e:
            raise NoWindow(str(e) or type(e).__name__)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
    driver = pygame.display.get_driver()
    if driver in ("offscreen", "dummy") and os.environ.get("SDL_VIDEODRIVER") != driver:
        pygame.quit()
        raise NoWindow("no display answers (pygame fell back to its %s driver)" % driver)
    return pygame, screen


def _window(args, stop_after=None):
    scale = 6
    widest = max(len(line) for line in HELPS[_build(args)].splitlines())
    pygame, screen = _open_window((max(128 * scale + 40, 40 + 9 * widest), 64 * scale + 200))
    pygame.display.set_caption("California Speed - virtual handheld")
    font = pygame.font.Font(None, 22)
    state = {"bytes": -1, "passes": 0}
    keyboard = KEYBOARDS[_build(args)]
    help_lines = HELPS[_build(args)].splitlines()

    def pump(handheld):
        state["passes"] += 1
        if stop_after is not None and state["passes"] >= stop_after:
            handheld.stop = True
        for e in pygame.event.get():
            if e.type == pygame.QUIT or (e.type == pygame.KEYDOWN and e.key == pygame.K_ESCAPE):
                handheld.stop = True
            elif e.type in (pygame.KEYDOWN, pygame.KEYUP) and e.unicode is not None:
                name = pygame.key.name(e.key)
                key = keyboard.get(" " if name == "space" else name)
                if key is not None:
                    handheld.buttons.set_key(key, e.type == pygame.KEYDOWN, handheld.clock.now)
        if handheld.bus.bytes_sent != state["bytes"]:
            state["bytes"] = handheld.bus.bytes_sent
            screen.fill((20, 20, 24))
            img = handheld.oled.to_image(scale=scale)
            surface = pygame.image.fromstring(img.tobytes(), img.size, img.mode)
            screen.blit(surface, (20, 20))
            for i, line in enumerate(help_lines):
                screen.blit(font.render(line, True, (200, 200, 200)), (20, 64 * scale + 40 + 22 * i))
            pygame.display.flip()

    try:
        hw = _run_interactive(args, pump)
    except KeyboardInterrupt:
        hw = None
    pygame.quit()
    return hw, state["passes"]


def _has_display():
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def main(argv=None):
    args = _parser().parse_args(argv)
    _check_build(_parser(), args)
    if args.decks is not None:
        try:
            from engine import Game, Rules
            a, b = parse_decks(args.decks)
            Game.from_decks(a, b, _rules(args) or Rules())
        except ValueError as e:
            _parser().error(str(e))
    if args.png and args.script is None:
        _parser().error("--png needs --script")
    _claim_nvm(_parser(), args)
    if args.script is not None:
        return _headless(args)
    if args.window and not _has_display():
        print("make play: no display for a window (DISPLAY and WAYLAND_DISPLAY are not set); "
              "using the terminal", file=sys.stderr)
    elif args.window or (not args.terminal and _has_display()):
        try:
            hw, _ = _window(args)
            return _say_saves(hw)
        except NoWindow as e:  # no usable window system: the terminal always works
            print("make play: no window (%s); using the terminal" % e, file=sys.stderr)
    if not sys.stdin.isatty():
        from tools.cli import fail
        fail("make play", "the terminal front end needs a terminal; use --script FILE for "
             "headless runs")
    return _terminal(args)


if __name__ == "__main__":
    main()
