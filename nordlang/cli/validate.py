"""`nord validate PATH...`: check rulebooks, variants and scenarios, all
errors in one run; `--simulate N` also plays N random games each."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

from ..errors import ErrorList, NordError, RulesError, did_you_mean, unique
from . import add_json_option, add_rules_options, at_least_one, positive_int
from .test import scenario_files


def add(sub):
    p = sub.add_parser("validate", help="check rulebooks, variants and scenarios (every error, with positions)")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="rulebook files or folders, variant and scenario files or folders of them "
                        "(default: the game's rulebook)")
    add_rules_options(p, players=False, variants=False)
    p.add_argument("--players", type=at_least_one, metavar="N", help="check for this number of players only")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")
    p.add_argument("--simulate", type=positive_int, default=0, metavar="N",
                   help="also play N random games per player count and report any that goes wrong")
    p.add_argument("--turn-cap", type=at_least_one, default=2000, metavar="T",
                   help="turns after which a game is stuck")
    add_json_option(p)
    p.set_defaults(func=run)


def kind_of(path: Path) -> str:
    """'rulebook', 'variant' or 'scenario', from a file's top-level keys."""
    if path.is_dir():
        return "rulebook"
    from ..rules.loader import file_kind
    from ..rules.yamlpos import load_yaml
    data = load_yaml(path)[0]
    kind = file_kind(data)
    if kind == "unknown" and isinstance(data, dict) and "description" in data and set(data) <= VARIANT_KEYS:
        return "variant"            # a variant with nothing but words: read as one, it says it changes nothing
    return "rulebook" if kind == "unknown" else kind


VARIANT_KEYS = {"description", "extends", "patch", "players"}


def _expand(path: Path) -> list[Path]:
    """A folder holding no rulebook (only variants, scenarios and folders of
    them, like variants/) is checked file by file, each by its kind. A
    folder holding a rulebook is that rulebook (its main file and what it
    includes), and each variant and scenario beside it or in its subfolders."""
    if not path.is_dir() or path.name == "scenarios":
        return [path]
    files = sorted(f for f in path.glob("*.yaml") if f.is_file())

    def kind(f):
        try:
            return kind_of(f)
        except NordError:
            return "unreadable"          # reported when the file itself is checked
    kinds = {f: kind(f) for f in files}
    if any(k == "rulebook" for k in kinds.values()):
        out = [path] + [f for f in files if kinds[f] in ("variant", "scenario")]
        for sub in sorted(d for d in path.iterdir() if d.is_dir()):
            if any(sub.rglob("*.yaml")):          # (a folder of other files, like pictures, is not a rulebook)
                out.extend(f for f in _expand(sub) if f.is_dir() or kind(f) in ("variant", "scenario"))
        return out
    out = list(files)
    for sub in sorted(d for d in path.iterdir() if d.is_dir()):
        if any(sub.rglob("*.yaml")):
            out.extend(_expand(sub))
    return out or [path]


def _flatten(e):
    return e.errors if isinstance(e, ErrorList) else [e]


