"""Hardware targets: hardware/pico.py on the board, hardware/virtual/ on the desktop.
What a target provides is written once, in hardware/contract.py; mypy checks each target
against it (tests/targets_typecheck.py)."""
