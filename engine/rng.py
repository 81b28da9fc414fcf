"""The game's own PRNG: same seed, same numbers on CPython, MicroPython and CircuitPython.

A 30-bit linear congruential generator (glibc's multiplier and increment, modulo 2**30),
computed in 15-bit halves so that no intermediate value reaches 2**30: the board's
small ints are 31-bit, and a long int would allocate.
"""
try:
    from micropython import const
except ImportError:
    const = lambda expr: expr  # noqa: E731  (desktop fallback)

SEED_MAX = const((1 << 30) - 1)
_M15 = const(0x7FFF)
_AH = const(908)  # 1103515245 mod 2**30 == 908 * 2**15 + 20077
_AL = const(20077)
_C = const(12345)


class Rng:
    """Seeded generator; below(n) draws uniformly from 0..n-1 without allocating."""

    def __init__(self, seed: int = 0) -> None:
        if type(seed) is not int or seed < 0 or seed > SEED_MAX:
            raise ValueError("seed: must be an integer 0..%d, not %r" % (SEED_MAX, seed))
        self.state = seed

    def next15(self) -> int:
        """Advance and return the top 15 bits of the new state."""
        x = self.state
        xl = x & _M15
        low = _AL * xl + _C  # < 2**30
        high = ((low >> 15) + ((_AL * (x >> 15)) & _M15) + ((_AH * xl) & _M15)) & _M15
        self.state = (high << 15) | (low & _M15)
        return high

    def below(self, n: int) -> int:
        """A uniform int in 0..n-1 for 1 <= n <= 32768 (rejection sampling)."""
        limit = 32768 - 32768 % n
        r = self.next15()
        while r >= limit:
            r = self.next15()
        return r % n
