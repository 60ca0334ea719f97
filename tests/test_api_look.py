"""Looking at a position from Python, through the README's API alone:
game.evaluate, game.look(player) and its space, zone, points, ranking,
value and show; errors are NordErrors that name what is wrong."""

from pathlib import Path

import pytest

import nordlang
from nordlang import NordError


def tictactoe(moves=("place a1", "place b2", "place b1", "place a3")):
    game = nordlang.load("tictactoe")
    for m in moves:
        game.play(m)
    return game


def nord():
    game = nordlang.load("nord", players=2, seed=1)
    for m in ["play none", "place c6", "play none", "place d9"]:
        game.play(m)
    return game


def error(fn) -> NordError:
    with pytest.raises(NordError) as e:
        fn()
    return e.value


# ---------------- expressions ----------------
def test_evaluate_reads_the_position_and_the_rulebooks_definitions():
    game = tictactoe()
    assert game.evaluate("len(open_spaces(spaces))") == 5
    assert game.evaluate("open_spaces(spaces)") == ("c1", "a2", "c2", "b3", "c3")
    assert game.evaluate("occupied_by(p)", p=0) == ("a1", "b1")
    assert game.evaluate("occupied_by(p)", p=1) == ("b2", "a3")      # the same text, another binding
    assert game.evaluate("won(p)", p=0) is False
    assert game.evaluate("line") == 3                                   # a constant
    assert game.evaluate("player") == 0                                 # red to move
    assert game.evaluate("points(0)") == 0
    game.play("place c1")
    assert game.evaluate("won(0)") is True
    assert game.evaluate("points(0)") == 1


def test_values_come_back_plain():
    game = tictactoe()
    assert game.evaluate("space(s)", s="c3") == "c3"                    # a space by name, in and out
    assert game.evaluate("set(occupied_by(0))") == frozenset({"a1", "b1"})
    assert game.evaluate("items(supply(1))") == ("mark:blue",)
    assert game.evaluate("supply(1)") == "supply(blue)"
    assert game.evaluate('"x"') == "x" and game.evaluate("none") is None
    assert game.evaluate("[n * 2 for n in xs]", xs=[1, 5, 7]) == (2, 10, 14)
    assert game.evaluate("[len(s), 3 in s, 5 in s]", s={3, 4}) == (2, True, False)
    look = game.look()
    assert look.value("occupied_by(0)") == ((0, 0), (0, 1))           # as the engine holds it
    assert look.show("occupied_by(0)") == "(a1, b1)"                    # as logs write it
    assert look.evaluate("occupied_by(0)") == ("a1", "b1")


def test_the_look_at_a_space_and_a_zone():
    look = tictactoe().look()
    assert look.space("a1") == {"mark:red": 1}
    assert look.space("b2") == {"mark:blue": 1}
    assert look.space("c3") == {}
    assert look.zone("supply", "red") == {"mark:red": 3}
    assert look.zone("supply", 1) == {"mark:blue": 3}
    assert look.zone("supply", "blue") == look.zone("supply", 1)


def test_a_nord_position_by_names():
    game = nord()
    look = game.look()
    assert look.space("c6") == {"man:red": 1}
    assert look.space("d9") == {"man:blue": 1}
    assert look.space("d4") == {"goblet": 1}               # an item shown by its tag, as the rulebook says
    assert look.zone("supply", "red") == {"man:red": 22}
    assert look.zone("fleet") == {"boat": 6}                # a shared pool
    assert look.zone("longboat") == ("jarl:yellow", "jarl:green") + (None,) * 8     # a track, by slot
    assert len(look.zone("treasures")) == 24               # a deck, in order
    assert look.zone("hand", "red") == {"goblet": 1, "gold": 1, "hammer": 1, "sword": 1}
    assert game.evaluate("occupied_by(p)", p=1) == ("d9",)


def test_points_and_ranking_by_colour():
    game = tictactoe()
    assert game.look().points() == {"red": 0, "blue": 0}
    game.play("place c1")
    look = game.look()
    assert look.points() == {"red": 1, "blue": 0}
    assert look.points("red") == 1 and look.points(0) == 1 and look.points("blue") == 0
    assert look.ranking() == {"red": (1,), "blue": (0,)}
    assert nord().look().ranking() == {"red": (0, 4), "blue": (0, 3)}


def test_a_look_is_a_snapshot():
    game = tictactoe()
    look = game.look()
    game.play("place c1")
    assert look.space("c1") == {} and look.points("red") == 0
    assert game.look().space("c1") == {"mark:red": 1}


# ---------------- hidden information ----------------
def test_a_player_sees_what_he_may_and_the_referee_all():
    poker = nordlang.load("kuhn-poker", seed=3)
    red, blue, referee = poker.look("red"), poker.look(1), poker.look()
    assert red.zone("hand", "red") == {"card:queen": 1}
    assert red.zone("hand", "blue") == {"card:?": 1}
    assert blue.zone("hand", "red") == {"card:?": 1}
    assert blue.zone("hand", "blue") == {"card:king": 1}
    assert referee.zone("hand", "blue") == {"card:king": 1}
    assert poker.look(None).zone("deck") == ("card:jack",)
    assert red.zone("deck") == blue.zone("deck") == ("card:?",)
    assert red.zone("pot", "blue") == {"chip": 1}                    # open to all
    # expressions on a player's look see what he sees
    assert red.evaluate("[tag(card_of(p)) for p in players]") == ("queen", "?")
    assert blue.evaluate("[tag(card_of(p)) for p in players]") == ("?", "king")
    assert poker.evaluate("[tag(card_of(p)) for p in players]") == ("queen", "king")   # the referee
    assert poker.look(0).zone("hand", 1) == red.zone("hand", "blue")


