"""A definition's loop over a filter of the position (`[y for y in C if T]`)
loops over C and tests T in place (lang/shortcuts.py _fused_filter): the
same items in the same order, the filter's memo not asked. Only where the
filter is asked with the caller's own parameters, once in its text, and
not where its own code reads a player's pieces from his mask; a failure in
the filter's test is still reported at the filter's text."""

import random

import pytest
from helpers import ev

import nordlang
from nordlang.errors import NordError
from nordlang.rules import build


def _fresh(monkeypatch, game, players, variants=()):
    monkeypatch.setattr(build, "_CACHE", {})
    return nordlang.load_rules(game, players, list(variants))


def test_a_loop_over_a_filter_asked_with_the_callers_parameters_is_fused(monkeypatch):
    funcs = _fresh(monkeypatch, "vikings", 4).names.funcs
    # safe(p, colour): '[c for c in posted(p, colour) if not threatened(c)]', posted a filter of the homeland
    assert funcs["posted"].filter is not None and "posted" in funcs["safe"].inlines
    assert "ships_of" in funcs["repelled_ships"].inlines and "ships_of" in funcs["unrepelled_ships"].inlines
    # below(p, c, colour) asks safe(p, colour) for each c: safe's memo answers, it stays a call
    assert funcs["safe"].filter is not None and "safe" not in funcs["below"].inlines
    # ferry_options(p) asks movable(p) three times: a call, its memo answering the others
    assert funcs["movable"].filter is not None and "movable" not in funcs["ferry_options"].inlines


FORESTS = """\
description: a count over a player's workers
extends: nord
patch:
  define:
    forests(p): 'count(w for w in workers_of(p) if terrain(w) == "forest")'
"""


def test_a_filter_of_a_players_pieces_stays_a_call(tmp_path, monkeypatch):
    v = tmp_path / "forests.yaml"
    v.write_text(FORESTS)
    rules = _fresh(monkeypatch, "nord", 2, [str(v)])
    funcs = rules.names.funcs
    # workers_of(p): '[s for s in occupied_spaces if owner(piece_at(s)) == p]' lists p's mask
    # (zones.py _owned_spaces): a loop over it, asked with forests' own parameter, still calls it
    assert funcs["workers_of"].filter is not None and "workers_of" not in funcs["forests"].inlines
    g = nordlang.Game(rules, 2)
    rng = random.Random(2)
    for _ in range(40):
        g.play_index(rng.randrange(len(g.legal_moves())))
    assert ev(g, "forests(0)") == ev(g, 'len([w for w in workers_of(0) if terrain(w) == "forest"])') > 0


def test_a_fused_loop_gives_what_the_filter_and_the_loop_give(monkeypatch):
    rules = _fresh(monkeypatch, "vikings", 3)
    assert "posted" in rules.names.funcs["safe"].inlines
    rng = random.Random(3)
    checked = 0
    for seed in range(4):
        g = nordlang.Game(rules, seed)
        while not g.over:
            if rng.random() < 0.2:
                for p in range(3):
                    for colour in ("black", "red", "green", "yellow", "blue"):
                        # (an expression typed here is no definition: it calls posted, as written)
                        by_hand = ev(g, f'[c for c in posted({p}, "{colour}") if not threatened(c)]')
                        assert ev(g, f'safe({p}, "{colour}")') == by_hand
                        checked += bool(by_hand)
                    assert ev(g, f"repelled_ships({p})") == ev(
                        g, f"[c for c in ships_of({p}) if repelled(grid_of(c), column(c))]")
            g.play_index(rng.randrange(len(g.legal_moves())))
    assert checked > 50


FAILING = """\
description: a filter whose test fails, looped over by a definition that fuses it
extends: vikings
patch:
  define:
    posted(p, colour): '[c for c in filled_cells(homeland(p)) if amount(c, viking(colour)) // 0 > 0]'
"""


def test_a_failure_in_a_fused_filters_test_is_reported_at_the_filters_text(tmp_path, monkeypatch):
    v = tmp_path / "failing.yaml"
    v.write_text(FAILING)
    rules = _fresh(monkeypatch, "vikings", 2, [str(v)])
    assert "posted" in rules.names.funcs["safe"].inlines
    g = nordlang.Game(rules, 1)
    rng = random.Random(1)
    while not ev(g, "filled_cells(homeland(0))"):     # (the test runs on a filled cell)
        g.play_index(rng.randrange(len(g.legal_moves())))
    with pytest.raises(NordError) as e:
        ev(g, 'safe(0, "red")')
    assert "division by zero" in e.value.message
    assert e.value.pos.file.endswith("failing.yaml") and e.value.pos.line == 5
    assert "called from definition safe(p, colour)" in str(e.value)
