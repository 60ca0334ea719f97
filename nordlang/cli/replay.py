"""`nord replay FILE`: replay a recorded game and check it ends the same.

A replay is input like any other: every field of every line is checked, and
it never makes nordlang open a path it names. It is replayed on the bundled
game it names (older replays name none: the default game), or the one given
with --game/--rulebook; the variants it names are used when they are bundled
ones of that game, a variant file only when given with --variant.
"""

from __future__ import annotations

import json

from ..engine.record import read_replay, state_digest
from ..errors import NordError, Pos, ReplayError
from ..rules.games import bundled_games, is_name, rulebook_file, variants_folder
from . import add_rules_options

AGAIN = "the replay was edited: record the game again"


def add(sub):
    p = sub.add_parser("replay", help="replay a game recorded with --log and check its final state (a game "
                                      "stopped by Ctrl-C is checked as far as it went)")
    p.add_argument("file")
    add_source_options(p)
    p.set_defaults(func=run)


def add_source_options(p):
    """--game/--rulebook and --variant for a replay: what it was recorded with, when not what it names."""
    add_rules_options(p, players=False, variant_default=None,
                      variant_help="the variants the game was recorded with, in order (default: those the replay "
                                   "names, when they are bundled ones; a variant file it names must be given here)")


def _game(path, header, rulebook):
    """The rulebook to replay on: the one given, else the bundled game the
    header names (a name only: a replay opens no path), else the default
    game (older replays name none)."""
    if rulebook is not None:
        return rulebook
    name = header.get("game")
    if name is None:
        return None
    if not is_name(name) or name not in bundled_games():
        raise ReplayError(f"the replay names the game {name!r}, which is no bundled game", Pos(str(path), 1, 1),
                          hint="if you have its rulebook, replay with --rulebook PATH")
    return name


def _variants(path, header, variants, rulebook):
    """The variants to replay with: the user's, or the bundled ones of the game the header names."""
    if variants is not None:
        return list(variants)
    names = header.get("variants") or []
    folder = variants_folder(rulebook_file(rulebook))
    out = []
    for name in names:
        bundled_file = folder / f"{name}.yaml" if folder is not None and is_name(name) else None
        if bundled_file is None or not bundled_file.is_file():
            raise ReplayError(f"the replay names the variant {name!r}, which is no bundled variant; a replay "
                              "opens no file it names", Pos(str(path), 1, 1),
                              hint=f"if you trust that file, give it yourself: --variant {name} (once for each "
                                   f"variant, in order: {' '.join('--variant ' + n for n in names)})")
        out.append(str(bundled_file))
    return out


def open_replay(path, rulebook=None, variants=None):
    """(header, moves, footer, a new game) of a replay whose rulebook still matches."""
    header, moves, footer = read_replay(path)
    given = rulebook
    named_game = header.get("game")
    if isinstance(given, str) and is_name(given) and is_name(named_game) and given != named_game:
        raise ReplayError(f"the replay is a game of {named_game}, not of {given}", Pos(str(path), 1, 1),
                          hint=f"leave out --game: the replay names its game (or give --game {named_game})")
    rulebook = _game(path, header, rulebook)
    from .. import Game, load_rules
    rules = load_rules(rulebook, header.get("players"), _variants(path, header, variants, rulebook),
                       header.get("params") or None)
    if header["rulebook"] != rules.digest:
        named = header.get("rulebook_path")
        if given is None and named:
            raise ReplayError(f"the replay was recorded with rulebook {header['rulebook']}, which is not the bundled "
                              f"one ({rules.digest}); it names {named!r} as its rulebook (for information: a "
                              "replay opens no path it names)", Pos(str(path), 1, 1),
                              hint=f"if that is the rulebook, replay with --rulebook {named}")
        raise ReplayError(f"the replay was recorded with rulebook {header['rulebook']}, this rulebook is "
                          f"{rules.digest}: the rules changed since", Pos(str(path), 1, 1),
                          hint="record the game again to renew it")
    return header, moves, footer, Game(rules, header["seed"])


def play_move(game, path, line, move, player=None, turn=None) -> None:
    """Play one recorded move; a move the rules refuse, or one recorded for
    another player or turn than the game's now, is an error at its line."""
    rules = game.rules
    if player is not None and player != game.to_move:
        raise ReplayError(f"move {move!r} is recorded for {rules.color(player)}, but "
                          f"{'nobody' if game.over else rules.color(game.to_move)} is to move",
                          Pos(str(path), line, 1), hint=AGAIN)
    if turn is not None and turn != game.state.turn:
        raise ReplayError(f"move {move!r} is recorded at turn {turn}, but the game is at turn {game.state.turn}",
                          Pos(str(path), line, 1), hint=AGAIN)
    try:
        game.play(move)
    except NordError as e:
        raise ReplayError(f"move {move!r} no longer fits the rules: {e.message}", Pos(str(path), line, 1),
                          hint=e.hint) from None


def replay_file(path, rulebook=None, variants=None):
    """Replay; returns (game, footer). Raises ReplayError on any mismatch:
    a move, its player or turn, the final state, the turns, points and
    winners the last line records, whether the game was finished, and a last
    line that is missing (a file cut short)."""
    header, moves, footer, game = open_replay(path, rulebook, variants)
    for line, move, player, turn in moves:
        play_move(game, path, line, move, player, turn)
    end = Pos(str(path), (moves[-1][0] if moves else 1) + 1, 1)
    if footer is None:
        raise ReplayError("the replay has no last line with its final state: the file was cut short", end,
                          hint=f"{len(moves)} moves replayed; record the game again")
    st = game.state
    res = game.result
    replayed = {"final": state_digest(st), "turns": st.turn, "unfinished": True if res is None else None}
    if res is not None:
        replayed["points"], replayed["winners"] = list(res.points), list(res.winners)
        replayed["draw"] = True if res.draw else None
    for key in ("unfinished", "final", "turns", "points", "winners", "draw"):
        if footer.get(key) != replayed.get(key):
            if key == "unfinished":
                raise ReplayError("the replay ends " + ("before the game's end, but records no 'unfinished'"
                                                        if res is None else "with the game over, but says it is "
                                                        "unfinished"), end, hint=AGAIN)
            what = "a different state" if key == "final" else f"different {key}"
            raise ReplayError(f"the replay ends with {what} (recorded {json.dumps(footer.get(key))}, "
                              f"replayed {json.dumps(replayed.get(key))})", end,
                              hint="the replay was cut short or edited: record the game again")
    return game, footer


def run(args):
    game, footer = replay_file(args.file, args.rulebook, args.variant)
    decisions = sum(1 for h in game.state.history if not h[4])
    if not game.over:
        print(f"partial game: {decisions} moves, replayed and matching up to turn {game.state.turn}; not finished "
              f"(same state {state_digest(game.state)})")
        return 0
    pts = ", ".join(f"{game.rules.color(p)} {n}" for p, n in enumerate(game.points()))
    print(f"replay matches: {len(game.state.history)} decisions, same final state {state_digest(game.state)} "
          f"({pts}{'; a draw' if game.result.draw else ''})")
    return 0