def test_what_a_player_cannot_see_cannot_be_read_through_his_look():
    poker = nordlang.load("kuhn-poker", seed=3)
    assert poker.evaluate("[value(0), value(1)]") == (2, 3)          # the referee: queen, king
    assert poker.look("blue").evaluate("value(1)") == 3
    e = error(lambda: poker.look("red").evaluate("value(0) +\n value(1)"))
    assert "no entry '?' in this table" in e.message
    assert "called from <expression>:2:2" in e.format()


def test_a_nord_hand_is_hidden_from_the_other_player():
    game = nord()
    assert game.look("blue").zone("hand", "red") == {"treasure:?": 4}
    assert game.look("red").zone("hand", "red") == {"goblet": 1, "gold": 1, "hammer": 1, "sword": 1}
    assert game.look("red").zone("treasures")[:2] == ("treasure:?", "treasure:?")


# ---------------- errors ----------------
def test_an_expression_that_does_not_parse():
    e = error(lambda: tictactoe().evaluate("points(0"))
    assert type(e).__name__ == "LangError"
    assert (e.pos.line, e.pos.col) == (1, 7)
    text = e.format()
    assert "this '(' is never closed" in text
    assert "    points(0\n          ^" in text


def test_an_unknown_name_is_placed_with_a_hint():
    e = error(lambda: tictactoe().evaluate("1 + pointz(0)"))
    assert "unknown function 'pointz'" in e.message and (e.pos.line, e.pos.col) == (1, 5)
    assert "did you mean 'points'?" in e.format()
    e = error(lambda: tictactoe().evaluate("won(red)"))
    assert "unknown name 'red'" in e.message and "red is 0" in e.hint
    e = error(lambda: tictactoe().evaluate("1 +\n  foo"))
    assert (e.pos.line, e.pos.col) == (2, 3) and "      foo\n      ^^^" in e.format()


def test_a_failure_while_evaluating_is_placed():
    e = error(lambda: tictactoe().evaluate("1 + 1 / 0"))
    assert "division by zero" in e.message and e.pos.line == 1
    assert "1 + 1 / 0" in e.format()


def test_an_unknown_space():
    look = tictactoe().look()
    e = error(lambda: look.space("d1"))
    assert e.message == "'d1' is not a space of this board"
    assert e.expected == "a space's name: a1, b1, c1 ... c3"
    assert e.hint == 'evaluate("spaces") lists them all'
    assert error(lambda: look.space("a11")).hint == "did you mean 'a1'?"
    assert error(lambda: look.space("a4")).message == "'a4' is not a space of this board"
    assert error(lambda: look.space((0, 0))).message == "(0, 0) is not a space of this board"
    e = error(lambda: nordlang.load("kuhn-poker").look().space("a1"))
    assert e.message == "'a1' is not a space: this game has no board" and "zone(name, owner)" in e.hint


def test_items_are_listed_by_their_texts_numbers_read_as_numbers():
    game = nordlang.load("goofspiel", seed=2)
    assert list(game.look().zone("hand", 1)) == [f"card:{n}" for n in range(1, 14)]


def test_an_unknown_zone_or_owner():
    look = tictactoe().look()
    e = error(lambda: look.zone("suply", 0))
    assert e.message == "'suply' is not a zone of this rulebook" and e.hint == "did you mean 'supply'?"
    e = error(lambda: look.zone("supply"))
    assert "each player's: say whose" in e.message and "0 or 'red', 1 or 'blue'" in e.expected
    e = error(lambda: nord().look().zone("fleet", "red"))
    assert "'fleet' is shared" in e.message
    e = error(lambda: look.zone("supply", "green"))
    assert e.message == "'green' is not a player of this game"


@pytest.mark.parametrize("who", [2, -1, "green", True, "Red"])
def test_a_wrong_player(who):
    game = tictactoe()
    e = error(lambda: game.look(who))
    assert e.message == f"{who!r} is not a player of this game"
    assert e.expected == "a player: 0 or 'red', 1 or 'blue'"
    assert error(lambda: game.look().points(who)).message == e.message


def test_a_name_bound_once_is_not_bound_for_good():
    game = tictactoe()
    assert game.evaluate("x + 1", x=1) == 2
    e = error(lambda: game.evaluate("x + 1"))
    assert "unknown name 'x'" in e.message


def test_bad_bindings():
    game = tictactoe()
    e = error(lambda: game.evaluate("x", x=object()))
    assert "the value of 'x' is of type object" in e.message
    e = error(lambda: game.evaluate("1", **{"for": 1}))
    assert e.message == "'for' cannot be a name in an expression"
    e = error(lambda: game.evaluate(3))
    assert "an expression is text" in e.message


def test_a_grid_zone_by_cells_and_a_track_by_slots():
    game = nordlang.load(str(Path(__file__).parent / "games" / "tableau" / "tableau.yaml"), seed=1)
    for m in ["take 0", "take 0", "take 0", "where tableau(red)[0,1]"]:
        game.play(m)
    look = game.look()
    assert look.zone("tableau", "red") == {(0, 0): {"1": 1}, (0, 1): {"3": 1}}
    assert look.zone("tableau", 1) == {(0, 0): {"2": 1}}
    assert look.zone("offer") == ("4", "4", "3", "2")
    assert game.evaluate("cell(tableau(1), 1, 2)") == "tableau(blue)[1,2]"
    assert game.evaluate("filled_cells(tableau(0))") == ("tableau(red)[0,0]", "tableau(red)[0,1]")
