"""After pieces only came, connected_pairs answers from the last position's
pairs and the structures the grown component touches (Links.joined),
without pairing every structure again: against answers made from scratch."""

import random

from helpers import random_links

import nordlang
from nordlang.board.graph import Links
from nordlang.engine.library import STD
from nordlang.lang.compiler import Ctx


def _scratch(rules, occupied, kind):
    ref = Links(rules.grid, frozenset(occupied))
    ids = rules.structures_by_kind[kind]
    return {(a, b) for a in ids for b in ids if a != b and ref.connected(a, b)}


def test_pairs_after_placements_come_from_the_last_pairs_and_equal_a_fresh_answer():
    rules = nordlang.load_rules("nord", 4)
    pairs = STD.get("connected_pairs").fn
    joined = 0
    for seed in range(3):
        g = nordlang.Game(rules, seed)
        rng = random.Random(seed)
        while not g.over:
            g.play_index(rng.randrange(len(g.state.pending.options)))
            links = g.state.links
            around = links.around                       # (settled: `joined` is set now or never)
            if links.joined is not None and links.joined[0].get("settlement") is not None:
                joined += 1
                last = links.joined[0]["settlement"]
                got = pairs(Ctx(g.state, rules), "settlement")
                assert got >= last                      # pieces only came: no pair is lost
            else:
                got = pairs(Ctx(g.state, rules), "settlement")
            assert got == _scratch(rules, g.state.occupied, "settlement")
            assert around is links.around
    assert joined > 20


def test_a_lift_never_answers_from_the_last_pairs():
    rules = nordlang.load_rules("nord", 4)
    grid = rules.grid
    free, rng, occ, links = random_links(grid, 5, 30)
    assert links.around
    lifts = joined = 0
    for _ in range(300):
        if rng.random() < 0.4:
            s = rng.choice(sorted(occ))
            occ.discard(s)
            new = links.removed(s)
            assert new.around and new.joined is None
            lifts += 1
        else:
            s = rng.choice([s for s in free if s not in occ])
            occ.add(s)
            new = links.added(s)
            assert new.around
            if new.joined is not None:
                joined += 1
                last, touching = new.joined
                assert last is links.pairs
                assert set(touching) == {sid for sid, m in new.around.items() if m & new.masks.bit[s]}
        links = new
    assert lifts > 50 and joined > 50
