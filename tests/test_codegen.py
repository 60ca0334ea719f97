"""Shortcuts of the generated code (lang/expressions.py): operations on
numbers the text knows worked out when compiling, a field of a constant
table's entries looked up in one table, loops over pairs bound without a
check, plain operators where one side is a count. Each gives the value,
and the error, of the code it replaces (the values and messages here are
those of the engine before the shortcuts)."""

import pytest

import nordlang
from nordlang.errors import NordError
from nordlang.lang.compiler import Compiler, Ctx
from nordlang.lang.parser import parse


def _value(text):
    rules = nordlang.load_rules("vikings", 2)
    c = Compiler(rules.names)
    fn = c.expr(parse(text, "expr"), frozenset())
    assert not c.errors, c.errors
    try:
        return ("value", fn(Ctx(nordlang.Game(rules, 1).state, rules)))
    except NordError as e:
        return ("error", e.message)


@pytest.mark.parametrize("text, value", [
    ("first_column + ship_front", 4), ("ship_front * 2 - first_column", 5), ("ship_front / 2", 1.5),
    ("ship_front // 2", 1), ("ship_front % 2", 1), ("first_column < ship_front", True),
    ("ship_front == 3.0", True), ("-ship_front + 1", -2),
    ('edges["left"].right', "land"), ('[edges[t].left for t in ["right", "smithy"]]', ("land", "land")),
    ("[i * 10 for i, x in enumerate([5, 6])]", (0, 10)), ("[x for i, x in enumerate([5, 6]) if i == 1]", (6,)),
    ("[i for i, x in slots(wheel_tiles)]", tuple(range(12))), ("[x for x in range(3) if x + 1 == 2]", (1,)),
    ("[total(purse(p)) + 1 for p in players]", (31, 31)), ("[row(c) + 1 for c in start_cells(0)]", (2, 3, 4, 5, 6)),
    ("let j = 3 in [x for i, x in enumerate([4, 5]) if i == j - 2]", (5,)),
])
def test_shortcuts_give_the_values_of_the_code_they_replace(text, value):
    got = _value(text)
    assert got == ("value", value) and type(got[1]) is type(value), got


def test_shortcuts_are_taken():
    c = Compiler(nordlang.load_rules("vikings", 2).names)
    src = []
    for text in ["first_column + ship_front", 'let k = "left" in edges[k].right', "[i for i, x in enumerate([5])]",
                 "[total(purse(p)) == p for p in players]"]:
        c._function = lambda body, where, args="", src=src: src.append(body) or (lambda ctx: None)   # (its code)
        c.expr(parse(text, "expr"), frozenset())
    folded, projected, pairs, count = src
    assert folded == "return (4)"
    assert "_attr" not in projected and "_index" in projected
    assert "_unpack" not in pairs
    assert "_eq" not in count


@pytest.mark.parametrize("text, message", [
    ('let k = "nope" in edges[k].left', "no entry 'nope' in this table"),
    ("let k = [[1]] in edges[k].left", "no entry ((1,),) in this table"),
    ("ship_front // 0", "division by zero"),
    ("ship_front / 0", "division by zero"),
    ("[i for i, x in enumerate(5)]", "wrong kind of value: a number is not a collection"),
])
def test_shortcuts_fail_as_the_code_they_replace(text, message):
    got = _value(text)
    assert got[0] == "error" and message in got[1], got
