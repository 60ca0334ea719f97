"""The check that no option shows a player an item he cannot see
(views.py unseen_option) takes the items offered from the zones only he
sees as seen, without asking `sees` item by item: such a zone's
declaration shows him every face there."""

import random

import nordlang
from nordlang.engine import views


def _at_tile_choice(seed):
    g = nordlang.Game(nordlang.load_rules(players=4), seed)
    rng = random.Random(seed)
    while not (g.state.pending.step.name == "play" and len(g.state.pending.options) > 2):
        g.play_index(rng.randrange(len(g.state.pending.options)))
    return g


def test_offered_tiles_in_his_hand_are_seen_without_asking_each(monkeypatch):
    g = _at_tile_choice(5)
    st, p = g.state, g.state.pending
    asked = []
    real = views.sees
    monkeypatch.setattr(views, "sees", lambda *a: (asked.append(a), real(*a))[1])
    assert views.unseen_option(st, p.options, p.player) is None
    assert asked == []
    other = next(item for q in g.rules.player_range if q != p.player
                 for item in st.items(("hand", q)) if item not in st.items(("hand", p.player)))
    assert views.unseen_option(st, list(p.options) + [other], p.player) == other
    assert asked and all(a[3] == p.player and a[2] == other for a in asked)   # (only the other's tile was asked)
    # every face in a hand is its owner's to see, as the check takes it
    assert all(real(st, ("hand", p.player), item, p.player) for item in st.items(("hand", p.player)))
