"""The error screen: shown by firmware/runner.py as the handheld starts afresh after an
unexpected error, before the app's code is imported, until a key is pressed.

Like every screen it takes key(meaning, t) and advance(now) and returns an action: any
press asks to start afresh. run() builds it and waits for that press (wait_for_key),
then firmware/runner.py restarts; the waiting lives here, out of the heap while the app runs.
It stands on the least that can fail: CircuitPython's built-in terminalio.FONT drawn by
adafruit_display_text's bitmap_label (installed by deploy), and nothing of the app's own
glyph kit or sheets, so an error there still reaches the glass. It runs in a fresh heap
(the library needs about 16 KB, in one piece for its names), so it cannot run short.
The board's English build of terminalio.FONT has printable ASCII only, so the screen is
written in it everywhere: an accented capital loses its accent (É shows as E).
"""
import displayio

from firmware import lang

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from firmware.keyfilter import Meaning
    from hardware.contract import Target

_M_PRESS = const(1)  # a key's meaning, as firmware/keyfilter.py numbers it
_A_NOTHING = const(0)  # what a screen asks, as firmware/__init__.py numbers them
_A_TO_MENU = const(14)
_COLUMNS = 21  # characters of terminalio.FONT (6 x 12 pixels) across the 128-pixel glass
_ACCENTED = "ÀÂÁÃÇÉÈÊËÎÏÍÔÓÕÙÛÜÚàâáãçéèêëîïíôóõùûüú"
_PLAIN = "AAAACEEEEIIIOOOUUUUaaaaceeeeiiiooouuuu"


def plain(text: str) -> str:
    """text in printable ASCII: an accented letter without its accent, anything else '?'."""
    out = []
    for c in text:
        if not " " <= c <= "~":
            i = _ACCENTED.find(c)
            c = _PLAIN[i] if i >= 0 else "?"
        out.append(c)
    return "".join(out)


def rows(said: "tuple[str, str, str]", error: str) -> "list[str]":
    """The screen's five lines, centred: what happened (said[0]), the error in two lines,
    where its details are and how to go on (said[1], said[2])."""
    error = plain(error)
    out = []
    for row in (said[0], error[:_COLUMNS], error[_COLUMNS:2 * _COLUMNS], said[1], said[2]):
        row = plain(row)[:_COLUMNS]
        out.append(" " * ((_COLUMNS - len(row)) // 2) + row)
    return out


class ErrorScreen:
    """The error screen on the glass until a key is pressed."""

    def __init__(self, hw: "Target", language: str, error: str) -> None:
        show(hw, language, error)
        self.group = hw.display.root_group

    def key(self, m: "Meaning", t: int) -> int:
        """Any press: start afresh, at the main menu."""
        return _A_TO_MENU if m.what == _M_PRESS else _A_NOTHING

    rest_ms = 60000  # after advance(): it waits for a key (firmware/app.py)

    def advance(self, now: int) -> int:
        """The screen waits for a key."""
        return _A_NOTHING


def show(hw: "Target", language: str, error: str) -> None:
    """The error screen in a language ("en", "fr", "pt"): what happened, in short (the
    error's repr), and how to go on."""
    import terminalio
    from adafruit_display_text.bitmap_label import Label
    lang.use(language)
    text = Label(terminalio.FONT, save_text=False,
                 text="\n".join(rows(lang.words.ERROR, error)), color=0xFFFFFF,
                 line_spacing=1.0, anchor_point=(0, 0), anchored_position=(1, 2))
    group = displayio.Group()
    group.append(text)
    hw.display.root_group = group
    hw.display.rotation = 0
    hw.display.refresh()


def run(hw: "Target", code: str, text: str) -> None:
    """The note left before the restart on the error screen (if that cannot be shown, the
    glass stays as it is) until a key asks to start afresh."""
    screen = None
    try:
        screen = ErrorScreen(hw, code, text)
    except Exception as again:
        hw.console("and the error screen failed: %r" % (again,))
    wait_for_key(hw, screen)


def wait_for_key(hw: "Target", screen: "ErrorScreen | None") -> None:
    """Feed the watchdog until the error screen asks to start afresh (any press: also
    when the screen itself could not be shown)."""
    from firmware.keyfilter import KeyFilter
    keys = KeyFilter(hw.keymap, hw.ticks_ms(), False, hw.console)
    keys.booting = False  # (not a power-up: the key that moves on may come at once)
    event = hw.Event()
    while not hw.stop_requested():
        hw.feed()
        for scanner, first in hw.scanners:  # (the matrix build's MENU on a scanner of its own)
            queue = scanner.events
            while queue.get_into(event):
                t = event.timestamp
                if keys.feed(first + event.key_number, event.pressed, t):
                    m = keys.meaning
                    if screen.key(m, t) if screen is not None else m.what == _M_PRESS:
                        return
        if screen is not None:
            screen.advance(hw.ticks_ms())
        hw.idle(10)  # (a key waits up to 10 ms more: the screen only waits)
