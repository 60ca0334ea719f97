"""No fast path keyed on names (issue 25): a rulebook with every name its
author chose renamed (tests/renaming.py) plays the same games.

Tic-tac-toe, Hex, and Nord at 2 and 3 players: seeded random games, the
same option index chosen in the original and the renamed game in
lockstep; at every decision both offer as many options, under the same
choice and with the same texts once the new names are read back; at the
end the same points, winners and number of decisions. Two checks keep
this from passing vacuously: the renamed rulebook holds none of the
original's names, and a renaming broken on purpose is caught, by the name
check (a name kept) and by the lockstep (two words exchanged in the rules'
string literals).
"""

import random
import re
import sys
from pathlib import Path

import pytest

import nordlang

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from renaming import ENGINE, rename_rulebook, surviving_names  # noqa: E402

RULEBOOK = HERE.parent / "rulebook"
NEW_WORD = re.compile(r"n_\d{4}")


def main_file(game):
    return RULEBOOK / game / f"{game}.yaml"


@pytest.fixture(scope="module")
def renamed(tmp_path_factory):
    made = {}

    def get(game):
        if game not in made:
            made[game] = rename_rulebook(main_file(game), tmp_path_factory.mktemp(f"renamed-{game}"))
        return made[game]
    return get


def lockstep(original, renamed, seed, back):
    """Play game `seed` in both, option r.randrange(n) each time; return the first difference, or None."""
    a, b = nordlang.Game(original, seed), nordlang.Game(renamed, seed)
    rng = random.Random(seed)
    decisions = 0
    while not a.over:
        if b.over:
            return f"decision {decisions}: the renamed game is over, the original is not"
        moves_a, moves_b = a.legal_moves(), b.legal_moves()
        n = len(moves_a)
        if len(moves_b) != n or back.get(b.choice) != a.choice or b.to_move != a.to_move:
            return (f"decision {decisions}: {a.choice} with {n} options for {a.to_move}, renamed "
                    f"{back.get(b.choice)} with {len(moves_b)} for {b.to_move}")
        i = rng.randrange(n)
        text_a = str(moves_a[i])
        text_b = NEW_WORD.sub(lambda m: back[m.group(0)], str(moves_b[i]))
        if text_a != text_b:
            return f"decision {decisions}: option {i} is {text_a!r}, renamed {text_b!r}"
        a.play_index(i)
        b.play_index(i)
        decisions += 1
    if not b.over:
        return f"after {decisions} decisions the original is over, the renamed game is not"
    ra, rb = a.result, b.result
    if (a.points(), ra.winners, ra.draw) != (b.points(), rb.winners, rb.draw):
        return f"results differ: {a.points(), ra.winners, ra.draw} and {b.points(), rb.winners, rb.draw}"
    return None


@pytest.mark.parametrize("game, players, games", [
    ("tictactoe", 2, 50),
    ("hex", 2, 50),
    ("nord", 2, 80),
    ("nord", 3, 80),
])
def test_the_renamed_rulebook_plays_the_same_games(renamed, game, players, games):
    ren = renamed(game)
    back = {new: old for old, new in ren.mapping.items()}
    original = nordlang.load_rules(str(main_file(game)), players)
    other = nordlang.load_rules(str(ren.main), players)
    for seed in range(games):
        assert lockstep(original, other, seed, back) is None, f"{game}, {players} players, seed {seed}"


@pytest.mark.parametrize("game, some", [
    ("tictactoe", {"won", "mark", "supply", "line", "place", "cells", "win"}),
    ("hex", {"won", "top", "bottom", "stone", "supply", "place", "cell"}),
    ("nord", {"man", "treasure", "settlement", "dragon", "longboat", "limits", "stone_pile", "sea", "scoring",
              "turn_a", "lift", "action", "place", "challenge", "dies", "resources", "scorings", "negotiator",
              "kind", "none", "A", "X"}),
])
def test_no_name_of_the_original_is_left(renamed, game, some):
    ren = renamed(game)
    assert some <= set(ren.mapping), some - set(ren.mapping)
    assert ren.unrenamed == []
    assert surviving_names(main_file(game), ren.main) == set()
    text = "\n".join(p.read_text() for p in ren.main.parent.glob("*.yaml"))
    for word in some - ENGINE:          # (kind and none are the engine's words too: `kind(t)`, `none`)
        assert not re.search(rf"\b{word}\b", text), word


def test_a_name_left_unrenamed_is_found(tmp_path):
    ren = rename_rulebook(main_file("hex"), tmp_path, keep={"won", "stone"})
    nordlang.load_rules(str(ren.main), 2)          # the rulebook still plays
    assert surviving_names(main_file("hex"), ren.main) == {"won", "stone"}


def test_a_broken_renaming_fails_the_lockstep(tmp_path):
    """The attack's fates 'goal' and 'start' exchanged in Nord's string literals (its tables
    keep them): the rulebook loads, and some attacker takes the other settlement."""
    ren = rename_rulebook(main_file("nord"), tmp_path, swap=("goal", "start"))
    back = {new: old for old, new in ren.mapping.items()}
    original, broken = nordlang.load_rules("nord", 2), nordlang.load_rules(str(ren.main), 2)
    assert any(lockstep(original, broken, seed, back) is not None for seed in range(20))
