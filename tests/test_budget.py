"""One budget of work per decision (lang/budget.py): a rulebook whose
loops, aggregates or primitives ask for too much stops with one clean
error at the expression, not a hang; `nord validate` warns where the text
shows it (lang/cost.py); real games stay far below it."""

import os
import random
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

import nordlang
from nordlang.board.graph import Links
from nordlang.cli import main
from nordlang.engine import flow
from nordlang.errors import NordError
from nordlang.lang import budget
from nordlang.lang.budget import Budget, BudgetError
from nordlang.lang.compiler import Compiler, Ctx
from nordlang.lang.parser import parse

ROOT = Path(__file__).resolve().parent.parent
RUNAWAY = ROOT / "tests" / "runaway" / "attack-pairs.yaml"
PAIRS = "[(a, b) for a in range(0, 100000) for b in range(0, 100000)]"
STOPPED = (f"{RUNAWAY}:9:7: error: too much work before the next decision: {PAIRS} "
           f"(over the budget of {budget.LIMIT} steps)")


def _nord(*args):
    """`nord ARGS` in a subprocess that must end within a minute (a hang is the defect)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "nordlang", *args], capture_output=True, text=True, timeout=60,
                          env=env, cwd=ROOT)


def test_play_of_a_runaway_product_stops_with_one_message():
    r = _nord("play", "--variant", str(RUNAWAY), "--players", "2", "--seed", "1", "--quiet")
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert lines[0] == STOPPED
    assert lines[1].strip() == PAIRS and lines[2].strip() == "^" * len(PAIRS)
    assert lines[3] == "    in definition attack_pairs"
    assert lines[4].startswith("    called from ") and lines[4].endswith("turn.yaml:179:15")
    assert lines[5].startswith(f"    hint: a decision may take at most {budget.LIMIT} steps of work")


def test_validate_simulate_of_a_runaway_product_stops_with_one_message():
    r = _nord("validate", str(RUNAWAY), "--simulate", "1", "--players", "2")
    assert r.returncode == 2
    assert "Traceback" not in r.stderr + r.stdout
    assert (f"{RUNAWAY}:9:7: error: {RUNAWAY} (2 players), random game with seed 1000: too much work before the "
            f"next decision: {PAIRS} (over the budget of {budget.LIMIT} steps)") in r.stdout + r.stderr
    assert "1 file(s) checked: 1 error(s), 1 warning(s)" in r.stdout


def test_validate_warns_of_the_runaway_product_from_its_text(capsys):
    assert main(["validate", str(RUNAWAY), "--players", "2"]) == 0
    out = capsys.readouterr()
    text = out.out + out.err
    assert (f"{RUNAWAY}:9:7: warning: {PAIRS}: its work is at least 20000200000 steps each time it runs "
            f"(estimated from its text), more than the budget of {budget.LIMIT} a decision may take: a game that "
            "gets here stops with an error") in text
    assert "1 file(s) checked: 0 error(s), 1 warning(s)" in text


@pytest.mark.parametrize("definition, shown, size", [
    ("'len(range(1000000000))'", "range(1000000000)", None),
    ("'count(x > y for x in range(3000) for y in range(0, 3000))'",
     "count(x > y for x in range(3000) for y in range(0, 3000))", 18006000),
    ("'sum(len([y for y in range(0, 2000)]) for x in items(supply(p)))'", None, None),
    ("'[x for x in range(0, 1000)]'", None, None),
])
def test_validate_warns_where_the_text_shows_too_much_work(tmp_path, capsys, definition, shown, size):
    """Constant bounds are multiplied through nested loops; a size the text
    does not show (a parameter, the position) is not guessed."""
    v = tmp_path / "costly.yaml"
    v.write_text(f"description: costly\nextends: nord\npatch:\n  define:\n    men_left(p): {definition}\n")
    assert main(["validate", str(v), "--players", "2"]) == 0
    out = capsys.readouterr()
    warnings = [x for x in (out.out + out.err).splitlines() if ": warning: " in x]
    if shown is None:
        assert warnings == []
        return
    col = 19 + definition.index(shown) - 1
    assert len(warnings) == 1 and warnings[0].startswith(f"{v}:5:{col}: warning: {shown}: ")
    if size is None:
        assert "range of 1000000000 numbers, more than the limit of 100000" in warnings[0]
    else:
        assert f"its work is at least {size} steps" in warnings[0]


def _compiled(text, rules):
    c = Compiler(rules.names, text=text)
    fn = c.expr(parse(text, "expr"), frozenset())
    assert not c.errors
    return fn


@pytest.fixture(scope="module")
def rules():
    return nordlang.load_rules(players=2)


def test_a_comprehension_building_a_huge_list_stops_before_it_is_built(rules, monkeypatch):
    """A million triples (some 100 MB) would be built without the budget: it
    stops at the budget's size, and the memory it took stays small. (The
    step past the budget is the inner range's: it is named.)"""
    monkeypatch.setattr(budget, "LIMIT", 100_000)
    text = "[(x, y, x + y) for x in range(0, 1000) for y in range(0, 1000)]"
    fn = _compiled(text, rules)
    ctx = Ctx(nordlang.Game(rules, 1).state, rules)
    tracemalloc.start()
    try:
        with pytest.raises(BudgetError) as e:
            fn(ctx)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert e.value.message == "too much work before the next decision: range(0, 1000) (over the budget of 100000 steps)"
    assert (e.value.pos.line, e.value.pos.col) == (1, text.rindex("range") + 1)
    assert peak < 20_000_000


