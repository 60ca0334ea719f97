"""A flow variable that generated code reads more than once, or in a loop,
is looked up once, as the function starts (Compiler._flow_reads_once): the
same values, and a variable with no value yet is still the read's error,
raised where it is read (never where it is looked up). On tic-tac-toe."""

import pytest

import nordlang
from nordlang.errors import EvalError
from nordlang.lang.compiler import Compiler
from nordlang.lang.parser import parse

LOOP = "[k * n for k in range(0, 3) if k != n]"


@pytest.fixture(scope="module")
def game():
    return nordlang.load("tictactoe", seed=0)


def _compiled(game, text, scope=("n",)):
    c = Compiler(game.rules.names, text=text)
    fn = c.expr(parse(text, "expr"), frozenset(scope))
    assert not c.errors
    return fn


def _run(game, fn, **bindings):
    return fn(game.rules.ctx(game.state, dict(bindings)))


def _looked_up_first(fn) -> bool:
    return "_fv0" in fn.__code__.co_varnames + fn.__code__.co_cellvars


def test_a_read_in_a_loop_is_looked_up_once_with_the_same_values(game):
    fn = _compiled(game, LOOP)
    assert _looked_up_first(fn)
    assert _run(game, fn, n=1) == (0, 2)
    assert _run(game, fn, n=2) == (0, 2)


def test_a_variable_whose_value_is_none_is_read_as_none(game):
    fn = _compiled(game, "if n == none then [n, n] else []")
    assert _looked_up_first(fn)
    assert _run(game, fn, n=None) == (None, None)
    assert _run(game, fn, n=3) == ()


def test_a_variable_with_no_value_yet_is_the_reads_error(game):
    fn = _compiled(game, LOOP)
    with pytest.raises(EvalError, match="'n' has no value yet"):
        _run(game, fn)
    # looked up first, yet read only where the text reads it: no loop pass, no error
    empty = _compiled(game, "[k * n for k in range(0, 0)]")
    assert _looked_up_first(empty)
    assert _run(game, empty) == ()


def test_a_single_read_outside_a_loop_stays_as_it_was(game):
    fn = _compiled(game, "n + 1")
    assert not _looked_up_first(fn)
    assert _run(game, fn, n=4) == 5
