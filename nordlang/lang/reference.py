"""The language reference, generated from the grammar and the primitive registry."""

from __future__ import annotations

from importlib.resources import files

# What the operators mean: nordlang's own meanings, checked by tests/test_compiler.py
# (where Python, which runs the compiled rules, would mean something else, the
# compiler refuses it or the value is made to agree).
VALUES = """\
## Values and operators

Values are numbers, texts (`"..."` or `'...'`), `true` and `false`, `none`, lists (`[..]`, in
order), sets (`{..}`), tuples (`(a, b)`), the rulebook's tables (`limits[t].land`) and the
rules' own values: spaces, structures, players (numbers in turn order, from 0), items
(`coin()`, `coin(p)`) and zones.

- `+` adds numbers, and joins two texts or two lists; `-` subtracts numbers, and takes the
  members of one set out of another.
- `*`, `/`, `//` (division rounded down) and `%` (remainder) take numbers only: `"a" * 3`
  and `[1] * 3` are errors (no text or list is repeated), and `%` formats no text.
- `and`, `or` and `not` give `true` or `false` (`2 and 5` is `true`). A value counts as false
  when it is `false`, `none`, `0` or an empty text or collection, and as true otherwise
  (so player 0 counts as false: to ask whether there is a player, write `p != none`). `and`
  and `or` stop at the operand that decides: `x != none and f(x) > 0` never runs `f(none)`.
- `==` and `!=` compare any values; `<`, `<=`, `>`, `>=` compare numbers, or texts in
  alphabetical order; `x in c` and `x not in c` ask whether c holds x (of a text: whether it
  contains the text x).
- `xs[i]` is item i of a list or tuple, counted from 0; a negative index is an error, as is
  one past the end (the last item is `xs[len(xs) - 1]`); a text has no items. `t[k]` and
  `t.k` read a table's entry.
- `count(...)` counts the items that are not `false`: `count(x > 0 for x in xs)` counts the
  true ones, `count(s for s in spaces if occupied(s))` the kept ones.

"""


def reference() -> str:
    from ..engine.library import STD
    grammar = files("nordlang.lang").joinpath("grammar.lark").read_text(encoding="utf-8")
    return (
        "# nordlang reference\n\n"
        "Expressions compute values; effects (statements) change the game. Every loop runs over a\n"
        "finite collection and there is no recursion, so every rule terminates.\n\n"
        "## Grammar\n\n```lark\n" + grammar.strip() + "\n```\n\n" + VALUES +
        "## Primitives\n\nEach primitive is one entry of the registry; this table is generated from it.\n"
        "Kinds: *expr* (a function), *aggregate* (takes a collection or a generator such as\n"
        "`sum(x * 2 for x in xs if x > 0)`), *bare* (a value named without parentheses), *lazy*\n"
        "(its argument is evaluated specially), *effect* (a statement).\n"
        "A signature names the kind of value an argument takes (`a2: item`) and, after `->`, the kind\n"
        "a primitive gives, where it is one of these; a literal given or compared there is checked\n"
        "when the rulebook loads, against the names the rulebook declares:\n\n"
        + STD.kinds_markdown()
        + STD.markdown()
    )
