"""Reads of the connection graph (lang/reads.py AroundPart, RingPart): a
definition that asks whether spaces link to a structure its argument
names is memoised by the mask of the components touching that structure,
and one that asks which spaces around its argument are occupied by the
mask of those, values rather than versions, so its value outlives pieces
placed elsewhere (and serves any position where the masks are the same);
and a definition whose
memo does not pay but which is asked twice in a row keeps its last value
(lang/memo.py _make_trial)."""

import random
from types import SimpleNamespace

import nordlang
from nordlang.board.masks import bit_layout
from nordlang.lang import memo
from nordlang.lang.compiler import Ctx
from nordlang.lang.reads import OCCUPANCY, ZONES, AroundPart, ElemPart, RingPart, key_parts, read_set
from nordlang.rules import build

_DEFINES = {
    "near(s)": "count(w for w in surroundings(s) if connected(w, s))",        # a space and the structure
    "linked(a, b)": "connected(a, b)",                                        # two arguments
    "held(s)": "[w for w in occupied_spaces if connected(w, s)]",             # w: a space the text does not show
    "two(a, b)": "connected(a, b, 0)",                                        # through one player's pieces
    "via(s)": "near(s) + 1",                                                  # a caller, of its argument
    "fixed": 'near(first(structures("settlement")))',                         # ... of a constant
    "both(s)": 'near(s) + len(items(first(structures("settlement"))))',       # and every zone
    "busy(s)": "count(w for w in surroundings(s) if occupied(w))",            # the spaces around it
    "whose(s)": "count(w for w in surroundings(s) if piece_at(w) != none)",   # (which piece: the occupancy)
}


def _rules(monkeypatch, tmp_path, trial=10 ** 9):
    variant = tmp_path / "v.yaml"
    lines = "".join(f"    {k}: '{v}'\n" for k, v in _DEFINES.items())
    variant.write_text(f"description: connection reads\nextends: nord\npatch:\n  define:\n{lines}")
    monkeypatch.setattr(build, "_CACHE", {})
    monkeypatch.setattr(memo, "_TRIAL", trial)
    return nordlang.load_rules(None, 2, [str(variant)])


def test_connected_reads_the_structure_argument_s_components(monkeypatch, tmp_path):
    funcs = _rules(monkeypatch, tmp_path).names.funcs
    assert read_set(funcs["near"]) == (AroundPart(0),)
    assert set(read_set(funcs["linked"])) == {AroundPart(0), AroundPart(1)}
    assert read_set(funcs["held"]) == (OCCUPANCY,)
    assert read_set(funcs["two"]) == (OCCUPANCY,)
    assert read_set(funcs["via"]) == (AroundPart(0),)
    assert read_set(funcs["fixed"]) == (OCCUPANCY,)
    assert set(read_set(funcs["both"])) == {AroundPart(0), ZONES}       # (no zone's part: kept beside ZONES)
    assert read_set(funcs["busy"]) == (RingPart(0),)
    assert read_set(funcs["whose"]) == (OCCUPANCY,)
    assert read_set(funcs["food"]) == (AroundPart(0), RingPart(0))     # the rulebook's own
    # (never an ElemPart, which a NamedTuple of one field would equal; never dropped with the zones' parts)
    assert AroundPart(0) != ElemPart(0)
    # (every zone and the occupancy: the position's version is as good a key, and cheaper)
    assert read_set(funcs["reach"]) == (OCCUPANCY, ZONES) and key_parts(funcs["reach"]) is None


def _counting(f):
    """f's memoised call on a py that counts its calls (its memo kept)."""
    asked = []

    def py(ctx, *args):
        asked.append(args)
        return f.py(ctx, *args)
    return memo._memo_call(f, py, key_parts(f), len(f.params)), asked


