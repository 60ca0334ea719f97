"""Every bundled variant validates, plays a full game, and does what its
description says (the rule-changing ones: tests/test_rules_are_data.py)."""

import random
from pathlib import Path

import pytest
from helpers import first_error, past_setup

import nordlang
from nordlang.cli import main

VARIANTS = sorted((Path(__file__).resolve().parent.parent / "variants" / "nord").glob("*.yaml"))


def _play(rules, seed):
    game = nordlang.Game(rules, seed)
    rng = random.Random(seed)
    while not game.over:
        game.play_index(rng.randrange(len(game.state.pending.options)))
    return game


def test_the_library_has_the_variants_it_promises():
    names = {p.stem for p in VARIANTS}
    assert {"wild-sides", "five-players", "cube-warriors", "no-storm", "blood-feud", "short-game",
            "dragon-raids", "mountain-food", "coastal-storm", "chosen-starts"} <= names


@pytest.mark.parametrize("path", VARIANTS, ids=[p.stem for p in VARIANTS])
def test_variant_validates_and_plays_a_full_game(path, capsys):
    assert main(["validate", str(path)]) == 0
    capsys.readouterr()
    rules = nordlang.load_rules(players=5 if path.stem == "five-players" else 3, variants=[path.stem])
    game = _play(rules, 3)
    assert game.result.winners
    text = path.read_text()
    assert "description:" in text and len(text.split("description:")[1].split("patch:")[0].split()) > 15


def test_wild_sides_use_the_wild_tiles_and_their_regions():
    base = nordlang.load_rules(players=4)
    wild = nordlang.load_rules(players=4, variants=["wild-sides"])
    assert set(wild.grid.tiles.values()) == set("ABCDEFGH")
    assert set(base.grid.tiles.values()) == set("12345678")
    # the wild sides have more extreme regions: a larger largest land region, and a great mountain

    def regions(rules):
        return [(t, len(sp)) for sp, t in zip(rules.grid.region_spaces, rules.grid.region_terrain) if t != "sea"]
    assert max(n for _, n in regions(wild)) > max(n for _, n in regions(base))
    assert max(n for t, n in regions(wild) if t == "mountain") >= 6 > max(n for t, n in regions(base)
                                                                         if t == "mountain")


def test_five_players_have_nine_settlements_and_boats():
    rules = nordlang.load_rules(players=5, variants=["five-players"])
    game = nordlang.Game(rules, 1)
    assert len(game.legal_moves()) == 9          # red chooses first: any of the nine
    past_setup(game)
    assert len(rules.structures_by_kind["settlement"]) == 9
    assert game.state.pools[("fleet", None)][("boat", None)] == 9
    assert rules.colors[4] == "purple"
    with pytest.raises(nordlang.NordError):
        nordlang.load_rules(players=5)


@pytest.mark.parametrize("before", [
    "", "      - before: treasure\n        insert: [{do: 'note(\"a\")'}, {do: 'note(\"b\")'}]\n"])
def test_steps_after_an_insertion_keep_their_own_positions(tmp_path, before):
    """A variant that inserts steps shifts the steps after them: an error in
    one of those is still placed at its own line (before: at the step that
    had its index in the rulebook's file)."""
    e = first_error(tmp_path / "shadow.yaml", "description: place shadowed by a number\nextends: nord\npatch:\n"
                    "  flows:\n    turn_a():\n" + before + "      - after: placement\n        insert:\n"
                    "          - let: {place: '5'}\n")
    pos = e.pos                                    # in the rulebook's turn.yaml, wherever it is installed
    text = Path(pos.file).read_text().splitlines()
    assert Path(pos.file).name == "turn.yaml"
    assert text[pos.line - 1].strip() == "for s in place { place_worker(s) }"
    assert pos.col == text[pos.line - 1].index("place {") + 1


def test_a_bundled_variants_name_is_the_variant_even_beside_a_folder_of_that_name(tmp_path, monkeypatch, capsys):
    """`variants: [progress]` in a scenario beside a folder progress/, and
    `--variant progress` run from a folder holding one, name the game's
    variant (a folder is never a variant); a path is still a path."""
    from nordlang.cli import main
    (tmp_path / "progress").mkdir()
    scenario = tmp_path / "s.yaml"
    scenario.write_text("description: beside a folder\ngame: vikings\nplayers: 2\nvariants: [progress]\nmoves: []\n")
    assert main(["test", str(scenario)]) == 0, capsys.readouterr().out
    monkeypatch.chdir(tmp_path)
    assert main(["play", "--game", "vikings", "--variant", "progress", "--seed", "1", "--quiet"]) == 0
    assert main(["play", "--game", "vikings", "--variant", "./progress", "--seed", "1", "--quiet"]) == 2
    assert "progress" in capsys.readouterr().err


