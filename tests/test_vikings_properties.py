"""Properties of every Vikings game (rulebook/vikings), checked after every
decision of 300 complete games over 2, 3 and 4 players (random agents, and
greedy against random in some): coins and points never below 0; the 76
tiles and 78 Vikings each in exactly one place, with the box (out of the
game) holding only the unused start tiles, the discarded tiles and the
used boatsmen; at most one Viking on an island tile, in his own row; six
rounds with 3 small, 3 large and one final scoring; every game ends; the
same seed and agents play the same game. Each check is also shown to fail
on a position broken on purpose, so none of them is vacuous.

The rulebook takes the start tiles of absent players out of the game by
making them in the box at the setup, so all 76 tiles are always counted,
4 - players of them in the box from the start. Used boatsmen and tiles
that fit nowhere go to the box too. The game's contents (and the rulings'
tile counts and bank) are written here, not read from the rulebook."""

from collections import Counter

import pytest

import nordlang
from nordlang.agents.base import make_agents
from nordlang.engine.record import describe, replay_lines

COIN = ("coin", None)
BANK_COINS = 5000
ISLANDS = {"left": 21, "right": 21, "longhouse": 5, "smithy": 5, "storehouse": 5, "shrine": 5}
SHIPS = {"red": 3, "green": 4, "yellow": 4, "blue": 3}
COLOURS = ("blue", "yellow", "green", "red", "black", "gray")
EVERY_ITEM = Counter({("island", t): n for t, n in ISLANDS.items()}) + \
    Counter({("ship", s): n for s, n in SHIPS.items()}) + Counter({("viking", c): 13 for c in COLOURS})
ROW_OF = {"black": 1, "red": 2, "green": 3, "yellow": 4, "blue": 5}          # a boatsman (gray) has no row
# the zones where each kind of item may be (a homeland's cells are pools keyed ("homeland", p, row, column))
TILE_ZONES = {"tiles", "wheel_tiles", "held", "start_tile", "homeland", "box"}
VIKING_ZONES = {"bag", "wheel_vikings", "held", "base", "homeland", "box"}
ALLOWED = {"island": TILE_ZONES, "ship": TILE_ZONES, "viking": VIKING_ZONES, "coin": {"purse", "bank"}}
ROUNDS_AND_SCORINGS = [("round", 1), ("small", 1), ("round", 2), ("large", 2), ("round", 3), ("small", 3),
                       ("round", 4), ("large", 4), ("round", 5), ("small", 5), ("round", 6), ("large", 6),
                       ("final", 6)]
MAX_DECISIONS = 1000          # a game asks for about 150


def _notes(state, kind):
    return [e[2:] for e in state.events if e[0] == "note" and e[1] == kind]


# ---------------------------------------------------------------- the checks (None: sound; else what is wrong)

def money_problem(game):
    """Coins and points of every player are 0 or more."""
    st = game.state
    for p in game.rules.player_range:
        coins, points = st.pools[("purse", p)].get(COIN, 0), game.points()[p]
        if coins < 0 or points < 0:
            return f"player {p} has {coins} coins and {points} points"
    return None


def census_problem(state, players):
    """Every tile and Viking is in exactly one place: counted over every pool
    (each homeland cell too), deck and track slot, each of them in a zone
    where its kind may be, they make the game's 76 tiles and 78 Vikings;
    the coins stay 5000; nothing was created after the setup; and the box
    holds exactly the unused start tiles, the discarded tiles and the used
    boatsmen the log records."""
    counts = Counter()
    places = [(key, pool.items()) for key, pool in state.pools.items()] + \
        [(key, Counter(deck).items()) for key, deck in state.decks.items()] + \
        [(key, Counter(x for x in track if x is not None).items()) for key, track in state.tracks.items()]
    for key, items in places:
        for item, n in items:
            if key[0] not in ALLOWED[item[0]]:
                return f"{n} {item} in {key}, where no {item[0]} belongs"
            counts[item] += n
    coins = counts.pop(COIN, 0)
    if coins != BANK_COINS:
        return f"{coins} coins on the table, not {BANK_COINS}"
    if counts != EVERY_ITEM:
        return f"on the table but not in the game: {dict(counts - EVERY_ITEM)}; " \
               f"in the game but not on the table: {dict(EVERY_ITEM - counts)}"
    created = Counter({k[1]: v for k, v in state.counters.items() if k[0] == "created"})
    if created != EVERY_ITEM + Counter({COIN: BANK_COINS}):
        return f"the game created {dict(created)}"
    out = Counter({("island", "left"): 4 - players})
    out.update(tile for _p, tile, _v in _notes(state, "discard"))
    out[("viking", "gray")] += len(_notes(state, "ferry"))
    box = Counter({k: n for k, n in state.pools[("box", None)].items() if n})
    if box != out:
        return f"the box holds {dict(box)}, the log accounts for {dict(+out)}"
    return None


