"""Structures the engine keeps up to date instead of making anew at every
decision give what making them anew gives: the board's open spaces, and
the options of a choice taken without a search for duplicates."""

import random

import pytest

import nordlang
from nordlang.lang.builtins import ordered
from nordlang.lang.compiler import Ctx


def _open_from_scratch(state):
    grid = state.rules.grid
    return tuple(s for s in grid.spaces if s not in state.occupied and s not in grid.structure_at)


@pytest.mark.parametrize("game,players", [("hex", 2), ("nord", 4), ("connect-four", 2)])
def test_the_kept_open_spaces_are_the_open_spaces_after_every_decision(game, players):
    rules = nordlang.load_rules(game, players)
    for seed in range(3):
        g = nordlang.Game(rules, seed)
        r = random.Random(seed)
        g.state.open_board()                       # kept from here on
        while not g.over:
            assert g.state.open_board() == _open_from_scratch(g.state)
            g.play_index(r.randrange(len(g.legal_moves())))
        assert g.state.open_board() == _open_from_scratch(g.state)


def test_pieces_placed_and_lifted_in_any_order_leave_the_right_open_spaces():
    rules = nordlang.load_rules("hex")
    g = nordlang.Game(rules, 0)
    st = g.state
    st.open_board()
    r = random.Random(7)
    stone, supply = ("stone", 0), ("supply", 0)
    for _ in range(400):
        placed = [s for s in rules.grid.spaces if s in st.occupied]
        if placed and (r.random() < 0.4 or not st.pools[supply]):
            s = r.choice(placed)
            st.remove(s, st.occupied[s])
            st.add(supply, stone)
        else:
            s = r.choice(st.open_board())
            st.remove(supply, stone)
            st.add(s, stone)
        assert st.open_board() == _open_from_scratch(st)
        copy = st.clone()                         # a copy shares the tuples, and goes its own way
        if copy.open_board():
            copy.add(copy.open_board()[0], stone)
        assert st.open_board() == _open_from_scratch(st)
        assert copy.open_board() == _open_from_scratch(copy)
        # the original goes on while the copy lives: each keeps its own open spaces, and a listing
        # handed out before (a choice's options) never changes
        copy = st.clone()
        listed, copied = st.open_board(), copy.open_board()
        kept, kept_copy = tuple(listed), tuple(copied)
        if listed and st.pools[supply]:
            st.remove(supply, stone)
            st.add(listed[-1], stone)
        lifted = [s for s in rules.grid.spaces if s in copy.occupied and copy.occupied[s] == stone]
        if lifted:
            copy.remove(lifted[0], stone)
        elif copied:
            copy.remove(supply, stone)
            copy.add(copied[0], stone)
        assert listed == kept and copied == kept_copy
        assert st.open_board() == _open_from_scratch(st)
        assert copy.open_board() == _open_from_scratch(copy)


def _choice_of(text):
    """The options of a one-choice rulebook whose 'from' is `text`."""
    src = f"""
game: {{name: T}}
players: {{min: 1, max: 1, default: 1, colors: [red]}}
terrains: {{cell: {{char: ".", color: "#eee"}}}}
pieces: {{stone: {{owned: true, links: true, home: supply}}}}
zones: {{supply: {{type: pool, per_player: true}}}}
boards: {{size: [2, 2], open: cell}}
setup:
  - do: 'create(stone(0), supply(0), 1)'
turn:
  - choose: c
    from: '{text}'
  - do: end_game()
result: {{rank: ['points(p)']}}
"""
    return src


@pytest.mark.parametrize("text,distinct", [
    ("open_spaces(spaces)", True),
    ("spaces", True),
    ("{s for s in spaces}", True),
    ("[s for s in spaces]", False),
    ("open_spaces([s for s in spaces] + [s for s in spaces])", False),
    ("[1, 1, 2]", False),
])
def test_a_choice_lists_each_option_once_whether_or_not_its_source_is_known_distinct(tmp_path, text, distinct):
    path = tmp_path / "t.yaml"
    path.write_text(_choice_of(text))
    rules = nordlang.load_rules(str(path))
    g = nordlang.Game(rules, 0)
    options = g.state.pending.options
    assert len(options) == len(set(options))
    source = g.state.pending.step.source
    assert getattr(source, "distinct", False) is distinct
    assert list(options) == list(dict.fromkeys(ordered(source(Ctx(g.state, rules, {})))))
