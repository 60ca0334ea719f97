"""`nord play`: one game on the bundled defaults or a given rulebook."""

from __future__ import annotations

import random
import sys

from .. import Game, load_rules
from ..agents.base import check_agents, make_agents, parse_spec
from ..agents.human import EndOfInput
from ..engine.record import check_writable, replay_lines, write_atomic
from ..errors import NordError
from ..render.text import event_lines, final_table
from ..sim.runner import play_out
from . import add_rules_options, positive_int, rulebook_path_text


def add(sub):
    p = sub.add_parser("play", help="play one game and print its log")
    add_rules_options(p)
    p.add_argument("--seed", type=positive_int, help="the game's seed (default: picked and printed)")
    p.add_argument("--agents", default="random", metavar="A,B,...",
                   help="one agent per seat, e.g. random,greedy,mcts:playouts=50 (the last repeats); 'human' is "
                        "you at the terminal: type an option's number or the option, ? lists them; the end of "
                        "input (Ctrl-D) stops the game with exit status 1, keeping the game so far in --log")
    p.add_argument("--log", metavar="FILE",
                   help="write a replay (JSON lines) to FILE; a game stopped by Ctrl-C (exit 130) or an error "
                        "leaves the game so far there, a partial game that `nord replay` checks as far as it "
                        "went (it cannot be resumed)")
    p.add_argument("--quiet", action="store_true", help="print only the final table")
    p.set_defaults(func=run)


def run(args):
    from .simulate import split_agents
    specs = list(split_agents(args.agents))
    for s in specs:
        parse_spec(s)          # unknown agents fail before anything runs
    if args.log:
        check_writable(args.log)          # before the game, not after it
    rules = load_rules(args.rulebook, args.players, args.variant)
    check_agents(specs, rules, interactive=True)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31)
    agents = make_agents(specs, rules.num_players, seed)
    out = sys.stdout
    print(f"{rules.name}: {rules.num_players} players, seed {seed}, agents "
          f"{', '.join(str(a) for a in agents)}"
          + (f", variants {', '.join(args.variant)}" if args.variant else ""), file=out)
    game = Game(rules, seed)
    seen = [0]
    heads: dict = {}

    def show(g):
        st = g.state
        if args.quiet:
            return
        new = st.events[seen[0]:]
        seen[0] = len(st.events)
        for line in event_lines(rules, new, heads):
            print(line, file=out)

    if not args.quiet:
        for line in event_lines(rules, game.state.events, heads):
            print(line, file=out)
        seen[0] = len(game.state.events)
    header = {"rulebook": rules.digest, "game": rules.bundled_name, "rulebook_path": rulebook_path_text(args.rulebook),
              "variants": args.variant, "players": rules.num_players, "seed": seed,
              "agents": [str(a) for a in agents]}
    done = [0]          # the length of the history when the last decision had run to its end

    def step(g):
        done[0] = len(g.state.history)
        show(g)

    try:
        play_out(game, agents, step)
    except EndOfInput:
        moves = sum(1 for h in game.state.history[:done[0]] if not h[4])
        print(f"stopped: the input ended before the game did ({moves} moves played, turn {game.state.turn})",
              file=sys.stderr)
        if args.log:
            save_partial(args.log, rules, seed, game.state.history[:done[0]], header)
        return 1
    except (KeyboardInterrupt, OSError, NordError):
        if args.log:
            save_partial(args.log, rules, seed, game.state.history[:done[0]], header)
        raise
    if args.log:
        write_atomic(args.log, replay_lines(game, header))
    print(f"final, after {game.state.turn} turns:", file=out)
    for line in final_table(rules, game):
        print(line, file=out)
    if args.log:
        print(f"replay written to {args.log}", file=out)
    return 0


def save_partial(path, rules, seed, history, header) -> None:
    """Write the game so far, up to its last whole decision, as a partial
    replay. The game is played again from its seed for it: a stop in the
    middle of a decision leaves the position half changed."""
    game = Game(rules, seed)
    for _turn, _player, choice, option, forced in history:
        if not forced:
            game.play(f"{choice} {option}")
    write_atomic(path, replay_lines(game, header))
    moves = sum(1 for h in history if not h[4])
    print(f"stopped: the game so far ({moves} moves, to turn {game.state.turn}) is written to {path}, a partial "
          f"game that `nord replay {path}` checks", file=sys.stderr)
