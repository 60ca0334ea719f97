"""Vikings (rulebook/vikings): setup by player count, complete games of
exactly six rounds with their scorings, the buying rules (the set at 0)
checked against an independent reading of the wheel at every purchase,
placements checked against the edges, and a refused placement explained
down to the rule that refuses it."""

import random
from collections import Counter

import pytest

import nordlang
from nordlang.cli import main
from nordlang.errors import IllegalMove
from nordlang.explain import explain
from nordlang.rules.build import position_message, position_problem

COIN = ("coin", None)
START_COINS = {2: 30, 3: 25, 4: 20}
ROW_OF = {"black": 1, "red": 2, "green": 3, "yellow": 4, "blue": 5}
EDGES = {"left": ("sea", "land"), "right": ("land", "sea")}      # the middles: land on both sides


def coins(game, p):
    return game.state.pools[("purse", p)].get(COIN, 0)


def notes(game, kind):
    return [e[2:] for e in game.state.events if e[0] == "note" and e[1] == kind]


def cells(game, p):
    """{(row, column): items} of p's homeland, as the state holds it."""
    return {(c[2], c[3]): dict(pool) for c, pool in game.state.pools.items()
            if len(c) == 4 and c[0] == "homeland" and c[1] == p and pool}


def expected_buys(game):
    """The sets the rulings allow, read from the wheel here: any price that
    coins and points cover; the set at 0 only while its Viking is the last
    of his colour on the wheel, or when coins alone pay for no other set."""
    st = game.state
    p = st.pending.player
    tiles, vikings = st.tracks[("wheel_tiles", None)], st.tracks[("wheel_vikings", None)]
    filled = [i for i, t in enumerate(tiles) if t is not None]
    have, points = coins(game, p), game.points()[p]
    zero_ok = vikings.count(vikings[0]) == 1 or not any(0 < i <= have for i in filled)
    return [str(i) for i in filled if i <= have + points and (i > 0 or zero_ok)]


def edge_ok(game, p, r, c, tag):
    """Does an island tile of this kind fit at (r, c): the edges it meets match (the base is sea)?"""
    home = cells(game, p)
    left_edge, right_edge = EDGES.get(tag, ("land", "land"))

    def island(k):
        return next((t for t, _ in home.get((r, k), {}).items() if t[0] == "island"), None)
    on_left = "sea" if c == 1 else (EDGES.get(island(c - 1)[1], ("land", "land"))[1] if island(c - 1) else None)
    on_right = EDGES.get(island(c + 1)[1], ("land", "land"))[0] if island(c + 1) else None
    return on_left in (None, left_edge) and on_right in (None, right_edge)


