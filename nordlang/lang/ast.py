"""The nordlang syntax tree: frozen dataclasses that keep their position.

`line` and `col` are 1-based inside the source string; the rule loader maps
them to the YAML file, so every later error can point at the exact text.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Node:
    line: int
    col: int
    end_col: int
    end_line: int


# ---- expressions ----
@dataclass(frozen=True)
class Const(Node):
    value: object


@dataclass(frozen=True)
class Name(Node):
    id: str


@dataclass(frozen=True)
class TupleX(Node):
    items: tuple


@dataclass(frozen=True)
class ListX(Node):
    items: tuple


@dataclass(frozen=True)
class CompFor(Node):
    target: tuple          # names bound
    iter: Node
    conds: tuple


@dataclass(frozen=True)
class Comp(Node):
    kind: str              # "list" | "set" | "gen"
    elt: Node
    fors: tuple            # CompFor...


@dataclass(frozen=True)
class Call(Node):
    func: Node
    args: tuple
    gen: Comp | None = None


@dataclass(frozen=True)
class Index(Node):
    obj: Node
    key: Node


@dataclass(frozen=True)
class Attr(Node):
    obj: Node
    name: str


@dataclass(frozen=True)
class BinOp(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Neg(Node):
    operand: Node


@dataclass(frozen=True)
class Not(Node):
    operand: Node


@dataclass(frozen=True)
class BoolOp(Node):
    op: str                # "and" | "or"
    left: Node
    right: Node


@dataclass(frozen=True)
class IfElse(Node):
    cond: Node
    then: Node
    orelse: Node


@dataclass(frozen=True)
class LetIn(Node):
    bindings: tuple        # ((name, expr), ...)
    body: Node


# ---- statements (effects) ----
@dataclass(frozen=True)
class CallStmt(Node):
    name: str
    args: tuple
    gen: Comp | None = None


@dataclass(frozen=True)
class ForStmt(Node):
    target: tuple
    iter: Node
    body: tuple


@dataclass(frozen=True)
class IfStmt(Node):
    branches: tuple        # ((cond, body), ...)
    orelse: tuple | None


@dataclass(frozen=True)
class LetStmt(Node):
    name: str
    value: Node


def walk(node):
    """Yield node and every node below it, in order (through tuples of
    any depth: an if statement's branches are (condition, body) pairs); of
    a tuple (a rulebook text's effects), every node of its items."""
    if node.__class__ is tuple:
        yield from _walk_items(node)
        return
    yield node
    for value in node.__dict__.values():
        if isinstance(value, Node):
            yield from walk(value)
        elif isinstance(value, tuple):
            yield from _walk_items(value)


def _walk_items(items):
    for v in items:
        if isinstance(v, Node):
            yield from walk(v)
        elif isinstance(v, tuple):
            yield from _walk_items(v)
