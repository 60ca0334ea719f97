"""An entry of a constant table is read in place (Shortcuts._in_table):
for a key that is a text or a whole number the table holds, no call; for
any other key (one it lacks, a truth, none, a list) _index, with its value
or its error as before. On Vikings: start_coins is keyed by numbers of
players, row_of by colours (gray's row is none)."""

import pytest

import nordlang
from nordlang.errors import EvalError
from nordlang.lang.compiler import Compiler
from nordlang.lang.parser import parse


@pytest.fixture(scope="module")
def game():
    return nordlang.Game(nordlang.load_rules("vikings", 4), 1)


def _value(game, text, calls=None):
    """The value of an expression; `calls` (a list) gets the keys _index is asked."""
    c = Compiler(game.rules.names, text=text)
    if calls is not None:
        index = c.env["_index"]
        c.env["_index"] = lambda o, k, pos=None: calls.append(k) or index(o, k, pos)
    fn = c.expr(parse(text, "expr"), frozenset())
    assert not c.errors
    return fn(game.rules.ctx(game.state))


@pytest.mark.parametrize("text, value", [
    ("start_coins[4]", 20), ("let n = 2 in start_coins[n]", 30), ('let c = "red" in row_of[c]', 2),
    ('let c = "gray" in row_of[c]', None), ('[row_of[c] for c in ["black", "blue"]]', (1, 5)),
])
def test_an_entry_is_read_without_a_call(game, text, value):
    calls = []
    assert _value(game, text, calls) == value
    assert calls == []


@pytest.mark.parametrize("text, value", [("let n = true in start_coins[n]", None), ("start_coins[2.0]", 30)])
def test_other_keys_ask_index(game, text, value):
    calls = []
    if value is None:
        with pytest.raises(EvalError):
            _value(game, text, calls)
    else:
        assert _value(game, text, calls) == value
    assert len(calls) == 1


@pytest.mark.parametrize("key, message, col", [
    ('"pink"', "no entry 'pink' in this table", 26), ("5", "no entry 5 in this table", 21),
    ("none", "no entry None in this table", 24), ("[1]", "no entry (1,) in this table", 23),
    ("start_coins", "no entry {2: 30, 3: 25, 4: 20} in this table", 31)])
def test_what_a_table_lacks_fails_as_before(game, key, message, col):
    """The messages and places of the engine before tables were read in place."""
    with pytest.raises(EvalError) as e:
        _value(game, f"let k = {key} in row_of[k]")
    assert (e.value.message, e.value.hint, e.value.pos.col) == \
        (message, "entries: black, red, green, yellow, blue, gray", col)
