"""The structures kept up to date as pieces come and go, against answers
made from scratch over many random positions: the bit layout's reach
(connected and component by player, by any piece, by a collection)."""

import itertools
import random
from pathlib import Path

import pytest
import yaml

import nordlang
from nordlang.board.masks import bit_layout
from nordlang.engine.library import STD
from nordlang.lang.compiler import Ctx

HEX = Path(__file__).resolve().parent / "games" / "hex-mini" / "hex.yaml"

BOARDS = {
    "square": {"geometry": "square", "size": [5, 6], "open": "cell", "structures": {}},
    "square8": {"geometry": "square8", "size": [5, 5], "open": "cell", "structures": {}},
    "hex": {"geometry": "hex", "size": [6, 6], "open": "cell", "structures": {}},
    "graph": {"geometry": "graph", "open": "cell", "spaces": [f"v{i}" for i in range(14)],
              "edges": [[f"v{i}", f"v{j}"] for i, j in sorted({tuple(sorted(random.Random(7).sample(range(14), 2)))
                                                               for _ in range(22)})],
              "structures": {}},
}


def _game(tmp_path, board):
    """The hex-mini rulebook (stones that link, two players) on another board."""
    data = yaml.safe_load(HEX.read_text())
    data["boards"] = BOARDS[board]
    path = tmp_path / f"{board}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return nordlang.load(rulebook=str(path), seed=1)


def _flood(start, allowed, orth):
    """Every space of `allowed` reachable from the spaces of `start` in it."""
    todo = [s for s in start if s in allowed]
    seen = set(todo)
    while todo:
        for n in orth[todo.pop()]:
            if n in allowed and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_reach_follows_pieces_placed_and_lifted(tmp_path, board):
    """connected/component through a player's stones, any stones, or a
    collection of spaces, after each of many random placements and lifts,
    and on positions left and come back to (the memo then meets a `within`
    that both gained and lost spaces), equal flood fills over the board."""
    game = _game(tmp_path, board)
    rules, grid = game.rules, game.rules.grid
    connected, component = STD.get("connected").fn, STD.get("component").fn
    spaces = list(grid.spaces)
    rng = random.Random(board)
    sides = [tuple(rng.sample(spaces, rng.randrange(1, 5))) for _ in range(4)]
    area = tuple(rng.sample(spaces, len(spaces) * 2 // 3))
    state = game.state
    saved = []
    checked = 0
    for step in range(600):
        roll = rng.random()
        if roll < 0.05 and saved:
            state = rng.choice(saved).clone()              # another position: the memo's last answers are stale
        elif roll < 0.1:
            saved.append(state.clone())
        elif roll < 0.65 or not state.occupied:
            free = [s for s in spaces if s not in state.occupied]
            if free:
                state.add(rng.choice(free), ("stone", rng.randrange(2)))
        else:
            s = rng.choice(sorted(state.occupied))
            state.remove(s, state.occupied[s])
        ctx = Ctx(state, rules)
        mine = {p: {s for s, item in state.occupied.items() if item[1] == p} for p in (0, 1)}
        for a, b in itertools.combinations(sides, 2):
            for over, allowed in ((0, mine[0]), (1, mine[1]), (None, set(state.occupied)), (area, set(area))):
                reach = _flood(a, allowed, grid.orth)
                assert connected(ctx, a, b, over) is bool(reach & set(b)), (step, a, b, over)
                if over is not None:
                    assert component(ctx, a, over) == reach
                checked += 1
        assert bit_layout(grid).reach(0, 0, "a key of no caller") == 0
    assert checked > 3000
