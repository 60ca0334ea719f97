"""A scenario file as the page steps through it: each test `nord test` runs
of it (the file's script, or each branch), run by the very code `nord test`
runs (Scenario.run), with the position after each step it takes recorded.

The run's own `act` and `check` are watched, not copied: a step is
recorded after the scenario plays an entry or checks an expectation, so
the page's verdicts are `nord test`'s, branches and stops included.
"""

from __future__ import annotations

from ..errors import NordError
from .paths import Shown
from .timeline import Step, Timeline


def open_scenario_timeline(path, shown_name: str, shown: Shown | None = None) -> Timeline:
    """The timeline of a scenario file: the first test's steps, with every
    test (one per branch) in `branches`; each says whether it passed."""
    from ..cli.test import scenario_runs
    from ..scenario import load_scenario
    shown = shown or Shown()
    sc = load_scenario(path)
    description = " ".join(str(sc.data.get("description", "")).split())
    runs = []
    for one in scenario_runs(sc):
        t = _record(one, shown)
        t.title = shown_name
        t.info = {"description": description, "branch_description": one.description if one.branch else None}
        runs.append(t)
    every = {t.branch: t for t in runs} if sc.branches else {}
    for t in runs:
        t.branches = every
    return runs[0]


def _record(one, shown: Shown) -> Timeline:
    """Run one test of the file (a Scenario) as `nord test` runs it; its steps."""
    g = one.game
    start = one.copy()
    steps = [Step("position", start.game.state, (0, len(g.state.events)), scenario=start, kind="start")]
    attributed: set = set()
    act, check = one.act, one.check
    own = len(one.data.get("moves") or [])          # (entries from here on are the branch's own)

    def acting(i, step, path=None):
        before = len(g.state.events)
        failure = act(i, step, path)
        here = one.copy()
        steps.append(Step(step_label(step), here.game.state, (before, len(g.state.events)), scenario=here,
                          kind="script" if isinstance(step, dict) else "move",      # (a run, a next_turn, chance...)
                          passed=False if failure is not None else None,
                          failures=[] if failure is None else [shown.text(failure.format())],
                          part=_part(one, i, own)))
        if failure is not None:
            attributed.add(id(failure))
        return failure

    def checking(exp, where, rep):
        n = len(rep.failures)
        check(exp, where, rep)
        new = rep.failures[n:]
        attributed.update(id(f) for f in new)
        final = where[:-1] == () or where[0] == "branches" and where[-1] == "expect" and len(where) == 3
        at = len(g.state.events)
        here = one.copy()
        steps.append(Step(expect_label(exp, final), here.game.state, (at, at), scenario=here, kind="expect",
                          passed=not new,
                          failures=[shown.text(f.format()) for f in new],
                          part=one.branch if final and one.branch else _part_of(where, one.branch)))

    one.act, one.check = acting, checking
    try:
        rep = one.run()
    except NordError as e:          # `nord test` reports it as an ERROR: the run stops where it was raised
        at = len(g.state.events)
        steps.append(Step("error", g.state.clone(), (at, at), kind="error", passed=False,
                          failures=[shown.text(e.format())]))
        outcome = "error"
    else:
        rest = [f for f in rep.failures if id(f) not in attributed]
        if rest:                    # (what the run found at its end, beside an expectation: a chance outcome unused)
            at = len(g.state.events)
            steps.append(Step("the end of the script", g.state.clone(), (at, at), kind="expect", passed=False,
                              failures=[shown.text(f.format()) for f in rest]))
        outcome = "pass" if rep.passed else "fail"
    finally:
        del one.act, one.check
    return Timeline(one.rules, "", steps, kind="scenario", events=g.state.events, branch=one.branch,
                    outcome=outcome)


def game_to_explain(t: Timeline, index: int):
    """The game at a step, to ask why of: a scenario's own copy (its stops),
    moved past a stop between turns as the script's next move would be
    (Scenario.leave_stop, where the scenario package has it)."""
    from ..engine.game import Game
    step = t.step(index)
    if step.scenario is None:
        return Game(t.rules, 0, step.state.clone())
    sc = step.scenario.copy()
    leave = getattr(sc, "leave_stop", None)
    if leave is not None:
        leave()
    return sc.game


def _part(one, i, own) -> str | None:
    """The branch an entry of the script belongs to (None: the file's 'moves', shared by every branch)."""
    return one.branch if one.branch is not None and i >= own else None


def _part_of(where, branch) -> str | None:
    return branch if where and where[0] == "branches" else None


def step_label(entry) -> str:
    """What a script entry does, in a word or a move's text."""
    if not isinstance(entry, dict):
        return str(entry)
    key, value = next(iter(entry.items())) if entry else ("nothing", None)
    if value is None or value is True or isinstance(value, dict) and not value:
        return str(key)
    if isinstance(value, dict):
        return f"{key}: " + ", ".join(f"{k} {v}" for k, v in value.items())
    return f"{key} {value}"


def expect_label(exp: dict, final: bool) -> str:
    what = ", ".join(str(k) for k in exp) or "nothing"
    return ("expect at the end: " if final else "expect: ") + what
