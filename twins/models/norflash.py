"""The NOR flash's program-versus-erase rule, and the RP2040 nvm's use of it: the one Python
model, for the desktop twin's nvm (twins/desktop/virtual.py) and the board VM's
bench (twins/boardvm/board/vmbench.py). The chip twin's flash chip has the same rule
in JS (twins/chip/js/flash.mjs); tests/twins/models/flash_vectors.json keeps the two equal.

Programming can only clear bits; an erase sets a whole sector (or block) to 0xFF. So
CircuitPython's nvm on the RP2040 only programs a write whose bytes are all erased, and
erases and rewrites the 4 KB sector for any other. Board subset: it runs in
CircuitPython's VM too.
"""


def program(flash, address, data):
    """A page program: each byte ANDs into the array (bits can only be cleared), wrapping
    within its 256-byte page."""
    page = address & ~0xFF
    for i in range(len(data)):
        flash[page + ((address + i) & 0xFF)] &= data[i]


def program_all(flash, address, data):
    """Program data from address on, as a page program for each page it falls in does."""
    for i in range(len(data)):
        flash[address + i] &= data[i]


def erase(flash, address, size):
    """An erase of the size-byte sector or block address falls in: every byte reads 0xFF."""
    start = address - address % size
    for i in range(start, start + size):
        flash[i] = 0xFF


def erased(flash, start, stop):
    """True when flash[start:stop] is all 0xFF: the nvm can write there without an erase."""
    for i in range(start, stop):
        if flash[i] != 0xFF:
            return False
    return True
