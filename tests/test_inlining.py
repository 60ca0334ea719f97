"""Which definitions are cheap (lang/memo.py is_cheap): written into their
callers instead of called. A definition over cheap definitions is cheap in
its turn, and one call of a definition that is not cheap stays a call in
it; two such calls, or too much code once written in, and it is not. The
values, and the place a failure is reported at, are the same either way."""

import pytest
from helpers import ev

import nordlang
from nordlang.errors import NordError
from nordlang.rules import build


def _fresh_rules(monkeypatch, game, players):
    """Rules compiled afresh, whose memos no other test has put through their trial."""
    monkeypatch.setattr(build, "_CACHE", {})
    return nordlang.load_rules(game, players)


def test_a_definition_over_cheap_ones_is_written_in_whole(monkeypatch):
    funcs = _fresh_rules(monkeypatch, "vikings", 4).names.funcs
    # may_buy(p, i): 'affordable(p, i) and (...)', affordable: 'i <= wealth(p)', wealth: 'coins(p) + points(p)'
    assert funcs["may_buy"].cheap and funcs["affordable"].cheap and funcs["wealth"].cheap
    assert {"affordable", "wealth", "coins"} <= funcs["may_buy"].inlines
    # zero_set_allowed(p): one call of coins_pay_for_another, which is not cheap (any):
    # it stays a call, memoised
    assert funcs["zero_set_allowed"].cheap and not funcs["coins_pay_for_another"].cheap
    assert "coins_pay_for_another" not in funcs["zero_set_allowed"].inlines
    assert funcs["coins_pay_for_another"].call is not funcs["coins_pay_for_another"].py     # (memoised, on trial)


def test_a_definition_with_a_let_is_cheap_and_written_in(monkeypatch):
    funcs = _fresh_rules(monkeypatch, "vikings", 4).names.funcs
    # edge_on_left(c): 'if ... else let t = ... in ...'
    assert funcs["edge_on_left"].cheap and "edge_on_left" in funcs["left_edge_matches"].inlines
    # threat_depth(h, k): 'let s = ... in ...', called as threat_depth(grid_of(c), column(c)) by
    # threatened, which names h twice: a call (the argument is not computed twice), without a memo
    assert funcs["threat_depth"].cheap and "threat_depth" not in funcs["threatened"].inlines
    assert funcs["threat_depth"].call is funcs["threat_depth"].py


LETS = """\
description: definitions with a let, written into a loop's collection and under a name they rebind
extends: vikings
patch:
  define:
    twice(x): 'let y = x + 1 in [y, y]'
    looped: '[k * 2 for k in twice(1)]'
    shadow(y): 'let y = y * 10 in y + 1'
    outer(y): 'shadow(y) + y'
"""


def test_a_let_written_into_a_loops_collection_or_over_a_name_keeps_its_value(tmp_path):
    v = tmp_path / "lets.yaml"
    v.write_text(LETS)
    rules = nordlang.load_rules("vikings", players=2, variants=[str(v)])
    funcs = rules.names.funcs
    assert "twice" in funcs["looped"].inlines and "shadow" in funcs["outer"].inlines
    game = nordlang.Game(rules, 1)
    assert ev(game, "looped") == (4, 4)
    assert ev(game, "outer(2)") == 23


def test_two_calls_of_definitions_that_are_not_cheap_keep_a_memo_of_their_own(monkeypatch):
    funcs = _fresh_rules(monkeypatch, "nord", 4).names.funcs
    # placements(p, t): 'land_groups(p, limit(t)) + sea_groups(p, limit(t))'
    placements = funcs["placements"]
    assert not funcs["land_groups"].cheap and not funcs["sea_groups"].cheap
    assert not placements.cheap and placements.call is not placements.py


DOUBLING = """\
description: definitions each twice the one before, written in until the code would grow too large
extends: vikings
patch:
  define:
{lines}
"""


def test_inlining_stops_before_the_code_grows_without_bound(tmp_path):
    lines = ["    d0(x): 'x + 1'"] + [f"    d{k}(x): 'd{k - 1}(x) + d{k - 1}(x)'" for k in range(1, 41)]
    v = tmp_path / "doubling.yaml"
    v.write_text(DOUBLING.format(lines="\n".join(lines)))
    rules = nordlang.load_rules("vikings", players=2, variants=[str(v)])     # (2**40 nodes, if nothing stopped it)
    cheap = [k for k in range(41) if rules.names.funcs[f"d{k}"].cheap]
    assert cheap == [0, 1, 2, 3]
    game = nordlang.Game(rules, 1)
    assert [ev(game, f"d{k}(0)") for k in (0, 3, 4, 40)] == [1, 8, 16, 2 ** 40]


FAILING = """\
description: a definition two levels down in a cheap caller fails when it runs
extends: vikings
patch:
  define:
    coins(p): 'amount(purse(p), coin()) // 0'
"""


def test_a_failure_two_inlined_levels_down_is_reported_at_its_own_text(tmp_path):
    v = tmp_path / "failing.yaml"
    v.write_text(FAILING)
    rules = nordlang.load_rules("vikings", players=2, variants=[str(v)])
    assert {"wealth", "coins"} <= rules.names.funcs["may_buy"].inlines
    with pytest.raises(NordError) as e:
        nordlang.Game(rules, 1)                 # (the first purchase's options ask may_buy)
    assert "division by zero" in e.value.message
    assert e.value.pos.file.endswith("failing.yaml") and e.value.pos.line == 5
    assert "called from definition wealth(p)" in str(e.value) and "called from definition may_buy(p, i)" in str(e.value)
