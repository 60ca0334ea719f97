"""The mcts agent's speed work changes no search: the same trees for the same
seeds, the collector off only while it searches, a score kept by the
state's version."""

import gc
import random

import pytest

import nordlang
from nordlang.agents import mcts
from nordlang.agents.base import make_agent
from nordlang.agents.mcts import MCTSAgent, _Node

# Recorded on main before the speed work (7a099a9): per decision, the choice,
# whether the kept subtree was reused, and the visits of each root option.
SEARCHES = {
    ("nord", 2): [(0, False, [(0, 20), (1, 20)]),
                  (8, True, [(0, 2), (1, 2), (2, 1), (3, 2), (4, 2), (5, 1), (6, 2), (7, 22), (8, 22), (9, 3)])],
    ("nord", 4): [(6, False, [(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 12), (7, 1), (8, 12), (9, 1),
                              (10, 1), (11, 1), (12, 1), (13, 1), (14, 1), (15, 1), (16, 1), (17, 1)]),
                  (0, False, [(0, 20), (1, 20)])],
    ("vikings", 2): [(0, False, [(0, 19), (1, 1), (2, 19)]), (1, True, [(0, 27), (1, 31)])],
    ("vikings", 4): [(1, False, [(0, 20), (1, 20)]),
                     (1, True, [(0, 23), (1, 23), (2, 3), (3, 3), (4, 2), (5, 2), (6, 3)])],
}


def _position(game, players):
    rules = nordlang.load_rules(game, players)
    g = nordlang.Game(rules, 11)
    r = random.Random(11)
    for _ in range(9):
        g.play_index(r.randrange(len(g.legal_moves())))
    return g


@pytest.mark.parametrize("game,players", sorted(SEARCHES))
def test_the_searches_are_those_of_before(game, players, monkeypatch):
    roots = []
    search = MCTSAgent._search

    def spy(self, *args, **kw):
        out = search(self, *args, **kw)
        roots.append(out[1])
        return out
    monkeypatch.setattr(MCTSAgent, "_search", spy)
    g = _position(game, players)
    agent = make_agent("mcts:playouts=40", 4)
    seen = []
    for _ in range(2):
        i = agent.choose(g)
        seen.append((i, agent.last_stats["reused"], sorted((k, ch.visits) for k, ch in roots[-1].children.items())))
        g.play_index(i)
    assert seen == SEARCHES[(game, players)]


def test_the_collector_is_off_while_it_searches_and_as_it_was_after():
    g = _position("nord", 2)
    agent = make_agent("mcts:playouts=6", 1)
    during = []
    score = agent._score
    agent._score = lambda game: (during.append(gc.isenabled()), score(game))[1]
    assert gc.isenabled()
    agent.choose(g)
    assert during and not any(during)
    assert gc.isenabled()
    gc.disable()            # (a caller that turned it off keeps it off)
    try:
        make_agent("mcts:playouts=6", 1).choose(g)
        assert not gc.isenabled()
    finally:
        gc.enable()
    # a search that fails gives the collector back too
    broken = make_agent("mcts:playouts=6", 1)
    broken._score = lambda game: 1 / 0
    with pytest.raises(ZeroDivisionError):
        broken.choose(g)
    assert gc.isenabled()


def test_a_position_of_the_same_version_is_not_evaluated_again(monkeypatch):
    g = _position("nord", 4)
    rules = g.rules
    calls = []
    evaluation = rules.evaluation
    monkeypatch.setattr(rules, "evaluation", lambda ctx: (calls.append(1), evaluation(ctx))[1])
    agent = make_agent("mcts:playouts=40", 4)
    copy = g.clone()
    assert copy.state.version == g.state.version
    first = agent._score(g)
    again = agent._score(copy)
    assert again == first and again is not first and len(calls) == 4
    agent.choose(g)
    # 40 new positions, 4 players: 4 of them were left by a decision that changed nothing yet
    assert agent.last_stats["created"] == 40 and len(calls) == 4 + 4 * 36
    assert agent._scores == {}      # (kept for one search only)


def test_equal_values_go_to_the_lowest_option_whatever_the_order_tried():
    def child(best, visits):
        ch = _Node.__new__(_Node)
        ch.best, ch.visits, ch.total = best, visits, [x * visits for x in best]
        return ch
    node = _Node.__new__(_Node)
    node.mover, node.visits = 1, 7
    node.children = {5: child([0.5, 0.5], 2), 2: child([0.5, 0.5], 2), 7: child([0.6, 0.4], 2),
                     9: child([0.4, 0.5], 1)}
    MCTSAgent._refresh_best(node)
    assert node.best is node.children[2].best
    agent = MCTSAgent(0, c=0.0)
    assert agent._select(node) is node.children[2]
    agent = MCTSAgent(0)            # with exploration the one visit less wins
    assert agent._select(node) is node.children[9]
    assert mcts.MCTSAgent is MCTSAgent
