"""The structures kept up to date as pieces come and go, against answers
made from scratch over many random positions: the bit layout's reach
(connected and component by player, by any piece, by a collection), and the
placement searches kept region by region (groups with one region)."""

import itertools
import random
from pathlib import Path

import pytest
import yaml
from helpers import random_links

import nordlang
from nordlang.board.masks import bit_layout
from nordlang.engine.library import STD, connected_subsets
from nordlang.engine.library.subsets import _board_masks, _grow, _subsets
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


def _by_size(sets):
    out: dict = {}
    for g in sets:
        out.setdefault(len(g), []).append(g)
    return out


def test_groups_kept_by_region_match_a_whole_search():
    """On Nord's board, groups within one region (kept region by region
    from call to call) equal the whole search's, in the same order, as the
    open spaces and anchors change a little at a time."""
    rules = nordlang.load_rules("nord", 4)
    grid = rules.grid
    layout = bit_layout(grid)
    pre = _board_masks(grid.orth, grid.region_of, {}, layout.bit)
    spaces, bit, nbr, reg, within = pre[:5]
    free = [s for s in grid.spaces if bit.get(s) and bit[s] & layout.free]
    rng = random.Random(5)
    ok = {s for s in free if rng.random() < 0.7}
    anchors = {s for s in ok if rng.random() < 0.3}
    for step in range(1500):
        for s in rng.sample(free, rng.randrange(0, 3)):
            ok ^= {s}
        for s in rng.sample(free, rng.randrange(0, 3)):
            anchors ^= {s}
        hi = rng.randrange(1, 6)
        lo = rng.randrange(1, hi + 1)
        m = sum(bit[s] for s in ok)
        got = _subsets(pre, m, lo, hi, frozenset(anchors), 1)
        roots = sum(bit[s] for s in anchors & ok)
        whole = _grow(roots, m, nbr, reg, within, hi, 1)
        want = [pre[5][g] for found in whole[lo:] for g in sorted(found)]
        assert list(got) == want, step
    assert len(pre[7]) > 100           # parts were kept


def test_groups_kept_by_region_match_brute_force():
    """Many calls on one small board (its parts kept from call to call),
    each against every subset of the allowed spaces."""
    rng = random.Random(3)
    cells = [(r, c) for r in range(3) for c in range(4)]
    orth = {s: tuple(n for n in ((s[0] - 1, s[1]), (s[0] + 1, s[1]), (s[0], s[1] - 1), (s[0], s[1] + 1))
                     if n in cells) for s in cells}
    region_of = {s: rng.randrange(3) for s in cells}
    memo: dict = {}
    for _ in range(300):
        allowed = frozenset(s for s in cells if rng.random() < 0.75)
        anchors = frozenset(s for s in allowed if rng.random() < 0.4)
        lo, hi = rng.randrange(1, 3), rng.randrange(1, 5)
        got = connected_subsets(orth, region_of, allowed, lo, hi, anchors, 1, memo)
        ref = []
        for k in range(lo, hi + 1):
            for comb in itertools.combinations(sorted(allowed), k):
                g = frozenset(comb)
                if g & anchors and len({region_of[x] for x in g}) == 1 and _flood(comb[:1], g, orth) == g:
                    ref.append(g)
        assert sorted(got, key=lambda g: (len(g), sorted(g))) == sorted(ref, key=lambda g: (len(g), sorted(g)))
        assert list(_by_size(got)) == sorted(_by_size(got))


def test_links_settled_late_equal_links_built_afresh():
    """Pieces placed and lifted in runs of any length (the links settle only
    when asked), from positions left and come back to, on Nord's board with
    its structures: the components, the components each structure touches,
    and the connections equal those of links built from scratch."""
    from nordlang.board.graph import Links
    rules = nordlang.load_rules("nord", 4)
    grid = rules.grid
    free, rng, occ, links = random_links(grid, 11, 25)
    kept = [(links, frozenset(occ))]
    sids = sorted(grid.structures)
    checked = 0
    for step in range(4000):
        roll = rng.random()
        if roll < 0.02:
            links, occ = rng.choice(kept)
            occ = set(occ)
        elif roll < 0.04:
            kept.append((links, frozenset(occ)))
        elif roll < 0.55 and len(occ) < len(free) or not occ:
            s = rng.choice([s for s in free if s not in occ])
            occ.add(s)
            links = links.added(s)
        else:
            s = rng.choice(sorted(occ))
            occ.remove(s)
            links = links.removed(s)
        if rng.random() < 0.25:
            ref = Links(grid, frozenset(occ))
            assert links.occ == ref.occ
            assert sorted(links.comps) == sorted(ref.comps), step
            assert links.struct_comps == ref.struct_comps, step
            a, b = rng.sample(sids, 2)
            assert links.connected(a, b) == ref.connected(a, b)
            assert links.structure_frontier(a) == ref.structure_frontier(a)
            checked += 1
    assert checked > 800
