"""The handheld app (CircuitPython): code.py, main loop, screens, sound."""
