"""`cell` and `grid_of` read the rulebook's grids only, never the position
(reads.READS says so): a definition made of them and of other such
primitives is static, its value kept by its arguments for the process."""

from helpers import ev

import nordlang
from nordlang.rules import build


def test_a_definition_of_cells_alone_is_static(monkeypatch):
    monkeypatch.setattr(build, "_CACHE", {})
    rules = nordlang.load_rules("vikings", 4)
    funcs = rules.names.funcs
    # start_cells(p): '[cell(homeland(p), r, first_column) for r in island_rows]'
    assert funcs["start_cells"].static and funcs["front_cells"].static and funcs["beside"].static
    assert not funcs["touching_cells"].static and not funcs["front_full"].static     # (they read the homeland)
    game = nordlang.Game(rules, 1)
    assert ev(game, "start_cells(2)") == tuple(("homeland", 2, r, 1) for r in range(1, 6))
    assert ev(game, "grid_of(beside(cell(homeland(3), 2, 4), -1))") == ("homeland", 3)
