"""`nord replay FILE`: replay a recorded game and check it ends the same."""

from __future__ import annotations

import json

from .. import Game, load_rules
from ..engine.record import read_replay, state_digest
from ..errors import NordError, Pos, ReplayError


def add(sub):
    p = sub.add_parser("replay", help="replay a game recorded with --log and check its final state")
    p.add_argument("file")
    p.add_argument("--rulebook", metavar="PATH", help="the rulebook (default: the one the replay names)")
    p.set_defaults(func=run)


# what each header field must be, as (test, words)
_HEADER = {
    "players": (lambda v: v is None or (type(v) is int and v > 0), "a number of players"),
    "seed": (lambda v: type(v) is int, "a whole number"),
    "variants": (lambda v: v is None or (isinstance(v, list) and all(isinstance(x, str) for x in v)),
                 "a list of variant names or paths"),
    "rulebook_path": (lambda v: v is None or isinstance(v, str), "a path or null"),
}


def open_replay(path, rulebook=None):
    """(header, moves, footer, a new game) of a replay whose rulebook still matches."""
    header, moves, footer = read_replay(path)
    for key, (ok, words) in _HEADER.items():
        if key in header and not ok(header[key]):
            raise ReplayError(f"the replay's {key!r} is {json.dumps(header[key])}, not {words}",
                              Pos(str(path), 1, 1), hint="the first line was edited: record the game again")
    rules = load_rules(rulebook or header.get("rulebook_path"), header.get("players"), header.get("variants") or [])
    if header.get("rulebook") != rules.digest:
        raise ReplayError(f"the replay was recorded with rulebook {header.get('rulebook')}, this rulebook is "
                          f"{rules.digest}: the rules changed since", Pos(str(path), 1, 1),
                          hint="record the game again to renew it")
    return header, moves, footer, Game(rules, int(header.get("seed", 0)))


def play_move(game, path, line, move, player=None) -> None:
    """Play one recorded move; a move the rules refuse, or one recorded for
    another player than the one to move, is an error at its line."""
    if player is not None and player != game.to_move:
        rules = game.rules
        raise ReplayError(f"move {move!r} is recorded for {rules.color(player)}, but "
                          f"{'nobody' if game.over else rules.color(game.to_move)} is to move",
                          Pos(str(path), line, 1), hint="the replay was edited: record the game again")
    try:
        game.play(move)
    except NordError as e:
        raise ReplayError(f"move {move!r} no longer fits the rules: {e.message}", Pos(str(path), line, 1),
                          hint=e.hint) from None


def replay_file(path, rulebook=None):
    """Replay; returns (game, footer). Raises ReplayError on any mismatch:
    a move, its player, the final state, the turns, points and winners the
    last line records, and a last line that is missing (a file cut short)."""
    header, moves, footer, game = open_replay(path, rulebook)
    for line, move, player in moves:
        play_move(game, path, line, move, player)
    end = Pos(str(path), (moves[-1][0] if moves else 1) + 1, 1)
    if footer is None:
        raise ReplayError("the replay has no last line with its final state: the file was cut short", end,
                          hint=f"{len(moves)} moves replayed; record the game again")
    st = game.state
    res = game.result
    replayed = {"final": state_digest(st), "turns": st.turn}
    if res is not None:
        replayed["points"], replayed["winners"] = list(res.points), list(res.winners)
    for key in ("final", "turns", "points", "winners"):
        if footer.get(key) != replayed.get(key):
            what = "a different state" if key == "final" else f"different {key}"
            raise ReplayError(f"the replay ends with {what} (recorded {json.dumps(footer.get(key))}, "
                              f"replayed {json.dumps(replayed.get(key))})", end,
                              hint="the replay was cut short or edited: record the game again")
    return game, footer


def run(args):
    game, footer = replay_file(args.file, args.rulebook)
    pts = ", ".join(f"{game.rules.color(p)} {n}" for p, n in enumerate(game.points()))
    print(f"replay matches: {len(game.state.history)} decisions, same final state {state_digest(game.state)} "
          f"({pts})")
    return 0
