"""Variant overlays: small YAML files that patch a rulebook.

Maps merge deeply; a list whose patch is a list of operations is patched
by item id (replace, remove, insert before/after); any other value
replaces. A patch that addresses nothing, or two stacked variants that
change the same place, is an error: nothing is ignored silently.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import LoadError, Pos, SchemaError, describe_path, describe_value, did_you_mean
from .games import bundled_games, folder_main, game_file, is_name, rulebook_file, variants_folder
from .yamlpos import load_yaml

_OPS = ("replace", "remove", "before", "after")


_DEFAULT = object()      # (the default game's variants)


def variant_file(name, folder=_DEFAULT) -> Path:
    """A variant argument: a path, or the name of a variant in `folder` (the
    variants of the game being played, variants/<game>/; by default the
    default game's; None: the game has no bundled variants)."""
    if folder is _DEFAULT:
        folder = variants_folder(rulebook_file(None))
    p = Path(name)
    bundled = bundled_variant(name, folder)
    if bundled is not None:
        return bundled          # a bare name is the game's variant, whatever the working folder holds
    if not is_name(name) or p.is_file():
        if not p.exists():
            raise LoadError(f"no such variant file: {p}", Pos(str(p)))
        return p
    known = sorted(f.stem for f in folder.glob("*.yaml")) if folder is not None else []
    hint = did_you_mean(str(name), known) or (f"this game's variants: {', '.join(known)}" if known else
                                              "this game has no bundled variants: give a variant's path")
    elsewhere = _in_other_games(str(name), folder)
    if elsewhere:
        hint = f"{name!r} is a variant of {', '.join(elsewhere)}: play it with --game {elsewhere[0]}"
    raise LoadError(f"unknown variant {str(name)!r}", Pos(str(name)), hint=hint)


def _holding(items: list, ident, path) -> list:
    """The lists below `items` (not it) holding a step with id `ident`: (the list, its path)."""
    out = []

    def walk(x, p):
        if isinstance(x, list):
            if any(isinstance(it, dict) and it.get("id") == ident for it in x):
                out.append((x, p))
            for i, it in enumerate(x):
                walk(it, p + (i,))
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(v, p + (k,))
    for i, it in enumerate(items):
        walk(it, path + (i,))
    return out


def _ids_below(x) -> list:
    """Every step id inside x (its lists' items and deeper), in order."""
    out = []
    if isinstance(x, list):
        for it in x:
            out += _ids_below(it)
    elif isinstance(x, dict):
        for k, v in x.items():
            if k == "id":
                out.append(v)
            else:
                out += _ids_below(v)
    return out


def bundled_variant(name, folder) -> Path | None:
    """The file of the bundled variant a bare name names in `folder`, or None."""
    if folder is None or not is_name(name):
        return None
    cand = folder / f"{name}.yaml"
    return cand if cand.is_file() else None


def _in_other_games(name: str, folder: Path | None) -> list:
    """The bundled games (other than the one played) that have a variant `name`."""
    out = []
    for game, main in bundled_games().items():
        other = variants_folder(main)
        if other is not None and (other / f"{name}.yaml").is_file() and (
                folder is None or other.resolve() != folder.resolve()):
            out.append(game)
    return out


def read_variant(path: Path):
    data, src = load_yaml(path)
    if not isinstance(data, dict):
        raise SchemaError("a variant must be a mapping with 'description' and 'patch'", Pos(str(path), 1, 1))
    unknown = [k for k in data if k not in ("description", "extends", "patch", "players")]
    for k in unknown:
        p = src.pos((k,), key=True)
        raise SchemaError(f"unknown key {k!r} in a variant", p, source_line=src.line(p.line),
                          expected="description, extends, patch", hint=did_you_mean(k, ["description", "extends",
                                                                                       "patch"]))
    if not isinstance(data.get("description"), str) or not data["description"].strip():
        p = src.pos(())
        raise SchemaError("a variant needs a 'description': one paragraph saying what it changes and why",
                          p, source_line=src.line(p.line))
    if not data.get("patch") and data.get("extends") in (None, "nord", "rulebook"):
        where = ("patch",) if "patch" in data else ()
        p = src.pos(where, key=bool(where))
        raise SchemaError("this variant changes nothing: it has no patch", p, source_line=src.line(p.line),
                          hint="add 'patch:' with the rulebook sections it changes, or 'extends: VARIANT' "
                               "to build on another variant")
    return data, src


def expand(variants, folder=_DEFAULT) -> tuple[list, Path | None, tuple | None]:
    """Variant names/paths, with what each extends put before it (no
    repeats); bundled names are looked up in `folder`. Also the rulebook the
    chain extends (a game by name, or a rulebook by path; None when no
    variant names one) and where it is named (source, key path)."""
    if folder is _DEFAULT:
        folder = variants_folder(rulebook_file(None))
    out: list = []
    seen: set = set()
    root: list = [None, None]

    def add(name, depth=0):
        if depth > 10:
            raise LoadError(f"variant {name} extends itself through a chain", Pos(str(name)))
        path = variant_file(name, folder) if not isinstance(name, Path) else name
        key = path.resolve()
        if key in seen:
            return
        data, src = read_variant(path)
        ext = data.get("extends")
        p = src.pos(("extends",))
        if ext is not None and not isinstance(ext, str):
            raise SchemaError("'extends' names one game or variant", p, source_line=src.line(p.line),
                              expected="a name or a relative path, like 'extends: nord', 'extends: no-storm' "
                                       "or 'extends: ../game.yaml'")
        if ext and ext != "rulebook":        # ('extends: rulebook': the game being played, as before)
            try:
                kind, target = extends_target(ext, path, folder)
            except LoadError as e:
                if e.pos is not None and e.pos.line is not None:
                    raise
                raise LoadError(e.message, p, source_line=src.line(p.line), hint=e.hint) from None
            if kind == "variant":
                add(target, depth + 1)
            elif root[0] is None:
                root[:] = [target, (src, ("extends",))]
            elif root[0].resolve() != target.resolve():
                from .games import describe
                raise LoadError(f"this variant extends {describe(target)}, but the variants before it extend "
                                f"{describe(root[0])}", p, source_line=src.line(p.line),
                                hint="variants stacked together must be of one game")
        seen.add(key)
        out.append((path, data, src))
    for v in variants:
        add(v)
    return out, root[0], root[1]


def extends_target(ext: str, path: Path, folder: Path | None) -> tuple[str, Path]:
    """What a variant's `extends:` names: ('rulebook', main file) or
    ('variant', file). A bare name is a file beside the variant
    (<name>.yaml), else a bundled game, else a bundled variant of the game
    being played; anything else is a path relative to the variant's folder.

    A path must be relative and name a .yaml file or a folder. It may leave
    the variant's folder to reach a rulebook (a variant lives beside or
    below its game: '../game.yaml', '../../rulebook/g/'), but not to reach
    another variant: variants of a game are kept together, and stacking
    variants from elsewhere is what repeated --variant is for.
    """
    from .loader import kind_of_file
    base = path.parent
    if is_name(ext):
        beside = base / f"{ext}.yaml"
        if beside.is_file():
            return ("rulebook" if kind_of_file(beside) == "rulebook" else "variant"), beside
        if ext in bundled_games():
            return "rulebook", game_file(ext)
        if folder is not None and (folder / f"{ext}.yaml").is_file():
            return "variant", folder / f"{ext}.yaml"
        known = list(bundled_games()) + [f.stem for f in base.glob("*.yaml") if f != path]
        known += [f.stem for f in folder.glob("*.yaml")] if folder is not None else []
        raise LoadError(f"unknown game or variant {ext!r}", Pos(str(path)),
                        hint=did_you_mean(ext, known) or f"bundled games: {', '.join(bundled_games())}; or give a "
                                                         "path relative to this file, like ../game.yaml")
    if Path(ext).is_absolute():
        raise LoadError(f"'extends: {ext}' is an absolute path", Pos(str(path)),
                        hint="give a path relative to the variant's file (so the folder can move), or a game's name")
    target = base / ext
    if target.is_dir():
        return "rulebook", folder_main(target)
    if target.suffix not in (".yaml", ".yml"):
        raise LoadError(f"'extends: {ext}' names neither a .yaml file nor a folder", Pos(str(path)))
    if not target.is_file():
        raise LoadError(f"no such file: {ext} (relative to this variant's folder)", Pos(str(path)))
    kind = kind_of_file(target)
    if kind == "rulebook":
        return "rulebook", target
    if kind == "scenario":
        raise LoadError(f"'extends: {ext}' is a scenario, not a rulebook or a variant", Pos(str(path)))
    if not _inside(target, base):
        raise LoadError(f"'extends: {ext}' leaves the variant's folder", Pos(str(path)),
                        hint="a variant extends a variant beside it (or below), a game by name or a rulebook by "
                             "path; to stack variants from elsewhere, give each with --variant")
    return "variant", target


def _inside(target: Path, base: Path) -> bool:
    try:
        target.resolve().relative_to(base.resolve())
        return True
    except ValueError:
        return False


def apply_variants(doc, chain, errors) -> None:
    """Patch `doc` with the variants of `chain` (expand's list), in order."""
    touched: dict = {}
    for path, data, src in chain:
        patch = data.get("patch") or {}
        if not isinstance(patch, dict):
            errors.append(SchemaError("'patch' must be a mapping of rulebook sections", src.pos(("patch",))))
            continue
        doc.files.append(str(path))
        _merge(doc, doc.data, patch, (), ("patch",), src, touched, str(path), errors)


def _err(errors, src, vpath, msg, **kw):
    p = src.pos(vpath)
    errors.append(SchemaError(msg, p, source_line=src.line(p.line), **kw))


def _claim(touched, path, who, errors, src, vpath):
    for n in range(1, len(path) + 1):
        prev = touched.get(path[:n])
        if prev is not None and prev != who:
            _err(errors, src, vpath, f"this variant changes {describe_path(path)}, which {prev} "
                                     "already changed", hint="stacked variants must change different rules")
            return
    for k in list(touched):
        if k[:len(path)] == path and touched[k] != who:
            _err(errors, src, vpath, f"this variant changes {describe_path(path)}, which {touched[k]} "
                                     "already changed in part", hint="stacked variants must change different rules")
            return
    touched[path] = who


def _merge(doc, target: dict, patch: dict, path, vpath, src, touched, who, errors):
    for k, v in patch.items():
        vp = vpath + (k,)
        if k not in target and type(k) in (int, str):     # 2: patches "2": (a player count) and the reverse
            k = next((t for t in target if type(t) in (int, str) and type(t) is not type(k) and str(t) == str(k)), k)
        p = path + (k,)
        if isinstance(v, dict) and isinstance(target.get(k), dict) and not v.get("$replace"):
            _merge(doc, target[k], v, p, vp, src, touched, who, errors)
        elif isinstance(v, list) and isinstance(target.get(k), list) and v and all(
                isinstance(x, dict) and any(o in x for o in _OPS) for x in v):
            _list_ops(doc, target[k], v, p, vp, src, touched, who, errors)
        else:
            if isinstance(v, dict) and v.get("$replace"):
                v = {a: b for a, b in v.items() if a != "$replace"}
            if v is None:
                if k not in target:
                    _err(errors, src, vp, f"cannot delete {describe_path(p)}: the rulebook has no such entry",
                         hint=did_you_mean(str(k), map(str, target)))
                    continue
                _claim(touched, p, who, errors, src, vp)
                del target[k]
                continue
            if k not in target and not path:
                pass  # a new top-level section
            _claim(touched, p, who, errors, src, vp)
            if len(p) == 2 and p[0] in ("define", "procedures") and isinstance(target.get(k), str):
                # the text it replaces stays callable from the new one, as original(...)
                doc.replaced.setdefault(p, []).append((target[k], doc.source_of(p)))
            target[k] = v
            doc.overrides[p] = (src, vp)


def _list_ops(doc, items: list, ops: list, path, vpath, src, touched, who, errors, first=0):
    """Replace, remove or insert around the items of a list by their ids.
    An id no item of the list has, but one step below it has (inside an
    'if''s 'then', a 'do', an option's steps), is patched there: such an
    op is applied to that inner list first, on its own."""
    inner_ops = {}
    for j, op in enumerate(ops, start=first):
        ident = next((op[o] for o in _OPS if o in op), None) if isinstance(op, dict) else None
        if ident is not None and not any(isinstance(it, dict) and it.get("id") == ident for it in items):
            deeper = _holding(items, ident, path)
            if len(deeper) > 1:
                _err(errors, src, vpath + (j,), f"id {ident!r} names steps in {len(deeper)} places below "
                     f"{describe_path(path)}: " + ", ".join(describe_path(p) for _, p in deeper),
                     hint="give the steps different ids")
                inner_ops[j] = None
            elif deeper:
                inner_ops[j] = deeper[0]
    for j, found in inner_ops.items():
        if found is not None:
            _list_ops(doc, found[0], [ops[j - first]], found[1], vpath, src, touched, who, errors, first=j)
    ops = [op if j not in inner_ops else None for j, op in enumerate(ops, start=first)]
    removed = {}        # id -> the patch step that removed it
    # where each item comes from (its source, and the overrides below it), moved
    # with the items: an item after an insertion keeps its own file's position
    depth = len(path) + 1
    below: dict = {}
    for key in [k for k in doc.overrides if len(k) > depth and k[:depth - 1] == path and isinstance(k[depth - 1], int)]:
        below.setdefault(key[depth - 1], {})[key[depth:]] = doc.overrides.pop(key)
    where = [(doc.source_of(path + (k,)), below.get(k, {})) for k in range(len(items))]

    def index_of(ident, vp):
        for i, it in enumerate(items):
            if isinstance(it, dict) and it.get("id") == ident:
                return i
        ids = [it.get("id") for it in items if isinstance(it, dict) and it.get("id")]
        ids += [i for i in _ids_below(items) if i not in ids]
        if ident in removed:
            hint = f"this patch removed it already, at line {src.pos(removed[ident]).line}"
        else:
            hint = did_you_mean(str(ident), ids) or (f"ids there: {', '.join(ids)}" if ids else
                                                     "that list has no ids")
        _err(errors, src, vp, f"no item with id {ident!r} in {describe_path(path)}", hint=hint)
        return None
    for j, op in enumerate(ops, start=first):
        if op is None:
            continue                # (patched below, or an id found in several places)
        vp = vpath + (j,)
        kinds = [o for o in _OPS if o in op]
        if len(kinds) != 1:
            _err(errors, src, vp, "a list patch does one of: replace, remove, before, after")
            continue
        kind = kinds[0]
        if not isinstance(op[kind], (str, int)) or isinstance(op[kind], bool):
            _err(errors, src, vp + (kind,), f"'{kind}' names a step by its id, not {describe_value(op[kind])}",
                 hint=f"like '{kind}: placement'")
            continue
        n_errors = len(errors)
        _claim(touched, path + (op[kind],), who, errors, src, vp + (kind,))
        if len(errors) > n_errors:
            continue
        i = index_of(op[kind], vp + (kind,))
        if i is None:
            continue
        if kind == "remove":
            items.pop(i)
            where.pop(i)
            removed[op[kind]] = vp + (kind,)
            continue
        new = op.get("with") if kind == "replace" else op.get("insert")
        if new is None:
            _err(errors, src, vp, f"'{kind}' needs '{'with' if kind == 'replace' else 'insert'}'")
            continue
        seq = new if isinstance(new, list) else [new]
        key = "with" if kind == "replace" else "insert"
        came = [((src, vp + (key,) + ((n,) if isinstance(new, list) else ())), {}) for n in range(len(seq))]
        if kind == "replace":
            items[i:i + 1], where[i:i + 1] = seq, came
        elif kind == "before":
            items[i:i], where[i:i] = seq, came
        else:
            items[i + 1:i + 1], where[i + 1:i + 1] = seq, came
    for k in [k for k in doc.overrides if len(k) == depth and k[:-1] == path and isinstance(k[-1], int)]:
        del doc.overrides[k]
    for k, (origin, deeper) in enumerate(where):
        if origin != doc.source_of(path + (k,)):        # (an item in its own place needs no entry)
            doc.overrides[path + (k,)] = origin
        for rel, v in deeper.items():
            doc.overrides[path + (k,) + rel] = v
