"""Finer read sets (lang/reads.py): a zone of one name and owner is a part
of its own, and a definition that reads a zone its argument chooses is
memoised by that zone's version alone. A wrong memo answer is a wrong
game: seeded random games of every bundled rulebook and variant, played
with the memo and without it, must offer the same options at every
decision."""

import random
from pathlib import Path

import pytest

import nordlang
from nordlang.lang import memo
from nordlang.lang.compiler import Ctx
from nordlang.lang.reads import ZONES, ArgPart, ElemPart, key_parts, owner_part, read_set
from nordlang.rules import build

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.name for p in (ROOT / "rulebook").iterdir() if p.is_dir())
VARIANTS = sorted((p.parent.name, p.stem) for p in (ROOT / "variants").glob("*/*.yaml"))


def _rules(monkeypatch, game, players=None, variants=(), trial=10 ** 9):
    """Rules compiled afresh whose memos stay on trial for `trial` calls (0: they never answer)."""
    monkeypatch.setattr(build, "_CACHE", {})
    monkeypatch.setattr(memo, "_TRIAL", trial)
    return nordlang.load_rules(game, players, variants)


def _decisions(rules, seed, limit=400):
    """The option texts of each decision of a seeded random game."""
    memo.clear_memo()
    g, rng, out = nordlang.Game(rules, seed), random.Random(seed), []
    while not g.over and len(out) < limit:
        moves = g.legal_moves()
        out.append([str(m) for m in moves])
        g.play_index(rng.randrange(len(moves)))
    return out


def _same_games(monkeypatch, game, players, variants, seeds):
    kept = _rules(monkeypatch, game, players, variants)            # memos that stay
    fresh = _rules(monkeypatch, game, players, variants, trial=0)  # memos that never answer
    for seed in seeds:
        want = _decisions(fresh, seed)
        assert want and _decisions(kept, seed) == want, (game, players, variants, seed)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_is_the_same_with_and_without_the_memo(monkeypatch, game):
    players = {"vikings": 4, "nord": 4}.get(game)
    _same_games(monkeypatch, game, players, (), range(3) if game in ("vikings", "nord") else range(6))


@pytest.mark.parametrize("game, variant", VARIANTS)
def test_every_variant_is_the_same_with_and_without_the_memo(monkeypatch, game, variant):
    _same_games(monkeypatch, game, None, (variant,), range(1))


def test_the_state_records_a_part_for_each_zone_of_a_name_and_owner(monkeypatch):
    st = nordlang.Game(_rules(monkeypatch, "vikings", 4), 0).state
    before = dict(st.parts)
    st.add(("homeland", 1, 2, 3), ("viking", "red"))           # a cell: its grid's part
    v = st.version
    assert st.parts[("homeland", 1)] == st.parts["homeland"] == st.parts[ZONES] == v
    assert st.parts.get(("homeland", 0)) == before.get(("homeland", 0))
    st.remove(("purse", 2), ("coin", None), 0)                 # (nothing taken: nothing changes)
    st.remove(("homeland", 1, 2, 3), ("viking", "red"))
    assert st.parts[("homeland", 1)] == st.version != v
    st.touch("shuffle", ("deck", 3), ())
    assert st.parts[("deck", 3)] == st.parts["deck"] == st.version
    assert owner_part(("homeland", 1, 2, 3)) == ("homeland", 1) and owner_part((2, 3)) is None


def test_a_zone_through_parameters_and_loops_is_the_argument_s(monkeypatch):
    funcs = _rules(monkeypatch, "vikings", 4).names.funcs
    # a loop over filled_cells(homeland(p)), and the definitions it calls with its cells
    assert read_set(funcs["posted"]) == (ArgPart(0, "homeland"),)
    assert read_set(funcs["safe"]) == (ArgPart(0, "homeland"),)
    # a grid given as a parameter, made into a cell (cell(h, ...)): the zone of the argument
    assert read_set(funcs["threat_depth"]) == (ArgPart(0, None),)
    # the cells of a collection given: the caller knows them, the memo key does not
    assert read_set(funcs["ships_worth"]) == (ElemPart(0),) and key_parts(funcs["ships_worth"]) == (ZONES,)
    assert read_set(funcs["homeland_value"]) == (ArgPart(0, "homeland"),)
    assert set(read_set(funcs["vikings_of"])) == {ArgPart(0, "base"), ArgPart(0, "homeland")}


def test_a_player_s_value_outlives_a_change_to_another_player_s_zone(monkeypatch):
    rules = _rules(monkeypatch, "vikings", 4)
    memo.clear_memo()
    g = nordlang.Game(rules, 5)
    rng = random.Random(5)
    for _ in range(60):
        g.play_index(rng.randrange(len(g.legal_moves())))
    st, value = g.state, rules.names.funcs["homeland_value"]
    ctx = Ctx(st, rules)
    mine = value.call(ctx, 0)
    known = len(memo._MEMO)
    grid = ("homeland", 1)
    cell = next(c for c in st.cells.get(grid, ()) if st.pools[c]) if st.cells.get(grid) else (*grid, 3, 1)
    st.add(cell, ("viking", "red"))                             # another player's homeland
    assert value.call(ctx, 0) == mine and len(memo._MEMO) == known           # answered by the memo
    assert value.call(ctx, 1) == value.py(ctx, 1) and len(memo._MEMO) > known     # theirs: asked afresh
    known = len(memo._MEMO)
    st.add(("homeland", 0, 1, 1), ("viking", "red"))            # the player's own: asked afresh
    assert value.call(ctx, 0) == value.py(ctx, 0) and len(memo._MEMO) > known


def test_a_collection_of_zones_given_as_an_argument_is_read_through_its_items(monkeypatch, tmp_path):
    variant = tmp_path / "v.yaml"
    variant.write_text("description: zones in a collection\nextends: vikings\npatch:\n  define:\n"
                       "    held_in(cells): 'sum(total(c) for c in cells)'\n"
                       "    held_by(p): 'held_in(filled_cells(homeland(p)))'\n")
    monkeypatch.setattr(build, "_CACHE", {})
    monkeypatch.setattr(memo, "_TRIAL", 10 ** 9)
    rules = nordlang.load_rules(None, 4, [str(variant)])
    held_in, held_by = rules.names.funcs["held_in"], rules.names.funcs["held_by"]
    memo.clear_memo()
    st = nordlang.Game(rules, 0).state
    ctx = Ctx(st, rules)
    cells = (("homeland", 0, 3, 1), ("homeland", 2, 3, 1))
    assert held_in.call(ctx, cells) == 0 and held_by.call(ctx, 2) == 0
    st.add(cells[1], ("viking", "red"))                         # an item of one of its cells changes
    assert held_in.call(ctx, cells) == 1 and held_by.call(ctx, 2) == 1 and held_by.call(ctx, 0) == 0
    assert read_set(held_in) == (ElemPart(0),) and key_parts(held_in) == (ZONES,)
    assert read_set(held_by) == (ArgPart(0, "homeland"),)       # (its caller knows the cells)
