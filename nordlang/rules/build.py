"""From a path to compiled Rules: read, overlay variants, validate, compile."""

from __future__ import annotations

from pathlib import Path

from ..errors import LoadError
from .games import describe, game_name, rulebook_file, variants_folder
from .loader import check_errors, fix_lines, read_rulebook, validate_doc

_CACHE: dict = {}


def resolve(rulebook=None, variants=()) -> tuple[Path, list]:
    """(the rulebook's main file, the variants to apply: expand's list).

    `rulebook` is None, a game name or a path. Bundled variant names are
    those of the game played. With no rulebook given, the game is the one
    the variants extend, else the default game; a variant of another game
    than the one given is an error at its `extends:`.
    """
    from .overlay import expand
    given = rulebook_file(rulebook) if rulebook is not None else None
    main = given or rulebook_file(None)
    chain, root, where = expand(variants, variants_folder(main))
    if given is None and root is not None and root.resolve() != main.resolve():
        main = root
        chain, root, where = expand(variants, variants_folder(main))
    if root is not None and root.resolve() != main.resolve():
        src, at = where
        pos = src.pos(at)
        name = game_name(root)
        raise LoadError(f"this variant extends {describe(root)}, not the game played ({describe(main)})", pos,
                        source_line=src.line(pos.line),
                        hint=f"play it with --game {name}" if name else f"play it with --rulebook {root}")
    return main, chain


def apply_params(doc, params) -> None:
    """A game's parameters: each sets one of the rulebook's constants (`cards=13`), as a
    one-line overlay would; a name that is no constant, or a value of another type, is an error."""
    from ..errors import UsageError, did_you_mean
    constants = doc.data.get("constants") or {}
    for name, value in (params or {}).items():
        if name not in constants:
            raise UsageError(f"the game has no parameter {name!r}: a parameter sets one of its constants",
                             hint=did_you_mean(str(name), constants) or
                             (f"its constants: {', '.join(map(str, constants))}" if constants else "it has none"))
        old = constants[name]
        if type(old) is not type(value) or isinstance(value, (dict, list)):
            raise UsageError(f"parameter {name}={value!r} must be {type(old).__name__}, like its value in the "
                             f"rulebook ({old!r})")
        constants[name] = value


def read_doc(rulebook=None, variants=(), problems: list | None = None, resolved=None, params=None):
    """The merged, validated document (before compiling).

    With `problems`, schema errors are added to it instead of raised, so a
    validator can go on and report the compile errors too.
    """
    from .overlay import apply_variants
    path, chain = resolved or resolve(rulebook, variants)
    errors: list = []
    doc = read_rulebook(path, errors)
    check_errors(errors)
    apply_variants(doc, chain, errors)
    check_errors(errors)
    apply_params(doc, params)
    errors.extend(validate_doc(doc))
    fix_lines(doc, errors)
    if problems is not None:
        problems.extend(errors)
        return doc
    check_errors(errors)
    return doc


def _key(path, chain, players):
    files = [path] + [v[0] for v in chain]
    stamp = tuple((str(f.resolve()), f.stat().st_mtime_ns) for f in files)
    stamp += tuple((str(f.resolve()), f.stat().st_mtime_ns) for f in sorted(path.parent.rglob("*.yaml")))
    return (stamp, players)


def compile_rules(rulebook=None, players=None, variants=(), params=None):
    from ..lang.parser import trees
    from . import cache
    from .model import Rules
    path, chain = resolve(rulebook, variants)
    params = dict(params or {})
    key = (_key(path, chain, players), tuple(sorted(params.items(), key=str)))
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    # the compiled-rulebook cache on disk: the document and the texts' trees of a load that went well
    disk_key = cache.key(path, chain, players, params)
    entry = cache.lookup(disk_key)
    if entry is not None:
        doc, table, snapshot = entry.doc, entry.trees, None
    else:
        doc, table = read_doc(resolved=(path, chain), params=params), {}
        snapshot = cache.snapshot(doc) if disk_key is not None else None    # (as it is before compiling)
    if players is None:
        pl = doc.data["players"]
        players = pl.get("default", pl["min"])
    errors: list = []
    with trees(table):
        rules = Rules(doc, players, errors)
        fix_lines(doc, errors)
        check_errors(errors)
        errors = [e for e in check_board(rules) if e.kind == "error"]
        fix_lines(doc, errors)
        check_errors(errors)
    rules.bundled_name = game_name(path)          # the bundled game's name (None for a rulebook given by path)
    rules.rulebook_file = path
    rules.params = params
    rules.from_cache = entry is not None          # (served by the cache on disk: for tests and curious people)
    if entry is None:
        cache.store(disk_key, snapshot, doc, chain, table)
    _CACHE[key] = rules
    return rules