def test_a_value_outlives_pieces_placed_away_from_the_structure(monkeypatch, tmp_path):
    rules = _rules(monkeypatch, tmp_path)
    memo.clear_memo()
    g = nordlang.Game(rules, 3)
    rng = random.Random(3)
    for _ in range(30):
        g.play_index(rng.randrange(len(g.legal_moves())))
    st, grid = g.state, rules.grid
    mk = bit_layout(grid)
    call, asked = _counting(rules.names.funcs["near"])
    busy, counted = _counting(rules.names.funcs["busy"])
    ctx = Ctx(st, rules)
    s = rules.structures_by_kind["settlement"][0]
    value, taken = call(ctx, s), busy(ctx, s)
    piece = (sorted(rules.linking)[0], 0)
    around = st.links.around[s]
    halo = mk.spread(around | mk.faces[s][1]) | around | mk.faces[s][1]
    far = next(x for x in grid.spaces if x not in st.occupied and x not in grid.structure_at
               and not mk.spread(mk.bit[x]) & (halo | st.links.occ))
    st.add(far, piece)                                  # a new position, another occupancy: the same mask
    assert st.links.around[s] == around
    assert call(ctx, s) == value and len(asked) == 1    # answered by the memo
    assert busy(ctx, s) == taken and len(counted) == 1
    near = next(f for f in mk.faces[s][0] if f not in st.occupied)
    st.add(near, piece)                                 # a piece on a port face joins the structure's components
    assert call(ctx, s) == rules.names.funcs["near"].py(ctx, s) == value + 1 and len(asked) == 2
    assert busy(ctx, s) == taken + 1 and len(counted) == 2
    st.remove(near, piece)                              # the mask as it was: the value kept for it
    assert call(ctx, s) == value and len(asked) == 2
    assert call(ctx, far) == rules.names.funcs["near"].py(ctx, far) and len(asked) == 3    # (a space: no mask)
    # the mask of the occupied spaces around: the linking pieces', or (when some occupy
    # without linking) made from the occupancy
    st.add(near, piece)
    want = sum(mk.bit[w] for w in grid.ring[grid.structures[s].space] if w in st.occupied)
    assert want and st.ring_taken(s) == want == st.ring_taken(grid.structures[s].space)
    monkeypatch.setattr(rules, "linking", frozenset())
    assert st.ring_taken(s) == want and st.ring_taken("no such place") == (st.version,)


def test_a_value_asked_again_at_once_is_kept_alone(monkeypatch):
    monkeypatch.setattr(memo, "_TRIAL", 20)
    asked = []
    f = type("Definition", (), {"params": ("a",)})()      # (a key: hashable)

    def py(ctx, a):
        asked.append(a)
        return a * 2
    f.call = memo._memo_call(f, py, None, 1, trial=memo._make_trial(f, py, None))
    ctx = SimpleNamespace(state=SimpleNamespace(version=0))
    for v in range(18):                    # 20 calls: 18 positions, 2 asked again (under 1 in 5, over 1 in 20)
        ctx.state.version = ("trial", v)
        for _ in range(2 if v < 2 else 1):
            assert f.call(ctx, v) == 2 * v
    assert f.call is not py and "kept" in f.call.__code__.co_names      # (the trial settled on it)
    asked.clear()
    ctx.state.version = "after"
    assert [f.call(ctx, 7), f.call(ctx, 7), f.call(ctx, 8), f.call(ctx, 7)] == [14, 14, 16, 14]
    assert asked == [7, 8, 7]               # the last value only, not a memo



def test_a_mask_s_spaces_are_listed_once():
    rules = nordlang.load_rules("nord", 2)
    g = nordlang.Game(rules, 4)
    rng = random.Random(4)
    for _ in range(20):
        g.play_index(rng.randrange(len(g.legal_moves())))
    mk, m = bit_layout(rules.grid), g.state.owner_mask(0)
    listed = mk.members(m)
    # (in the spaces' order: what sorted() gives, so a player's spaces need no sorting)
    assert listed == tuple(sorted(s for s, item in g.state.occupied.items() if item[1] == 0)) and listed
    assert mk.members(m) is listed      # kept by its mask: a player's pieces, listed at every position
