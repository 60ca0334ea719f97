"""`nord explain SCENARIO MOVE`: is the move legal, and why (not)."""

from __future__ import annotations

from . import add_json_option, add_rules_options


def add(sub):
    p = sub.add_parser("explain", help="say whether a move is legal in a scenario's position, and why")
    p.add_argument("scenario", help="a scenario file (its scripted moves are played first)")
    p.add_argument("move", help="a move in notation, e.g. 'place c3,c4'")
    add_rules_options(p, players=False, variants=False)
    add_json_option(p)
    p.set_defaults(func=run)


def run(args):
    from ..explain import explain
    from ..scenario import load_scenario
    sc = load_scenario(args.scenario, args.rulebook)
    failure = _first_failure(sc)
    if failure is not None:         # the scenario's own moves fail: there is no position to ask about
        message = f"{failure.what}: {failure.message}"
        if args.json:
            from ..errors import Pos
            from .json_output import emit
            pos = failure.pos or Pos()
            emit({"command": "explain", "ok": False, "scenario": args.scenario, "move": args.move, "legal": None,
                  "reasons": [], "errors": [{"kind": "error", "type": "ScenarioFailure", "file": pos.file,
                                             "line": pos.line, "column": pos.col, "message": message,
                                             "expected": failure.expected, "hint": None,
                                             "text": f"{pos}: {message}"}]})
        else:
            print(f"{failure.pos}: {message}")
        return 2
    sc.leave_stop()         # (a scenario that ends at a stop between turns: the move is the next turn's)
    legal, lines = explain(sc.game, args.move)
    if args.json:
        from .json_output import emit
        emit({"command": "explain", "ok": legal, "scenario": args.scenario, "move": args.move, "legal": legal,
              "reasons": lines, "errors": []})
        return 0 if legal else 1
    for line in lines:
        print(line)
    return 0 if legal else 1


def _first_failure(sc):
    """The first of the scenario's scripted moves that cannot be played (as Scenario.run_moves), or None."""
    for i, (path, step) in enumerate(sc.script()):
        failure = sc.act(i, step, path)
        if failure is not None:
            return failure
    return None
