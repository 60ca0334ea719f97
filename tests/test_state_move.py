"""State.move, the move effect's one step, leaves the position that
remove then add leave (zones, occupancy, open spaces, links, owners'
masks, parts of the position that changed), and refuses what they refuse
with the same words."""

import pytest
from helpers import mid_game

from nordlang.errors import EvalError


def _picture(st):
    """What a position holds, beside its version."""
    return ({k: dict(v) for k, v in st.pools.items() if v}, dict(st.occupied), st.open_board(), st.links.occ,
            {p: st.owner_mask(p) for p in range(st.rules.num_players)}, sorted(st.links.comps),
            {k: v != st.base for k, v in st.parts.items()})


def _pair(moves=40):
    rules, g = mid_game(4, 7, moves)
    a, b = g.state.clone(), g.state.clone()
    for st in (a, b):                   # (made now: both follow the changes from here)
        st.open_board(), st.links, st.owner_mask(0)
        st.parts, st.base = {}, st.version
    return rules, a, b


def _both(a, b, src, dst, item, n=1):
    a.move(src, dst, item, n)
    assert a.links.comps is not None    # (settled after each change, as a rule asking would)
    b.remove(src, item, n)
    b.add(dst, item, n)
    assert b.links.comps is not None


def test_a_move_leaves_the_position_remove_and_add_leave():
    rules, a, b = _pair()
    p = a.player
    piece, supply = ("man", p), ("supply", p)
    free = [s for s in a.open_board()][:3]
    for s in free:                                      # pieces placed: a space closes, the links grow
        _both(a, b, supply, s, piece)
    assert _picture(a) == _picture(b)
    assert all(a.occupied[s] == piece for s in free) and not set(free) & set(a.open_board())
    _both(a, b, free[1], supply, piece)                 # one lifted: its space opens again
    assert free[1] in a.open_board() and free[1] not in a.occupied
    assert _picture(a) == _picture(b)
    a_counts = dict(a.pools[supply])
    _both(a, b, supply, ("hand", p), piece)             # a move between two pools off the board
    assert a.pools[supply].get(piece, 0) == a_counts.get(piece, 0) - 1
    assert _picture(a) == _picture(b)


def test_a_move_changes_the_parts_of_both_zones_once():
    rules, a, _b = _pair()
    p = a.player
    v0 = a.version
    a.move(("supply", p), a.open_board()[0], ("man", p))
    assert a.version != v0
    changed = {k for k, v in a.parts.items() if v == a.version}
    owner = {("supply", p)} if a.by_owner else set()
    assert changed == {("zones",), "supply", None, ("occupancy",)} | owner     # (None: the space's name part)


def test_a_copy_keeps_its_pools_when_the_other_moves():
    rules, a, _b = _pair()
    p = a.player
    copy = a.clone()
    before = dict(a.pools[("supply", p)])
    copy.move(("supply", p), copy.open_board()[0], ("man", p))
    assert a.pools[("supply", p)] == before and copy.pools[("supply", p)] != before


@pytest.mark.parametrize("case", ["none left", "space taken"])
def test_a_move_refuses_what_remove_and_add_refuse(case):
    rules, a, b = _pair()
    p = a.player
    if case == "none left":
        src, dst, item = ("hand", p), ("supply", p), ("man", 99)
    else:
        taken = next(iter(a.occupied))
        src, dst, item = ("supply", p), taken, ("man", p)
    with pytest.raises(EvalError) as moved:
        a.move(src, dst, item)
    with pytest.raises(EvalError) as stepped:
        b.remove(src, item)
        b.add(dst, item)
    assert str(moved.value) == str(stepped.value)
