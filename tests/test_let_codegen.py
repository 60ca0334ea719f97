"""A `let` is written as Python's := (the value, then the body: no call of
a function made for it), except where Python allows no := (in a loop's
collection) and in a replay (each node its own function): there it stays a
call. The same values, and errors placed at the same text."""

from pathlib import Path

import pytest
from helpers import ev
from helpers import generated_source as source
from helpers import run_effects as run

import nordlang
from nordlang.errors import EvalError

TABLEAU = Path(__file__).parent / "games" / "tableau" / "tableau.yaml"


@pytest.fixture
def game():
    return nordlang.load(str(TABLEAU), seed=0)



def test_a_let_binds_with_no_call(game):
    assert ev(game, "let a = 2 in a * 3") == 6
    assert ev(game, "let a = 1, b = a + 1 in a * 10 + b") == 12
    assert ev(game, "let a = none in a") is None and ev(game, "let a = false in a") is False
    src = source(game, "let a = 2 in a * 3")
    assert ":=" in src and "lambda" not in src


def test_a_let_in_a_loop_and_in_its_collection(game):
    text = "[(let y = x * 2 in y + 1) for x in [1, 2, 3] if (let z = x in z > 1)]"
    assert ev(game, text) == (5, 7) and ":=" in source(game, text)
    assert ev(game, "any((let y = x in y > 1) for x in [1, 2])") is True
    assert ev(game, "count((let y = x in y > 1) for x in [1, 2, 3])") == 2
    # in a later loop's collection a let is a call: Python allows no := there
    text = "[(x, y) for x in [1] for y in (let k = x + 1 in [k, k])]"
    assert ev(game, text) == ((1, 2), (1, 2)) and "lambda" in source(game, text)
    # a first collection (at any depth) is made apart, just before its loop: its lets are :=
    for text, value in (("[x for x in (let xs = [1, 2] in xs)]", (1, 2)),
                        ("[x for x in [y for y in [1, 2] if (let z = y in z > 1)]]", (2,)),
                        ("[n for n in [x for x in [(let z = y in z * 2) for y in [1, 2]]] if n > 2]", (4,)),
                        ("sum(x for x in (let xs = [3, 4] in xs) if x > 3)", 4),
                        ("[[x for x in (let xs = [y, y] in xs)] for y in [1, 2]]", ((1, 1), (2, 2)))):
        assert ev(game, text) == value
        assert ":=" in source(game, text) and "lambda" not in source(game, text)


def test_an_error_in_a_first_collection_made_apart_is_placed_at_its_text(game):
    with pytest.raises(EvalError) as e:
        ev(game, "[x for x in (let a = 0 in [1 // a])]")
    assert e.value.message == "division by zero" and (e.value.pos.line, e.value.pos.col) == (1, 28)


def test_an_effects_loop_over_a_let_compiles_and_runs(game):
    run(game, "for i, x in (let xs = enumerate([3, 4]) in xs) { award(0, x * i, \"cards\") }\n"
              "for x in (let xs = [5] in xs) { award(0, x, \"cards\") }")
    assert ev(game, "points(0)") == 9


def test_an_error_in_a_let_is_placed_at_its_text(game):
    with pytest.raises(EvalError) as e:
        ev(game, "let a = 1 in 7 + a // (a - 1)")
    assert e.value.message == "division by zero" and (e.value.pos.line, e.value.pos.col) == (1, 18)
    with pytest.raises(EvalError) as e:
        ev(game, "let a = at([1], -1) in a")
    assert e.value.message == "at() counts items from 0, not from -1" and e.value.pos.col == 9