def play_checked(players, seed):
    """A random game; at every decision the buy options and the island
    placements are checked independently, and coins and points never go
    below 0."""
    game = nordlang.load("vikings", players=players, seed=seed)
    rng = random.Random(seed)
    asked = 0
    while not game.over:
        p = game.state.pending
        if p.step.name == "buy":
            assert p.texts == expected_buys(game)
            asked += 1
        if p.step.name == "place" and game.state.frames[-1].vars["tile"][0] == "island":
            tag = game.state.frames[-1].vars["tile"][1]
            for opt in p.options:
                assert edge_ok(game, opt[1], opt[2], opt[3], tag) and not cells(game, opt[1]).get((opt[2], opt[3]))
        game.play_index(rng.randrange(len(p.options)))
        for q in range(players):
            assert coins(game, q) >= 0 and game.points()[q] >= 0
    assert asked > 0
    return game, len(notes(game, "buys"))


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_by_player_count(players):
    game = nordlang.load("vikings", players=players, seed=7)
    st = game.state
    assert [coins(game, p) for p in range(players)] == [START_COINS[players]] * players
    assert game.points() == (10,) * players
    # the offer of round 1 is out: 12 tiles and 12 Vikings on the wheel
    tiles, vikings = st.tracks[("wheel_tiles", None)], st.tracks[("wheel_vikings", None)]
    assert sum(t is not None for t in tiles) == 12 and None not in vikings
    # 78 Vikings: 66 in the bag, 12 on the wheel; 13 of each colour
    assert len(st.decks[("bag", None)]) == 66
    assert Counter(v[1] for v in st.decks[("bag", None)] + vikings) == {
        c: 13 for c in ("blue", "yellow", "green", "red", "black", "gray")}
    # the Vikings lie sorted by colour from space 0
    order = ["blue", "yellow", "green", "red", "black", "gray"]
    assert [order.index(v[1]) for v in vikings] == sorted(order.index(v[1]) for v in vikings)
    # islands from 0 upwards, ships from 11 downwards
    kinds = [t[0] for t in tiles]
    n_islands = kinds.count("island")
    assert kinds == ["island"] * n_islands + ["ship"] * (12 - n_islands)
    # 76 tiles: 72 in the deck (60 left, 12 on the wheel), a start tile each, the unused ones out of the game
    deck = st.decks[("tiles", None)]
    assert len(deck) == 60
    starts = [st.pools[("start_tile", p)].get(("island", "left"), 0) for p in range(players)]
    assert starts == [1] * players
    assert st.pools[("box", None)] == ({("island", "left"): 4 - players} if players < 4 else {})
    every = Counter(deck + tiles) + Counter({("island", "left"): 4})
    assert sum(every.values()) == 76
    assert {k: n for k, n in every.items()} == {
        ("island", "left"): 21, ("island", "right"): 21, ("island", "longhouse"): 5, ("island", "smithy"): 5,
        ("island", "storehouse"): 5, ("island", "shrine"): 5,
        ("ship", "red"): 3, ("ship", "green"): 4, ("ship", "yellow"): 4, ("ship", "blue"): 3}


def test_same_seed_same_game():
    a, b = nordlang.load("vikings", players=3, seed=11), nordlang.load("vikings", players=3, seed=11)
    for game in (a, b):
        rng = random.Random(0)
        while not game.over:
            game.play_index(rng.randrange(len(game.state.pending.options)))
    assert a.state.history == b.state.history and a.points() == b.points()


# ---------------------------------------------------------------- complete games

