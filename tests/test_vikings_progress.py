"""Vikings, the Progress / No-Auction variant (variants/vikings/progress.yaml):
complete games for 2 to 4 players in which, at every decision, the 25
special tiles are each in exactly one place, the face-up offer is filled to
4 at each round's start only, a special tile is offered exactly after a set
bought at the highest price then on the wheel (above 0), and a boatsman
without a boat moves one Viking; and the variant's scenarios pass."""

import random
from collections import Counter
from pathlib import Path

import pytest

import nordlang
from nordlang.cli import main

ROOT = Path(__file__).resolve().parent.parent
SPECIAL_KINDS = ("special", "building")
ALL_SPECIALS = Counter({
    ("special", "five_coins"): 1, ("special", "goldsmith_1"): 2, ("special", "goldsmith_2"): 1,
    ("special", "boat"): 6, ("special", "noble_1"): 3, ("special", "scout_1"): 1, ("special", "fisherman_1"): 1,
    ("special", "wooden_boatsman"): 4, ("special", "supply"): 1, ("special", "gold"): 1,
    ("building", "longhouse"): 1, ("building", "smithy"): 1, ("building", "storehouse"): 1,
    ("building", "shrine"): 1})


def specials_by_place(game):
    """place -> Counter of the special tiles it holds (pools, grid cells, decks, tracks)."""
    st = game.state
    out = {}
    for key, pool in st.pools.items():
        found = Counter({i: n for i, n in pool.items() if i[0] in SPECIAL_KINDS and n})
        if found:
            out[key] = found
    for key, seq in list(st.decks.items()) + list(st.tracks.items()):
        found = Counter(i for i in seq if i is not None and i[0] in SPECIAL_KINDS)
        if found:
            out[key] = found
    return out


def wheel_prices(game):
    return [i for i, t in enumerate(game.state.tracks[("wheel_tiles", None)]) if t is not None]


def play_checked(players, seed):
    game = nordlang.load("vikings", players=players, seed=seed, variants=["progress"])
    rng = random.Random(seed)
    offered = taken = 0
    last_buy = None          # (price, the highest price on the wheel before it)
    while not game.over:
        places = specials_by_place(game)
        assert sum(places.values(), Counter()) == ALL_SPECIALS
        # a special tile is never anywhere but the deck, the offer, a player's kept tiles, a homeland cell, the box
        assert {k[0] for k in places} <= {"specials", "special_offer", "kept", "homeland", "box"}
        assert all(i[0] == "building" for k, c in places.items() if k[0] == "homeland" for i in c)
        offer = places.get(("special_offer", None), Counter())
        assert sum(offer.values()) <= 4
        p = game.state.pending
        if p.step.name == "buy":
            prices = wheel_prices(game)
            if len(prices) == 12:        # a round's first purchase: the offer was filled to 4 (or the deck ran out)
                assert sum(offer.values()) == 4 or ("specials", None) not in places
        if p.step.name == "special":
            price, top = last_buy
            assert price == top and price > 0
            assert p.texts[0] == "none" and len(p.texts) == 1 + len(offer)
            offered += 1
        index = rng.randrange(len(p.options))
        if p.step.name == "buy":
            last_buy = (int(p.texts[index]), max(wheel_prices(game)))
        if p.step.name == "special" and index > 0:
            taken += 1
        game.play_index(index)
    return game, offered, taken


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3)])
def test_a_complete_game_keeps_the_25_special_tiles_and_the_rules_of_taking_them(players, seed):
    game, offered, taken = play_checked(players, seed)
    notes = [e for e in game.state.events if e[0] == "note"]
    assert [n[2] for n in notes if n[1] == "scoring"] == ["small", "large", "small", "large", "small", "large",
                                                          "final"]
    assert len([n for n in notes if n[1] == "buys"]) == 72
    assert offered > 0 and taken == len([n for n in notes if n[1] == "special"])
    assert game.result is not None
    # a boatsman without a boat lands exactly one Viking
    plain = [i for i, n in enumerate(notes) if n[1] == "ferry" and not str(n[3]).startswith("boat-")]
    assert plain
    for i in plain:
        assert notes[i + 1][1] == "lands" and (len(notes) == i + 2 or notes[i + 2][1] != "lands")


def test_the_same_seed_plays_the_same_variant_game():
    a, b = play_checked(3, 5)[0], play_checked(3, 5)[0]
    assert a.state.history == b.state.history and a.points() == b.points()


def test_the_variants_scenarios_pass(capsys):
    files = sorted((ROOT / "variants" / "vikings" / "scenarios").glob("progress-*.yaml"))
    assert len(files) == 14
    assert main(["test", *map(str, files)]) == 0
    assert "14 passed, 0 failed" in capsys.readouterr().out


def test_validate_simulates_the_variant_cleanly(capsys):
    assert main(["validate", str(ROOT / "variants" / "vikings" / "progress.yaml"), "--simulate", "2"]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out
