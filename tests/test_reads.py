"""A definition's memoised value is kept while the parts of the position it
reads are unchanged (lang/reads.py): it must never outlive a change to one
of them. Each definition of a few games is asked, at every decision of
random games, both through its memo (kept for the whole game) and with
memos that never answer; the values must agree."""

import random
from pathlib import Path

import pytest

import nordlang
from nordlang.lang import memo
from nordlang.lang.compiler import Ctx
from nordlang.lang.reads import ALL, OCCUPANCY, TURN, ZONES, ArgPart, read_set
from nordlang.rules import build

TABLEAU = str(Path(__file__).parent / "games" / "tableau" / "tableau.yaml")


def _rules(monkeypatch, game, players, trial):
    """Rules compiled afresh whose memos stay on trial for `trial` calls (0: they never answer)."""
    monkeypatch.setattr(build, "_CACHE", {})
    monkeypatch.setattr(memo, "_TRIAL", trial)
    return nordlang.load_rules(game, players)


def _ask(f, ctx, args):
    try:
        return ("value", f.call(ctx, *args))
    except nordlang.NordError as e:
        return ("error", type(e).__name__)


def _arguments(state, f, rng):
    """A few argument tuples for f: players, and places of the position."""
    n = len(f.params)
    if n == 0:
        return [()]
    pools = sorted(state.pools, key=repr)
    candidates = list(state.rules.player_range) + rng.sample(pools, min(6, len(pools))) + \
        [k for grid in state.cells.values() for k in grid]
    return [tuple(rng.choice(candidates) for _ in range(n)) for _ in range(4)]


@pytest.mark.parametrize("game, players, games, known", [("vikings", 4, 2, 40), ("nord", 3, 1, 5), (TABLEAU, 2, 3, 1)])
def test_memoised_values_are_those_of_a_fresh_evaluation(monkeypatch, game, players, games, known):
    kept = _rules(monkeypatch, game, players, 10 ** 9)      # memos that stay
    fresh = _rules(monkeypatch, game, players, 0)           # memos that never answer
    memo.clear_memo()
    names = [n for n, f in kept.names.funcs.items() if f.kind == "expr" and not f.static]
    assert sum(read_set(kept.names.funcs[n]) is not None for n in names) >= known     # (read sets to test)
    asked = 0
    for seed in range(games):
        g = nordlang.Game(kept, seed)
        rng = random.Random(seed)
        while not g.over:
            for n in names:
                for args in _arguments(g.state, kept.names.funcs[n], rng):
                    got = _ask(kept.names.funcs[n], Ctx(g.state, kept), args)
                    want = _ask(fresh.names.funcs[n], Ctx(g.state, fresh), args)
                    assert got == want, (n, args, g.state.turn)
                    asked += got[0] == "value"
            g.play_index(rng.randrange(len(g.legal_moves())))
    assert asked > 100


def test_a_definition_is_asked_again_only_when_what_it_reads_changes(monkeypatch):
    rules = _rules(monkeypatch, "vikings", 4, 10 ** 9)
    memo.clear_memo()
    wealth = rules.names.funcs["wealth"]
    assert set(read_set(wealth)) == {("counter", "points"), ArgPart(0, "purse")}     # purse(p): p's purse
    wealth.cheap = False        # (a one-line definition is written into its callers: memoised here, as a longer one is)
    wealth.finish()
    g = nordlang.Game(rules, 3)
    st = g.state
    ctx = Ctx(st, rules)
    coin = ("coin", None)
    before = wealth.call(ctx, 0)
    st.add(("purse", 0), coin, 3)                 # a zone it reads
    assert wealth.call(ctx, 0) == before + 3
    st.bump(("points", 0), 2)                     # a counter it reads
    assert wealth.call(ctx, 0) == before + 5
    known = len(memo._MEMO)
    st.add(("purse", 1), coin, 1)                 # another player's purse: the memo answers
    assert wealth.call(ctx, 0) == before + 5 and len(memo._MEMO) == known
    st.add(("bank", None), coin, 4)               # parts it does not read: the memo answers
    st.bump(("counter", "rounds"), 1)
    st.touch("turn", st.player, st.turn)
    assert wealth.call(ctx, 0) == before + 5 and len(memo._MEMO) == known
    st.touch("reveal", ("purse", 2), None)        # a change the parts do not name: everything is read again
    assert wealth.call(ctx, 0) == before + 5 and len(memo._MEMO) == known + 1


