"""The handheld app (CircuitPython): code.py, main loop, screens, sound."""


def forget(name: str) -> None:
    """Let firmware.<name> go from the heap (it is imported again when next wanted):
    for code the board needs only now and then (the self-test, the nvm reader)."""
    import sys
    sys.modules.pop("firmware." + name, None)
    globals().pop(name, None)