NESTED = """description: a Viking always goes to the base (the settle step replaced inside its 'if')
extends: vikings
patch:
  flows:
    'place_island(tile, v)':
      - replace: IDENT
        with:
          id: settle
          choose: settle
          from: '[]'
          optional: base
"""


def test_a_patch_reaches_a_step_by_its_id_inside_an_if(tmp_path, capsys):
    """A step with an id inside an 'if' (or a 'do', an option's steps) is
    replaced by its id, as a top-level one: no copy of the whole flow."""
    import nordlang
    from nordlang.cli import main
    path = tmp_path / "nested.yaml"
    path.write_text(NESTED.replace("IDENT", "settle"))
    rules = nordlang.load_rules("vikings", 2, variants=[str(path)])
    [settle] = [s for s in rules.choice_steps() if s.name == "settle"]
    assert str(settle.pos).startswith(str(path))         # the new step, placed in the variant's file
    game = nordlang.Game(rules, 1)
    r = __import__("random").Random(1)
    while not game.over:
        assert game.choice != "settle" or game.legal_moves() == []
        game.play_index(r.randrange(len(game.legal_moves())))
    assert not any(choice == "settle" and not forced and text != "base"
                   for _t, _p, choice, text, forced in game.state.history)
    path.write_text(NESTED.replace("IDENT", "setle"))
    assert main(["validate", "--game", "vikings", str(path)]) == 2
    err = capsys.readouterr().err
    assert "no item with id 'setle' in flows/place_island(tile, v)" in err and "did you mean 'settle'?" in err


def test_an_id_found_in_several_places_below_a_list_is_an_error_naming_them(tmp_path, capsys):
    from nordlang.cli import main
    (tmp_path / "r.yaml").write_text(
        "game: {name: T}\nplayers: {min: 1, max: 1, default: 1, colors: [red]}\npieces: {stone: {}}\n"
        "zones: {supply: {type: pool}}\nsetup: []\nturn:\n  - choose: go\n    from: '[1, 2]'\n"
        "  - if: 'go == 1'\n    then:\n      - id: twice\n        do: 'note(\"a\")'\n"
        "  - if: 'go == 2'\n    then:\n      - id: twice\n        do: 'note(\"b\")'\n"
        "  - do: end_game()\nresult: {rank: ['points(p)']}\n")
    variant = tmp_path / "v.yaml"
    variant.write_text("description: which one?\nextends: ./r.yaml\npatch:\n  turn:\n    - remove: twice\n")
    assert main(["validate", "--rulebook", str(tmp_path / "r.yaml"), str(tmp_path / "r.yaml")]) == 0
    assert main(["validate", "--rulebook", str(tmp_path / "r.yaml"), str(variant)]) == 2
    err = capsys.readouterr().err
    assert f"{variant}:5:7: error: id 'twice' names steps in 2 places below turn: turn/item 2/then, " \
           "turn/item 3/then" in err and "hint: give the steps different ids" in err


@pytest.mark.parametrize("gives, shown", [("player + 7", "7"), ("'left'", "left"), ("num_players > 0", "true")])
def test_a_next_player_that_gives_no_player_is_its_own_error(tmp_path, capsys, gives, shown):
    """next_player must give a player: a variant's that gives another value
    fails where it is written, at the end of the first turn, not later in a
    rule that is handed the wrong player."""
    from nordlang.errors import RulesError
    path = tmp_path / "next.yaml"
    path.write_text(f"description: a bad next player\nextends: vikings\npatch:\n  next_player: \"{gives}\"\n")
    game = nordlang.load("vikings", 3, seed=1, variants=[str(path)])
    with pytest.raises(RulesError) as e:
        while not game.over:
            game.play_index(0)
    assert game.state.turn == 1
    assert e.value.message == f"next_player gives {shown}, which is not a player"
    assert str(e.value.pos) == f"{path}:4:16" and e.value.hint.endswith("0 to 2")
    assert main(["play", "--game", "vikings", "--variant", str(path), "--agents", "random", "--quiet"]) == 2
    assert f"{path}:4:16: error: next_player gives {shown}, which is not a player" in capsys.readouterr().err
