"""`nord replay FILE`: replay a recorded game and check it ends the same."""

from __future__ import annotations

from .. import Game, load_rules
from ..engine.record import read_replay, state_digest
from ..errors import NordError, Pos, ReplayError


def add(sub):
    p = sub.add_parser("replay", help="replay a game recorded with --log and check its final state")
    p.add_argument("file")
    p.add_argument("--rulebook", metavar="PATH", help="the rulebook (default: the one the replay names)")
    p.set_defaults(func=run)


def open_replay(path, rulebook=None):
    """(header, moves, footer, a new game) of a replay whose rulebook still matches."""
    header, moves, footer = read_replay(path)
    rules = load_rules(rulebook or header.get("rulebook_path"), header.get("players"), header.get("variants") or [])
    if header.get("rulebook") != rules.digest:
        raise ReplayError(f"the replay was recorded with rulebook {header.get('rulebook')}, this rulebook is "
                          f"{rules.digest}: the rules changed since", Pos(str(path), 1, 1),
                          hint="record the game again to renew it")
    return header, moves, footer, Game(rules, int(header.get("seed", 0)))


def replay_file(path, rulebook=None):
    """Replay; returns (game, footer). Raises ReplayError on any mismatch."""
    header, moves, footer, game = open_replay(path, rulebook)
    for line, move in moves:
        try:
            game.play(move)
        except NordError as e:
            raise ReplayError(f"move {move!r} no longer fits the rules: {e.message}", Pos(str(path), line, 1),
                              hint=e.hint) from None
    if footer is not None and footer.get("final") != state_digest(game.state):
        raise ReplayError(f"the replay ends in a different state (recorded {footer.get('final')}, "
                          f"replayed {state_digest(game.state)})", Pos(str(path), len(moves) + 2, 1))
    return game, footer


def run(args):
    game, footer = replay_file(args.file, args.rulebook)
    pts = ", ".join(f"{game.rules.color(p)} {n}" for p, n in enumerate(game.points()))
    print(f"replay matches: {len(game.state.history)} decisions, same final state {state_digest(game.state)} "
          f"({pts})")
    return 0