def test_zone_effects_and_turns_change_their_parts(monkeypatch):
    rules = _rules(monkeypatch, "vikings", 4, 10 ** 9)
    g = nordlang.Game(rules, 0)
    st = g.state
    on_offer = rules.names.funcs["on_offer"]
    assert read_set(on_offer) == ("wheel_tiles",)
    ctx = Ctx(st, rules)
    offered = on_offer.call(ctx)
    assert offered
    parts = dict(st.parts)
    st.tracks[("wheel_tiles", None)][offered[0]] = None    # as the take effect does, then says so
    st.touch("take", ("wheel_tiles", None), offered[0])
    assert on_offer.call(ctx) == offered[1:]
    for part in (ZONES, "wheel_tiles"):
        assert st.parts[part] != parts.get(part)
    base = st.base
    st.touch("turn", st.player, st.turn)
    assert st.base == base and st.parts[TURN] != parts.get(TURN)
    st.touch("over")
    assert st.base != base and st.parts == {}


def test_what_the_text_does_not_show_is_read_in_full(monkeypatch, tmp_path):
    variant = tmp_path / "v.yaml"
    variant.write_text("description: zones the text does not show\nextends: vikings\npatch:\n  define:\n"
                       "    firsts(xs): '[c for c in xs if vacant(c[0])]'\n"       # c[0]: a zone the text does not show
                       "    any_firsts(p): 'firsts([[x] for x in filled_cells(homeland(p))])'\n")
    monkeypatch.setattr(build, "_CACHE", {})
    funcs = nordlang.load_rules(None, 4, [str(variant)]).names.funcs
    assert read_set(funcs["vacant"]) == (ArgPart(0, None),)     # total(c): the zone its argument is of
    assert read_set(funcs["rounds_played"]) == (("counter", "counter"),)
    assert read_set(funcs["firsts"]) == (ZONES,)
    assert read_set(funcs["any_firsts"]) == (ZONES,)         # ... and what it calls
    nord = _rules(monkeypatch, "nord", 3, 10 ** 9)
    assert read_set(nord.names.funcs["attack_pairs"]) is None   # at_turn_start: not known, the whole position
    assert read_set(nord.names.funcs["reach"]) == (OCCUPANCY, ZONES)    # a graph primitive: the occupancy
    assert ALL not in (read_set(nord.names.funcs["attackers"]) or (ALL,))


def test_whose_turn_is_a_part(monkeypatch):
    rules = _rules(monkeypatch, "nord", 3, 10 ** 9)
    attackers = rules.names.funcs["attackers"]            # the spaces of a path the player to move occupies
    assert set(read_set(attackers)) == {OCCUPANCY, TURN}
    g = nordlang.Game(rules, 0)
    rng = random.Random(0)
    st = g.state
    while len({item[1] for item in st.occupied.values()}) < 3:
        g.play_index(rng.randrange(len(g.legal_moves())))
    path = tuple(sorted(st.occupied))
    ctx = Ctx(st, rules)
    for p in [0, 1, 2, 0, 1]:
        st.player = p                                        # as a new turn does, then says so
        st.touch("turn", p, st.turn)
        assert attackers.call(ctx, path) == attackers.py(ctx, path) == \
            tuple(s for s in path if st.occupied[s][1] == p) != ()


def test_a_new_turn_changes_the_part_whose_turn(monkeypatch):
    """The flow machine's own turns say so (not only a touch by hand): a
    definition that reads whose turn is asked again at each turn."""
    rules = _rules(monkeypatch, "nord", 3, 10 ** 9)
    g = nordlang.Game(rules, 0)
    rng = random.Random(1)
    seen = {}
    while not g.over and len(seen) < 12:
        seen.setdefault(g.state.turn, g.state.parts.get(TURN))
        g.play_index(rng.randrange(len(g.legal_moves())))
    assert len(set(seen.values())) == len(seen)
