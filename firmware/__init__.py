"""The handheld app (CircuitPython): code.py, main loop, screens, sound.

Below: what a screen asks the app to do. Each screen's key(meaning, t) and advance(now)
return one of these, and the app (firmware/app.py) carries it out.
"""
NOTHING = 0
TWO_PLAYERS = 1  # deal a 2-player match
VS_COMPUTER = 2  # deal a match against the computer at the chosen CPU level
SETTING_CHANGED = 3  # make the settings take effect (they are saved as the page closes)
SETTINGS_OPENED = 4  # the settings page opened: a moment to tidy the nvm
SETTINGS_SAVE = 5  # save the settings: the page closed with changes, or the CPU level changed
RESUME = 6  # back to the game from the pause page
DECLARE_DRAW = 7  # the players agree the game is a draw
QUIT_MATCH = 8  # leave the match for the main menu
SELF_TEST = 9  # open the self-test
HOW_TO_PLAY = 10  # open HOW TO PLAY's pages
PAUSE = 11  # pause the match: the pause page
ENDED = 12  # a game has just ended: its result is on the way to the glass
PLAY = 13  # the next game is dealt: play on
TO_MENU = 14  # close this screen for the main menu


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
