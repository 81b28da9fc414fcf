"""The board VM twin: CircuitPython's own VM with stand-ins for the board's C modules (board/),
the runner (boardvm.py), the guest scripts (vm/), the soak and the MicroPython VM (mpvm.py)."""
