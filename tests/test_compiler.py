"""Compiled code takes shortcuts (definitions and primitives written into
their callers); the values must be those of the plain calls."""

import random
import re

import pytest

import nordlang
from nordlang.lang.compiler import Compiler, Ctx
from nordlang.lang.parser import parse

EXPRESSIONS = [
    "[warriors(p, s) for p in players for s in settlements]",
    "[men_left(p) for p in players]",
    "[(kind(t), tag(t)) for t in items(hand(player))]",
    "[piece_at(s) for s in spaces]",
    "[land(s) for s in spaces if region_of(s) != none]",
    "player",
    "challenge_targets(player)",
    "challenge_targets(1)",
    "placements(player, none)",
]


def _compiled(rules, text, inline):
    c = Compiler(rules.names)
    c.inline = inline
    fn = c.expr(parse(text, "expr"), frozenset())
    assert not c.errors
    return fn, c


def _same_over_games(rules, fast, slow, games):
    """fast and slow agree at every decision of random games."""
    compared = 0
    for seed in range(games):
        g = nordlang.Game(rules, seed)
        rng = random.Random(seed)
        while not g.over:
            ctx = Ctx(g.state, rules)
            assert fast(ctx) == slow(ctx)
            compared += 1
            g.play_index(rng.randrange(len(g.state.pending.options)))
    assert compared > 100


@pytest.mark.parametrize("text", EXPRESSIONS)
def test_inlined_code_gives_the_values_of_calls(text):
    rules = nordlang.load_rules(players=3)
    fast, c = _compiled(rules, text, True)
    slow, _ = _compiled(rules, text, False)
    _same_over_games(rules, fast, slow, 3)


def test_small_definitions_and_primitives_are_inlined():
    """The shortcut is taken (else the test above compares a thing with itself)."""
    rules = nordlang.load_rules(players=3)
    _, c = _compiled(rules, "[warriors(p, s) for p in players for s in settlements]", True)
    assert c.inlined
    _, c = _compiled(rules, "[warriors(p, s) for p in players for s in settlements]", False)
    assert not c.inlined
    funcs = rules.names.funcs
    assert "warriors" in funcs["challenge_targets"].inlines and "men_left" in funcs["land_groups"].inlines
    for name in ("player", "kind", "tag", "piece_at"):
        assert rules.names.registry.get(name).inline is not None


# one use of every primitive whose value a loop takes without sorting
SEQUENCES = {
    "players": "players", "others": "others(player)", "spaces": "spaces", "neighbors": "neighbors(first(spaces))",
    "surroundings": "surroundings(first(spaces))", "region_spaces": "region_spaces(0)",
    "areas": "areas(occupied_spaces)",
    "structures": 'structures("settlement")', "ports": 'ports(first(structures("settlement")))',
    "items": "items(hand(player))", "occupied_spaces": "occupied_spaces", "open_spaces": "open_spaces(spaces)",
    "slots": "slots(longboat)", "groups": "groups(open_spaces(spaces), 1, 2)",
    "shortest_paths": 'shortest_paths(first(structures("settlement")), at(structures("settlement"), 1))',
    "occupied_by": "occupied_by(player)",
}
# ... and of those of grids (asked of the bundled game with grids)
GRID_SEQUENCES = {"filled_cells": "filled_cells(homeland(player))",
                  "bordering_cells": "bordering_cells(homeland(player))"}


def test_values_looped_over_without_sorting_are_sequences():
    """A loop over a primitive marked `seq` skips the sort that makes set
    order deterministic; so its value must be a tuple or list (never a set)."""
    rules = nordlang.load_rules(players=3)
    marked = {n for n, b in rules.names.registry.items.items() if b.seq}
    assert marked == set(SEQUENCES) | set(GRID_SEQUENCES)
    fns = {n: _compiled(rules, text, True)[0] for n, text in SEQUENCES.items()}
    g = nordlang.Game(rules, 1)
    rng = random.Random(1)
    for _ in range(60):
        for n, fn in fns.items():
            assert type(fn(Ctx(g.state, rules))) in (tuple, list), n
        g.play_index(rng.randrange(len(g.state.pending.options)))
    assert rules.names.funcs["settlements"].seq and not rules.names.funcs["reach"].seq
    rules = nordlang.load_rules("vikings", 2)
    fns = {n: _compiled(rules, text, True)[0] for n, text in GRID_SEQUENCES.items()}
    g = nordlang.Game(rules, 1)
    for _ in range(60):
        for n, fn in fns.items():
            assert type(fn(Ctx(g.state, rules))) in (tuple, list), n
        g.play_index(rng.randrange(len(g.state.pending.options)))


