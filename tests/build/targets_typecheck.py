"""For mypy, not pytest: each hardware target meets the written contract, hardware/contract.py.
tests/build/test_board_code.py type-checks this file; nothing imports it or runs it."""
from firmware.app import App
from hardware import contract, pico
from twins.desktop import virtual

BOARD: contract.TargetModule = pico  # the Pico, and the board VM on its stand-ins
BOARD_TARGET: contract.Target = pico  # pico.init() returns the module itself
DESKTOP: contract.TargetModule = virtual  # the virtual handheld
DESKTOP_TARGET: contract.Target = virtual.Handheld()


def shell(app: App) -> contract.Shell:
    """The app is what the screens' Shell says it is (mypy holds the two together here)."""
    return app
