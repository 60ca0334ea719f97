"""`nord play`: one game on the bundled defaults or a given rulebook."""

from __future__ import annotations

import random
import sys

from ..errors import NordError, UsageError
from . import add_rules_options, params_of, positive_int, rulebook_path_text, seat_number


def add(sub):
    p = sub.add_parser("play", help="play one game and print its log")
    add_rules_options(p, params=True)
    p.add_argument("--seed", type=positive_int, help="the game's seed (default: picked and printed)")
    p.add_argument("--agents", default="random", metavar="A,B,...",
                   help="one agent per seat, e.g. random,greedy,mcts:playouts=50 (the last repeats); 'human' is "
                        "you at the terminal: type an option's number or the option, ? lists them; the end of "
                        "input (Ctrl-D) stops the game with exit status 1, keeping the game so far in --log")
    p.add_argument("--log", metavar="FILE",
                   help="write a replay (JSON lines) to FILE; a game stopped by Ctrl-C (exit 130) or an error "
                        "leaves the game so far there, a partial game that `nord replay` checks as far as it "
                        "went (it cannot be resumed)")
    p.add_argument("--log-for", metavar="SEAT",
                   help="write what one seat saw (a colour, or a seat's number from 1) to FILE.seat.jsonl beside "
                        "--log, or to --seat-log FILE: the moves as that player saw them (others' secret choices "
                        "as '?'), what he saw at each of his decisions, no seed; it is no record of the game and "
                        "cannot be replayed")
    p.add_argument("--seat-log", metavar="FILE", help="where --log-for writes (default: beside --log)")
    p.add_argument("--quiet", action="store_true", help="print only the final table")
    p.set_defaults(func=run)


def run(args):
    # (the engine is imported here, not above: `nord --help` stays quick)
    from .. import Game, load_rules
    from ..agents.base import check_agents, make_agents, parse_spec
    from ..agents.human import EndOfInput
    from ..engine.record import check_writable, replay_lines, write_atomic
    from ..engine.seat_log import SeatLog
    from ..engine.views import seen_events, view
    from ..render.text import event_lines, final_table, position_lines
    from .simulate import split_agents
    specs = list(split_agents(args.agents))
    for s in specs:
        parse_spec(s)          # unknown agents fail before anything runs
    if args.log:
        check_writable(args.log)          # before the game, not after it
    seat_log_path = None
    if args.seat_log is not None and args.log_for is None:
        raise UsageError("--seat-log names the file --log-for writes: give --log-for SEAT too")
    if args.log_for is not None:
        seat_log_path = args.seat_log or (seat_log_name(args.log) if args.log else None)
        if seat_log_path is None:
            raise UsageError("--log-for needs a file to write: give --log FILE (it writes FILE.seat.jsonl beside "
                             "it) or --seat-log FILE")
        check_writable(seat_log_path)
    rules = load_rules(args.rulebook, args.players, args.variant, params_of(args) or None)
    check_agents(specs, rules, interactive=True)
    log_seat = seat_number(rules, args.log_for, "--log-for") if args.log_for is not None else None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31)
    agents = make_agents(specs, rules.num_players, seed)
    out = sys.stdout
    # a person at the terminal sees what the seated players see: the log masked for them (one seat: his
    # view; several: what each of them sees), the board his own view at his decisions
    humans = [i for i, a in enumerate(agents) if getattr(a, "interactive", False)]
    viewer = None if not humans else humans[0] if len(humans) == 1 else frozenset(humans)
    secret = humans and (rules.hidden_information or rules.uses_chance) and args.seed is None
    shared_screen = {"last": None} if len(humans) > 1 and (rules.hidden_information or rules.secret_choices) \
        else None                             # (several people at one terminal: a hand-over between them)
    for a in agents:
        if getattr(a, "interactive", False):
            a.echo_moves = args.quiet         # (else the log below shows the moves)
            a.handover = shared_screen
    print(f"{rules.name}: {rules.num_players} players, "
          + ("seed picked, shown at the end (it would tell what is hidden)" if secret else f"seed {seed}")
          + f", agents {', '.join(str(a) for a in agents)}"
          + (f", variants {', '.join(args.variant)}" if args.variant else ""), file=out)
    game = Game(rules, seed)
    seen = [0]
    heads: dict = {}
    header = {"rulebook": rules.digest, "game": rules.bundled_name, "rulebook_path": rulebook_path_text(args.rulebook),
              "variants": args.variant, "players": rules.num_players, "seed": seed,
              **({"params": params_of(args)} if params_of(args) else {}),
              "agents": [str(a) for a in agents]}
    seat_log = SeatLog(game, log_seat, header) if log_seat is not None else None

    def show(g):
        st = g.state
        if seat_log is not None:
            seat_log.take(g)
        if args.quiet:
            return
        new = seen_events(st, viewer, seen[0])
        seen[0] = len(st.events)
        for line in event_lines(rules, new, heads):
            print(line, file=out)

    show(game)
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
        write_seat_log(seat_log, seat_log_path, game)
        if secret:
            print(f"the game's seed was {seed}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, OSError, NordError):
        if args.log:
            save_partial(args.log, rules, seed, game.state.history[:done[0]], header)
        write_seat_log(seat_log, seat_log_path, game)
        raise
    if args.log:
        write_atomic(args.log, replay_lines(game, header))
    write_seat_log(seat_log, seat_log_path, game)
    print(f"final, after {game.state.turn} turns:", file=out)
    if humans:          # (a person sees where the game ended, as his seat sees it at the end, then the result)
        for line in position_lines(rules, view(game.state, viewer)):
            print(line, file=out)
    for line in final_table(rules, game):
        print(line, file=out)
    if secret:
        print(f"the game's seed was {seed}", file=out)
    if args.log:
        print(f"replay written to {args.log}", file=out)
    if seat_log is not None:
        print(f"what {rules.color(log_seat)} saw written to {seat_log_path}", file=out)
    return 0


def seat_log_name(log: str) -> str:
    """The seat's log beside a replay: game.jsonl -> game.seat.jsonl."""
    base = log[:-len(".jsonl")] if log.endswith(".jsonl") else log
    return base + ".seat.jsonl"


def play_out(game, agents, on_step):
    """Play the game to its end (sim.runner's, named here so that it can be replaced)."""
    from ..sim.runner import play_out as play_all
    return play_all(game, agents, on_step)


def write_seat_log(seat_log, path, game) -> None:
    from ..engine.record import write_atomic
    if seat_log is not None:
        write_atomic(path, seat_log.lines(game))


def save_partial(path, rules, seed, history, header) -> None:
    """Write the game so far, up to its last whole decision, as a partial
    replay. The game is played again from its seed for it: a stop in the
    middle of a decision leaves the position half changed."""
    from .. import Game
    from ..engine.record import replay_lines, write_atomic
    game = Game(rules, seed)
    for _turn, _player, choice, option, forced in history:
        if not forced:
            game.play(f"{choice} {option}")
    write_atomic(path, replay_lines(game, header))
    moves = sum(1 for h in history if not h[4])
    print(f"stopped: the game so far ({moves} moves, to turn {game.state.turn}) is written to {path}, a partial "
          f"game that `nord replay {path}` checks", file=sys.stderr)