@pytest.mark.parametrize("call", ["terrain", "neighbors", "surroundings", "region_of"])
def test_a_space_primitive_names_what_is_not_a_space(call):
    from nordlang.errors import NordError
    rules = nordlang.load_rules(players=2)
    fn, _ = _compiled(rules, f"{call}(space_of(first(structures(\"settlement\"))) + (40, 40))", True)
    g = nordlang.Game(rules, 1)
    with pytest.raises(NordError) as e:
        fn(Ctx(g.state, rules))
    assert re.match(r"\(\d+, \d+, 40, 40\) is not a space of this board", e.value.message), e.value.message


def test_a_variable_named_like_a_sequence_primitive_is_still_sorted():
    """A set is looped over in sorted order, even in a variable that has the
    name of a primitive known to give sequences."""
    rules = nordlang.load_rules(players=2)
    fn, _ = _compiled(rules, "[x for sorted in [{v for v in [9, 1]}] for x in sorted]", True)
    g = nordlang.Game(rules, 1)
    assert fn(Ctx(g.state, rules)) == (1, 9)


def test_inline_sources_use_every_argument():
    """A primitive's inline source is written in place of the call: an
    argument left out would never be computed (one named twice is written in
    only when it is a name or constant: test_primitive_fast_paths)."""
    from nordlang.lang.builtins import BARE
    rules = nordlang.load_rules(players=2)
    checked = 0
    for name, b in rules.names.registry.items.items():
        if b.inline is None:
            continue
        n = 0 if b.kind == BARE else b.arity[1]
        assert b.kind == BARE or b.arity[0] == n, name             # a fixed number of arguments
        assert sorted(set(re.findall(r"\{(\d+)\}", b.inline))) == [str(i) for i in range(n)], name
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize("body, message", [
    ("frontier([(99, 99)])", "is not a space or port of this board"),
    ("frontier(first([\"nowhere\"]))", "nowhere is not a structure"),   # (a literal is refused when loading)
    ("[terrain(99)]", "99 is not a space of this board"),
    ("connected(first([\"nowhere\"]), first(structures(\"settlement\")))", "nowhere is not a structure"),
    ("connected((99, 99), first(structures(\"settlement\")))", "is not a space, port or structure of this board"),
])
def test_a_bad_board_value_in_a_variant_is_reported_at_its_text(tmp_path, body, message):
    """The error names the file, line and column of the text that failed."""
    from nordlang.errors import NordError
    v = tmp_path / "bad.yaml"
    v.write_text("description: a definition handed something that is not on the board\n"
                 "extends: nord\npatch:\n  define:\n"
                 f"    reach(p): '{body}'\n")
    rules = nordlang.load_rules(players=2, variants=[str(v)])
    with pytest.raises(NordError) as e:
        g = nordlang.Game(rules, 1)
        while g.choice == "start":          # the starting settlements come before the first turn
            g.play_index(0)
    assert message in e.value.message
    pos = e.value.pos
    assert pos.file.endswith("bad.yaml") and pos.line == 5 and pos.col > 1


def test_pythons_warnings_on_generated_code_do_not_reach_the_user(tmp_path):
    """tag(5) compiles to 5[1]: Python's SyntaxWarning about it was printed
    by validate (three times) in Python's words."""
    import warnings
    v = tmp_path / "w.yaml"
    v.write_text("description: x\nextends: nord\npatch:\n  define:\n    warrior_points(n): 'n * n + tag(5)'\n")
    from nordlang.errors import NordError
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(NordError) as e:         # (a literal is no item: refused in nordlang's words)
            nordlang.load_rules(players=2, variants=[str(v)])
    assert [str(w.message) for w in caught] == []
    assert e.value.message == "5 is not an item (argument 1 of tag())"


@pytest.mark.parametrize("text, mode, message, hint", [
    ("n => 2", "expr", "unexpected '='", "'greater or equal' is '>=', 'less or equal' is '<=' (not '=>')"),
    ("kind = 1", "expr", "unexpected '='", "compare with '==', not '='"),
    ('note("a"); x = 1', "effects", "unexpected '='", "to name a value write 'let x = ...'; to compare, '=='"),
    ("len(1 + )", "expr", "operator '+' without operand", None),
    ("[1 and ]", "expr", "operator 'and' without operand", None),
    ("len(1))", "expr", "unbalanced ')': nothing to close here", None),
    ("  ", "expr", "the text is empty", "write an expression here, like 'true' or 'len(xs) > 0'"),
])
def test_parse_errors_say_what_was_probably_meant(text, mode, message, hint):
    from nordlang.errors import LangError
    with pytest.raises(LangError) as e:
        parse(text, mode)
    assert (e.value.message, e.value.hint) == (message, hint)