def _board_full_of_pieces(rules):
    """A position whose every free space holds a piece: one connected net."""
    st = nordlang.Game(rules, 1).state
    st.occupied = {s: ("man", 0) for s in rules.grid.spaces if s not in rules.grid.structure_at}
    st._links = Links(rules.grid, frozenset(st.occupied))     # (a new one: no chain found yet)
    return st


def test_shortest_paths_are_charged_as_they_are_walked(rules, monkeypatch):
    """The shortest chains between two far structures of a board full of
    pieces are many (1029 here); no loop asks for them: only the
    primitive's own charge stops it."""
    assert len(_board_full_of_pieces(rules).links.shortest_paths("E", "F")) == 1029     # (uncharged: a tool's call)
    st = _board_full_of_pieces(rules)
    monkeypatch.setattr(budget, "LIMIT", 5_000)
    text = 'len(shortest_paths("E", "F"))'
    with pytest.raises(BudgetError) as e:
        _compiled(text, rules)(Ctx(st, rules))
    assert e.value.message == ('too much work before the next decision: shortest_paths("E", "F") '
                               "(over the budget of 5000 steps)")
    assert (e.value.pos.col, e.value.width) == (5, len(text) - 5)
    st = _board_full_of_pieces(rules)
    assert len(st.links.shortest_paths("E", "F", Budget(20_000))) == 1029     # enough for them all


def test_groups_are_charged_by_the_sets_they_find(rules, monkeypatch):
    """200 calls of groups(): the loop draws 200 steps, the calls (939 sets
    each) the rest, and stop it."""
    monkeypatch.setattr(budget, "LIMIT", 50_000)
    text = "[len(groups(spaces, 1, 3)) for i in range(0, 200)]"
    ctx = Ctx(nordlang.Game(rules, 1).state, rules)
    with pytest.raises(BudgetError) as e:
        _compiled(text, rules)(ctx)
    assert e.value.message == ("too much work before the next decision: groups(spaces, 1, 3) "
                               "(over the budget of 50000 steps)")
    assert e.value.pos.col == text.index("groups") + 1
    assert ctx.budget.left < 0


@pytest.mark.parametrize("text, charged", [
    ("count(range(0, 40))", 80), ("sum([x for x in range(0, 40)])", 120), ("sorted(range(0, 40))", 80),
    ("len(union([range(0, 40), range(0, 10)]))", 92), ("any(x > 50 for x in range(0, 40))", 80),
    ("count(x for x in range(0, 10))", 10), ("len(union([[1, 2], [3]]))", 0),
])
def test_aggregates_and_collections_are_charged_by_their_size(rules, text, charged):
    """Loops charge every item; a primitive's or an operator's work is
    charged past budget.SMALL a call (below, the loop making the call
    charges it one step: at most SMALL times what the loops charge)."""
    ctx = Ctx(nordlang.Game(rules, 1).state, rules)
    _compiled(text, rules)(ctx)
    assert budget.LIMIT - ctx.budget.left == charged


