"""Play complete games (for bench/instructions.sh): PLAYERS GAMES [AGENT].

The game is the environment's BENCH_GAME, a bundled game's name (default nord);
BENCH_WARM games (seeds from 1000, default 0) are played first, in the run
that counts and the one it is compared with alike: what a long run costs
a game once the memos' trials are settled.

AGENT is an agent spec as on the command line (default: the bench's own
random choice, one index per decision, which plays the same games as
always); seeds run from 100.
"""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import nordlang  # noqa: E402
from nordlang.agents.base import make_agents  # noqa: E402


def main(players: int, games: int, agent: str | None = None) -> None:
    rules = nordlang.load_rules(os.environ.get("BENCH_GAME", "nord"), players=players)
    warm = int(os.environ.get("BENCH_WARM", "0"))
    seeds = list(range(1000, 1000 + warm)) + list(range(100, 100 + games))
    for seed in seeds:
        g = nordlang.Game(rules, seed)
        if agent is None:
            rng = random.Random(seed)
            while not g.over:
                g.play_index(rng.randrange(len(g.state.pending.options)))
        else:
            agents = make_agents([agent], players, seed)
            while not g.over:
                g.play_index(agents[g.to_move].choose(g))


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None)
