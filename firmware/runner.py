"""The handheld's outermost loop: start the hardware, run the app, and after an unexpected
error start afresh and show the error until a key is pressed.

After an error the heap is in pieces, too few to load the error screen's text library.
So the error is left as a note in sleep memory (hw.sleep_memory, kept over a restart) and
the handheld restarts: the board reloads code.py into a fresh heap, where the note is shown
before the app's code is imported (firmware/crash.py); a key restarts it once more, clean.
This module therefore holds none of the app's code: App is imported in the loop.
"""
import gc
import time

try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from hardware.contract import Target, TargetModule

_RETRY_S = const(3)  # the hardware would not start: try again this much later
# The note in sleep memory: "CS!", the language's code (2 bytes), the text's length, the text.
_NOTE_MARK = b"CS!"
_TEXT_AT = const(6)
_TEXT_MAX = const(96)


def leave_note(hw: "Target", error: BaseException) -> None:
    """The error, in printable ASCII, and the language spoken, into sleep memory."""
    import sys
    lang = sys.modules.get("firmware.lang")
    code = getattr(lang, "code", "")
    if len(code) != 2:
        code = "en"  # (the error came before a language was chosen)
    text = repr(error)[:_TEXT_MAX]
    data = bytes([ord(c) if " " <= c <= "~" else 63 for c in text])  # (63: '?')
    memory = hw.sleep_memory
    n = min(len(data), len(memory) - _TEXT_AT)
    memory[_TEXT_AT:_TEXT_AT + n] = data[:n]
    memory[3:_TEXT_AT] = bytes([ord(code[0]), ord(code[1]), n])
    memory[0:3] = _NOTE_MARK  # last: a note cut short by a reset is not taken for one


def take_note(hw: "Target") -> "tuple[str, str] | None":
    """(language code, error text) of a note left before the restart, or None; either
    way no note is left behind."""
    memory = hw.sleep_memory
    if bytes(memory[0:3]) != _NOTE_MARK:
        return None
    memory[0:3] = b"\x00\x00\x00"
    n = memory[5]
    code = "".join([chr(b) for b in memory[3:5]])
    return code, "".join([chr(b) for b in memory[_TEXT_AT:_TEXT_AT + n]])


def run(target: "TargetModule", app_options: dict | None = None, **options: object) -> "Target":
    """Start the handheld on a hardware target (hardware.pico, or twins.desktop.virtual).
    After an unexpected error: print the traceback, leave a note and restart; a start
    that finds a note shows it and waits for a key, then restarts. If the hardware itself
    cannot start, say why on the console and start it again (on the board: code.py
    afresh, its pins free) a few seconds later."""
    while True:
        try:
            hw = target.init(**options)
            break
        except Exception as e:  # whatever settings.toml or the wiring say: never stop
            gc.collect()
            print("California Speed could not start: %r; trying again in %d s" % (e, _RETRY_S))
            time.sleep(_RETRY_S)
            target.restart()
    from firmware.version import VERSION
    hw.console("California Speed " + VERSION)
    while not hw.stop_requested():
        note = take_note(hw)
        if note is not None:
            try:
                from firmware import crash  # imported only now: its code is not in the heap
                crash.run(hw, note[0], note[1])  # while the handheld runs
            except Exception as again:  # (a fresh heap: not expected)
                hw.console("and the error screen failed: %r" % (again,))
            hw.restart()  # (the board: a heap without the error screen's code)
            continue
        try:
            from firmware.app import App
            App(hw, **(app_options or {})).run()
        except Exception as e:  # keep the handheld usable whatever went wrong
            App = None  # type: ignore[misc,assignment]  # (this loop's hold on the app)
            gc.collect()  # the app that failed is garbage now
            try:  # (each step may find the heap full: the restart must still come)
                hw.console("California Speed stopped: %r" % (e,))
                hw.print_exception(e)
            except Exception:
                pass
            try:
                leave_note(hw, e)
            except Exception:  # no room even for the note: it restarts without the screen
                pass
            hw.restart()
    return hw
