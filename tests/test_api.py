"""The Python API checks its arguments: a clear TypeError/ValueError for a
value of the wrong kind, a NordError for one the rules refuse, never a raw
Python error from deep inside, and a refused move leaves the game as it was."""

import pytest
from helpers import past_setup

import nordlang
from nordlang import Game, Move, load, load_rules, parse
from nordlang.engine.game import canonical_option
from nordlang.errors import IllegalMove, LoadError, UsageError

RANGE = "this rulebook is for 2 to 4 players, not "


@pytest.fixture(scope="module")
def rules():
    return load_rules(players=2)


def at_placement():
    """A 2-player game where the pending choice offers sets of spaces."""
    game = past_setup(load(players=2, seed=1))
    game.play_index(1)
    assert game.choice == "place"
    return game


@pytest.mark.parametrize("index, error, message", [
    (999, IllegalMove, "option 999 is not allowed: the pending choice 'play' has 3 options, numbered 0 to 2"),
    (4, IllegalMove, "option 4 is not allowed: the pending choice 'play' has 3 options, numbered 0 to 2"),
    (-1, IllegalMove, "option -1 is not allowed: the pending choice 'play' has 3 options, numbered 0 to 2"),
    ("a", TypeError, "an option's index must be a whole number, not str ('a')"),
    (True, TypeError, "an option's index must be a whole number, not bool (True)"),
    (1.0, TypeError, "an option's index must be a whole number, not float (1.0)"),
    (None, TypeError, "an option's index must be a whole number, not NoneType (None)"),
])
def test_play_index_refuses_what_is_no_option_and_changes_nothing(index, error, message):
    game = past_setup(load(players=2, seed=1))
    before = ([str(m) for m in game.legal_moves()], len(game.state.history), game.state.turn)
    with pytest.raises(error) as e:
        game.play_index(index)
    assert (e.value.message if error is IllegalMove else str(e.value)) == message
    assert ([str(m) for m in game.legal_moves()], len(game.state.history), game.state.turn) == before
    game.play_index(2)                   # the game goes on as if nothing happened
    assert len(game.state.history) == before[1] + 1


def test_play_index_after_the_end_says_the_game_is_over():
    game = load(players=2, seed=3)
    while not game.over:
        game.play_index(0)
    with pytest.raises(IllegalMove) as e:
        game.play_index(0)
    assert e.value.message == "option 0 is not allowed: the game is over"


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(players="3"), TypeError, "players must be a whole number or None, not str ('3')"),
    (dict(players=2.0), TypeError, "players must be a whole number or None, not float (2.0)"),
    (dict(players=True), TypeError, "players must be a whole number or None, not bool (True)"),
    (dict(players=10 ** 30), UsageError, RANGE + str(10 ** 30)),
    (dict(players=-1), UsageError, RANGE + "-1"),
    (dict(players=0), UsageError, RANGE + "0"),
    (dict(seed="abc"), TypeError, "a seed must be a whole number, not str ('abc')"),
    (dict(seed=1.5), TypeError, "a seed must be a whole number, not float (1.5)"),
    (dict(seed=None), TypeError, "a seed must be a whole number, not NoneType (None)"),
    (dict(seed=False), TypeError, "a seed must be a whole number, not bool (False)"),
    (dict(seed=-1), ValueError, "a seed must be 0 or more, not -1"),
    (dict(variants=[3]), TypeError, "a variant is a bundled name or a path, not int (3)"),
    (dict(variants={"no-storm"}), TypeError, "variants must be a list of bundled names or paths, not set"),
    (dict(variants=7), TypeError, "variants must be a list of bundled names or paths, not int"),
    (dict(variants="nostorm"), LoadError, "unknown variant 'nostorm'"),
    (dict(rulebook=3), TypeError, "a rulebook is a path (text or a Path) or None, not int"),
])
def test_load_refuses_bad_arguments_plainly(kwargs, error, message):
    with pytest.raises(error) as e:
        load(**kwargs)
    got = e.value.message if isinstance(e.value, nordlang.NordError) else str(e.value)
    assert got == message
    if "seed" not in kwargs:     # load_rules takes the same arguments but the seed, and checks them alike
        with pytest.raises(error) as e:
            load_rules(**kwargs)


def test_one_variant_name_alone_is_a_list_of_one_and_none_is_none():
    assert load(players=2, variants="no-storm").rules is load(players=2, variants=["no-storm"]).rules
    assert load(players=2, variants=None).rules is load(players=2).rules
    assert load_rules(players=2, variants="no-storm").digest != load_rules(players=2).digest


def test_a_seed_of_any_size_is_a_seed():
    assert load(players=2, seed=10 ** 30).seed == 10 ** 30


@pytest.mark.parametrize("args, error, message", [
    (("rules",), TypeError, "Game needs compiled rules (nordlang.load_rules()), not str"),
    ((None,), TypeError, "Game needs compiled rules (nordlang.load_rules()), not NoneType"),
    (("RULES", "x"), TypeError, "a seed must be a whole number, not str ('x')"),
    (("RULES", -5), ValueError, "a seed must be 0 or more, not -5"),
    (("RULES", 0, "state"), TypeError, "a Game's state must be a State, not str"),
])
def test_game_checks_its_arguments(rules, args, error, message):
    args = tuple(rules if a == "RULES" else a for a in args)
    with pytest.raises(error) as e:
        Game(*args)
    assert str(e.value) == message


