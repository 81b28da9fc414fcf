"""The handheld app (CircuitPython): code.py, main loop, screens, sound.

Below: what a screen asks the app to do, the actions (_A_...; what a key means, the
filter's kinds, are _M_...). Each screen's key(meaning, t) and advance(now) return one of
these, and the app (firmware/app.py) carries it out. They are private const()s, folded
by the compiler (a module-level name costs the board heap and one of its few interned
names): each screen writes again those it returns, and tests/build/test_code_layout.py checks
that every copy agrees with these.
"""
try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

_A_NOTHING = const(0)
_A_TWO_PLAYERS = const(1)  # deal a 2-player match
_A_VS_COMPUTER = const(2)  # deal a match against the computer at the chosen CPU level
_A_SETTING_CHANGED = const(3)  # make the settings take effect (they are saved as the page closes)
_A_SETTINGS_OPENED = const(4)  # the settings page opened: a moment to tidy the nvm
_A_SETTINGS_SAVE = const(5)  # save the settings: the page closed changed, or the CPU level did
_A_RESUME = const(6)  # back to the game from the pause page
_A_DECLARE_DRAW = const(7)  # the players agree the game is a draw
_A_QUIT_MATCH = const(8)  # leave the match for the main menu
_A_SELF_TEST = const(9)  # open the self-test
_A_HOW_TO_PLAY = const(10)  # open HOW TO PLAY's pages
_A_PAUSE = const(11)  # pause the match: the pause page
_A_ENDED = const(12)  # a game has just ended: its result is on the way to the glass
_A_PLAY = const(13)  # the next game is dealt: play on
_A_TO_MENU = const(14)  # close this screen for the main menu
_A_MENU_PAGE = const(15)  # back to the menu page a screen was opened from, facing as it was


def forget(name: str) -> None:
    """Let a module (e.g. "firmware.selftest") go from the heap; it is imported again when
    next wanted. For code the board needs only now and then: the computer player outside
    solo play, the self-test, HOW TO PLAY, a language not chosen, the nvm reader."""
    import sys
    sys.modules.pop(name, None)
    dot = name.rfind(".")
    package = sys.modules.get(name[:dot])
    if package is not None and hasattr(package, name[dot + 1:]):
        delattr(package, name[dot + 1:])


def free() -> str:
    """How much heap is free: gc.mem_free() on the board; CPython has no such count."""
    import gc
    if hasattr(gc, "mem_free"):
        return "%d bytes free" % gc.mem_free()
    return "free memory not measured here"
