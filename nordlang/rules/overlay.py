"""Variant overlays: small YAML files that patch a rulebook.

Maps merge deeply; a list whose patch is a list of operations is patched
by item id (replace, remove, insert before/after); any other value
replaces. A patch that addresses nothing, or two stacked variants that
change the same place, is an error: nothing is ignored silently.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import LoadError, Pos, SchemaError, describe_path, did_you_mean
from .yamlpos import load_yaml

_OPS = ("replace", "remove", "before", "after")


def variant_file(name) -> Path:
    """A variant argument: a path, or the name of a bundled variant."""
    from .. import bundled
    p = Path(name)
    if p.suffix in (".yaml", ".yml") or p.exists():
        if not p.exists():
            raise LoadError(f"no such variant file: {p}", Pos(str(p)))
        return p
    cand = bundled("variants") / "nord" / f"{name}.yaml"
    if cand.exists():
        return cand
    known = [f.stem for f in (bundled("variants") / "nord").glob("*.yaml")]
    raise LoadError(f"unknown variant {str(name)!r}", Pos(str(name)), hint=did_you_mean(str(name), known)
                    or f"bundled variants: {', '.join(sorted(known))}")


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


def expand(variants) -> list:
    """Variant names/paths, with what each extends put before it (no repeats)."""
    out: list = []
    seen: set = set()

    def add(name, depth=0):
        if depth > 10:
            raise LoadError(f"variant {name} extends itself through a chain", Pos(str(name)))
        path = variant_file(name)
        key = path.resolve()
        if key in seen:
            return
        data, src = read_variant(path)
        ext = data.get("extends")
        p = src.pos(("extends",))
        if ext is not None and not isinstance(ext, str):
            raise SchemaError("'extends' names one variant, or 'nord' for the rulebook alone", p,
                              source_line=src.line(p.line), expected="a name or a path, like 'extends: no-storm'")
        if ext and ext not in ("nord", "rulebook"):
            base = path.parent
            target = base / ext if (base / ext).exists() or ext.endswith(".yaml") else ext
            if isinstance(target, Path) and not _inside(target, base):
                raise LoadError(f"'extends: {ext}' leaves the variant's folder", p, source_line=src.line(p.line))
            try:
                add(target, depth + 1)
            except LoadError as e:
                if e.pos is not None and e.pos.line is not None:
                    raise
                raise LoadError(e.message, p, source_line=src.line(p.line), hint=e.hint) from None
        seen.add(key)
        out.append((path, data, src))
    for v in variants:
        add(v)
    return out


def _inside(target: Path, base: Path) -> bool:
    try:
        target.resolve().relative_to(base.resolve())
        return True
    except ValueError:
        return False


def apply_variants(doc, variants, errors) -> None:
    touched: dict = {}
    for path, data, src in expand(variants):
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
        p, vp = path + (k,), vpath + (k,)
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
            target[k] = v
            doc.overrides[p] = (src, vp)


def _list_ops(doc, items: list, ops: list, path, vpath, src, touched, who, errors):
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
        if ident in removed:
            hint = f"this patch removed it already, at line {src.pos(removed[ident]).line}"
        else:
            hint = did_you_mean(str(ident), ids) or (f"ids there: {', '.join(ids)}" if ids else
                                                     "that list has no ids")
        _err(errors, src, vp, f"no item with id {ident!r} in {describe_path(path)}", hint=hint)
        return None
    for j, op in enumerate(ops):
        vp = vpath + (j,)
        kinds = [o for o in _OPS if o in op]
        if len(kinds) != 1:
            _err(errors, src, vp, "a list patch does one of: replace, remove, before, after")
            continue
        kind = kinds[0]
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
