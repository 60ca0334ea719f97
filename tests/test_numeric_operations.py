"""What the text shows to be a number (shortcuts._numeric): a count, a
quotient, a let bound to one, a sum or difference of such. A product of
two is Python's own *, and + or - with one is Python's own operator (no
collection to charge): the same values, and the same errors where a side
is no number."""

from pathlib import Path

import pytest
from helpers import ev
from helpers import generated_source as source

import nordlang
from nordlang.errors import EvalError

TABLEAU = Path(__file__).parent / "games" / "tableau" / "tableau.yaml"


@pytest.fixture
def game():
    return nordlang.load(str(TABLEAU), seed=0)


@pytest.mark.parametrize("text, value", [
    ("2 * len([1, 2, 3])", 6),
    ("len([1, 2]) * (len([1]) + 4 / 2)", 6.0),
    ("let n = len([1, 2]) in n * n - 1", 3),
    ("(len([1, 2, 3]) - 1) % 2", 0),
    ("-len([1]) * 3", -3),
    ("len([1, 2]) + 7 // 2", 5),
])
def test_products_and_sums_of_numbers_are_pythons_own(game, text, value):
    assert ev(game, text) == value
    src = source(game, text)
    assert "_mul(" not in src and "_mod(" not in src and "_plus(" not in src and "_minus(" not in src


def test_what_may_be_no_number_is_checked_as_before(game):
    # a let of a list: * says so; + of two collections is charged
    with pytest.raises(EvalError) as e:
        ev(game, "let xs = [1] in xs * len(xs)")
    assert e.value.message == "wrong kind of value: cannot use * on a tuple and a number"
    assert "_mul(" in source(game, "let xs = [1] in xs * len(xs)")
    assert ev(game, "let xs = [1], ys = [2] in xs + ys") == (1, 2)
    assert "_plus(" in source(game, "let xs = [1], ys = [2] in xs + ys")
    # a quotient of what is no number fails as Python's division
    with pytest.raises(EvalError):
        ev(game, "let xs = [1] in (xs / 2) * 3")