@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3)])
def test_a_complete_game_has_six_rounds_and_its_scorings(players, seed):
    game, buys = play_checked(players, seed)
    assert buys == 72 and game.state.turn == 72
    assert [r[0] for r in notes(game, "round")] == [1, 2, 3, 4, 5, 6]
    # the start player passes clockwise each round
    assert [r[1] for r in notes(game, "round")] == [k % players for k in range(6)]
    scorings = [s[0] for s in notes(game, "scoring")]
    assert scorings == ["small", "large", "small", "large", "small", "large", "final"]
    assert Counter(scorings) == {"small": 3, "large": 3, "final": 1}
    # each round, each player bought 12 / players sets
    per_player = Counter(b[0] for b in notes(game, "buys"))
    assert per_player == {p: 72 // players for p in range(players)}
    # after the compulsory boatsmen, no one has a boatsman and a Viking he could move
    for p in range(players):
        base = game.state.pools[("base", p)]
        if base.get(("viking", "gray"), 0):
            home = cells(game, p)
            for colour, row in ROW_OF.items():
                if base.get(("viking", colour), 0):
                    assert not any(r == row and len(items) == 1 for (r, _c), items in home.items())
    assert game.result is not None
    check_final_scoring(game, players)


REACH = {"red": 2, "green": 3, "yellow": 4, "blue": 5}


def safe_fishermen(home):
    """Fishermen on island tiles that no unrepelled ship threatens (read from the cells)."""
    def depth(k):
        ship = next((t for t in home.get((0, k), {}) if t[0] == "ship"), None)
        repelled = ("viking", "black") in home.get((1, k), {})
        return REACH[ship[1]] if ship and not repelled else 0
    return sum(1 for (r, c), items in home.items() if ("viking", "blue") in items and r > depth(c))


def completed_islands(home):
    """The lengths of the completed islands: a left end, middles, a right end, no gap."""
    out = []
    for (r, c), items in home.items():
        if ("island", "left") in items:
            k = c + 1
            while (r, k) in home and ("island", "right") not in home[(r, k)]:
                k += 1
            if (r, k) in home:
                out.append(k - c + 1)
    return out


def check_final_scoring(game, players):
    """The majorities and the supply, computed here from the final position."""
    counters = game.state.counters
    homes = [cells(game, p) for p in range(players)]
    islands = [completed_islands(h) for h in homes]
    for source, values, bonus in (("islands", [len(x) for x in islands], 7),
                                  ("longest", [max(x, default=0) for x in islands], 5),
                                  ("boatsmen", [game.state.pools[("base", p)].get(("viking", "gray"), 0)
                                                for p in range(players)], 10)):
        top = max(values)
        assert [counters.get(("points", p, source), 0) for p in range(players)] == \
            [bonus if top > 0 and v == top else 0 for v in values], source
    for p, home in enumerate(homes):
        vikings = sum(game.state.pools[("base", p)].values()) + \
            sum(n for items in home.values() for t, n in items.items() if t[0] == "viking")
        spare = 5 * safe_fishermen(home) - vikings
        got = counters.get(("points", p, "supply"), 0)
        assert got == 2 * spare if spare >= 0 else (got == spare or game.points()[p] == 0)


def test_tiles_and_vikings_stay_in_their_rows():
    game, _ = play_checked(4, 9)
    for p in range(4):
        for (r, c), items in cells(game, p).items():
            tiles = [t for t in items if t[0] != "viking"]
            vikings = [v for v in items if v[0] == "viking"]
            assert len(tiles) == 1 and c >= 1
            assert (tiles[0][0] == "ship") == (r == 0)
            assert len(vikings) <= 1 and all(ROW_OF[v[1]] == r for v in vikings)


# ---------------------------------------------------------------- buying

def test_the_set_at_zero_on_a_real_position():
    game = nordlang.load("vikings", players=2, seed=1)
    vikings = game.state.tracks[("wheel_vikings", None)]
    # space 0 holds a fisherman, and another fisherman is on the wheel: the set at 0 is refused
    assert vikings[0] == ("viking", "blue") and vikings.count(("viking", "blue")) == 2
    assert game.legal_moves()[0].option == "1"
    with pytest.raises(IllegalMove) as e:
        game.play("buy 0")
    assert e.value.message.endswith("'0' is not one of the 11 options of 'buy'")
    # orange pays 11 of his 30 coins
    game.play("buy 11")
    assert coins(game, 0) == 19
    game.play("start homeland(orange)[2,1]")
    game.play("place homeland(orange)[0,3]")
    # the wheel's next sets: purple may take 1 to 10 but not 0
    assert [m.option for m in game.legal_moves()] == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]


def test_poor_player_takes_the_set_at_zero_and_points_pay_the_rest():
    game = nordlang.load("vikings", players=2, seed=1)
    # spend orange's coins: buy expensive sets first (random placements)
    rng = random.Random(4)
    game.play("buy 11")
    while game.to_move == 0:
        game.play_index(rng.randrange(len(game.state.pending.options)))
    game.play("buy 10")
    while game.to_move == 1:
        game.play_index(rng.randrange(len(game.state.pending.options)))
    game.play("buy 9")                       # 30 - 11 - 9 = 10 coins left
    assert coins(game, 0) == 10
    while game.to_move == 0:
        game.play_index(rng.randrange(len(game.state.pending.options)))
    game.play("buy 8")
    while game.to_move == 1:
        game.play_index(rng.randrange(len(game.state.pending.options)))
    # orange has 10 coins and 10 points: the sets up to 20 would be affordable, and the wheel holds 1 to 7
    assert game.legal_moves()[-1].option == "7"
    game.play("buy 7")
    assert coins(game, 0) == 3 and game.points()[0] == 10
    while game.to_move == 0:
        game.play_index(rng.randrange(len(game.state.pending.options)))
    game.play("buy 6")
    while game.to_move == 1:
        game.play_index(rng.randrange(len(game.state.pending.options)))
    game.play("buy 5")                     # 5 > 3 coins: 3 coins, then 2 points
    assert coins(game, 0) == 0 and game.points()[0] == 8
    assert game.state.counters[("points", 0, "exchange")] == -2
    while game.to_move == 0:
        game.play_index(rng.randrange(len(game.state.pending.options)))
    game.play_index(0)
    while game.to_move == 1:
        game.play_index(rng.randrange(len(game.state.pending.options)))
    # with no coins, coins pay for no other set: the set at 0 is allowed whatever its colour
    assert coins(game, 0) == 0
    assert game.legal_moves()[0].option == "0"


