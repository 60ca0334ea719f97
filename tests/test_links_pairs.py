"""Which structures link is carried from links to links while no
structure's components gain or lose a port face (Links.pairs), and
connected_pairs answers from it: against answers made from scratch."""

import random

from helpers import random_links

import nordlang
from nordlang.board.graph import Links
from nordlang.engine.library import STD
from nordlang.lang.compiler import Ctx


def _faces_held(links):
    faces = links.masks.any_face
    return {sid: m & faces for sid, m in links.around.items()}


def test_pairs_are_carried_exactly_while_no_face_changes_hands():
    rules = nordlang.load_rules("nord", 4)
    grid = rules.grid
    free, rng, occ, links = random_links(grid, 11, 25)
    links.pairs["settlement"] = "answer"           # (a marker: carried or not)
    carried = renewed = 0
    for _ in range(600):
        if occ and rng.random() < 0.45:
            s = rng.choice(sorted(occ))
            occ.discard(s)
            new = links.removed(s)
        else:
            s = rng.choice([s for s in free if s not in occ])
            occ.add(s)
            new = links.added(s)
        same_faces = _faces_held(new) == _faces_held(links)
        assert (new.pairs is links.pairs) == same_faces
        assert _faces_held(new) == _faces_held(Links(grid, frozenset(occ)))
        if same_faces:
            carried += 1
        else:
            renewed += 1
            assert new.pairs == {}
            new.pairs["settlement"] = "answer"
        links = new
    assert carried > 100 and renewed > 100


def test_connected_pairs_follow_a_game_whose_links_carry_them():
    rules = nordlang.load_rules("nord", 4)
    pairs = STD.get("connected_pairs").fn
    ids = rules.structures_by_kind["settlement"]
    g = nordlang.Game(rules, 3)
    rng = random.Random(3)
    seen = set()
    while not g.over:
        g.play_index(rng.randrange(len(g.state.pending.options)))
        ref = Links(rules.grid, frozenset(g.state.occupied))
        got = pairs(Ctx(g.state, rules), "settlement")
        assert got == {(a, b) for a in ids for b in ids if a != b and ref.connected(a, b)}
        seen.add(len(got))
    assert len(seen) > 3
