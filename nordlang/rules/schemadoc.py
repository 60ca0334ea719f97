"""The keys a JSON Schema accepts, walked once, for the generated authoring
reference (`nord doc rulebook`, `nord doc scenario`) and for the test that
every key has a description: whatever key a schema gains appears there."""

from __future__ import annotations

from typing import NamedTuple

ANY = "*"            # in a data pattern: any key of a mapping, any item of a list


class Key(NamedTuple):
    """One key a schema accepts: where it is (`path`, as written in the
    reference), where it is in a document (`pattern`, ANY for a name the
    author chooses), its schema (refs not followed), whether it is required,
    and where the schema says it (`pointer`, the keys leading to it)."""
    path: tuple
    pattern: tuple
    node: dict
    required: bool
    section: str         # the top-level key, or the $def it belongs to
    pointer: tuple


def path_text(path: tuple) -> str:
    return ".".join(path).replace(".[]", "[]")


def _labelled(alternatives) -> bool:
    """Alternatives told apart by the key each requires (the kinds of step)."""
    objs = [a for a in alternatives if isinstance(a, dict) and "properties" in a]
    return len(objs) > 1 and all(a.get("required") for a in objs)


def keys(schema: dict) -> list[Key]:
    """Every key of `schema`: its properties (nested objects, list items,
    named entries, oneOf alternatives), then those of each of its $defs."""
    out: list[Key] = []
    for name, node in (schema.get("properties") or {}).items():
        _key(out, (name,), (name,), node, name in (schema.get("required") or ()), name, ("properties", name))
    for name, node in (schema.get("patternProperties") or {}).items():
        _key(out, (name,), (ANY,), node, False, name, ("patternProperties", name))
    for name, node in (schema.get("$defs") or {}).items():
        where = ("$defs", name)
        if _labelled(node.get("oneOf") or ()):
            for i, alt in enumerate(node["oneOf"]):
                kind = alt["required"][0]
                for k, sub in alt["properties"].items():
                    _key(out, (kind, k), (k,), sub, k in alt["required"], name, where + ("oneOf", i, "properties", k))
        else:
            _inside(out, (name,), (), node, name, where)
    return out


def _key(out, path, pattern, node, required, section, ptr):
    out.append(Key(path, pattern, node, required, section, ptr))
    _inside(out, path, pattern, node, section, ptr)


def _inside(out, path, pattern, node, section, ptr):
    """The keys under one value's schema (a $ref is not followed: its $def is
    walked on its own)."""
    if not isinstance(node, dict) or "$ref" in node:
        return
    req = node.get("required") or ()
    for k, sub in (node.get("properties") or {}).items():
        _key(out, path + (k,), pattern + (k,), sub, k in req, section, ptr + ("properties", k))
    for k, sub in (node.get("patternProperties") or {}).items():
        _key(out, path + (k,), pattern + (ANY,), sub, False, section, ptr + ("patternProperties", k))
    extra = node.get("additionalProperties")
    if isinstance(extra, dict) and extra:
        _inside(out, path + ("<name>",), pattern + (ANY,), extra, section, ptr + ("additionalProperties",))
    items = node.get("items")
    if isinstance(items, dict):
        _inside(out, path + ("[]",), pattern + (ANY,), items, section, ptr + ("items",))
    which = "oneOf" if "oneOf" in node else "anyOf"
    for i, alt in enumerate(node.get(which) or ()):
        _inside(out, path, pattern, alt, section, ptr + (which, i))
    for part in ("then", "else"):
        if isinstance(node.get(part), dict):
            _inside(out, path, pattern, node[part], section, ptr + (part,))


def description(node: dict, schema: dict) -> str | None:
    """A key's description, or that of the $def it refers to."""
    if not isinstance(node, dict):
        return None
    if node.get("description"):
        return node["description"]
    ref = node.get("$ref")
    if ref:
        return description(resolve(ref, schema), schema)
    return None


def resolve(ref: str, schema: dict) -> dict:
    return (schema.get("$defs") or {}).get(ref.rsplit("/", 1)[-1], {})


def undocumented(schema: dict) -> list[str]:
    """The keys of `schema` that have no description (none may be left)."""
    return [path_text(k.path) for k in keys(schema) if not description(k.node, schema)]


_TYPE_WORDS = {"string": "text", "integer": "whole number", "number": "number", "boolean": "true/false",
               "object": "mapping", "array": "list", "null": "null"}


def type_text(node: dict, schema: dict) -> str:
    """A value's type in words: its type, allowed values, a $def's name, list
    items, alternatives."""
    if not isinstance(node, dict) or not node:
        return "any value"
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        return f"{name.replace('_', ' ')} (see [{name}](#{name}))"
    if "enum" in node:
        return "one of " + ", ".join(f"`{_json(v)}`" for v in node["enum"])
    if "const" in node:
        return f"`{_json(node['const'])}`"
    alts = node.get("oneOf") or node.get("anyOf")
    if alts and "type" not in node:
        return " or ".join(_alt_text(a, schema) for a in alts)
    types = node.get("type")
    types = types if isinstance(types, list) else [types] if types else []
    words = []
    for t in types:
        w = _TYPE_WORDS.get(t, t)
        if t == "array" and isinstance(node.get("items"), dict):
            w = f"list of {type_text(node['items'], schema)}"
        if t == "object" and isinstance(node.get("additionalProperties"), dict) and node["additionalProperties"]:
            w = f"mapping of name -> {type_text(node['additionalProperties'], schema)}"
        words.append(w)
    return " or ".join(words) or "any value"


def _alt_text(alt, schema) -> str:
    if isinstance(alt, dict) and "properties" in alt and "type" not in alt and alt.get("required"):
        return "mapping with " + ", ".join(f"`{r}`" for r in alt["required"])
    return type_text(alt, schema)


def constraints(node: dict) -> list[str]:
    """The limits a value's schema sets, in words."""
    if not isinstance(node, dict):
        return []
    words = {"minimum": "at least {}", "maximum": "at most {}", "minItems": "at least {} item(s)",
             "maxItems": "at most {} item(s)", "minLength": "at least {} character(s)",
             "maxLength": "at most {} character(s)", "minProperties": "at least {} entry(ies)",
             "pattern": "matching `{}`"}
    out = [w.format(node[k]) for k, w in words.items() if k in node]
    names = node.get("propertyNames")
    if isinstance(names, dict) and "pattern" in names:
        out.append(f"names matching `{names['pattern']}`")
    return out


def _json(v) -> str:
    import json
    return json.dumps(v) if not isinstance(v, str) else v