# ---------------------------------------------------------------- placing

def at_island_placement():
    """A 2-player game (seed 3) where purple places a right end with three cells open."""
    game = nordlang.load("vikings", players=2, seed=3)
    rng = random.Random(5)
    while True:
        p = game.state.pending
        if p.step.name == "place" and len(p.options) > 2 and game.state.turn > 6 \
                and game.state.frames[-1].vars["tile"] == ("island", "right"):
            return game
        game.play_index(rng.randrange(len(p.options)))


def test_island_placements_follow_the_edges():
    game = at_island_placement()
    assert [m.option for m in game.legal_moves()] == [
        "homeland(purple)[1,2]", "homeland(purple)[3,2]", "homeland(purple)[4,3]"]
    with pytest.raises(IllegalMove) as e:
        game.play("place homeland(purple)[2,1]")
    assert e.value.message.startswith("place homeland(purple)[2,1] is not allowed by the rule at ")
    assert e.value.message.endswith("'homeland(purple)[2,1]' is not one of the 3 options of 'place'")


def test_explain_names_the_edge_that_does_not_match():
    game = at_island_placement()
    legal, lines = explain(game, "place homeland(purple)[2,1]")
    assert not legal
    assert lines[-3:] == [
        "      left_edge_matches(c, t)  ->  false  (where c = homeland(purple)[2,1], t = island:right)",
        "        left_edge_matches: edge_on_left(c) in [none, left_edge(t)]",
        "          edge_on_left(c) = sea;  [none, left_edge(t)] = (none, land)  "
        "(where c = homeland(purple)[2,1], t = island:right)"]
    legal, lines = explain(game, "place homeland(purple)[5,7]")
    assert lines[-1].strip().startswith("homeland(purple)[5,7] is not in touching_cells(p) = [homeland(purple)[1,1]")
    legal, lines = explain(game, "place homeland(purple)[1,2]")
    assert legal and "purple places island:right on homeland(purple)[1,2]" in "\n".join(lines)


def test_position_checks_name_what_breaks_them():
    game, _ = play_checked(2, 4)
    assert position_problem(game.rules, game.state) is None
    home = cells(game, 0)
    spot = min((r, c) for (r, c), items in home.items() if r > 0 and len(items) == 1)
    game.state.add(("homeland", 0, *spot), ("viking", "gray"))       # a boatsman has no row
    problem = position_problem(game.rules, game.state)
    assert position_message(game.rules, problem) == (
        "this position breaks a rule: a Viking stands only on an island tile of his own row: "
        f"homeland(orange)[{spot[0]},{spot[1]}]")


def test_validate_is_clean(capsys):
    assert main(["validate", "--game", "vikings"]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out


def test_a_scenario_with_a_viking_out_of_his_row_is_refused(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_text('description: a warrior in the noble row\ngame: vikings\nplayers: 2\nposition:\n'
                    '  at:\n    homeland(orange)[2,1]: [island:left, viking:black]\n')
    assert main(["test", str(path)]) == 2
    out = capsys.readouterr().out
    assert ("6:5: error: this position breaks a rule: a Viking stands only on an island tile of his own row: "
            "homeland(orange)[2,1]") in out
