"""A part of a comprehension that names none of its loop's names has one
value for all its items: it is worked out at its first use and kept for the
others (lang/bindings.py), set unknown again each time the comprehension
starts. The same values, and the same errors, at the same text."""

from pathlib import Path

import pytest
from helpers import ev
from helpers import generated_source as source

import nordlang
from nordlang.errors import EvalError
from nordlang.lang.compiler import Compiler
from nordlang.lang.parser import parse

TABLEAU = Path(__file__).parent / "games" / "tableau" / "tableau.yaml"


@pytest.fixture
def game():
    return nordlang.load(str(TABLEAU), seed=0)



def kept(game, text) -> int:
    """How many values the code of text keeps for a comprehension's items."""
    return source(game, text).count(" is not _unset else (")


def test_a_lookup_the_same_for_all_items_is_kept(game):
    text = "let k = 1 in [x for x in [1, 2, 3] if x > [0, 2][k]]"
    assert ev(game, text) == (3,)
    assert kept(game, text) == 1
    # one that names the loop's name is made for each item
    text = "[x for x in [1, 2, 3] if [0, 2, 9][x - 1] > 1]"
    assert ev(game, text) == (2, 3) and kept(game, text) == 0
    # nor one that names a let of the item
    text = "let k = 1 in [x for x in [1, 2, 3] if (let j = x - 1 in [0, 2, 9][j] > k)]"
    assert ev(game, text) == (2, 3) and kept(game, text) == 0


def test_an_inner_loop_keeps_its_value_for_one_run_only(game):
    # [0, 1, 2][x] is the same for the inner loop's items, not for the outer loop's
    text = "[[y for y in [1, 2, 3] if y > [0, 1, 2][x]] for x in [0, 1, 2]]"
    assert ev(game, text) == ((1, 2, 3), (2, 3), (3,))
    assert kept(game, text) == 1
    text = "let k = 1 in [count(y > [0, 1, 2][k] for y in [1, 2, 3]) + x for x in [0, 10]]"
    assert ev(game, text) == (2, 12)


def test_a_kept_value_is_made_only_where_the_text_asks_for_it(game):
    # [1][k] fails; a test that stops first, or a loop with no items, never asks it
    assert ev(game, "let k = 5 in [x for x in [1, 2] if x > 5 and [1][k] > 0]") == ()
    assert ev(game, "let k = 5 in [x for x in [] if [1][k] > 0]") == ()
    assert ev(game, "let k = 5 in any(x > 1 or [1][k] > 0 for x in [2, 3])") is True
    with pytest.raises(EvalError) as e:
        ev(game, "let k = 5 in [x for x in [1, 2] if [1][k] > 0]")
    assert "5" in e.value.message


def test_nothing_is_kept_in_a_later_loops_collection(game):
    # (Python allows no := there)
    text = "let k = 1 in [(w, y) for w in [0] for y in [x for x in [1, 2, 3] if x > [0, 2][k]]]"
    assert ev(game, text) == ((0, 3),) and kept(game, text) == 0
    # a first collection is made apart, before its loop (expressions._clauses): kept there as elsewhere
    text = "let k = 1 in [y for y in [x for x in [1, 2, 3] if x > [0, 2][k]]]"
    assert ev(game, text) == (3,) and kept(game, text) == 1


def test_a_definition_call_the_same_for_all_items_is_kept():
    rules = nordlang.load_rules("vikings", 2)
    c = Compiler(rules.names, text="[i for i in [1, 2] if i <= wealth(p)]")
    code = c.gen(parse("[i for i in [1, 2] if i <= wealth(p)]", "expr"), frozenset(), {"p": "0"})
    assert not c.errors and code.count(" is not _unset else (") == 1
    game = nordlang.Game(rules, 3)
    assert ev(game, "[i for i in range(0, 500) if i <= wealth(0)]") == tuple(range(ev(game, "wealth(0)") + 1))
