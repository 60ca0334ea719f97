"""The search agent: registry, parameters, determinism, time budget."""

import random
import time

import pytest

import nordlang
from nordlang.agents.base import make_agent, make_agents, parse_spec
from nordlang.errors import UsageError
from nordlang.sim.runner import play_out


@pytest.fixture(scope="module")
def rules2():
    return nordlang.load_rules(None, 2)


def _advance(game, k, seed=5):
    """Play k random decisions."""
    agents = make_agents(["random"], game.rules.num_players, seed)
    for _ in range(k):
        game.play_index(agents[game.to_move].choose(game))
    return game


def test_mcts_is_registered_with_its_parameters():
    cls, params = parse_spec("mcts:playouts=20,seconds=0.5,c=0.3,width=4")
    assert cls.name == "mcts"
    assert params == {"playouts": 20, "seconds": 0.5, "c": 0.3, "width": 4}
    agent = make_agent("mcts:playouts=20", 3)
    assert "playouts=20" in str(agent)


@pytest.mark.parametrize("spec", ["mcts:bogus=1", "mcts:playouts=many", "mcts:playouts", "mcts:seconds=-1"])
def test_bad_mcts_parameters_are_usage_errors(spec):
    with pytest.raises(UsageError):
        parse_spec(spec)


def test_mcts_same_seed_same_choices(rules2):
    def run(seed):
        g = _advance(nordlang.Game(rules2, 21), 6)
        agent = make_agent("mcts:playouts=12,width=3", seed)
        picks = []
        for _ in range(4):
            i = agent.choose(g)
            assert 0 <= i < len(g.state.pending.options)
            picks.append(g.state.pending.texts[i])
            g.play_index(i)
        return picks
    assert run(7) == run(7)


def test_mcts_sequential_halving_is_deterministic_too(rules2):
    g = _advance(nordlang.Game(rules2, 22), 4)
    a, b = make_agent("mcts:halving=1,playouts=40", 3), make_agent("mcts:halving=1,playouts=40", 3)
    assert a.choose(g) == b.choose(g)
    assert a.last_stats["finalists"] >= 1 and a.last_stats["created"] <= 40 + len(g.state.pending.options)


def test_mcts_keeps_within_its_time_budget(rules2):
    g = nordlang.Game(rules2, 4)
    while len(g.state.pending.options) < 10:
        _advance(g, 1)
    agent = make_agent("mcts:seconds=0.25", 1)
    t = time.perf_counter()
    i = agent.choose(g)
    took = time.perf_counter() - t
    assert 0 <= i < len(g.state.pending.options)
    assert took < 0.25 + 1.5, took          # one position past the deadline at most (a busy machine: 1.5 s slack)
    assert agent.last_stats["created"] >= 1
    # a larger budget searches more (eight times the time: a machine busy with
    # other work has slowed one run against the other by five)
    agent2 = make_agent("mcts:seconds=2.0", 1)
    agent2.choose(g)
    assert agent2.last_stats["created"] > agent.last_stats["created"]
    agent3 = make_agent("mcts:seconds=0.3,halving=1", 1)
    t = time.perf_counter()
    agent3.choose(g)
    assert time.perf_counter() - t < 0.3 + 1.5


def test_mcts_reuses_its_tree(rules2):
    g = nordlang.Game(rules2, 8)
    agent = make_agent("mcts:playouts=30,width=3", 1)
    reused = 0
    for _ in range(6):
        if g.to_move == 0:
            g.play_index(agent.choose(g))
            reused += agent.last_stats["reused"]
        else:
            _advance(g, 1)
    assert reused >= 1
    while not g.over:                     # on to the end, cheaply
        _advance(g, 1)
    assert g.result.winners


def test_mcts_scores_finished_games_by_the_result(rules2):
    from nordlang.agents.mcts import MCTSAgent
    g = nordlang.Game(rules2, 8)
    play_out(g, make_agents(["random"], 2, 3))
    v = MCTSAgent(0)._score(g)
    assert sum(v) == pytest.approx(1.0)
    assert all(v[p] > 0 for p in g.result.winners)


def test_mcts_needs_an_evaluation(tmp_path, rules2):
    from nordlang.agents.mcts import MCTSAgent

    class NoEval:
        evaluation = None
        player_range = rules2.player_range
        num_players = rules2.num_players

        def ctx(self, *a):
            raise AssertionError

    g = nordlang.Game(rules2, 3)
    g.rules = NoEval()
    with pytest.raises(UsageError):
        MCTSAgent(0, playouts=3)._score(g)


def test_agents_score_a_drawn_game_between_a_win_and_a_loss():
    """A finished game with no winner (a draw declared by result.draw): mcts shares it
    equally, greedy rates it between a win and a loss (a 4-card Goofspiel can end drawn)."""
    from nordlang.agents.greedy import evaluate
    from nordlang.agents.mcts import MCTSAgent
    for seed in range(200):
        g = nordlang.load("goofspiel", seed=seed, params={"cards": 4})
        r = random.Random(seed)
        while not g.over:
            g.play_index(r.randrange(len(g.legal_moves())))
        if g.result.draw:
            break
    assert g.result.draw and g.result.winners == ()
    assert MCTSAgent(0)._score(g) == [0.5, 0.5]
    assert evaluate(g, 0) == evaluate(g, 1) == 0.0
    assert make_agent("mcts:playouts=16", 1).choose(nordlang.load("goofspiel", seed=1, params={"cards": 4})) in range(4)