@pytest.mark.parametrize("text, message, hint", [
    ('connected(first(spaces), "nosuch")', "'nosuch' is not a structure of this board (argument 2 of connected())",
     None),
    ('len(connected_pairs("setlement"))', "'setlement' is not a structure kind (argument 1 of connected_pairs())",
     "did you mean 'settlement'?"),
    ('amount(supply("blue"), man())', "'blue' is not a player (argument 1 of supply())",
     "a player is a number in turn order; blue is 1"),
    ("points(true)", "true is not a player (argument 1 of points())", "a player is a number in turn order, from 0"),
    ("owner(5)", "5 is not an item (argument 1 of owner())", "an item is made by its kind, like "),
    ("amount(fleet, kind(piece_at(first(spaces))))",
     "this gives the name of a piece kind, but argument 2 of amount() is an item", "kind(...) gives the name"),
    ("[s for s in spaces if piece_at(s) == player]", "this compares an item with a player: it is never true",
     "the player an item belongs to is owner(...)"),
    ('[s for s in spaces if piece_at(s) == "boat"]', "'boat' is not an item, so this comparison is never true",
     "to compare an item's kind, write kind(...) == 'boat'"),
    ('player != "green"', "'green' is not a player, so this comparison is never true",
     "a player is a number in turn order; green is 3"),
    ('space("c99")', "'c99' is not a space of this board (argument 1 of space())", "did you mean 'c9'?"),
])
def test_a_literal_of_the_wrong_kind_of_value_is_an_error_when_loading(text, message, hint):
    """Primitives declare the kind of value each argument takes and they
    give; a literal there that can never be one is an error at its text."""
    rules = nordlang.load_rules(players=3)
    c = Compiler(rules.names)
    c.expr(parse(text, "expr"), frozenset())
    assert [e.message for e in c.errors] == [message]
    err = c.errors[0]
    assert (hint is None and err.hint is None) or (hint is not None and err.hint.startswith(hint)), err.hint
    assert text[err.pos.col - 1:].startswith(("'", '"', "true", "5", "kind", "piece_at", "player")), err.pos


@pytest.mark.parametrize("text", [
    'connected(first(spaces), "X")', 'len(connected_pairs("settlement"))', "amount(supply(2), man(1))",
    "points(3)", "owner(piece_at(first(spaces))) == player", 'kind(piece_at(first(spaces))) == "boat"',
    "owner(piece_at(first(spaces))) == none", 'space("c4")', 'move_all(first(spaces), fleet, none)',
])
def test_literals_of_the_right_kind_of_value_load(text):
    rules = nordlang.load_rules(players=3)
    c = Compiler(rules.names)
    if text.startswith("move_all"):
        c.block(parse(text, "effects"), frozenset())
    else:
        c.expr(parse(text, "expr"), frozenset())
    assert c.errors == []


def _value(text):
    """The value of an expression in the first position of a 2-player game (a NordError raised)."""
    rules = nordlang.load_rules(players=2)
    fn, _ = _compiled(rules, text, True)
    return fn(Ctx(nordlang.Game(rules, 1).state, rules))


@pytest.mark.parametrize("text, value", [
    ("2 and 5", True), ("0 or none", False), ("1 and [1]", True), ("[] or 0", False), ("3 or 0", True),
    ("[2 and 5, 0 or 7]", (True, True)), ("(true and false) == false", True),
    ("[x for x in [0, 1, 2] if x and true]", (1, 2)), ("if 0 or 2 then 1 else 2", 1),
    ("any(x and y for x in [1] for y in [0, 3])", True),
    ("count(x > 0 for x in [1, -1, 2])", 2), ("count(x for x in [0, 1] if x < 5)", 2), ("count([0, false])", 1),
    ("7 % 3 * 2", 2), ("2 * -3", -6), ('"a" + "b"', "ab"), ("[1] + [2]", (1, 2)),
])
def test_operators_have_nordlangs_meaning(text, value):
    """`and`/`or` give true or false (Python's give an operand), count(gen)
    counts the true or kept items; see 'Values and operators' in the reference."""
    got = _value(text)
    assert got == value and type(got) is type(value), (got, value)


