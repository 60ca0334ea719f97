"""Monte Carlo tree search over copies of the game (game.clone()).

Every simulation descends the tree by UCB, adds one new position (one
option played on a copy of its parent) and scores it; the score flows back
up the path. A position is scored by a playout of `depth` random decisions
(0 by default: playing a decision to the next one costs tens of
milliseconds, so full random playouts are out of reach) and then, when the
game is not over, by the rulebook's `result.evaluation`: for each player p
the value is a logistic of (evaluation of p - best evaluation of another
player) / `scale`, in (0, 1); a finished game scores 1 for a winner (shared
among tied winners) and 0 for the others. Values are vectors, one entry per
player, so the search serves any number of players (each position is
judged for the player who decides there).

Backups mix the mean of the simulations below a position with the
minimax value of its best child for the player to move there (`mix`):
with the small budgets a slow engine allows, the best reply matters more
than the average one.

The root always has all its options tried once (so the agent never
looks less far than one-ply greedy play on the same evaluation); the rest of the
budget goes to the best candidates by sequential halving: each round gives
the candidates left equal shares of simulations, then keeps the better
half, so the options compared at the end were searched alike (a position
searched deeper, where the opponent's best reply shows, is not unfairly
compared with one judged by its static score). `halving=0` spends it by
plain UCB from the root instead (against greedy, 2 players, seats
alternating, seed 2024, the default budget won 85.5% of 200 games with
halving and 78.5% of the first 121 without: not yet a significant gap). Below the root, at most
`width` options of a position, drawn at random, are ever tried. The budget
is `playouts` new positions per decision (0: `per_option` per option, at
least 24, at most 300), or `seconds` of wall time when given (with
`playouts` also given, whichever runs out first stops the search; with a
time budget the root's options are tried as far as time allows, at least
one). Subtrees are kept between decisions when the game passed in still
records the moves since the last search.

It searches honestly: the root is a sample of the position drawn from
what the mover may know (`Game.for_player`: items he cannot see dealt
afresh, others' secret answers chosen afresh, the future's chance seeded by
the agent), never the real game: a determinization. With `samples` above 1
it searches that many samples, each with an equal share of the budget, and
takes the option best on average over them. The subtree of the move played
is kept for the next decision when the moves since, as the mover saw them,
lead into it (a sample drawn then, from what he knew then).

Deterministic given the seed unless the budget is `seconds`: all random
draws come from the agent's own generator.
"""

from __future__ import annotations

import gc
import math
import time
from operator import add

from ..errors import UsageError
from ..lang.budget import LIMIT as WORK_LIMIT
from .base import Agent, register, sample_seed
from .mcts_tree import _Node, better_child, refresh_best


