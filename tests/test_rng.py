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


def _state_before(draw: int) -> int:
    """The state from which next64 draws `draw` (SplitMix64's finaliser undone)."""
    m = (1 << 64) - 1
    x = draw ^ (draw >> 31) ^ (draw >> 62)
    x = (x * pow(0x94D049BB133111EB, -1, 1 << 64)) & m
    x = x ^ (x >> 27) ^ (x >> 54)
    x = (x * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & m
    x = x ^ (x >> 30) ^ (x >> 60)
    return (x - 0x9E3779B97F4A7C15) & m


def test_a_refused_draw_is_drawn_again_in_a_shuffle_as_in_randrange():
    # a draw of 2**64 - 1 is refused for every bound but a power of 2: the shuffle's draws made at once
    # must then give way to one by one, drawing again where randrange does
    top = (1 << 64) - 1
    probe = Rng(0)
    probe.state = _state_before(top)
    assert probe.next64() == top
    for n in (3, 7, 10, 52):
        for k in range(3):                 # the refused draw first, second or third
            a, b = Rng(0), _Drawn(0)
            a.state = b.state = (_state_before(top) - k * 0x9E3779B97F4A7C15) & top
            xs, ys = list(range(n)), list(range(n))
            a.shuffle(xs)
            b.shuffle(ys)
            assert xs == ys and a.state == b.state
    # (so the state went one draw further than n - 1: the refused draw was drawn again)
    a = Rng(0)
    a.state = _state_before(top)
    a.shuffle(list(range(3)))
    assert a.state == (_state_before(top) + 3 * 0x9E3779B97F4A7C15) & top
