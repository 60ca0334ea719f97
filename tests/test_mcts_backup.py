"""mcts backups: a position's best child is brought up to date from the one
child that changed (agents/mcts_tree.py better_child), looking at all its
children only when the best one got worse: the same best as a full pass
(refresh_best), ties to the lowest option, and the same moves chosen."""

import random

import nordlang
from nordlang.agents.base import make_agent
from nordlang.agents.mcts import MCTSAgent, _Node
from nordlang.agents.mcts_tree import better_child


def _node(mover, children):
    node = _Node.__new__(_Node)
    node.mover, node.children, node.best_i = mover, {}, None
    node.best = [0.5, 0.5]
    for i, best in children.items():
        node.children[i] = _child(i, best)
    MCTSAgent._refresh_best(node)
    return node


def _child(i, best):
    ch = _Node.__new__(_Node)
    ch.option, ch.best = i, best
    return ch


def test_one_child_changed_gives_the_full_pass_best():
    rng = random.Random(7)
    levels = [0.25, 0.5, 0.75]                   # (few values: many ties)
    for _ in range(3000):
        node = _node(rng.randrange(2), {i: [rng.choice(levels), rng.choice(levels)]
                                        for i in rng.sample(range(9), rng.randrange(1, 6))})
        i = rng.choice(list(node.children) + [9])    # a child changed, or a new one (option 9)
        was = node.best
        if i == 9:
            node.children[9] = _child(9, [rng.choice(levels), rng.choice(levels)])
        else:
            node.children[i].best = [rng.choice(levels), rng.choice(levels)]
        changed = better_child(node, node.children[i])
        got = (node.best, node.best_i)
        MCTSAgent._refresh_best(node)
        assert got == (node.best, node.best_i) and got[0] is node.best
        assert changed == (node.best is not was)


def test_the_first_child_is_the_best_whatever_the_position_scored():
    node = _Node.__new__(_Node)
    node.mover, node.children, node.best_i, node.best = 0, {}, None, [0.9, 0.1]
    node.children[4] = _child(4, [0.2, 0.8])
    assert better_child(node, node.children[4])
    assert node.best == [0.2, 0.8] and node.best_i == 4


def test_the_same_moves_at_seeded_positions():
    rules = nordlang.load_rules(players=2)
    g = nordlang.Game(rules, 3)
    rng = random.Random(3)
    for _ in range(11):
        g.play_index(rng.randrange(len(g.state.pending.options)))
    agent = make_agent("mcts", 5)
    # (the move and tree size this search gave with a full pass over the children at every backup)
    assert (agent.choose(g), agent.last_stats["created"]) == (17, 86)
