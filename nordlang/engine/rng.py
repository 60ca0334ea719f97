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

import sys
from fractions import Fraction
from math import lcm
from operator import mod as _mod

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
        out: the same numbers, all of them drawn at once by `_draws`; a
        subclass that draws otherwise keeps its own randrange)."""
        if type(self).randrange is not Rng.randrange or type(self).next64 is not Rng.next64:
            for i in range(len(items) - 1, 0, -1):
                j = self.randrange(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        m = len(items) - 1
        if m < 1:
            return
        draws = _draws(self.state, m)
        # (a draw at or past 2**64 - n is refused and drawn again: a chance of n in 2**64, checked for all
        # at once, since every bound is at least 2**64 - len(items); then one by one, as randrange does)
        if draws is None or max(draws) >= _SPAN - len(items):
            self._shuffle_one_by_one(items)
            return
        for i, j in zip(range(m, 0, -1), map(_mod, draws, range(m + 1, 1, -1))):
            items[i], items[j] = items[j], items[i]
        self.state = (self.state + m * _GOLDEN) & _MASK

    def _shuffle_one_by_one(self, items: list) -> None:
        """shuffle, a draw at a time (where a draw may be refused)."""
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


# ---- many draws at once ----
# next64's steps on m states at once: the states are (state + k * golden) mod 2**64 for k = 1..m, each in a
# 128-bit lane of one integer, so that every step (a shift, a xor, a product by a 64-bit constant, the mask)
# is one operation of Python's integers over all lanes, none spilling into the next lane's bits.
_LANE = 128
_LITTLE = sys.byteorder == "little"     # (the lanes are read as native 64-bit words)
_LANES: dict = {}           # m -> (ones, ramp, mask): 1, k * golden and 2**64 - 1 in lanes k = 1..m


def _lanes(m: int) -> tuple:
    lanes = _LANES.get(m)
    if lanes is None:
        ones = ramp = 0
        for k in range(m, 0, -1):
            ones = (ones << _LANE) | 1
            ramp = (ramp << _LANE) | ((k * _GOLDEN) & _MASK)
        if len(_LANES) >= 256:
            _LANES.clear()          # (few lengths recur: a game's decks and pools)
        lanes = _LANES[m] = (ones, ramp, ones * _MASK)
    return lanes


def _draws(state: int, m: int) -> list:
    """The next m values of next64 from `state` (which it leaves as it was);
    None on a machine whose bytes run the other way (read one by one there)."""
    if not _LITTLE:
        return None
    ones, ramp, mask = _lanes(m)
    x = (state * ones + ramp) & mask
    x = ((x ^ (x >> 30)) & mask) * 0xBF58476D1CE4E5B9 & mask
    x = ((x ^ (x >> 27)) & mask) * 0x94D049BB133111EB & mask
    x = (x ^ (x >> 31)) & mask
    return memoryview(x.to_bytes(m * _LANE // 8, "little")).cast("Q")[::2].tolist()
