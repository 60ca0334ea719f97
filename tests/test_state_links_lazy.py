"""The connection graph a state keeps is made when asked for, not at every
piece placed or lifted (State.add/remove mark the linking pieces' mask), and
the turn's snapshot is a frozen position of its own."""

import random

from helpers import mid_game

from nordlang.board.graph import Links
from nordlang.board.masks import bit_layout
from nordlang.engine.frames import turn_start


def _mid_game(players=4, seed=7, moves=40):
    return mid_game(players, seed, moves)


def _open(rules, st):
    return [s for s in rules.grid.spaces if s not in st.occupied and s not in rules.grid.structure_at]


def test_pieces_placed_and_lifted_in_a_row_make_one_graph_when_asked():
    rules, g = _mid_game()
    st = g.state.clone()
    before = st.links
    supply = ("supply", st.player)
    piece = ("man", st.player)
    spaces = _open(rules, st)[:5]
    lifted = sorted(s for s, item in st.occupied.items() if item[0] in rules.linking)[:2]
    for s in spaces:
        st.remove(supply, piece)
        st.add(s, piece)
    for s in lifted:
        item = st.occupied[s]
        st.remove(s, item)
        st.add(supply, item)
    assert st._links is before                     # nothing made yet: 9 changes, no graph
    now = st.links
    linking = frozenset(s for s, item in st.occupied.items() if item[0] in rules.linking)
    bit = bit_layout(rules.grid).bit
    assert now.occ == sum(bit[s] for s in linking)
    fresh = Links(rules.grid, linking)
    assert sorted(now.comps) == sorted(fresh.comps) and now.around == fresh.around
    assert st.links is now                         # asked again: the same graph




def test_the_turn_snapshot_keeps_the_position_the_turn_began_in():
    rules, g = _mid_game()
    st = g.state
    start = turn_start(st)                       # (as each turn's start makes it: flow.begin_turn)
    picture = ({k: dict(v) for k, v in start.pools.items()}, {k: list(v) for k, v in start.decks.items()},
               {k: list(v) for k, v in start.tracks.items()}, dict(start.counters), dict(start.occupied),
               start.links.occ)
    assert start.rng is None and start.frames == [] and start.pending is None
    rng = random.Random(3)
    for _ in range(60):
        if g.over:
            break
        g.play_index(rng.randrange(len(g.state.pending.options)))
    assert st.occupied != picture[4]
    assert picture == ({k: dict(v) for k, v in start.pools.items()}, {k: list(v) for k, v in start.decks.items()},
                       {k: list(v) for k, v in start.tracks.items()}, dict(start.counters), dict(start.occupied),
                       start.links.occ)


def test_a_piece_placed_and_lifted_again_leaves_the_graph_it_had():
    rules, g = _mid_game()
    st = g.state.clone()
    before = st.links
    before.memo["kept"] = 1                      # (what the graph keeps stays with it)
    space = _open(rules, st)[0]
    piece = ("man", st.player)
    st.remove(("supply", st.player), piece)
    st.add(space, piece)
    assert st._links is before
    st.remove(space, piece)
    st.add(("supply", st.player), piece)
    assert st.links is before and st.links.memo["kept"] == 1
