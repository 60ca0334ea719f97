"""JSON Schema validation with positions and plain-word messages."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib.resources import files

from ..errors import SchemaError, describe_path, did_you_mean, unique
from ..errors import describe_value as _what  # (the same words everywhere)

_TYPES = {"string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
          "object": "a mapping (key: value)", "array": "a list", "null": "nothing"}


@cache
def schema(name: str) -> dict:
    text = files("nordlang.rules").joinpath("schemas").joinpath(f"{name}.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


# keys of an older format: what they are called now
RENAMED = {(): {"islands": "boards"}}


def _type_words(t) -> str:
    if isinstance(t, list):
        return " or ".join(_TYPES.get(x, x) for x in t)
    return _TYPES.get(t, t)




def validate(data, name: str, locate) -> list[SchemaError]:
    """All schema errors of `data`; `locate(path, key=False)` gives (Pos, source line)."""
    # (imported here: a rulebook the compiled-rulebook cache serves is not validated again)
    import jsonschema
    root = schema(name)
    validator = jsonschema.Draft202012Validator(root)
    out = []
    for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        out.extend(_explain(err, locate, root))
    return unique(out)


def _alternative_keys(alternatives) -> list | None:
    """The keys of a oneOf whose alternatives only require one key each, else None."""
    keys = [a["required"][0] for a in alternatives
            if isinstance(a, dict) and set(a) == {"required"} and len(a["required"]) == 1]
    return keys if len(keys) == len(alternatives) else None


_STEP_KINDS = ("do", "let", "if", "while", "for", "call", "choose", "roll")


def _is_step_choice(alternatives) -> bool:
    """Is this oneOf the kinds of flow step (each alternative requiring one of them)?"""
    return any(isinstance(a, dict) and set(a.get("required", ())) & set(_STEP_KINDS) for a in alternatives)


def _alternative_words(alt, root) -> str:
    """What one alternative of a oneOf is, in words: its description, a mapping
    with the key it requires, or its type (`root`: the schema, for its $defs)."""
    if isinstance(alt, dict) and "$ref" in alt:
        name = alt["$ref"].rsplit("/", 1)[-1]
        alt = (root or {}).get("$defs", {}).get(name, {"description": name.replace("_", " ")})
    if not isinstance(alt, dict):
        return "something else"
    if "description" in alt:
        return alt["description"]
    req = alt.get("required") or []
    if alt.get("type") == "object" and len(req) == 1:
        return f"a mapping with {req[0]!r}"
    if alt.get("type") == "array" and isinstance(alt.get("items"), dict) and "type" in alt["items"]:
        return f"a list of {_plural(_type_words(alt['items']['type']))}"
    return _type_words(alt["type"]) if "type" in alt else "something else"


def _resolve(schema, root) -> dict:
    """A schema, its $ref followed (within `root`'s $defs)."""
    if isinstance(schema, dict) and "$ref" in schema:
        return (root or {}).get("$defs", {}).get(schema["$ref"].rsplit("/", 1)[-1], {})
    return schema if isinstance(schema, dict) else {}


def _plural(words: str) -> str:
    return {"text": "texts", "a whole number": "whole numbers", "a number": "numbers"}.get(words, words)


def _at(root, path) -> dict:
    """The schema of the value at `path` (the first alternative that fits the way down)."""
    node = _resolve(root, root)
    for part in path:
        alts = [_resolve(a, root) for a in node.get("oneOf", ())] or [node]
        if isinstance(part, int):
            node = next((a["items"] for a in alts if isinstance(a.get("items"), dict)), {})
        else:
            node = next((a["properties"][part] for a in alts if part in (a.get("properties") or {})),
                        next((a["additionalProperties"] for a in alts
                              if isinstance(a.get("additionalProperties"), dict)), {}))
        title = node.get("title") if isinstance(node, dict) else None       # (beside a $ref)
        node = {**_resolve(node, root), **({"title": title} if title else {})}
    return node


def _where(path, root) -> str:
    """The path in words, each list's entries named by the title of its items ('moves/move 3')."""
    def entry(upto):
        return _at(root, upto).get("title", "item") if root else "item"
    return describe_path(path, {i: entry(path[:i + 1]) for i, part in enumerate(path) if isinstance(part, int)})


def _condition(err, root):
    """(key, value) of the `if` whose `then`/`else` gave this error (a zone's
    type 'grid'), or None: its keys are told by what they go with."""
    sp = list(err.schema_path)
    branch = next((i for i in range(len(sp) - 1, -1, -1) if sp[i] in ("then", "else")), None)
    if branch is None or root is None:
        return None
    node = root
    for part in sp[:branch]:
        node = node[part] if isinstance(node, dict) or isinstance(part, int) else {}
    props = ((node or {}).get("if") or {}).get("properties") or {}
    if len(props) != 1:
        return None
    key, cond = next(iter(props.items()))
    return (key, cond["const"], sp[branch]) if isinstance(cond, dict) and "const" in cond else None


def _explain(err, locate, root=None) -> list[SchemaError]:
    path = tuple(err.absolute_path)
    v = err.validator
    where = _where(path, root)
    cond = _condition(err, root) if v in ("not", "required") else None
    if cond is not None and isinstance(err.instance, dict):
        key, value, branch = cond
        if branch == "else" and v == "not":
            # keys that belong to one kind only (a grid's rows and columns), on another kind
            keys = [a["required"][0] for a in err.validator_value.get("anyOf", ())
                    if isinstance(a, dict) and len(a.get("required", ())) == 1]
            present = [k for k in keys if k in err.instance] or keys
            out = []
            for k in present:
                pos, line = locate(path + (k,), key=True)
                out.append(SchemaError(f"{where}: {k!r} goes only with {key}: {value} (here {key}: "
                                       f"{err.instance.get(key)})", pos, source_line=line, width=len(k),
                                       hint=f"leave {k!r} out, or make it {key}: {value}"))
            return out
        if branch == "then" and v == "required":
            if err.instance.get(key) != value:
                return []           # (the `if` holds as the key is missing: its own error says so)
            pos, line = locate(path)
            missing = [k for k in err.validator_value if k not in err.instance]
            both = " and ".join(map(repr, err.validator_value))
            return [SchemaError(f"{where}: {key}: {value} needs {both} ({' and '.join(map(repr, missing))} "
                                f"{'is' if len(missing) == 1 else 'are'} missing)", pos, source_line=line,
                                hint=f"for example: {', '.join(f'{k}: 3' for k in err.validator_value)}")]
    keys = _alternative_keys(err.validator_value) if v == "oneOf" else None
    if keys and isinstance(err.instance, dict):
        # an object that has exactly one of some keys (a board check: check or offenders)
        pos, line = locate(path)
        present = [k for k in keys if k in err.instance]
        either = " or ".join(map(repr, keys))
        if not present:
            return [SchemaError(f"{where}: needs {either}", pos, source_line=line)]
        both = "both" if len(present) == 2 else " and ".join(map(repr, present))
        return [SchemaError(f"{where}: takes {either}, not {both}", pos, source_line=line)]
    if v == "oneOf" and isinstance(err.instance, dict) and _is_step_choice(err.validator_value):
        # a flow step: say which kinds of step exist, with the best-matching sub-error
        from jsonschema.exceptions import best_match
        best = best_match(err.context) if err.context else None
        kinds = list(_STEP_KINDS)
        present = [k for k in kinds if k in err.instance]
        if len(present) == 1 and best is not None:
            return _explain(best, locate, root)
        pos, line = locate(path)
        if not present:
            return [SchemaError(f"a step must be one of: {', '.join(kinds)}", pos, source_line=line,
                                hint=did_you_mean(next(iter(err.instance), ""), kinds))]
        return [SchemaError(f"a step has one kind, this one mixes {', '.join(present)}", pos, source_line=line)]
    if v == "oneOf" and _is_step_choice(err.validator_value):
        return []           # (not a mapping: the step's own type error says so)
    if v == "oneOf" and isinstance(err.instance, dict) and err.context:
        # a mapping with the keys one alternative requires: that alternative's own errors say what is wrong
        alts = [_resolve(a, root) for a in err.validator_value]
        fits = [i for i, a in enumerate(alts) if a.get("type") == "object"
                and a.get("required") and set(a["required"]) <= set(err.instance)]
        keyed = [i for i, a in enumerate(alts) if "propertyNames" in a]
        if not fits and len(keyed) == 1 and len(alts) == 2:
            # one thing or things by key (a board, or boards by player count): the keys say which
            names = _resolve(alts[keyed[0]]["propertyNames"], root).get("pattern", "")

            by_key = bool(err.instance) and all(re.match(names, str(k)) and not isinstance(k, bool)
                                                for k in err.instance)
            fits = [keyed[0] if by_key else 1 - keyed[0]]
        if len(fits) == 1:
            inner = [e for e in err.context if e.relative_schema_path and e.relative_schema_path[0] == fits[0]]
            out = [x for e in sorted(inner, key=lambda e: list(map(str, e.absolute_path)))
                   for x in _explain(e, locate, root)]
            if out:
                return out
    if v == "oneOf":
        pos, line = locate(path)
        words = " or ".join(_alternative_words(a, root) for a in err.validator_value)
        return [SchemaError(f"{where}: expected {words}, got {_what(err.instance)}", pos, source_line=line)]
    if v == "additionalProperties":
        allowed = list(err.schema.get("properties", {}))
        extra = [k for k in err.instance if k not in allowed]
        out = []
        for k in extra:
            pos, line = locate(path + (k,), key=True)
            # a key of a key beside it (indented too little) is told where it belongs
            owner = next((p for p in allowed if k in _resolve(err.schema["properties"][p], root).get("properties", ())),
                         None)
            hint = f"{k!r} is a key of {owner!r}: indent it under {owner!r}" if owner else did_you_mean(str(k), allowed)
            renamed = RENAMED.get(path, {}).get(k) if isinstance(k, str) else None
            if renamed:
                hint = f"renamed to {renamed}: write {renamed!r} (its content is unchanged)"
            elif isinstance(k, int) and not isinstance(k, bool):
                hint = ("a player count is a key of a mapping of boards by count, whose every key is a count; "
                        "this mapping is one board")
            out.append(SchemaError(f"unknown key {k!r} in {where}", pos, source_line=line,
                                   expected="one of " + ", ".join(allowed) if allowed else None,
                                   hint=hint, width=len(str(k))))
        return out
    pos, line = locate(path)
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        return [SchemaError(f"missing key {missing!r} in {where}", pos, source_line=line)]
    if v == "type":
        if _is_step_choice(err.schema.get("oneOf") or ()):
            return [SchemaError(f"{where}: expected a step, a mapping with one of {', '.join(_STEP_KINDS)}, "
                                f"got {_what(err.instance)}", pos, source_line=line,
                                hint="for example: {do: 'note(\"x\")'}")]
        return [SchemaError(f"{where}: expected {_type_words(err.validator_value)}, got {_what(err.instance)}",
                            pos, source_line=line)]
    if v == "enum":
        opts = ", ".join(map(repr, err.validator_value))
        return [SchemaError(f"{where}: {_what(err.instance)} is not allowed", pos, source_line=line,
                            expected=f"one of {opts}",
                            hint=did_you_mean(str(err.instance), map(str, err.validator_value)))]
    if v in ("minimum", "maximum"):
        return [SchemaError(f"{where}: {err.instance} is too {'small' if v == 'minimum' else 'large'}", pos,
                            source_line=line, expected=f"{'at least' if v == 'minimum' else 'at most'} "
                                                       f"{err.validator_value}")]
    if v in ("minItems", "minProperties"):
        return [SchemaError(f"{where}: must not be empty", pos, source_line=line)]
    if v in ("minLength", "maxLength"):
        return [SchemaError(f"{where}: {_what(err.instance)} must be exactly one character"
                            if err.schema.get("maxLength") == 1 else f"{where}: wrong length", pos, source_line=line)]
    if v == "pattern":
        return [SchemaError(f"{where}: {_what(err.instance)} is not a valid name", pos, source_line=line,
                            expected="lower-case letters, digits and '_', starting with a letter")]
    return [SchemaError(f"{where}: {err.message}", pos, source_line=line)]
