"""Hardware targets: hardware/pico.py on the board, twins/desktop/ on the desktop.
What a target provides is written once, in hardware/contract.py; mypy checks each target
against it (tests/build/targets_typecheck.py)."""