def check_rulebook(rulebook, variants, players, out):
    """Errors and warnings of a rulebook (+ variants) for each player count."""
    from ..lang.cost import estimating
    from ..rules.build import check_board, read_doc
    from ..rules.loader import fix_lines
    from ..rules.model import Rules
    from ..rules.occupancy import unseen_piece_warnings
    schema_errors: list = []
    try:
        doc = read_doc(rulebook, variants, schema_errors)
    except NordError as e:
        out.extend(_flatten(e))
        return []
    out.extend(schema_errors)
    pl = doc.data.get("players") if isinstance(doc.data.get("players"), dict) else {}
    lo, hi = pl.get("min", 2), pl.get("max", 2)
    if not (isinstance(lo, int) and isinstance(hi, int)):
        lo = hi = 2
    colors = pl.get("colors") if isinstance(pl.get("colors"), list) else ()
    # (one count per colour at most: more is an error of the players section, reported above)
    counts = [players] if players else list(range(max(lo, 1), min(hi, max(len(colors), 1)) + 1))
    compiled = []
    for n in counts:
        errors: list = []
        try:
            with estimating():      # (warnings of work the text shows to be too much: lang/cost.py)
                rules = Rules(doc, n, errors)
        except NordError as e:
            errors.extend(_flatten(e))
            rules = None
        except Exception:
            if not schema_errors:
                raise
            rules = None        # the schema errors above explain it
        if schema_errors:
            rules = None
        if rules is not None and not any(e.kind == "error" for e in errors):
            errors.extend(check_board(rules))
            errors.extend(rules.names.warnings)
            errors.extend(unseen_piece_warnings(rules))
            unused = sorted(set(rules.names.funcs) - rules.names.used)
            for name in unused:
                f = rules.names.funcs[name]
                w = NordError(f"{name!r} is defined but never used", f.pos)
                w.kind = "warning"
                errors.append(w)
            data = rules.doc.data
            for section in ("constants", "tables"):
                names = data.get(section) if isinstance(data.get(section), dict) else {}
                for name in sorted(set(names) - rules.names.used):
                    others = (set(data.get("constants") or {}) | set(data.get("tables") or {})) - {name}
                    w = NordError(f"{section[:-1]} {name!r} is never used", rules.doc.pos((section, name), key=True)[0],
                                  hint=did_you_mean(name, others))
                    w.kind = "warning"
                    errors.append(w)
            called = set()
            for steps in [rules.setup, rules.turn] + [p.steps for p in rules.procs.values()]:
                _calls(steps, called)
            for name, proc in rules.procs.items():
                if name not in called:
                    w = NordError(f"flow {name!r} is never called, so it can never be reached",
                                  rules.doc.pos(("flows", proc.key), key=True)[0])
                    w.kind = "warning"
                    errors.append(w)
            if not any(e.kind == "error" for e in errors):
                compiled.append(rules)
        fix_lines(doc, errors)
        # (a text the schema already refused is not refused twice: one error per place)
        refused = {str(e.pos) for e in schema_errors if e.pos is not None and e.pos.col}
        out.extend(e for e in errors if str(e.pos) not in refused)
    return compiled


def _calls(steps, called):
    from ..engine import flow as F
    for st in steps:
        if isinstance(st, F.CallProc):
            called.add(st.proc)
        for attr in ("then", "orelse", "body", "otherwise"):
            sub = getattr(st, attr, None)
            if sub:
                _calls(sub, called)
        for alt in getattr(st, "alternatives", ()) or ():
            _calls(alt.steps, called)


def simulate(rules, n, turn_cap, out, label) -> dict:
    """Play n random games; report errors, broken invariants, stuck games,
    and 'exists' hints that disagree with their choices' options, each
    distinct error once (with how many games it spoilt); say what was played
    (label, games, decisions, went_wrong: `played_text` words it)."""
    from ..engine import flow
    from ..engine.game import Game
    flow.CHECK_HINTS = True
    try:
        return _simulate(rules, n, turn_cap, out, label, Game)
    finally:
        flow.CHECK_HINTS = False


_TURN = re.compile(r"^turn (\d+): ")


