"""Games by name and variants of any game: `nord games`, --game/--rulebook on
every command, nordlang.load("NAME"), a variant's `extends:` (a game by
name, a rulebook by relative path, another variant), scenarios naming their
game, and replays recording it. "A game other than Nord" is the tiny test
game tests/games/connect3/ (a rulebook, a variant and a scenario)."""

import json
import shutil
from pathlib import Path

import pytest

import nordlang
from nordlang.cli import build_parser, main
from nordlang.errors import LoadError, NordError
from nordlang.rules.games import bundled_games

ROOT = Path(__file__).resolve().parent.parent
C3 = ROOT / "tests" / "games" / "connect3"
GAMES = ", ".join(sorted(bundled_games()))


def run(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def one_error(capsys, *argv) -> str:
    """The one line a failing command writes (exit 2)."""
    rc, out, err = run(capsys, *argv)
    assert rc == 2, (out, err)
    return err


def game_folder(tmp_path, name="connect4") -> Path:
    """A copy of the test game in tmp_path/name/name.yaml (its variant and scenarios left out)."""
    folder = tmp_path / name
    folder.mkdir()
    shutil.copy(C3 / "connect3.yaml", folder / f"{name}.yaml")
    return folder


VARIANT = "description: nine stones\nextends: {ext}\npatch:\n  constants:\n    stones: 9\n"
# a variant only the test game can take: 'won' is defined there, not in Nord
OWN_WORDS = ("description: either way across wins\nextends: {ext}\npatch:\n  define:\n"
             "    won(p): 'connected(top, bottom, p) or connected(left, right, p)'\n")


# ---------------- bundled games, by name ----------------
def test_nord_games_lists_each_bundled_game_with_players_and_a_sentence(capsys):
    rc, out, err = run(capsys, "games")
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == sorted(bundled_games())
    nord = next(line for line in lines if line.startswith("nord "))
    assert "2-4 players" in nord
    assert nord.rstrip().endswith("treasures.")           # the description's first sentence, whole
    assert nord.count(". ") == 0


def test_nord_is_a_bundled_game_in_its_folder():
    assert bundled_games()["nord"] == nordlang.bundled("rulebook") / "nord" / "nord.yaml"


def test_load_takes_a_game_name_or_a_path():
    default = nordlang.load_rules(players=2)
    assert nordlang.load_rules("nord", players=2).digest == default.digest
    assert nordlang.load_rules(rulebook="nord", players=2).digest == default.digest
    assert nordlang.load("nord", players=2).rules.digest == default.digest
    assert default.bundled_name == "nord"
    c3 = nordlang.load_rules(str(C3))                 # a path (it has a '/')
    assert c3.name == "Connect three" and c3.bundled_name is None
    assert nordlang.load_rules(C3 / "connect3.yaml").digest == c3.digest


def test_an_unknown_game_is_one_line_with_a_did_you_mean():
    with pytest.raises(LoadError) as e:
        nordlang.load_rules("nordd")
    assert e.value.format() == f"error: unknown game 'nordd': did you mean 'nord'? (bundled games: {GAMES})"
    with pytest.raises(LoadError) as e:
        nordlang.load("zzz")
    assert e.value.format() == f"error: unknown game 'zzz' (bundled games: {GAMES})"


def test_an_unknown_game_on_the_command_line(capsys):
    err = one_error(capsys, "play", "--game", "nordd")
    assert err == f"error: unknown game 'nordd': did you mean 'nord'? (bundled games: {GAMES})\n"


def test_game_and_rulebook_exclude_each_other(capsys):
    with pytest.raises(SystemExit) as e:
        main(["play", "--game", "nord", "--rulebook", str(C3)])
    assert e.value.code == 2
    assert "argument --rulebook: not allowed with argument --game" in capsys.readouterr().err


def test_a_path_given_as_a_game_is_refused(capsys):
    with pytest.raises(SystemExit) as e:
        main(["play", "--game", "tests/games/connect3"])
    assert e.value.code == 2
    assert ("argument --game: 'tests/games/connect3' is not a game's name (a rulebook file is --rulebook PATH)"
            in capsys.readouterr().err)


COMMANDS = [["play"], ["replay", "x.jsonl"], ["validate"], ["test", "x.yaml"], ["explain", "x.yaml", "m"],
            ["render", "x.yaml", "-o", "x.svg"], ["simulate"], ["compare"], ["variants"]]


@pytest.mark.parametrize("argv", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_every_command_takes_game_and_rulebook_the_same_way(argv):
    parser = build_parser()
    assert parser.parse_args(argv + ["--game", "nord"]).rulebook == "nord"
    assert parser.parse_args(argv + ["--rulebook", "my/game"]).rulebook == Path("my/game")
    assert parser.parse_args(argv).rulebook is None


# ---------------- a game other than Nord, on every command ----------------
def test_the_test_game_plays_validates_and_tests(tmp_path, capsys):
    log = tmp_path / "c3.jsonl"
    rc, out, _ = run(capsys, "play", "--rulebook", C3, "--seed", 3, "--quiet", "--log", log)
    assert rc == 0
    head = json.loads(log.read_text().splitlines()[0])
    assert head["game"] is None and head["rulebook_path"] == str(C3)
    assert main(["replay", str(log)]) == 2                    # not Nord: a replay opens no path it names
    assert "replay with --rulebook" in capsys.readouterr().err
    assert main(["replay", str(log), "--rulebook", str(C3)]) == 0
    capsys.readouterr()
    rc, out, _ = run(capsys, "validate", C3)
    assert (rc, out) == (0, "3 file(s) checked: 0 error(s), 0 warning(s)\n")
    rc, out, _ = run(capsys, "test", C3)
    assert rc == 0 and "1 passed, 0 failed" in out
    sc = tmp_path / "sc.yaml"
    sc.write_text(SCENARIO.format(game=f"rulebook: {C3 / 'connect3.yaml'}\n"))
    rc, out, _ = run(capsys, "explain", sc, "cell b2")            # after its move a1
    assert rc == 0 and out.startswith("cell b2: legal (blue decides 'cell', rule at ")
    assert run(capsys, "simulate", "-n", 2, "--rulebook", C3)[0] == 0


def test_a_folder_holding_a_game_and_its_variant_is_the_game_not_the_variant(capsys):
    """(Was: 'this file is a variant, not a rulebook', the variant sorting first.)"""
    rc, out, err = run(capsys, "play", "--rulebook", C3, "--variant", C3 / "more-stones.yaml", "--seed", 1,
                       "--quiet")
    assert rc == 0, err
    assert nordlang.load_rules(C3, variants=[str(C3 / "more-stones.yaml")]).name == "Connect three"


def test_the_replay_header_names_the_game_and_older_replays_still_read(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    assert main(["play", "--game", "nord", "--players", "2", "--seed", "5", "--quiet", "--log", str(log)]) == 0
    head = json.loads(log.read_text().splitlines()[0])
    assert head["game"] == "nord" and head["rulebook_path"] is None
    lines = log.read_text().splitlines()
    del head["game"]                                   # as replays before games had names
    (tmp_path / "old.jsonl").write_text("\n".join([json.dumps(head, sort_keys=True)] + lines[1:]) + "\n")
    assert main(["replay", str(tmp_path / "old.jsonl")]) == 0
    capsys.readouterr()
    for name in ("nope", "../rulebook/nord"):
        head["game"] = name
        bad = tmp_path / "bad.jsonl"
        bad.write_text("\n".join([json.dumps(head, sort_keys=True)] + lines[1:]) + "\n")
        err = one_error(capsys, "replay", bad)
        assert f"{bad}:1:1: error: the replay names the game {name!r}, which is no bundled game" in err


# ---------------- variants of any game ----------------
@pytest.mark.parametrize("where, ext", [
    ("connect4", "connect4.yaml"),          # a rulebook file beside the variant
    ("connect4", "connect4"),               # the same, by its name
    ("connect4/variants", "../connect4.yaml"),     # a rulebook file up the tree
    ("elsewhere", "../connect4"),           # a rulebook folder
], ids=["file-beside", "name-beside", "file-up", "folder-up"])
def test_extends_names_a_rulebook_by_path(tmp_path, capsys, where, ext):
    game_folder(tmp_path)
    (tmp_path / where).mkdir(exist_ok=True)
    variant = tmp_path / where / "v.yaml"
    variant.write_text(OWN_WORDS.format(ext=ext))
    rc, out, err = run(capsys, "validate", variant)          # on the game it extends, not Nord
    assert (rc, err) == (0, ""), err
    assert out == "1 file(s) checked: 0 error(s), 0 warning(s)\n"
    assert nordlang.load_rules(variants=[str(variant)]).name == "Connect three"   # no --game: its game
    assert run(capsys, "play", "--variant", variant, "--seed", 2, "--quiet")[0] == 0


def test_a_variant_extends_a_bundled_game_by_name(tmp_path, capsys):
    variant = tmp_path / "v.yaml"
    variant.write_text("description: a shorter game\nextends: nord\npatch:\n  constants: {extra_fleet: 6}\n")
    assert nordlang.load_rules(variants=[str(variant)], players=2).bundled_name == "nord"
    variant.write_text("description: a typo\nextends: nordd\npatch:\n  constants: {extra_fleet: 6}\n")
    err = one_error(capsys, "validate", variant)
    assert f"{variant}:2:10: error: unknown game or variant 'nordd'" in err
    assert "hint: did you mean 'nord'?" in err


def test_a_variant_extends_another_variant_beside_it(tmp_path, capsys):
    folder = game_folder(tmp_path)
    (folder / "base.yaml").write_text(VARIANT.format(ext="connect4"))
    (folder / "on-top.yaml").write_text(OWN_WORDS.format(ext="base"))
    rules = nordlang.load_rules(variants=[str(folder / "on-top.yaml")])
    assert rules.name == "Connect three" and rules.doc.data["constants"]["stones"] == 9
    rc, out, err = run(capsys, "validate", folder)                   # the game and both variants
    assert (rc, out, err) == (0, "3 file(s) checked: 0 error(s), 0 warning(s)\n", "")


def test_a_variant_of_another_game_is_refused_where_it_says_so(tmp_path, capsys):
    game_folder(tmp_path)
    variant = tmp_path / "v.yaml"
    variant.write_text(OWN_WORDS.format(ext="connect4/connect4.yaml"))
    err = one_error(capsys, "play", "--game", "nord", "--variant", variant)
    assert err.startswith(f"{variant}:2:10: error: this variant extends {tmp_path / 'connect4' / 'connect4.yaml'}, "
                          "not the game played (nord)")
    err = one_error(capsys, "validate", "--game", "nord", variant)
    assert "not the game played (nord)" in err
    other = tmp_path / "w.yaml"
    other.write_text("description: x\nextends: nord\npatch:\n  constants: {extra_fleet: 6}\n")
    err = one_error(capsys, "play", "--variant", variant, "--variant", other)
    assert f"{other}:2:10: error: this variant extends nord, but the variants before it extend" in err


@pytest.mark.parametrize("ext, message", [
    ("/etc/hosts.yaml", "'extends: /etc/hosts.yaml' is an absolute path"),
    ("../outside/v.yaml", "'extends: ../outside/v.yaml' leaves the variant's folder"),
    ("notes.txt", "'extends: notes.txt' names neither a .yaml file nor a folder"),
    ("sc.yaml", "'extends: sc.yaml' is a scenario, not a rulebook or a variant"),
    ("gone.yaml", "no such file: gone.yaml (relative to this variant's folder)"),
])
def test_extends_by_path_is_checked(tmp_path, capsys, ext, message):
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "v.yaml").write_text("description: x\nextends: nord\n"
                                                 "patch:\n  constants: {extra_fleet: 6}\n")
    folder = tmp_path / "here"
    folder.mkdir()
    (folder / "notes.txt").write_text("hello\n")
    (folder / "sc.yaml").write_text("description: s\ngame: nord\nplayers: 2\nmap: ['...']\nstructures: {}\n")
    variant = folder / "v.yaml"
    variant.write_text(f"description: x\nextends: {ext}\npatch: {{}}\n")
    err = one_error(capsys, "validate", variant)
    assert err.startswith(f"{variant}:2:10: error: {message}"), err


def test_bundled_variant_names_are_those_of_the_game_played(tmp_path, capsys):
    """A project laid out like the bundled games: rulebook/<g>/<g>.yaml and variants/<g>/."""
    (tmp_path / "rulebook").mkdir()
    game_folder(tmp_path / "rulebook")
    (tmp_path / "variants" / "connect4").mkdir(parents=True)
    (tmp_path / "variants" / "connect4" / "nine.yaml").write_text(VARIANT.format(ext="../../rulebook/connect4"))
    main_file = tmp_path / "rulebook" / "connect4"
    rules = nordlang.load_rules(main_file, variants=["nine"])
    assert rules.doc.data["constants"]["stones"] == 9
    rc, out, _ = run(capsys, "variants", "--rulebook", main_file)
    assert rc == 0 and out.startswith("nine\n    nine stones\n")
    err = one_error(capsys, "play", "--rulebook", main_file, "--variant", "no-storm")
    assert "error: unknown variant 'no-storm'" in err
    assert "hint: 'no-storm' is a variant of nord: play it with --game nord" in err
    err = one_error(capsys, "play", "--game", "nord", "--variant", "nine")
    assert "error: unknown variant 'nine'" in err


def test_nord_variants_by_game(capsys):
    rc, out, _ = run(capsys, "variants", "--game", "nord")
    assert rc == 0 and "\nno-storm\n" in out
    assert run(capsys, "variants")[1] == out                          # nord by default
    err = one_error(capsys, "variants", "--rulebook", C3)
    assert err == f"error: {C3 / 'connect3.yaml'} has no bundled variants\n"
    err = one_error(capsys, "variants", "--game", "hexx")
    assert err.startswith("error: unknown game 'hexx'")


def test_validate_with_a_game_and_no_path_checks_that_game(capsys):
    rc, out, err = run(capsys, "validate", "--rulebook", C3)
    assert (rc, out) == (0, "1 file(s) checked: 0 error(s), 0 warning(s)\n"), err


# ---------------- scenarios name their game ----------------
SCENARIO = "description: s\n{game}players: 2\nmap: ['...', '...', '...']\nstructures: {{}}\nmoves: [cell a1]\n"


def test_a_scenario_naming_no_game_is_an_error_not_nord(tmp_path, capsys):
    sc = tmp_path / "sc.yaml"
    sc.write_text(SCENARIO.format(game=""))
    for argv in (["test", sc], ["validate", sc], ["explain", sc, "cell a1"], ["render", sc, "-o", tmp_path / "x.svg"]):
        rc, out, err = run(capsys, *argv)
        assert rc == 2, argv
        assert f"{sc}:1:1: error: this scenario names no game" in out + err
        assert "hint: add 'game: NAME' (a bundled game, see nord games) or 'rulebook: PATH'" in out + err
    rc, out, _ = run(capsys, "test", "--rulebook", C3, sc)             # the game given on the command line
    assert rc == 0 and "1 passed" in out


def test_a_scenario_names_its_game_or_its_rulebook(tmp_path, capsys):
    sc = tmp_path / "sc.yaml"
    folder = game_folder(tmp_path)
    sc.write_text(SCENARIO.format(game="rulebook: connect4/connect4.yaml\n"))
    assert run(capsys, "test", sc)[0] == 0
    assert run(capsys, "test", "--rulebook", folder, sc)[0] == 0        # the same game: fine
    rc, out, _ = run(capsys, "test", "--game", "nord", sc)
    assert rc == 2
    assert (f"{sc}:2:11: error: this scenario is of {folder / 'connect4.yaml'}, not of nord (given with --game "
            "or --rulebook)") in out
    sc.write_text(SCENARIO.format(game="game: nordd\n"))
    rc, out, _ = run(capsys, "test", sc)
    assert rc == 2 and f"{sc}:2:7: error: unknown game 'nordd': did you mean 'nord'?" in out
    sc.write_text(SCENARIO.format(game="game: nord\nrulebook: x.yaml\n"))
    rc, out, _ = run(capsys, "test", sc)
    assert rc == 2 and "a scenario names its game once: 'game: NAME' or 'rulebook: PATH', not both" in out
    sc.write_text(SCENARIO.format(game="game: ../nord\n"))
    rc, out, _ = run(capsys, "test", sc)
    assert rc == 2 and "'game: ../nord' is not a game's name" in out


def test_nords_scenarios_name_their_game():
    scenarios = sorted((ROOT / "variants" / "nord" / "scenarios").rglob("*.yaml"))
    assert len(scenarios) > 30
    assert all("\ngame: nord\n" in p.read_text() for p in scenarios)


def test_a_scenario_with_a_game_is_a_scenario_not_a_rulebook(tmp_path, capsys):
    sc = tmp_path / "sc.yaml"
    sc.write_text(SCENARIO.format(game="game: nord\n"))
    err = one_error(capsys, "play", "--rulebook", sc)
    assert "this file is a scenario, not a rulebook" in err


def test_nord_errors_are_nord_errors():
    with pytest.raises(NordError):
        nordlang.load_rules(variants=["no-stormm"])
