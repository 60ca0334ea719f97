"""A loop that unpacks its items into names (`for a, b in xs`) takes a
collection whose items are all pairs as it is (runtime._unpacked: one
pass, no call an item); any other item fails as before, where it stands:
the values, messages and places of the engine before. On the tableau game."""

from pathlib import Path
from types import GeneratorType

import pytest
from helpers import ev
from helpers import run_effects as run

import nordlang
from nordlang.errors import EvalError
from nordlang.lang.runtime import _unpacked

TABLEAU = Path(__file__).parent / "games" / "tableau" / "tableau.yaml"


@pytest.fixture
def game():
    return nordlang.load(str(TABLEAU), seed=0)


def test_pairs_are_taken_as_they_are():
    pairs = ((1, 2), (3, 4))
    assert _unpacked(pairs, 2) is pairs and _unpacked([(1, 2)], 2) == [(1, 2)]
    assert isinstance(_unpacked(((1, 2), (3, 4, 5)), 2), GeneratorType)


@pytest.mark.parametrize("text, value", [
    ("[a + b for a, b in [(1, 2), (3, 4)]]", (3, 7)), ("let xs = [(1, 2), (3, 4)] in [a * b for a, b in xs]", (2, 12)),
])
def test_values(game, text, value):
    assert ev(game, text) == value


@pytest.mark.parametrize("text, message, col", [
    ("let xs = [(1, 2), 3] in [a for a, b in xs]", "cannot unpack 3 into 2 names", 25),
    ('let xs = ["ab"] in [a for a, b in xs]', "cannot unpack 'ab' into 2 names", 20),
    ("let xs = [(1, 2, 3)] in [a for a, b in xs]", "cannot unpack (1, 2, 3) into 2 names", 25),
    ("let xs = [(1, 2), (1, 0)] in [a // b for a, b in xs]", "division by zero", 31),
])
def test_what_is_no_pair_fails_as_before(game, text, message, col):
    with pytest.raises(EvalError) as e:
        ev(game, text)
    assert (e.value.message, e.value.pos.col) == (message, col)


def test_an_effect_loop_fails_before_its_first_step(game):
    with pytest.raises(EvalError) as e:
        run(game, 'for a, b in [(1, 2), 3] { award(0, a, "x") }')
    assert (e.value.message, e.value.pos.col) == ("cannot unpack 3 into 2 names", 13)
    assert game.state.counters.get(("points", 0)) is None
    run(game, 'for a, b in enumerate([5, 6]) { award(0, a + b, "x") }')
    assert game.state.counters[("points", 0)] == 12
