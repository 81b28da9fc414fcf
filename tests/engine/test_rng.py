"""The game's PRNG: a 30-bit LCG that never leaves small ints."""
from engine.rng import Rng, SEED_MAX
from enginetest import raises


def test_the_generator_is_glibcs_lcg_modulo_2_30():
    r = Rng(12345)
    s = 12345
    for _ in range(200):
        s = (1103515245 * s + 12345) % (1 << 30)
        assert r.next15() == s >> 15
        assert r.state == s


def test_extreme_states_stay_below_2_30():
    for seed in (0, 1, SEED_MAX, SEED_MAX - 1, 1 << 29, 0x7FFF, 0x8000):
        r = Rng(seed)
        for _ in range(50):
            assert 0 <= r.next15() < 32768
            assert 0 <= r.state <= SEED_MAX


def test_below_covers_its_range_and_nothing_else():
    r = Rng(3)
    for n in (1, 2, 6, 52):
        seen = [0] * n
        for _ in range(40 * n):
            v = r.below(n)
            assert 0 <= v < n
            seen[v] += 1
        assert min(seen) > 0


def test_a_bad_seed_is_refused():
    assert str(raises(ValueError, Rng, -1)).startswith("seed")
    assert str(raises(ValueError, Rng, "7")).startswith("seed")