def homeland_problem(state):
    """At most one Viking on a tile, only on an island tile, and in his own row."""
    for key, pool in state.pools.items():
        if key[0] != "homeland":
            continue
        vikings = [(v, n) for v, n in pool.items() if v[0] == "viking" and n]
        if sum(n for _v, n in vikings) > 1:
            return f"{key} holds {sum(n for _v, n in vikings)} Vikings"
        for (_kind, colour), _n in vikings:
            if not any(t[0] == "island" for t in pool):
                return f"a {colour} Viking stands on {key} without an island tile"
            if ROW_OF.get(colour) != key[2]:
                return f"a {colour} Viking stands on {key}, in row {key[2]}, not his row {ROW_OF.get(colour)}"
    return None


def scoring_problem(game):
    """A finished game had six rounds, each ending with its scoring
    (small, large, small, large, small, large), then the final scoring,
    72 purchases, and the game's end."""
    st = game.state
    seen = [(e[1], e[2]) if e[1] == "round" else (e[2], e[3]) for e in st.events
            if e[0] == "note" and e[1] in ("round", "scoring")]
    if seen != ROUNDS_AND_SCORINGS:
        return f"rounds and scorings were {seen}"
    if Counter(k for k, _n in seen) != {"round": 6, "small": 3, "large": 3, "final": 1}:
        return f"rounds and scorings were {seen}"
    if len(_notes(st, "buys")) != 72 or st.counters.get(("counter", "rounds")) != 6:
        return f"{len(_notes(st, 'buys'))} purchases in {st.counters.get(('counter', 'rounds'))} rounds"
    if not game.over or st.events[-1][0] != "end":
        return "the game did not end after the final scoring"
    return None


def play(players, seed, agent_names, check=True, limit=MAX_DECISIONS):
    """A complete game, its position checked after every decision; an error
    if it does not end within `limit` decisions."""
    game = nordlang.load("vikings", players=players, seed=seed)
    agents = make_agents(agent_names, players, seed)
    decisions = 0
    while not game.over:
        if decisions >= limit:
            raise AssertionError(f"seed {seed}: no end after {decisions} decisions")
        game.play_index(agents[game.to_move].choose(game))
        decisions += 1
        if check:
            st = game.state
            problem = money_problem(game) or census_problem(st, players) or homeland_problem(st)
            assert problem is None, f"{players} players, seed {seed}, decision {decisions}: {problem}"
    if check:
        problem = scoring_problem(game)
        assert problem is None, f"{players} players, seed {seed}: {problem}"
    return game


def the_log(game, players, seed, agent_names):
    """What a game leaves: its moves, its log lines and its replay file's lines."""
    st = game.state
    lines = [line for e in st.events if (line := describe(game.rules, e)) is not None]
    header = {"game": "vikings", "players": players, "seed": seed, "agents": agent_names}
    return st.history, lines, replay_lines(game, header)


def difference(a, b):
    """Where two games' logs first differ (None: identical)."""
    for what, x, y in zip(("the moves differ", "the log differs", "the replay differs"), a, b):
        if x != y:
            i = next((i for i, (u, v) in enumerate(zip(x, y)) if u != v), min(len(x), len(y)))
            return f"{what} at line {i}"
    return None


# ---------------------------------------------------------------- the games

