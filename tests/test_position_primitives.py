"""Primitives kept by the version of the part they read (occupied_spaces,
filled_cells: lang/memo.py `remember`) and the fused filter of the occupied
spaces by their pieces' owner (lang/shortcuts.py `_owned_filter`). A wrong
kept value or a wrong shortcut is a wrong game or a wrong search: seeded
random games, with the values kept and without, must offer the same options
and value every position alike for every player; the shortcut must give
what the text as written gives, for any value it is compared with."""

import dataclasses
import random

import pytest

import nordlang
from nordlang.engine.library import grids, zones
from nordlang.engine.library.registry import STD
from nordlang.lang import memo
from nordlang.lang.budget import SMALL
from nordlang.rules import build

_KEEPERS = (zones, grids)       # the modules whose primitives keep values (memo.remembered)


def _rules(monkeypatch, game, players):
    monkeypatch.setattr(build, "_CACHE", {})
    return nordlang.load_rules(game, players)


def _record(rules, seed, limit=300):
    """Each decision's options and every player's evaluation there, in a seeded random game."""
    memo.clear_memo()
    g, rng, out = nordlang.Game(rules, seed), random.Random(seed), []
    while not g.over and len(out) < limit:
        moves = g.legal_moves()
        values = tuple(rules.evaluation(rules.ctx(g.state, {"p": p})) for p in rules.player_range)
        out.append(([str(m) for m in moves], values))
        g.play_index(rng.randrange(len(moves)))
    return out


@pytest.mark.parametrize("game, players", [("nord", 4), ("nord", 2), ("vikings", 4), ("vikings", 2)])
def test_games_and_values_are_the_same_without_the_kept_primitives(monkeypatch, game, players):
    rules = _rules(monkeypatch, game, players)
    kept = [_record(rules, seed) for seed in range(2)]
    for module in _KEEPERS:
        monkeypatch.setattr(module, "remembered", lambda key: None)      # (every value made afresh)
    assert [_record(rules, seed) for seed in range(2)] == kept


def test_the_kept_values_are_asked_again_within_a_position(monkeypatch):
    """(so that the test above compares something: they answer)"""
    answered = []
    real = memo.remembered

    def remembered(key):
        hit = real(key)
        answered.append(hit is not None)
        return hit
    for module in _KEEPERS:
        monkeypatch.setattr(module, "remembered", remembered)
    _record(_rules(monkeypatch, "vikings", 4), 0, limit=60)
    assert sum(answered) > len(answered) / 2
    # Nord's evaluation asks each player's workers, which are listed from his mask: the
    # occupied spaces themselves are never made (zones.py _owned_spaces)
    answered.clear()
    _record(_rules(monkeypatch, "nord", 4), 0, limit=60)
    assert answered == []


_FILTERS = [
    "let q = p in [s for s in occupied_spaces if owner(piece_at(s)) == q]",
    "let q = p in [s for s in occupied_spaces if q == owner(piece_at(s))]",
]
_AS_WRITTEN = "let q = p in [s for s in occupied_spaces if owner(piece_at(s)) == q and true]"   # (not fused)


def _positions(rules, games, seed):
    """(game, p) at every decision of seeded random games, for each player
    p and for values of p that are no player."""
    rng = random.Random(seed)
    for k in range(games):
        g = nordlang.Game(rules, k)
        while not g.over:
            for p in (*rules.player_range, -1, rules.num_players, "red", None, True, 1.0):
                yield g, p
            g.play_index(rng.randrange(len(g.legal_moves())))


@pytest.mark.parametrize("game, players", [("nord", 4), ("nord", 3), ("hex", 2)])
def test_the_fused_owner_filter_gives_what_the_text_gives(monkeypatch, game, players):
    checked = 0
    for g, p in _positions(_rules(monkeypatch, game, players), 3, 5):
        want = g.evaluate(_AS_WRITTEN, p=p)
        for text in _FILTERS:
            got = g.evaluate(text, p=p)
            assert got == want and type(got) is tuple, (text, p)
        checked += bool(want)
    assert checked > 50          # (pieces stood on the board: the filter kept some)


def test_the_fused_owner_filter_is_what_runs(monkeypatch):
    """A rulebook's filter of the occupied spaces by owner runs the fused form
    (else the test above compares the text with itself)."""
    b = STD.get("occupied_spaces")
    fused = dict(b.fused)["owner"]
    calls = []

    def counted(*args):
        calls.append(args[1])       # (ctx, p, owner, site)
        return fused(*args)
    monkeypatch.setitem(STD.items, "occupied_spaces", dataclasses.replace(b, fused=(("owner", counted),)))
    rules = _rules(monkeypatch, "nord", 4)
    g = nordlang.Game(rules, 1)
    for text in _FILTERS:
        assert g.evaluate(text, p=2) == ()
    assert calls == [2, 2]
    assert g.evaluate(_AS_WRITTEN, p=2) == () and calls == [2, 2]


