"""Primitives that keep what they make: others(p) per number of players and
player, the sort keys of items (State.items), a cell's neighbours. The
values are those made afresh, for players and for what is no player."""

from pathlib import Path

from helpers import ev
from helpers import run_effects as run

import nordlang
from nordlang.engine.keys import _ITEM_KEYS, _item_key

TABLEAU = Path(__file__).parent / "games" / "tableau" / "tableau.yaml"


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


def test_items_sort_by_their_kept_keys_as_by_the_keys_made_afresh():
    items = [("man", 3), ("man", None), ("jarl", 1), ("man", 0), ("card", "ace"), ("card", 2), ("man", True)]
    assert sorted(items, key=_ITEM_KEYS.__getitem__) == sorted(items, key=_item_key)
    assert all(_ITEM_KEYS[x] == _item_key(x) for x in items)
    game = nordlang.load(str(TABLEAU), seed=0)
    run(game, "move(card(4), deck, cell(tableau(0), 0, 0))\nmove(card(2), deck, cell(tableau(0), 0, 0))\n"
              "move(card(3), deck, cell(tableau(0), 0, 0))")
    assert ev(game, "items(cell(tableau(0), 0, 0))") == (("card", 2), ("card", 3), ("card", 4))
