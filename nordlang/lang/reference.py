"""The language reference, generated from the grammar and the primitive registry."""

from __future__ import annotations

from importlib.resources import files


def reference() -> str:
    from ..engine.library import STD
    grammar = files("nordlang.lang").joinpath("grammar.lark").read_text(encoding="utf-8")
    return (
        "# nordlang reference\n\n"
        "Expressions compute values; effects (statements) change the game. Every loop runs over a\n"
        "finite collection and there is no recursion, so every rule terminates.\n\n"
        "## Grammar\n\n```lark\n" + grammar.strip() + "\n```\n\n"
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