RANDOM_GAMES = 90             # for each player count: 270 games
GREEDY_GAMES = 10             # greedy against random, for each player count: 30 games


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_property(players):
    for seed in range(RANDOM_GAMES):
        play(players, seed, ["random"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_against_random_keeps_every_property(players):
    for seed in range(1000, 1000 + GREEDY_GAMES):
        # greedy in the first seat, or in the second, by turns
        play(players, seed, ["greedy", "random"] if seed % 2 else ["random", "greedy"] + ["random"] * (players - 2))


@pytest.mark.parametrize("players, seed, agent_names", [
    (2, 5, ["random"]), (3, 6, ["random"]), (4, 7, ["random"]), (2, 8, ["greedy", "random"])])
def test_same_seed_and_agents_same_game(players, seed, agent_names):
    a = the_log(play(players, seed, agent_names, check=False), players, seed, agent_names)
    b = the_log(play(players, seed, agent_names, check=False), players, seed, agent_names)
    assert difference(a, b) is None
    assert len(a[0]) > 140 and len(a[1]) > 250


# ---------------------------------------------------------------- each check fails on a broken position

@pytest.fixture(scope="module")
def midgame():
    """A 3-player random game stopped as round 4 begins (its homelands well filled)."""
    game = nordlang.load("vikings", players=3, seed=21)
    agents = make_agents(["random"], 3, 21)
    while len(_notes(game.state, "round")) < 4:
        game.play_index(agents[game.to_move].choose(game))
    return game


def broken(game, change):
    g = game.clone()
    g.state.unshare()
    st = g.state
    st.pools = {k: dict(v) for k, v in st.pools.items()}
    change(st)
    return g


def _cell(st, pred):
    return min(k for k, pool in st.pools.items() if k[0] == "homeland" and pred(k, pool))


def test_the_checks_pass_on_the_real_position(midgame):
    st = midgame.state
    assert (money_problem(midgame), census_problem(st, 3), homeland_problem(st)) == (None, None, None)
    assert scoring_problem(midgame) == "rounds and scorings were " + repr(ROUNDS_AND_SCORINGS[:7])


def test_negative_coins_or_points_are_caught(midgame):
    g = broken(midgame, lambda st: st.pools[("purse", 1)].__setitem__(COIN, -1))
    assert money_problem(g) == f"player 1 has -1 coins and {midgame.points()[1]} points"
    g = broken(midgame, lambda st: st.counters.__setitem__(("points", 2), -3))
    assert money_problem(g).endswith("and -3 points") and money_problem(g).startswith("player 2 has ")


def test_a_lost_a_made_or_a_misplaced_item_is_caught(midgame):
    bag = midgame.state.decks[("bag", None)]
    gone = broken(midgame, lambda st: st.decks[("bag", None)].remove(bag[0]))
    assert census_problem(gone.state, 3) == f"on the table but not in the game: {{}}; " \
                                            f"in the game but not on the table: {{{bag[0]!r}: 1}}"
    more = broken(midgame, lambda st: st.pools[("base", 0)].__setitem__(("viking", "red"), 5))
    assert "on the table but not in the game: {('viking', 'red'): " in census_problem(more.state, 3)
    tile = broken(midgame, lambda st: st.pools[("purse", 0)].__setitem__(("ship", "red"), 1))
    assert census_problem(tile.state, 3) == "1 ('ship', 'red') in ('purse', 0), where no ship belongs"
    coins = broken(midgame, lambda st: st.pools[("bank", None)].__setitem__(COIN, 1))
    assert census_problem(coins.state, 3).endswith(" coins on the table, not 5000")
    made = broken(midgame, lambda st: st.counters.__setitem__(("created", ("viking", "gray")), 14))
    assert census_problem(made.state, 3).startswith("the game created {")


def test_the_box_holds_only_what_the_log_accounts_for(midgame):
    def boatsman_to_box(st):
        st.decks[("bag", None)].remove(("viking", "gray"))
        st.pools[("box", None)][("viking", "gray")] = st.pools[("box", None)].get(("viking", "gray"), 0) + 1
    g = broken(midgame, boatsman_to_box)
    assert census_problem(g.state, 3).startswith("the box holds {")
    # the unused start tile of the absent fourth player is the box's from the setup
    assert census_problem(midgame.state, 2).startswith("the box holds {")


def test_two_vikings_or_a_viking_out_of_his_row_are_caught(midgame):
    st = midgame.state
    settled = _cell(st, lambda k, pool: any(v[0] == "viking" for v in pool))
    colour = next(v[1] for v in st.pools[settled] if v[0] == "viking")
    g = broken(midgame, lambda s: s.pools[settled].__setitem__(("viking", colour), 2))
    assert homeland_problem(g.state) == f"{settled} holds 2 Vikings"
    empty = _cell(st, lambda k, pool: k[2] > 0 and len(pool) == 1)
    wrong = next(c for c, r in ROW_OF.items() if r != empty[2])
    g = broken(midgame, lambda s: s.pools[empty].__setitem__(("viking", wrong), 1))
    assert homeland_problem(g.state) == \
        f"a {wrong} Viking stands on {empty}, in row {empty[2]}, not his row {ROW_OF[wrong]}"
    ship = _cell(st, lambda k, pool: k[2] == 0)
    g = broken(midgame, lambda s: s.pools[ship].__setitem__(("viking", "black"), 1))
    assert homeland_problem(g.state) == f"a black Viking stands on {ship} without an island tile"


def test_a_missing_or_extra_scoring_is_caught():
    game = play(2, 3, ["random"], check=False)
    assert scoring_problem(game) is None
    events = game.state.events
    large = next(i for i, e in enumerate(events) if e[:3] == ("note", "scoring", "large"))
    for edit in (lambda ev: ev.pop(large),                                   # a large scoring missing
                 lambda ev: ev.insert(large, ("note", "scoring", "small", 2)),   # one more
                 lambda ev: ev.insert(0, ("note", "round", 1, 0))):              # a seventh round
        game.state.events = list(events)
        edit(game.state.events)
        assert scoring_problem(game).startswith("rounds and scorings were [")
    game.state.events = events[:-1]                                         # no end
    assert scoring_problem(game) == "the game did not end after the final scoring"


def test_a_game_that_does_not_end_is_caught():
    with pytest.raises(AssertionError, match="^seed 1: no end after 100 decisions$"):
        play(2, 1, ["random"], check=False, limit=100)


def test_another_seed_is_another_game():
    a = the_log(play(2, 5, ["random"], check=False), 2, 5, ["random"])
    b = the_log(play(2, 6, ["random"], check=False), 2, 6, ["random"])
    assert difference(a, b) == "the moves differ at line 0"
    # the same moves with another log line, or another replay line, are told apart too
    last = len(a[1]) - 1
    assert difference(a, (a[0], a[1][:-1] + ["x"], a[2])) == f"the log differs at line {last}"
    assert difference(a, (a[0], a[1], a[2][:-1])) == f"the replay differs at line {len(a[2]) - 1}"
