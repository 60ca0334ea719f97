"""The variants part of the rulebook format reference: a variant file's
keys and every patch operation of overlay.py, with examples quoted from
the bundled variants (a written one where no bundled variant uses it)."""

from __future__ import annotations

from . import examples as ex
from .overlay import _OPS

VARIANT_KEYS = {
    "description": "required: one paragraph saying what the variant changes and why (`nord variants` lists it)",
    "extends": "what the variant patches: a bundled game by name (`extends: nord`), a rulebook file or folder "
               "by a path relative to the variant's file (`extends: ../connect4.yaml`), or another variant, by "
               "the name of one beside it or bundled with the game (`extends: no-storm`) or by a relative path. "
               "A bare name is first a file `<name>.yaml` beside the variant, then a bundled game, then a "
               "bundled variant. A path must be relative and name a `.yaml` file or a folder; it may go up to "
               "reach a rulebook, but a variant it extends stays in the variant's folder or below",
    "patch": "the rulebook sections it changes, written as in a rulebook, merged as below; a variant "
             "without a patch (that extends no other variant) changes nothing, and is an error",
}

OPS = {
    "replace": ("with", "the step with this id is replaced by the step (or list of steps) under `with`"),
    "remove": (None, "the step with this id is removed"),
    "before": ("insert", "the step (or list of steps) under `insert` goes before the step with this id"),
    "after": ("insert", "the step (or list of steps) under `insert` goes after the step with this id"),
}

_WRITTEN = {
    "delete": "patch:\n  define:\n    bonus: null      # the definition is removed (an error if the rulebook "
              "has none)",
    "$replace": "patch:\n  tables:\n    income:\n      $replace: true  # the whole table is this one: no entry of "
                "the old is kept\n      farm: 2\n      mine: 3",
}


def overlays() -> str:
    out = ["## Variants (overlays)\n",
           "A variant is a small YAML file that names what it extends and patches it; `--variant V` "
           "(repeatable, applied in order) plays with it, and `nord validate VARIANT` checks it on the game "
           "it extends. Bundled variants live in `variants/<game>/`. A variant file has these keys "
           "(any other is an error):\n"]
    out += [f"- `{k}`: {v}." for k, v in VARIANT_KEYS.items()]
    whole = _small_variant()
    if whole is not None:
        out += ["", whole.markdown()]
    out.append("### Patch operations\n")
    out.append("A patch is merged into the rulebook (after its includes), key by key:\n")
    out.append("- **Mappings merge deeply**: a key the patch names is changed, the others are kept; a new key "
               "is added (a new section too).")
    out.append("- **Any other value replaces** what was there: a text, a number, a list written as a list of "
               "values (not of operations).")
    out.append("- **`null` deletes** the key (it must exist).")
    out.append("- **`$replace: true`** in a mapping replaces the whole mapping instead of merging into it.")
    out.append("- **A list of operations** patches a list of steps by the steps' `id`s: each item is one of "
               + ", ".join(f"`{op}`" for op in _OPS) + " (below). A step with an id inside another step (in an "
               "`if`'s `then`, a `do`, an option's steps) is reached by its id from the flow's list, as a step of "
               "the list itself; an id found in two such places is an error naming them.")
    out.append("- A player count key matches written either way (`2:` patches `\"2\":`).\n")
    out.append("Nothing is ignored silently: a patch that addresses nothing (an id no step has, a key to "
               "delete that is not there) is an error at the patch, and so is a place that two stacked "
               "variants both change.\n")
    merge = _merge_example()
    if merge is not None:
        out += ["A merge, from a bundled variant:\n", merge.markdown()]
    for what, title in (("delete", "A deletion"), ("$replace", "A whole mapping replaced")):
        found = ex.first_in("variant", ["patch"], _finder(what))
        out.append(f"{title}:\n")
        out.append(found.markdown() if found is not None else
                   f"(no bundled variant needs it; written for this page)\n\n```yaml\n{_WRITTEN[what]}\n```\n")
    out.append('<a id="list-operations"></a>\n\n### List operations\n')
    out.append("A list whose patch is a list of mappings, each holding one of "
               + ", ".join(f"`{op}`" for op in _OPS) + ", is patched item by item; the items are "
               "addressed by their `id` (give a step an `id` in the rulebook so variants can reach it). The "
               "operations apply in order, so a later one may address a step an earlier one inserted.\n")
    for op in _OPS:
        key, what = OPS[op]
        out.append(f"#### `{op}`" + (f" with `{key}`" if key else "") + f"\n\n{what[0].upper()}{what[1:]}.\n")
        found = ex.first_in("variant", ["patch"], lambda m, op=op: () if op in m else None)
        if found is not None:
            out.append(found.markdown())
    return "\n".join(out)


def _small_variant():
    """The shortest bundled variant that patches a list, quoted whole."""
    best = None
    for name, data, src in ex.files("variant"):
        if isinstance(data, dict) and any(op in str(data.get("patch")) for op in ("'remove'", "'replace'")):
            n = len(src.text.splitlines())
            if best is None or n < best[0]:
                best = (n, name, src)
    return ex.quote(best[1], best[2], ()) if best else None


def _merge_example():
    """The first bundled variant's patch section that changes keys of a
    mapping (not a list by operations)."""
    for name, data, src in ex.files("variant"):
        patch = data.get("patch") if isinstance(data, dict) else None
        for section, v in (patch or {}).items() if isinstance(patch, dict) else ():
            if isinstance(v, dict) and v and not any(_is_ops(x) for x in v.values()):
                return ex.quote(name, src, ("patch", section))
    return None


def _is_ops(v) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) and any(o in x for o in _OPS) for x in v)


def _finder(what):
    def find(m):
        for k, v in m.items():
            if (what == "delete" and v is None) or (what == "$replace" and isinstance(v, dict) and "$replace" in v):
                return (k,)
        return None
    return find
