"""`nord explain SCENARIO MOVE`: is the move legal, and why (not)."""

from __future__ import annotations

from . import add_rules_options


def add(sub):
    p = sub.add_parser("explain", help="say whether a move is legal in a scenario's position, and why")
    p.add_argument("scenario", help="a scenario file (its scripted moves are played first)")
    p.add_argument("move", help="a move in notation, e.g. 'place c3,c4'")
    add_rules_options(p, players=False, variants=False)
    p.set_defaults(func=run)


def run(args):
    from ..explain import explain
    from ..scenario import load_scenario
    sc = load_scenario(args.scenario, args.rulebook)
    rep = sc.run_moves()
    if rep is not None:
        print(rep)
        return 2
    sc.leave_stop()         # (a scenario that ends at a stop between turns: the move is the next turn's)
    legal, lines = explain(sc.game, args.move)
    for line in lines:
        print(line)
    return 0 if legal else 1
