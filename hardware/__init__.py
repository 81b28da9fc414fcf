"""Hardware targets. Each module (pico, virtual) provides the same names after init():
display, keys, keymap, buzzer, nvm, ticks_ms, idle, console, info."""
