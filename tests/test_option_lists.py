"""A choice's options from its 'from' (options.py from_source): nothing
twice, in the order first given, 'nothing' first when allowed; a source
with nothing twice (the common case, found by a set) is listed as it
comes, one with a repeat through a dict, as before."""

import random

import pytest

from nordlang.engine.options import Options


class _Step:
    def __init__(self, optional=None):
        self.distinct, self.optional, self.pos, self.name = False, optional, None, "x"


@pytest.mark.parametrize("optional", [None, "none"])
def test_the_options_of_any_source_as_a_dict_keeps_them(optional):
    rng = random.Random(3)
    pool = [1, True, 1.0, 2, "a", ("a", 1), frozenset({"b", "c"}), frozenset({"c", "b"}), None, (), "b"]
    for _ in range(2000):
        src = [rng.choice(pool) for _ in range(rng.randrange(0, 7))]
        for given in (src, tuple(src)):
            want = list(dict.fromkeys(given))
            if optional is not None and None not in want:
                want.insert(0, None)
            got = Options.from_source(_Step(optional), given)
            assert got == want and [type(v) for v in got] == [type(v) for v in want]
            assert type(got) is list and got is not given


def test_a_repeat_keeps_the_first_and_an_unhashable_option_fails_alike():
    assert Options.from_source(_Step(), (3, 1, 3, 2, 1)) == [3, 1, 2]
    with pytest.raises(TypeError):
        Options.from_source(_Step(), ([1], [2]))