def _simulate(rules, n, turn_cap, out, label, Game) -> dict:
    from ..engine.invariants import created_items, invariant_problem
    from ..rules.build import position_message, position_problem
    decisions = 0
    seen: dict = {}     # place (or message) -> [first error, its game, turn, games, seed, message without its turn]
    for i in range(n):
        seed = 1000 + i
        rng = random.Random(seed)
        try:
            g = Game(rules, seed)
            created = None          # what the game brought in, fixed when the setup is over
            while not g.over:
                g.play_index(rng.randrange(len(g.state.pending.options)))
                decisions += 1
                if created is None and g.state.turn > 0:
                    created = created_items(g.state)
                problem = invariant_problem(g.state, created)
                if problem:
                    raise RulesError(f"turn {g.state.turn}: {problem}")
                broken = position_problem(rules, g.state)
                if broken is not None:
                    raise RulesError(f"turn {g.state.turn}: {position_message(rules, broken)}",
                                     rules.doc.pos(broken[0].path)[0])
                if g.state.turn > turn_cap:
                    raise RulesError(f"no end after {turn_cap} turns",
                                     hint="a rule may keep the game from ending; `nord play` shows the turns")
        except NordError as e:
            m = _TURN.match(e.message)
            message = e.message[m.end():] if m else e.message
            # one place in the rules is one error, whatever the details of each game (spaces, counts)
            key = str(e.pos) if e.pos is not None and e.pos.line else message
            if key in seen:
                seen[key][3] += 1
            else:
                seen[key] = [e, i, m.group(1) if m else None, 1, seed, message]
    for e, game, turn, count, seed, message in seen.values():
        if count == 1:
            e.message = f"{label}, random game with seed {seed}: {e.message}"
        else:
            at_turn = f", turn {turn}" if turn else ""
            e.message = f"{label}: error in {count} of {n} games: {message} " \
                        f"(first in game {game + 1}, seed {seed}{at_turn})"
        out.append(e)
    spoilt = sum(v[3] for v in seen.values())
    return {"label": label, "games": n, "decisions": decisions, "went_wrong": spoilt}


def played_text(played: dict) -> str:
    return f"{played['label']}: played {played['games']} random game(s), {played['decisions']} decision(s)" + \
        (f"; {played['went_wrong']} went wrong" if played["went_wrong"] else "")


def _in_file_order(problems: list) -> list:
    """Each file's problems together, in the order the files came up, and
    within a file by line and column (the checks find them in their own
    order); problems with no line stay at their file's end, as found."""
    files: dict = {}
    for e in problems:
        files.setdefault(e.pos.file if e.pos else None, len(files))

    def key(e):
        pos = e.pos
        line = pos.line if pos and pos.line else float("inf")
        return files[pos.file if pos else None], line, (pos.col or 0) if pos else 0
    return sorted(problems, key=key)


def run(args):
    from ..rules.games import rulebook_file
    paths = [f for p in args.paths for f in _expand(Path(p))] or [rulebook_file(args.rulebook)]
    problems: list = []
    played: list = []           # what --simulate played, a line per rulebook and player count
    checked = 0
    for path in paths:
        if not path.exists():
            from ..errors import LoadError, Pos
            problems.append(LoadError(f"no such file or folder: {path}", Pos(str(path))))
            continue
        try:
            kind = kind_of(path)
        except NordError as e:
            checked += 1
            problems.extend(_flatten(e))
            continue
        if kind == "scenario" or (path.is_dir() and path.name == "scenarios"):
            for f in (scenario_files([path])[0] if path.is_dir() else [path]):
                checked += 1
                try:
                    from ..scenario import load_scenario
                    load_scenario(f, args.rulebook)
                except NordError as e:
                    problems.extend(_flatten(e))
            continue
        checked += 1
        if kind == "variant":         # on the game given, else the one it extends
            compiled = check_rulebook(args.rulebook, [path], args.players, problems)
        else:
            compiled = check_rulebook(path, [], args.players, problems)
        if args.simulate:
            for rules in compiled:
                played.append(simulate(rules, args.simulate, args.turn_cap, problems,
                                       f"{path} ({rules.num_players} players)"))
    problems = _in_file_order(unique(problems))
    errors = [e for e in problems if e.kind == "error"]
    warnings = [e for e in problems if e.kind != "error"]
    status = 2 if errors or (args.strict and warnings) else 0
    if args.json:
        from .json_output import emit, problem
        emit({"command": "validate", "ok": status == 0, "files_checked": checked,
              "errors": [problem(e) for e in errors], "warnings": [problem(e) for e in warnings],
              "strict": args.strict, "played": played})
        return status
    for e in problems:
        print(e.format(), file=sys.stderr)
    for one in played:
        print(played_text(one))
    print(f"{checked} file(s) checked: {len(errors)} error(s), {len(warnings)} warning(s)")
    return status
