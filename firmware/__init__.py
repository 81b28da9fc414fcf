"""The handheld app (CircuitPython): code.py, main loop, screens, sound."""


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
