"""`x == none` and `x != none` are identity tests in the generated code
(Shortcuts._none_test): no call of the value's comparison, and the same
truth for every kind of value a rule makes. On the tableau game."""

from pathlib import Path

import pytest
from helpers import ev, generated_source

import nordlang

TABLEAU = Path(__file__).parent / "games" / "tableau" / "tableau.yaml"
VALUES = ["none", "0", "false", "true", '""', "[]", "[none]", "card(1)", "cell(tableau(0), 0, 0)", "0.0",
          "first(items(cell(tableau(0), 1, 1)))"]


@pytest.fixture(scope="module")
def game():
    return nordlang.load(str(TABLEAU), seed=0)


@pytest.mark.parametrize("value", VALUES)
def test_a_test_of_none_is_true_of_none_alone(game, value):
    is_none = value in ("none", "first(items(cell(tableau(0), 1, 1)))")
    for text in (f"let x = {value} in x == none", f"let x = {value} in none == x"):
        assert ev(game, text) is is_none
    for text in (f"let x = {value} in x != none", f"let x = {value} in none != x"):
        assert ev(game, text) is not is_none


def test_it_is_written_as_an_identity_test(game):
    assert generated_source(game, "let x = card(1) in x == none").count(" is None") == 1
    assert generated_source(game, "let x = card(1) in none != x").count(" is not None") == 1
    assert " is None" not in generated_source(game, "let x = card(1) in x == card(2)")
