"""The game's random source: its shuffle (written out for speed) draws
exactly the numbers randrange draws, so games, samples and replays made
before and after are the same; a source that draws otherwise keeps its own."""

from nordlang.engine.rng import Rng


class _Drawn(Rng):
    """Draws as Rng does, through its own randrange: the general path of shuffle."""

    __slots__ = ()

    def randrange(self, n):
        return Rng.randrange(self, n)


def test_shuffle_is_fisher_yates_on_randrange_for_every_length_and_seed():
    for seed in (0, 1, 7, 2024, 2**63 + 5):
        for n in (0, 1, 2, 3, 10, 52, 200):
            a, b = Rng(seed), _Drawn(seed)
            xs, ys = list(range(n)), list(range(n))
            a.shuffle(xs)
            b.shuffle(ys)
            assert xs == ys and a.state == b.state
            assert a.next64() == b.next64()        # (and both go on alike)


# Rng(2024)'s shuffle of 0..9, as the engine drew it before shuffle was written out
SHUFFLED_2024 = [0, 3, 6, 7, 4, 9, 1, 8, 2, 5]


def test_a_known_shuffle():
    xs = list(range(10))
    Rng(2024).shuffle(xs)
    assert xs == SHUFFLED_2024


def test_a_source_with_its_own_randrange_is_asked_for_each_step():
    asked = []

    class Counting(Rng):
        __slots__ = ()

        def randrange(self, n):
            asked.append(n)
            return 0

    xs = list(range(5))
    Counting(3).shuffle(xs)
    assert asked == [5, 4, 3, 2] and xs == [1, 2, 3, 4, 0]