def test_a_clone_plays_on_alone():
    game = at_placement()
    copy = game.clone()
    copy.play(copy.legal_moves()[0])
    assert game.choice == "place" and copy.choice != "place"


# ---------------------------------------------------------------- moves: one text form

def test_moves_naming_a_set_in_any_order_are_equal_and_hash_alike():
    a, b = parse("place d2, c2"), parse("place c2,d2")
    assert a == b and hash(a) == hash(b) and str(a) == "place c2,d2"
    assert parse("place  c10 ,c9,b3 ") == Move("place", "b3,c9,c10")       # numbers read as numbers
    assert str(parse("place c10,c9,b3")) == "place b3,c9,c10"


def test_a_move_written_in_another_order_is_among_the_legal_moves_and_plays():
    game = at_placement()
    legal = game.legal_moves()
    pair = next(m for m in legal if "," in m.option)
    first, second = pair.option.split(",")
    written = parse(f"place {second} , {first}")
    assert written in legal and written in set(legal)
    assert str(written) == str(pair)
    n = len(game.state.history)
    game.play(f"place {second}, {first}")
    assert game.state.history[n][2:4] == ("place", pair.option)


@pytest.mark.parametrize("text, canonical", [
    ("c2", "c2"),
    (" c2 ", "c2"),
    ("d2,c2", "c2,d2"),
    ("d2 , c2", "c2,d2"),
    ("c10,c9", "c9,c10"),
    ("warrior:red,jarl:blue", "jarl:blue,warrior:red"),
    ("yes, go on", "yes, go on"),            # a label in words, not a list of names: as written
    ("(2, 2, 40, 40)", "(2, 2, 40, 40)"),    # an ordered value keeps its order
    ("{b: 1, a: 2}", "{b: 1, a: 2}"),
    ("c2-c3", "c2-c3"),
    ("c2,,c3", "c2,,c3"),
    ("pass turn", "pass turn"),
])
def test_option_texts_are_made_canonical_only_where_they_name_a_set(text, canonical):
    assert canonical_option(text) == canonical


def test_every_option_the_engine_writes_is_already_canonical():
    game = load(players=3, seed=5)
    seen = 0
    while not game.over and seen < 400:
        for m in game.legal_moves():
            assert canonical_option(m.option) == m.option == game.state.pending.texts[game.legal_moves().index(m)]
        game.play_index(len(game.legal_moves()) // 2)
        seen += 1
    assert seen > 20


@pytest.mark.parametrize("args, message", [
    ((3, "c2"), "a Move's choice must be text, not int"),
    (("place", None), "a Move's option must be text, not NoneType"),
])
def test_a_move_is_made_of_text(args, message):
    with pytest.raises(TypeError) as e:
        Move(*args)
    assert str(e.value) == message


@pytest.mark.parametrize("value, message", [
    (5, "a move is text like 'place c3,c4', not int"),
    ("place", "bad move notation 'place'"),
    ("", "bad move notation ''"),
])
def test_parse_refuses_what_is_no_move(value, message):
    with pytest.raises(IllegalMove) as e:
        parse(value)
    assert e.value.message == message


def test_play_refuses_a_move_of_the_wrong_kind_and_changes_nothing():
    game = at_placement()
    n = len(game.state.history)
    with pytest.raises(IllegalMove) as e:
        game.play(3.5)
    assert e.value.message == "a move is a Move or text like 'place c3,c4', not float"
    with pytest.raises(IllegalMove) as e:
        game.play("place z99")
    assert "'z99' is not one of the" in e.value.message
    assert len(game.state.history) == n and game.choice == "place"


def test_a_blank_inside_a_word_names_no_option():
    """Blanks beside punctuation are forgiven ('c2, d2'); a blank inside a
    word is not: 'play he lmet' is no 'play helmet' (found by fuzzing)."""
    game = nordlang.load(players=2, seed=1)
    word = next(m for m in game.legal_moves() if len(m.option) > 2 and m.option.isalpha())
    split = f"{word.choice} {word.option[:2]} {word.option[2:]}"
    with pytest.raises(IllegalMove, match="is not one of"):
        game.clone().play(split)
    game.play(f"  {word.choice}   {word.option} ")        # blanks around it are fine


def test_a_digit_that_is_no_decimal_is_no_number_in_a_move():
    """'²' is a digit to str.isdigit but no number: a move naming it is refused
    cleanly, never a ValueError from sorting (found by fuzzing)."""
    move = nordlang.parse("place c3²,c4")
    assert move.option == "c3²,c4"
    game = nordlang.load(players=2, seed=1)
    with pytest.raises(IllegalMove):
        game.play(move)


def test_legal_moves_are_made_only_when_read():
    """len() of legal_moves() builds no Move and no option text; an index builds one; the
    sequence compares equal to the list of the same moves."""
    g = nordlang.load("hex", seed=1)
    moves = g.legal_moves()
    assert len(moves) == 121 and g.state.pending._texts is None          # no text made yet
    assert moves[0] == nordlang.Move("place", "a1") and moves[-1] == nordlang.Move("place", "k11")
    assert g.state.pending._texts is None
    assert moves == list(moves) and list(moves)[5] == moves[5] and moves[1:3] == [moves[1], moves[2]]
    assert moves != [] and str(moves[2]) == "place c1"
    with pytest.raises(IndexError):
        moves[121]
    g.play(moves[3])
    assert g.legal_moves() != moves and len(g.legal_moves()) == 120
