"""The game's random source: SplitMix64 on one integer.

Its whole state is one int, so copying a position copies it for free, and
the same seed gives the same numbers on any machine and any Python.

It is one of the game's chance sources (engine/chance.py names the others):
every chance event of the rules comes to it as `pick` (one outcome of
several, with exact probabilities) or `shuffle`, which is a run of uniform
picks. A real game's source is seeded by the game's seed; a search agent
gets a source seeded afresh, so it never meets the real game's future.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

_MASK = (1 << 64) - 1
_SPAN = 1 << 64
_GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int = 0):
        self.state = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK

    def copy(self) -> Rng:
        r = Rng.__new__(Rng)
        r.state = self.state
        return r

    def for_probe(self) -> Rng:
        """The source a lookahead probe (the rules trying a move ahead) draws from."""
        return self.copy()

    def next64(self) -> int:
        self.state = x = (self.state + 0x9E3779B97F4A7C15) & _MASK
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
        return x ^ (x >> 31)

    def randrange(self, n: int) -> int:
        """Uniform in 0..n-1 (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("randrange of an empty range")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            r = self.next64()
            if r < limit:
                return r % n

    def pick(self, probs) -> int:
        """The index of one outcome, drawn with the given exact probabilities
        (Fractions adding up to 1; all equal: one uniform draw)."""
        n = len(probs)
        first = probs[0]
        if all(q == first for q in probs):
            return self.randrange(n)
        scale = lcm(*(Fraction(q).denominator for q in probs))
        r = self.randrange(scale)
        for i, q in enumerate(probs):
            r -= int(q * scale)
            if r < 0:
                return i
        return n - 1            # pragma: no cover - the probabilities add up to 1

    def roll(self, outcomes, probs, label=None) -> int:
        """The index of a chance event's outcome (a `roll` step)."""
        return self.pick(probs)

    def shuffle(self, items: list, label=None) -> None:
        """Fisher-Yates, in place: each step a uniform pick of the item that
        goes to the last place not yet settled (randrange and next64 written
        out: the same numbers, without two calls an item; a subclass that
        draws otherwise keeps its own randrange)."""
        if type(self).randrange is not Rng.randrange or type(self).next64 is not Rng.next64:
            for i in range(len(items) - 1, 0, -1):
                j = self.randrange(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        x = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _SPAN - _SPAN % n
            while True:
                x = (x + _GOLDEN) & _MASK
                r = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                r = ((r ^ (r >> 27)) * 0x94D049BB133111EB) & _MASK
                r ^= r >> 31
                if r < limit:
                    break
            j = r % n
            items[i], items[j] = items[j], items[i]
        self.state = x