def test_a_loop_in_a_procedure_is_charged(tmp_path, monkeypatch):
    """An effect's `for` over a product stops on the budget, at its statement."""
    from helpers import first_error
    v = tmp_path / "loops.yaml"
    e = first_error(v, "description: loops\nextends: nord\npatch:\n  procedures:\n    place_worker(s): |\n"
                       "      for x in range(0, 50000) { for y in range(0, 50000) { add(\"n\", 1) } }\n")
    assert isinstance(e, BudgetError)
    assert e.message == ("too much work before the next decision: range(0, 50000) "
                         f"(over the budget of {budget.LIMIT} steps)")
    assert (e.pos.file, e.pos.line) == (str(v), 6)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_real_games_stay_far_below_the_budget(players, monkeypatch):
    """Random games: each decision's work (lookahead probes included) is
    counted, and stays under a hundredth of the budget."""
    peak, total = [0], [0]
    run = flow.Machine.run

    def counted(self, state, probe=False, stop=False, work=None):
        if work is not None:
            return run(self, state, probe, stop, work)
        work = Budget()
        try:
            return run(self, state, probe, stop, work)
        finally:
            peak[0] = max(peak[0], budget.LIMIT - work.left)
            total[0] += budget.LIMIT - work.left
    monkeypatch.setattr(flow.Machine, "run", counted)
    _play(players, range(3))
    assert 500 < peak[0] < budget.LIMIT // 100
    assert total[0] > 2 * DECISION_LIMIT      # (three games in all: see the next test)


DECISION_LIMIT = 5_000


def test_each_decision_has_a_budget_of_its_own(monkeypatch):
    """With a budget above what any one decision takes but below what the
    games take in all, they are played to their end."""
    monkeypatch.setattr(budget, "LIMIT", DECISION_LIMIT)
    _play(2, range(3))


def _play(players, seeds):
    rules = nordlang.load_rules(players=players)
    for seed in seeds:
        g = nordlang.Game(rules, seed)
        rng = random.Random(seed)
        while not g.over:
            g.play_index(rng.randrange(len(g.state.pending.options)))


def test_the_budget_is_the_decisions_not_the_processs():
    """Many decisions, each well under the budget, never add up to it."""
    rules = nordlang.load_rules(players=2)
    fn = _compiled("len([x for x in range(0, 30000)])", rules)
    g = nordlang.Game(rules, 3)
    for _ in range(100):
        assert fn(Ctx(g.state, rules)) == 30000       # 6 000 000 steps in all, 60 000 each
    assert isinstance(NordError("x"), Exception)


def test_a_collection_doubled_by_plus_stops_on_the_budget(rules):
    """+ makes a new collection as long as both: doubling one, twenty times
    over, would ask for 30 000 times the memory; its size is charged."""
    lets = "".join(f"let a{k + 1} = a{k} + a{k} in " for k in range(25))
    text = f"let a0 = range(0, 1000) in {lets}len(a25)"
    with pytest.raises(BudgetError) as e:
        _compiled(text, rules)(Ctx(nordlang.Game(rules, 1).state, rules))
    assert e.value.message == ("too much work before the next decision: a9 + a9 "
                               f"(over the budget of {budget.LIMIT} steps)")
    assert e.value.pos.col == text.index("a9 + a9") + 1


def test_looking_in_a_tuple_is_charged_by_its_length(rules):
    """3 000 tests of `in` a tuple of 3 000 (9 000 000 comparisons): the loop
    itself draws only 6 000 steps."""
    text = "let t = range(0, 3000) in count(x in t for x in t)"
    with pytest.raises(BudgetError) as e:
        _compiled(text, rules)(Ctx(nordlang.Game(rules, 1).state, rules))
    assert e.value.message == ("too much work before the next decision: x in t "
                               f"(over the budget of {budget.LIMIT} steps)")
    ctx = Ctx(nordlang.Game(rules, 1).state, rules)
    assert _compiled("let t = set(range(0, 3000)) in count(x in t for x in t)", rules)(ctx) == 3000   # (a set: no walk)