@register
class MCTSAgent(Agent):
    name = "mcts"
    needs_evaluation = True         # the rulebook's result.evaluation scores its positions
    params = {
        "playouts": (int, 0, "new positions per decision (0: per_option per option, at least 24, at most 300)"),
        "per_option": (float, 3.0, "the budget when playouts is 0: this many new positions per option"),
        "seconds": (float, 0.0, "wall-time budget per decision; 0: none"),
        "c": (float, 0.4, "exploration constant of UCB"),
        "width": (int, 8, "options tried below the root at most (0: all)"),
        "depth": (int, 0, "random decisions played before a position is scored"),
        "scale": (float, 10.0, "evaluation difference that makes a position worth 73%"),
        "mix": (float, 0.7, "weight of the minimax value against the mean in backups"),
        "samples": (int, 1, "samples of what the mover cannot see (and of the future's chance) searched, "
                            "each with an equal share of the budget"),
        "halving": (int, 1, "1: share the budget left after the root among its best options by sequential "
                            "halving; 0: plain UCB from the root"),
    }

    def __init__(self, seed: int = 0, **params):
        super().__init__(seed, **params)
        self._root = None
        self.last_stats = {}
        self._scores = {}           # state version -> score vector (of this decision's search)
        self._ctx = None            # (rules, the context positions are scored in)

    # ---- scoring ----
    def _score(self, game) -> list:
        """The position's score vector, kept by the state's version: a decision
        that changes nothing of the position (a choice whose effects come
        later) leaves the version, and so the score, as they were (the engine
        memoises rule values by the version alike, lang/memo.py: the
        evaluation reads no flow variable but its player)."""
        version = game.state.version
        out = self._scores.get(version)
        if out is None:
            out = self._scores[version] = self._score_of(game)
        return list(out)

    def _score_of(self, game) -> list:
        rules = game.rules
        st = game.state
        players = rules.player_range
        if st.over:
            res = game.result
            if not res.winners:                 # a draw: every player alike
                return [1.0 / len(players)] * len(players)
            share = 1.0 / len(res.winners)
            return [share if p in res.winners else 0.0 for p in players]
        ev = rules.evaluation
        if ev is None:
            raise UsageError("this rulebook states no evaluation (result.evaluation), so mcts cannot play")
        # (one context for every player's value, its budget of work made afresh for each; kept for
        # the rulebook's next position: it refers to a state only while it scores one)
        ctx = self._ctx
        if ctx is None or ctx[0] is not rules:
            ctx = self._ctx = (rules, rules.ctx(None, {}))
        ctx = ctx[1]
        ctx.state = st
        vars, budget = ctx.vars, ctx.budget
        h = []
        for p in players:
            vars["p"] = p
            budget.left = WORK_LIMIT
            h.append(ev(ctx))
        ctx.state = None
        scale = self.scale
        if not scale > 0:
            return [0.5] * len(h)            # (the logistic of 0)
        # each value against the best of the others': the best, or for the best player the second
        # best (one player: against 0)
        if len(h) > 1:
            top, second = sorted(h, reverse=True)[:2]
        else:
            top = second = 0
        out = []
        exp = math.exp
        for x in h:
            x = (x - (second if x == top else top)) / scale
            if not x < 60.0:                 # (max(-60.0, min(60.0, x)) written out)
                x = 60.0
            elif not x > -60.0:
                x = -60.0
            out.append(1.0 / (1.0 + exp(-x)))
        return out

    def _new_node(self, parent_game, index):
        g = parent_game.branch()
        g.machine.choose(g.state, index)        # (play_index less its checks: index is one of the parent's options)
        if self.depth > 0 and not g.state.over:
            probe = g.branch()
            for _ in range(self.depth):
                if probe.over:
                    break
                probe.play_index(self.rng.randrange(len(probe.state.pending.options)))
            value = self._score(probe)
        else:
            value = self._score(g)
        return _Node(g, value, index)

    # ---- the search ----
    def _q(self, child, p):
        mean = child.total[p] / child.visits
        return self.mix * child.best[p] + (1.0 - self.mix) * mean

    def _select(self, node):
        """The child of the best UCB score (of equal scores, the lowest option's)."""
        p = node.mover
        log_n = math.log(node.visits)
        mix, c = self.mix, self.c
        rest = 1.0 - mix
        best, best_s, best_i = None, None, None
        for i, ch in node.children.items():
            v = ch.visits
            s = mix * ch.best[p] + rest * (ch.total[p] / v) + c * math.sqrt(log_n / v)
            if best_s is None or s > best_s or s == best_s and i < best_i:
                best, best_s, best_i = ch, s, i
        return best

    def _draw_untried(self, node, is_root):
        idx = list(range(node.n_opts))
        if not is_root and self.width and node.n_opts > self.width:
            idx = self.rng.sample(idx, self.width)
            idx.sort()
        node.untried = [i for i in idx if i not in node.children]
        if is_root:
            self.rng.shuffle(node.untried)

    _refresh_best = staticmethod(refresh_best)

    def _reuse(self, game):
        """The kept subtree for this game's position, if the history since leads there."""
        root = self._root
        self._root = None
        if root is None:
            return None
        st = game.state
        made = st.moves_made - root.moves_made
        if made < 0:
            return None
        if made == 0:
            return root if root.texts == st.pending.texts else None
        seen = game.seen_history(root.mover) if st.history else []      # (others' secret answers unseen)
        taken = [h for h in seen if not h[4]][-made:]
        if len(taken) != made:
            return None
        node = root
        for _turn, _player, _choice, text, _forced in taken:
            try:
                i = node.texts.index(text)
            except ValueError:
                return None
            node = node.children.get(i)
            if node is None:
                return None
        if node.game.state.pending is None or node.texts != st.pending.texts:
            return None
        return node

    def _simulate(self, root, start):
        """One simulation from `start` (root or a child of it): descend by UCB, add one
        position, back its score up. Returns 1 when a position was added."""
        path = [root] if start is root else [root, start]
        node = start
        while node.mover is not None:
            if node.untried is None:
                self._draw_untried(node, node is root)
            if node.untried or not node.children:
                break
            node = self._select(node)
            path.append(node)
        added = 0
        if node.mover is None or not node.untried:
            # a finished game (or nothing left to try): score it again
            value = node.value
            node.visits += 1
            node.total = list(map(add, node.total, value))
            path.pop()
        else:
            i = node.untried.pop(0) if node is root else node.untried.pop(self.rng.randrange(len(node.untried)))
            child = self._new_node(node.game, i)
            node.children[i] = child
            added = 1
            value = child.value
        changed = added         # (a best vector changes only above a new position, and only while it changes)
        below = child if added else None
        for anc in reversed(path):
            anc.visits += 1
            anc.total = list(map(add, anc.total, value))     # (the same sums as a loop's, made in C)
            if changed:
                changed = better_child(anc, below)
                below = anc
        return added

    def _ranked(self, root, among):
        p = root.mover
        return sorted(among, key=lambda i: (-self._q(root.children[i], p), i))

    def choose(self, game) -> int:
        """Search a sample of the position (or several, `samples`), drawn from
        what the mover may know; the option best over the samples is played.

        Python's cyclic garbage collector is off while it searches: the tree
        only grows until the search ends and holds no reference cycles (nor do
        the positions: they are freed by reference counting), so each of the
        collector's passes, set off by the positions' many new objects, only
        walked the tree and the rulebook again (6% to 29% of a search's time
        in bench/all.py; a search leaves under one cyclic object a position,
        freed at the collector's next pass)."""
        n = len(game.state.pending.options)
        if n == 1:
            return 0
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._choose(game, n)
        finally:
            self._scores = {}
            if collecting:
                gc.enable()

    def _choose(self, game, n: int) -> int:
        k = max(1, self.samples)
        if k == 1:
            return self._search(game, 0, self.seconds, self.playouts)[0]
        totals = {}
        for j in range(k):
            seconds = self.seconds / k if self.seconds > 0 else 0.0
            playouts = max(n, self.playouts // k) if self.playouts > 0 else 0
            _choice, root = self._search(game, j, seconds, playouts, keep=False)
            for i, ch in root.children.items():
                q, v = totals.get(i, (0.0, 0))
                totals[i] = (q + self._q(ch, root.mover) * ch.visits, v + ch.visits)
        if not totals:
            return self.rng.randrange(n)
        scored = sorted(((q / v, i) for i, (q, v) in totals.items()), key=lambda x: (-x[0], x[1]))
        return scored[0][1]

    def _search(self, game, sample: int, seconds: float, playouts: int, keep: bool = True):
        """Try every option once, then share the rest of the budget among the best
        candidates by sequential halving (each round gives the candidates left
        equal shares and keeps the better half), so that the options compared at
        the end were searched alike. (choice, root)"""
        n = len(game.state.pending.options)
        start = time.perf_counter()
        deadline = start + seconds if seconds > 0 else None
        if self.time_cap is not None:        # (a host's ceiling: the budget's own end, or this, first)
            cap = start + self.time_cap / max(1, self.samples)
            deadline = cap if deadline is None else min(deadline, cap)
        if playouts > 0:
            budget = playouts
        elif seconds > 0:
            budget = None
        else:
            budget = min(300, max(24, int(self.per_option * n)))
        rules = game.rules
        root = self._reuse(game) if keep else None
        self._root = None
        reused = root is not None
        if root is None:
            seen = game.for_player(game.to_move, sample_seed(self.seed, game.state.moves_made, sample))
            root = _Node(seen, [0.5] * rules.num_players)
        self._draw_untried(root, True)
        count = {"created": 0, "iters": 0}

        def out_of_budget():
            if budget is not None and (count["created"] >= budget or count["iters"] >= 4 * budget + n):
                return True
            return deadline is not None and time.perf_counter() >= deadline

        # 1. every option once
        while root.untried:
            if deadline is not None and time.perf_counter() >= deadline and root.children:
                break
            count["iters"] += 1
            count["created"] += self._simulate(root, root)
        p = root.mover
        cands = self._ranked(root, list(root.children))
        if not self.halving:
            # 2. plain UCB from the root
            while not out_of_budget():
                count["iters"] += 1
                count["created"] += self._simulate(root, root)
            cands = []
        # 2. (or) sequential halving among the best
        elif budget is not None:
            left = budget - count["created"]
        else:
            spent = time.perf_counter() - start
            per = spent / max(1, count["created"])
            left = int((deadline - time.perf_counter()) / per) if per > 0 else 0
        if self.halving and left > 0 and len(cands) > 1:
            k = max(2, min(len(cands), left // (2 * max(1, self.width or 8))))
            cands = cands[:k]
            rounds = max(1, math.ceil(math.log2(len(cands))))
            for r in range(rounds):
                if out_of_budget() or len(cands) == 1:
                    break
                share = max(1, (left // rounds) // len(cands)) if r < rounds - 1 else \
                    max(1, (budget - count["created"] if budget is not None else left // rounds) // len(cands))
                for i in cands:
                    ch = root.children[i]
                    for _ in range(share):
                        if out_of_budget():
                            break
                        count["iters"] += 1
                        count["created"] += self._simulate(root, ch)
                if r < rounds - 1:
                    cands = self._ranked(root, cands)[:max(1, math.ceil(len(cands) / 2))]
        if not root.children:  # no time even for one try
            choice = self.rng.randrange(n)
        else:
            pool = cands or list(root.children)
            scored = [(self._q(root.children[i], p), i) for i in sorted(pool)]
            top = max(sc for sc, _ in scored)
            ties = [i for sc, i in scored if sc == top]
            choice = ties[0] if len(ties) == 1 else self.rng.choice(ties)
        self.last_stats = {"created": count["created"], "options": n, "tried": len(root.children),
                           "reused": reused, "finalists": len(cands), "seconds": time.perf_counter() - start}
        child = root.children.get(choice)
        self._root = child if keep and child is not None and child.mover is not None else None
        return choice, root
