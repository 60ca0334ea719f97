"""`nord render (SCENARIO [--moves N|all] | LOG [--turn N]) -o FILE.svg|.png`: a picture of a position."""

from __future__ import annotations

from pathlib import Path

from ..engine.record import write_atomic
from ..errors import LoadError, NordError, Pos, UsageError
from ..limits import OverLimit, load_json
from ..render.png import MAX_SIDE, fit_scale, render_png, require_cairosvg
from . import positive_int, seat_number
from .replay import add_source_options

FORMATS = (".svg", ".png")


def add(sub):
    p = sub.add_parser("render", help="draw a position (a scenario's, or after its scripted moves; a replay "
                                      "log's at a turn) as SVG or PNG")
    p.add_argument("file", metavar="SCENARIO|LOG", help="a scenario (.yaml) or a replay written by "
                                                        "`nord play --log`")
    p.add_argument("--turn", type=positive_int, metavar="N",
                   help="for a replay: the position at the start of turn N (default: the final position)")
    p.add_argument("--moves", metavar="N|all",
                   help="for a scenario: the position after its scripted moves, all of them or the first N "
                        "entries of its 'moves:' list, numbered as `nord test` numbers them (an 'expect' entry "
                        "plays nothing and is not checked); default: the position it sets up")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the picture to write: FILE.svg or FILE.png")
    p.add_argument("--seat", metavar="COLOR|N",
                   help="draw the position as one player sees it (a colour, or a seat's number from 1): what he "
                        "may not see face down; default: the referee's view, everything")
    add_source_options(p)
    p.set_defaults(func=run)


def run(args):
    out = Path(args.output)
    fmt = out.suffix.lower()
    if fmt not in FORMATS:
        raise UsageError(f"cannot tell the picture format of {args.output!r}: the file name must end in .svg or .png")
    if fmt == ".png":
        require_cairosvg()       # before any work: say at once what is missing
    if not (out.parent if str(out.parent) else Path(".")).is_dir():
        raise UsageError(f"cannot write {args.output}: folder {out.parent} does not exist")
    path = Path(args.file)
    if path.is_dir():
        raise UsageError(f"{args.file} is a folder: render draws one file, a replay log (written by "
                         "`nord play --log`) or a scenario (.yaml)")
    if not path.is_file():
        raise UsageError(f"no such file: {args.file}")
    kind = _kind_of(path)
    moves, played = args.moves, 0
    if kind == "replay":
        if moves is not None:
            raise UsageError(f"{args.file} is a replay log: --moves applies to scenarios; a replay takes --turn N")
        game, title = position_from_replay(path, args.turn, args.rulebook, args.variant)
    elif kind == "scenario":
        if args.turn is not None:
            raise UsageError(f"{args.file} is a scenario: --turn applies to replay logs only; a scenario takes "
                             "--moves N|all")
        if args.variant is not None:
            raise UsageError(f"{args.file} is a scenario: --variant applies to replay logs; a scenario names "
                             "its own variants")
        game, title, played = position_from_scenario(path, args.rulebook, moves)
    else:
        raise UsageError(f"{args.file} is neither a replay log (written by `nord play --log`) nor a scenario "
                         "(a YAML file with a 'map:', 'position:', 'moves:' or 'expect:')")
    state = game.state
    if args.seat is not None:
        seat = seat_number(game.rules, args.seat, "--seat")
        state = game.view(seat)
        title += f", as {game.rules.color(seat)} sees it"
    from ..render.svg import render_svg
    svg = render_svg(game.rules, state, title=title)
    scaled = ""
    if fmt == ".svg":
        data = svg.encode("utf-8")
    else:
        scale = fit_scale(svg)
        data = render_png(svg, scale)
        if scale < 1:
            scaled = f" (scaled to {scale:.0%} to fit a PNG's {MAX_SIDE} pixels on a side)"
    write_atomic(out, data=data)
    after = f" after move {played}" if played else ""
    print(f"{kind} {args.file}{after}: turn {game.state.turn} drawn to {args.output}{scaled}")
    return 0


# ---------------------------------------------------------------- sources

