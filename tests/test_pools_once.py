"""An expression that reads the state's pools in a loop looks them up once
(Compiler._pools_once): the same values, and a thunk that a primitive runs
on another position (at_turn_start) still reads that position's pools. On
the tableau game (tests/games/tableau): tableau cells are pools."""

from pathlib import Path

import pytest
from helpers import ev
from helpers import run_effects as run

import nordlang
from nordlang.lang.compiler import Compiler
from nordlang.lang.parser import parse

TABLEAU = Path(__file__).parent / "games" / "tableau" / "tableau.yaml"
LOOP = "[total(c) for c in filled_cells(tableau(0)) if amount(c, card(2)) == 0]"


@pytest.fixture
def game():
    """Cell (0, 0) of tableau(0) holds card 4, cell (0, 1) card 2; the turn began with card 4 alone."""
    game = nordlang.load(str(TABLEAU), seed=0)
    run(game, "move(card(4), deck, cell(tableau(0), 0, 0))")
    game.state.turn_start = game.state.clone()
    run(game, "move(card(2), deck, cell(tableau(0), 0, 1))\nmove(card(1), deck, cell(tableau(0), 0, 0))")
    return game


def _names(game, text) -> set:
    """The names the compiled function of an expression keeps (its locals, and those its loops share)."""
    code = Compiler(game.rules.names, text=text).expr(parse(text, "expr"), frozenset()).__code__
    return set(code.co_varnames) | set(code.co_cellvars)


def test_a_loop_looks_the_pools_up_once(game):
    assert "_pools" in _names(game, LOOP)
    assert ev(game, LOOP) == (2,)
    assert "_pools" not in _names(game, "total(cell(tableau(0), 0, 0))")     # (read once: as it was)


def test_a_thunk_reads_the_position_it_runs_on(game):
    text = "[total(c) - at_turn_start(total(c)) for c in filled_cells(tableau(0))]"
    assert ev(game, text) == (1, 1)
    assert ev(game, "[at_turn_start(total(c)) for c in filled_cells(tableau(0))]") == (1, 0)
