"""Primitives that keep what they make: others(p) per number of players and
player. The values are those made afresh, for players and for what is no
player."""

from helpers import ev

import nordlang


def test_others_is_kept_and_equals_every_other_player():
    game = nordlang.load("nord", players=4, seed=0)
    for p in (0, 3, 7, -1, True, 2.0, "x", None):
        want = tuple(q for q in range(4) if q != p)
        shown = {None: "none", True: "true", "x": '"x"'}.get(p, p)
        assert ev(game, f"let p = {shown} in others(p)") == want, p
    first = ev(game, "others(1)")
    assert ev(game, "others(1)") is first                 # (kept: the same tuple again)
    assert ev(game, "let p = [1, 2] in others(p)") == (0, 1, 2, 3)     # (unhashable: made as written)
    three = nordlang.load("nord", players=3, seed=0)
    assert ev(three, "others(1)") == (0, 2)               # (kept per number of players)