def check_board(rules, scenario=None) -> list:
    """The rulebook's board_checks on the board it plays on, and its
    data_checks on its own tables: errors and warnings. For a scenario's
    board, `scenario` is (source, path of its map or seats): only the checks
    marked any_board (what the rules need of every board) run, reported
    there."""
    from ..engine.flow import Machine
    from ..engine.state import State
    from ..errors import EvalError, NordError, SchemaError
    state = State(rules, 0)
    Machine(rules).start(state, run=False)
    out = []
    base = rules.board_path
    patched = [p for p in rules.doc.overrides if p[:len(base)] == base and len(p) > len(base)]
    if patched:
        # a variant changed part of the board: point at the part it changed
        src, vp = rules.doc.overrides[patched[0]]
        child = vp[:len(vp) - (len(patched[0]) - len(base) - 1)]
        where = src.pos(child, key=True)
        line = src.line(where.line)
    else:
        where, line = rules.doc.pos(base)
    if scenario is not None:
        src, at = scenario
        where = src.pos(at, key=bool(at))
        line = src.line(where.line)
    unreadable = set()          # data a check could not even read (reported once)
    for chk in rules.board_checks:
        if scenario is not None and not chk.any_board:
            continue
        try:
            value = chk.fn(rules.ctx(state))
        except NordError as e:
            if chk.about is None:
                out.append(e)
            elif chk.about not in unreadable:
                # the data is not of the kind the check reads: say so at the data
                unreadable.add(chk.about)
                at, text = rules.doc.pos(chk.about)
                out.append(SchemaError(f"{'.'.join(map(str, chk.about))} cannot be checked: {e.message}", at,
                                       source_line=text, hint=f"the check ({chk.message}) is at {e.pos}"))
            continue
        except Exception as e:  # pragma: no cover - compiled closures wrap errors
            out.append(EvalError(str(e), rules.doc.pos(chk.path)[0]))
            continue
        try:
            broken, bad = verdict(rules, chk, value)
        except EvalError as e:
            out.append(e)
            continue
        if broken:
            message = chk.message + (f": {_listing(rules, bad)}" if bad else "")
            if chk.about is not None:
                # a rule of the rulebook's data: at that data (where a variant changed it, if one did)
                at, text = rules.doc.pos(chk.about)
                err = SchemaError(f"{'.'.join(map(str, chk.about))} breaks a rule of this rulebook: {message}", at,
                                  source_line=text, hint=f"the check is at {rules.doc.pos(chk.path)[0]}")
            elif scenario is not None:
                err = SchemaError(f"this scenario's {'map' if at == ('map',) else 'board'} lacks what a rule of the "
                                  f"rulebook needs: {message}", where, source_line=line,
                                  hint=f"the check is at {rules.doc.pos(chk.path)[0]}")
            else:
                err = SchemaError(f"the board for {rules.num_players} players breaks a setup rule: {message}",
                                  where, source_line=line, hint=f"the check is at {rules.doc.pos(chk.path)[0]}")
            if chk.warning:
                err.kind = "warning"
            out.append(err)
    return out


def verdict(rules, chk, value) -> tuple:
    """(broken, what breaks it) from a check's value; an `offenders` text
    that gives no collection is the check's own error."""
    from ..errors import EvalError
    from ..lang.builtins import ordered
    if not chk.offenders:
        return not value, []
    if not isinstance(value, (tuple, list, frozenset, set, dict)):
        pos, text = rules.doc.pos(chk.path + ("offenders",))
        raise EvalError(f"'offenders' gives {rules.show(value)}, not a collection", pos, source_line=text,
                        hint="give a list of what breaks the rule, like [s for s in spaces if ...]; "
                             "or write 'check' instead")
    bad = list(ordered(value))
    return bool(bad), bad


def position_problem(rules, state):
    """The first of the rulebook's position_checks this position breaks:
    (the check, what breaks it) or None. (They have no warnings: a position
    is possible or not.)"""
    ctx = rules.ctx(state)
    for chk in rules.position_checks:
        broken, bad = verdict(rules, chk, chk.fn(ctx))
        if broken:
            return chk, bad
    return None


def position_message(rules, problem) -> str:
    chk, bad = problem
    return f"this position breaks a rule: {chk.message}" + (f": {_listing(rules, bad)}" if bad else "")


def _listing(rules, items, most=8) -> str:
    """What breaks a rule, named (the first few of many)."""
    shown = ", ".join(rules.show(x) for x in items[:most])
    return shown + (f" and {len(items) - most} more" if len(items) > most else "")
