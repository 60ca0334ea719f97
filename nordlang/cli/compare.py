"""`nord compare`: two configurations on the same seeds, side by side."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import UsageError
from . import add_json_option, add_rules_options, complete_variants
from .simulate import (
    Progress,
    add_run_options,
    check_config,
    check_scheduler,
    close_scheduler,
    make_config,
    split_agents,
    stop_on_sigterm,
)

EPILOG = """\
The two sides, A and B, start from the shared options (--game or --rulebook,
--variant, --players, --agents) and each may change them:
  --variant-a V / --variant-b V   a variant added to that side (repeatable)
  --a "V1,V2" / --b "V1,V2"       the same, several variants at once
  --agents-a / --agents-b         other agents for that side
  --players-a / --players-b       another player count for that side
  --rulebook-a / --rulebook-b     another rulebook for that side
Game i of A and game i of B have the same seed and the same seating
(they are played together, and compared as they come: memory stays flat
in the number of games; the output does not depend on --jobs), so
every per-game metric is compared as a paired difference B - A (paired
t-test on the per-seed differences) and every rate (seat win rates, agent
win rates, the share of each trigger) with a pooled two-proportion z-test,
at the 5% level. Each metric gets a one-line verdict. The metrics: length,
branching, lead changes, points (and by source), the count of each note,
and what a player holds at the end in each per-player zone, by piece
("held ZONE: PIECE", in the rulebook's names: what income leaves in hand).

examples:
  nord compare -n 200 --players 3 --variant-b no-storm
  nord compare -n 200 --players 2 --a "short-game" --b "short-game,no-storm"
  nord compare -n 100 --players 2 --agents-a greedy --agents-b mcts
"""


def add(sub):
    p = sub.add_parser("compare", help="compare two configurations (variants, agents...) on the same seeds",
                       description="Play the same seeds under two configurations, A and B, and print each "
                                   "metric side by side with the difference, its 95% interval, the test's "
                                   "p-value and a verdict.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rules_options(p)
    add_run_options(p)
    for side in "ab":
        S = side.upper()
        p.add_argument(f"--variant-{side}", action="append", default=[], metavar="V",
                       help=f"a variant for side {S} only (repeatable)").completer = complete_variants
        p.add_argument(f"--{side}", metavar="V1,V2", default="",
                       help=f"variants for side {S} only, comma-separated")
        p.add_argument(f"--agents-{side}", metavar="A,B,...", help=f"agents of side {S} (default --agents)")
        p.add_argument(f"--players-{side}", type=int, metavar="N", help=f"players of side {S} (default --players)")
        p.add_argument(f"--rulebook-{side}", metavar="PATH", type=Path,
                       help=f"rulebook of side {S} (default --game/--rulebook)")
    add_json_option(p)
    p.set_defaults(func=run)


def side_config(args, side):
    variants = list(args.variant) + list(getattr(args, f"variant_{side}"))
    variants += [v.strip() for v in getattr(args, side).split(",") if v.strip()]
    agents = getattr(args, f"agents_{side}")
    agents = args.agents if agents is None else agents      # ('' is an error, not the default)
    players = getattr(args, f"players_{side}") or args.players
    rulebook = getattr(args, f"rulebook_{side}") or args.rulebook
    return make_config(rulebook, variants, players, agents, args)


def describe(config, rules):
    return (f"{rules.name}, {rules.num_players} players, agents {', '.join(split_agents(','.join(config.agents)))}"
            + (f", variants {', '.join(config.variants)}" if config.variants else ", no variant"))


def run(args):
    from ..sim.compare import Comparison, format_comparison
    from ..sim.parallel import run_tasks
    if args.jobs and args.scheduler:
        raise UsageError("give --jobs or --scheduler, not both")
    ca, cb = side_config(args, "a"), side_config(args, "b")
    ra = check_config(ca)
    rb = check_config(cb)
    if ca == cb and not args.json:
        print("note: A and B are the same configuration", file=sys.stderr)
    n = args.games
    comparison = Comparison()
    bar = Progress(2 * n, 0, enabled=not args.no_progress)
    client = None
    try:
        client = check_scheduler(args)
        # game i of A, then game i of B: pairs come back together, in game order
        tasks = ((cfg, i) for i in range(n) for cfg in (ca, cb))
        games = run_tasks(tasks, args.jobs, client, total=2 * n)
        stop_on_sigterm()
        try:
            for rec_a in games:
                rec_b = next(games)
                comparison.add(rec_a, rec_b)
                bar.update(2)
        finally:
            games.close()
            stop_on_sigterm(False)
    finally:
        bar.close()
        close_scheduler(client)
    c = comparison.result()
    status = 1 if c["failed_a"] or c["failed_b"] else 0       # (as simulate: a failed game fails the run)
    if args.json:
        from ..sim.compare import comparison_json
        from .json_output import emit
        emit({"command": "compare", "ok": status == 0, "errors": [], "same_configuration": ca == cb,
              **comparison_json(c, describe(ca, ra), describe(cb, rb))})
        return status
    for line in format_comparison(c, describe(ca, ra), describe(cb, rb)):
        print(line)
    return status
