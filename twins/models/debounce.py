"""CircuitPython's keypad debounce (keypad_debounce(), shared-module/keypad): the one
integrator, for the desktop twin's scanner (twins/desktop/keypad.py) and the board
VM's keypad stand-in (twins/boardvm/board/keypad.py).

Each key has a counter within -threshold..threshold (an int8, array('b'), as on the
board). A scan steps it one towards the contact; when it reaches 0 the key has changed,
and it jumps to +threshold (pressed) or -threshold (released). So a clean change is
reported after `threshold` scans, a flickering one on its average. Board subset: it
runs in CircuitPython's VM too.
"""


def scan(counts, key, down, threshold):
    """One scan of key's counter, its contact closed (down) or open; True when the key
    changed: it is pressed now if down, else released."""
    c = counts[key]
    if down:
        if c < threshold:
            c += 1
            if c == 0:
                counts[key] = threshold
                return True
            counts[key] = c
    elif c > -threshold:
        c -= 1
        if c == 0:
            counts[key] = -threshold
            return True
        counts[key] = c
    return False
