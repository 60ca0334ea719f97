"""Properties that hold in every game: 300 random games over 2, 3 and 4
players (random agents, and greedy ones in some seats), and 60 in which the
players choose their starting settlements, checked at every decision."""

import random

import pytest

import nordlang
from nordlang.agents.base import make_agents
from nordlang.engine.invariants import created_items, invariant_problem

SEEDS = range(100)
GREEDY_SEEDS = range(2)


def _men(state, p):
    """Where player p's men are, by kind of place."""
    return sum(n for pool in state.pools.values() for (kind, tag), n in pool.items()
               if kind == "man" and tag == p) + \
        sum(1 for t in state.tracks.values() for x in t if x == ("man", p))


def check_game(players, seed, agents, variants=()):
    rules = nordlang.load_rules(players=players, variants=list(variants))
    game = nordlang.Game(rules, seed)
    deciders = []
    while game.state.turn == 0:              # the setup: each player chooses a starting settlement
        assert game.choice == "start"
        deciders.append(game.to_move)
        game.play_index(agents[game.to_move].choose(game))
        assert invariant_problem(game.state) is None
    st = game.state
    # the standard islands preset the starting settlements; with chosen-starts each player chooses, in turn
    assert deciders == (list(rules.player_range) if "chosen-starts" in variants else [])
    assert st.turn == 1 and st.player == 0
    seats = [next(x for x in rules.structures_by_kind["settlement"] if ("jarl", p) in st.pools[x])
             for p in rules.player_range]
    assert len(set(seats)) == players and all(st.pools[x].get(("man", p)) == 1 for p, x in enumerate(seats))
    created = created_items(st)
    assert created[("man", 0)] == 25
    fleet_size = created[("boat", None)]
    assert fleet_size == players + 4
    last_points = game.points()
    scorings_seen = []
    decisions = 0
    while not game.over:
        seat = game.to_move
        game.play_index(agents[seat].choose(game))
        decisions += 1
        st = game.state
        problem = invariant_problem(st, created)
        assert problem is None, f"seed {seed}: {problem}"
        for p in rules.player_range:
            assert _men(st, p) == 25
        # one worker per space; each sea worker carries exactly one boat, no boat stands alone
        for s in rules.grid.spaces:
            pool = st.pools[s]
            men = sum(n for (k, _), n in pool.items() if k == "man")
            boats = pool.get(("boat", None), 0)
            assert men <= 1
            if rules.terrains[rules.grid.terrain[s]]["land"]:
                assert boats == 0
            else:
                assert boats == men
        in_use = sum(st.pools[s].get(("boat", None), 0) for s in rules.grid.spaces)
        assert in_use + st.pools[("fleet", None)].get(("boat", None), 0) == fleet_size
        assert len(st.tracks[("longboat", None)]) == 10
        points = game.points()
        assert all(a >= b for a, b in zip(points, last_points)), "a score dropped"
        last_points = points
        assert st.turn < 1000, "the game does not end"
    for ev in game.state.events:
        if ev[0] == "note" and ev[1] == "scoring":
            scorings_seen.append((ev[2], ev[3]))
    order = rules.data["tables"]["scoring_order"]
    assert [n for n, _ in scorings_seen] == [1, 2, 3, 4, 5]
    assert [k for _, k in scorings_seen] == order
    # nothing happens after the final scoring but its points and the end
    tail = game.state.events[max(i for i, e in enumerate(game.state.events)
                                 if e[0] == "note" and e[1] == "scoring"):]
    assert {e[0] for e in tail} <= {"note", "award", "end"}
    assert game.state.counters[("counter", "scorings")] == 4
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant(players):
    for seed in SEEDS:
        agents = make_agents(["random"], players, seed)
        check_game(players, seed, agents)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_with_chosen_starts_keep_every_invariant(players):
    for seed in range(200, 220):
        agents = make_agents(["random", "greedy"] if seed % 5 == 0 else ["random"], players, seed)
        check_game(players, seed, agents, variants=("chosen-starts",))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_games_keep_every_invariant(players):
    for seed in GREEDY_SEEDS:
        agents = make_agents(["greedy", "random"], players, seed)
        check_game(players, 500 + seed, agents)


def test_same_seed_same_game():
    logs = []
    for _ in range(2):
        rules = nordlang.load_rules(players=3)
        game = nordlang.Game(rules, 42)
        rng = random.Random(42)
        while not game.over:
            game.play_index(rng.randrange(len(game.state.pending.options)))
        logs.append((game.state.history, game.state.events, game.points()))
    assert logs[0] == logs[1]
    assert len(logs[0][0]) > 50