def _kind_of(path: Path) -> str | None:
    """'replay', 'scenario' or None, from the file's first line or its YAML keys."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise LoadError(f"cannot read {path}: {e}", Pos(str(path))) from None
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        rec = load_json(first)
    except OverLimit:
        return "replay" if first.lstrip().startswith("{") else None    # (the replay reader says which limit)
    except ValueError:
        rec = None
    if isinstance(rec, dict) and "format" in rec:
        return "replay"
    import yaml
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, ValueError, RecursionError):    # (a number or a nesting past the limits of input too)
        # a broken .yaml file: let the scenario loader say where
        return "scenario" if path.suffix.lower() in (".yaml", ".yml") else None
    from ..rules.loader import file_kind
    if file_kind(data) == "scenario":        # (a map, or a position on the rulebook's board)
        return "scenario"
    return None


def position_from_replay(path, turn=None, rulebook=None, variants=None):
    """(game, title): the replay's game at the start of `turn`, or at its end."""
    if turn is None:
        from .replay import replay_file
        game, _ = replay_file(path, rulebook, variants)
        where = "final position" if game.over else "position where the game was stopped (unfinished)"
        return game, f"{game.rules.name}: {Path(path).name}, {where} after {game.state.turn} turns"
    from .replay import open_replay, play_move
    header, moves, _, game = open_replay(path, rulebook, variants)
    rules = game.rules
    seen = [game.state.turn]
    i = 0
    while game.state.turn < turn and i < len(moves):
        play_move(game, path, *moves[i])
        i += 1
        seen.append(game.state.turn)
    if game.state.turn != turn:
        # not in the log: play on to learn which turns it has
        for _line, move, _player, _turn in moves[i:]:
            try:
                game.play(move)
            except NordError:
                break
            seen.append(game.state.turn)
        if min(seen) < turn < max(seen):
            raise UsageError(f"{path}: turn {turn} of this replay asks no decision (each of its choices had one "
                             f"option), so it has no position to stop at; turns with a decision: {_ranges(seen)}")
        raise UsageError(f"{path}: the replay has no turn {turn}; it has turns {_ranges(seen)}")
    from ..render.text import to_move, turn_label
    who = rules.color(to_move(game.state))
    return game, f"{rules.name}: {Path(path).name}, start of {turn_label(game.state.turn)}, {who} to move"


def _ranges(turns) -> str:
    ts = sorted(set(turns))
    out, start = [], None
    for i, t in enumerate(ts):
        if start is None:
            start = t
        if i + 1 == len(ts) or ts[i + 1] != t + 1:
            out.append(str(start) if start == t else f"{start}-{t}")
            start = None
    return ", ".join(out) if out else "none"


def position_from_scenario(path, rulebook=None, moves=None):
    """(game, title, entries played): the position a scenario sets up, or
    (`moves`: 'all' or a number of entries of its 'moves:') the one its
    scripted moves lead to."""
    try:
        from ..scenario import load_scenario
    except ModuleNotFoundError as e:
        if e.name and e.name.endswith("scenario"):
            raise UsageError(f"{path} is a scenario, but this nordlang cannot load scenarios yet "
                             "(nordlang.scenario is missing); render a replay log instead") from None
        raise
    sc = load_scenario(path, rulebook)
    upto = _moves_count(path, moves, len(sc.data.get("moves") or []))
    if upto:
        failed = sc.run_moves(upto)
        if failed is not None:
            raise UsageError(failed)
    game = sc.game
    first = str((getattr(sc, "data", None) or {}).get("description", "")).strip().split("\n")[0].split(". ")[0]
    title = f"{game.rules.name}: {Path(path).name}" + (f", {first}" if first else "") + \
        (f", after move {upto}" if upto else "")
    return game, title, upto


def _moves_count(path, moves, n: int) -> int:
    """How many entries of a scenario's 'moves:' `--moves` asks for (0: none)."""
    if moves is None:
        return 0
    if moves.strip().lower() == "all":
        return n
    text = moves.strip()
    if not (text.isascii() and text.isdigit()):
        raise UsageError(f"--moves takes a number of entries of the scenario's 'moves:' or 'all', not {moves!r}")
    if int(text) > n:
        raise UsageError(f"{path}: --moves {int(text)}, but the scenario's 'moves:' has "
                         + (f"only {n} entries (give 0 to {n}, or all)" if n else "no entries"))
    return int(text)


# ---------------------------------------------------------------- output