@pytest.mark.parametrize("text, message", [
    ('"a" * 3', "* multiplies numbers, not a text"),
    ("3 * [1]", "* multiplies numbers, not a list"),
    ('"%d" % 5', "% gives the remainder of numbers, not a text"),
    ("[1, 2][-1]", "index -1 is below 0: items are counted from 0"),
    ('"abc"[1]', "a text has no items: it cannot be indexed"),
])
def test_pythons_meanings_of_operators_are_refused_when_loading(text, message):
    rules = nordlang.load_rules(players=2)
    c = Compiler(rules.names)
    c.expr(parse(text, "expr"), frozenset())
    assert [e.message for e in c.errors] == [message]


@pytest.mark.parametrize("text, message", [
    ('first(["a"]) * 3', "wrong kind of value: cannot use * on a text and a number"),
    ("3 * first([[1]])", "wrong kind of value: cannot use * on a number and a tuple"),
    ('first(["%d"]) % 5', "wrong kind of value: cannot use % on a text and a number"),
    ("[1, 2][first([-1])]", "index -1 out of range (0..1)"),
    ('first(["abc"])[1]', "wrong kind of value: a text cannot be indexed"),
    ("at([1, 2, 3], first([-1]))", "at() counts items from 0, not from -1"),
])
def test_pythons_meanings_of_operators_are_errors_when_running(text, message):
    """Values only known when the rule runs: an error, not a repeated text,
    a formatted text, an item counted from the end or a character."""
    from nordlang.errors import NordError
    with pytest.raises(NordError) as e:
        _value(text)
    assert e.value.message == message


def test_a_memo_that_is_never_answered_is_dropped_after_its_trial(monkeypatch):
    """Placements asked once per position stop paying for a memo; a
    definition asked twice per position keeps it; the values are the same."""
    from nordlang.rules import build

    monkeypatch.setattr(build, "_CACHE", {})      # rules of its own, with no calls made yet
    rules = nordlang.load_rules(players=4)
    placements, reach = rules.names.funcs["placements"], rules.names.funcs["reach"]
    assert placements.call is not placements.py and reach.call is not reach.py     # memoised, on trial
    g = nordlang.Game(rules, 1)
    want = placements.py(Ctx(g.state, rules), 0, None)
    assert len(want) > 5
    for _ in range(600):
        g.state.fresh()                       # a new position each time: the memo never answers
        ctx = Ctx(g.state, rules)
        assert placements.call(ctx, 0, None) == want
        assert reach.call(ctx, 0) is reach.call(ctx, 0)     # the second answered by the memo
    assert placements.call is placements.py
    assert reach.call is not reach.py


FUSED = [
    ("groups(open_spaces(land_spaces), 1, 3, reach(player), 1)",
     "let o = open_spaces(land_spaces) in groups(o, 1, 3, reach(player), 1)"),
    ("groups(open_spaces(sea_spaces), 1, 2, reach(player))",
     "let o = open_spaces(sea_spaces) in groups(o, 1, 2, reach(player))"),
    ("groups(open_spaces(spaces), 2, 2)", "let o = open_spaces(spaces) in groups(o, 2, 2)"),
    ("groups(open_spaces([s for s in spaces if land(s)]), 1, 2, occupied_spaces)",
     "let o = open_spaces([s for s in spaces if land(s)]) in groups(o, 1, 2, occupied_spaces)"),
    ("groups(open_spaces(set(land_spaces)), 1, 1)", "let o = open_spaces(set(land_spaces)) in groups(o, 1, 1)"),
]


@pytest.mark.parametrize("fused,apart", FUSED)
def test_groups_of_open_spaces_made_on_masks_are_the_same(fused, apart):
    """groups(open_spaces(x), ...) is compiled to one call that never lists
    the open spaces; its value is that of the two calls apart."""
    rules = nordlang.load_rules(players=4)
    fast, c = _compiled(rules, fused, True)
    assert "_groups_of_open" in {getattr(v, "__name__", None) for v in c.env.values()}
    slow, c2 = _compiled(rules, apart, True)
    assert "_groups_of_open" not in {getattr(v, "__name__", None) for v in c2.env.values()}
    _same_over_games(rules, fast, slow, 2)


def test_groups_of_open_spaces_of_no_collection_fails_as_apart():
    """The error is open_spaces' own, placed at its text."""
    rules = nordlang.load_rules(players=4)
    g = nordlang.Game(rules, 0)
    errors = []
    for text in ("groups(open_spaces(turn), 1, 2)", "open_spaces(turn)"):
        fn, _ = _compiled(rules, text, True)
        with pytest.raises(nordlang.NordError) as e:
            fn(Ctx(g.state, rules))
        errors.append((e.value.message, e.value.pos.col))
    assert errors == [("wrong kind of value: a number is not a collection", 8),
                      ("wrong kind of value: a number is not a collection", 1)]