# a count of a player's pieces: of a definition that filters them (Nord's workers_of), and of
# the filter written out in a definition (where p is a parameter: a flow variable is not plain)
_COUNTS = ["len(workers_of(p))", "mine(p)"]
_COUNTED_AS_WRITTEN = "len(let q = p in [s for s in occupied_spaces if owner(piece_at(s)) == q and true])"
_MINE = """\
description: a count of a player's pieces, the filter written out
extends: nord
patch:
  define:
    mine(p): 'len([s for s in occupied_spaces if owner(piece_at(s)) == p])'
"""


def _counting_rules(monkeypatch, tmp_path, players):
    v = tmp_path / "mine.yaml"
    v.write_text(_MINE)
    monkeypatch.setattr(build, "_CACHE", {})
    return nordlang.load_rules("nord", players, [str(v)])


@pytest.mark.parametrize("players", [4, 2])
def test_a_count_of_a_players_pieces_gives_and_charges_what_the_text_does(monkeypatch, tmp_path, players):
    """len(...) of the owner filter, written out or as a definition (Nord's
    workers_of), counted on the player's mask (zones.py _owned_count)."""
    checked = 0
    for g, p in _positions(_counting_rules(monkeypatch, tmp_path, players), 2, 7):
        want = g.evaluate(_COUNTED_AS_WRITTEN, p=p)
        assert [g.evaluate(text, p=p) for text in _COUNTS] == [want, want], p
        # (charged where the expression counts; mine(p)'s own memo would answer)
        assert _charged(g, _COUNTS[0], p) == _charged(g, _COUNTED_AS_WRITTEN, p), p
        checked += want
    assert checked > 500


def test_a_count_of_a_players_pieces_is_counted_on_his_mask(monkeypatch, tmp_path):
    """(else the test above compares the text with itself)"""
    b = STD.get("occupied_spaces")
    fused = dict(b.fused)
    calls = []

    def counted(*args):
        calls.append(args[1])
        return fused["owner count"](*args)
    monkeypatch.setitem(STD.items, "occupied_spaces",
                        dataclasses.replace(b, fused=(("owner", fused["owner"]), ("owner count", counted))))
    g = nordlang.Game(_counting_rules(monkeypatch, tmp_path, 4), 1)
    rng = random.Random(1)
    for _ in range(40):
        g.play_index(rng.randrange(len(g.legal_moves())))
    n = g.evaluate(_COUNTED_AS_WRITTEN, p=3)
    assert n > 0 and calls == []
    assert [g.evaluate(text, p=3) for text in _COUNTS] == [n, n] and calls == [3, 3]


def _charged(g, text, p) -> int:
    """The work an expression charges to its budget (lang/budget.py) on g's position."""
    from nordlang.lang.compiler import Compiler
    from nordlang.lang.parser import parse
    c = Compiler(g.rules.names, text=text)
    fn = c.expr(parse(text, "expr"), frozenset({"p"}))
    ctx = g.rules.ctx(g.state, {"p": p})
    before = ctx.budget.left
    fn(ctx)
    return before - ctx.budget.left


def test_the_fused_owner_filter_charges_what_the_text_charges(monkeypatch):
    """The fused form makes no list of the occupied spaces, but charges what
    making it and looping over it charge (a board of more than SMALL pieces)."""
    rules = _rules(monkeypatch, "nord", 4)
    g = nordlang.Game(rules, 3)
    rng = random.Random(3)
    while len(g.state.occupied) <= SMALL:
        g.play_index(rng.randrange(len(g.legal_moves())))
    n = len(g.state.occupied)
    for p in (0, 3, -1):
        want = _charged(g, _AS_WRITTEN, p)
        assert want == 2 * n and all(_charged(g, text, p) == want for text in _FILTERS)


_ITEMS = ["1", "1.0", "true", "false", "none", '"a"', "2", "-3", "[1]", "(1, 2)", "hand(0)"]


def test_min_and_max_of_two_written_items_give_what_the_aggregate_gives(monkeypatch):
    """min([x, y]) and max((x, y)) compared in place (runtime._min2, _max2):
    the same value (the first of equals: min([1, 1.0]) is 1), the same error."""
    from nordlang.errors import NordError
    from nordlang.lang import runtime
    used = []
    for name in ("_min2", "_max2"):
        real = runtime._RUNTIME[name]
        monkeypatch.setitem(runtime._RUNTIME, name, lambda *a, real=real: used.append(1) or real(*a))
    g = nordlang.Game(_rules(monkeypatch, "nord", 2), 1)
    used.clear()            # (the rulebook's own, as its setup ran)

    def value(text):
        try:
            v = g.evaluate(text)
            return v, type(v)
        except NordError as e:
            return str(e).split("\n")[0].replace(text, "")
    for f in ("min", "max"):
        for a in _ITEMS:
            for b in _ITEMS:
                want = value(f"{f}([{a}, {b}] + [])")          # (no list written out: the aggregate)
                assert value(f"{f}([{a}, {b}])") == want and value(f"{f}(({a}, {b}))") == want, (f, a, b)
    assert len(used) == 2 * 2 * len(_ITEMS) ** 2
