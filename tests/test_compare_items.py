"""`nord compare` and `nord simulate` report what each player holds at the end
(issue 26): the per-player zones, by piece, in the rulebook's own names."""

from __future__ import annotations

from nordlang.cli import main

KEEP = """description: Coins are kept to the end (never changed for points).
extends: vikings
patch:
  constants:
    gold_rate: 1000
"""
RICH = """description: Rich goldsmiths; a safe goldsmith brings 20 coins a round instead of 3.
extends: vikings
patch:
  constants:
    goldsmith_coins: 20
"""


def _rows(text: str) -> dict:
    """metric -> its columns (A, B, B - A, ...) of a comparison's table."""
    rows = {}
    for line in text.splitlines():
        if line.startswith("  held "):
            name, _, rest = line[2:].partition(" (mean per player)")
            rows[name] = rest.split()
    return rows


def test_a_variant_that_changes_income_shows_in_the_coins_held(tmp_path, capsys):
    (tmp_path / "keep.yaml").write_text(KEEP)
    (tmp_path / "rich.yaml").write_text(RICH)
    status = main(["compare", "--game", "vikings", "--players", "2", "-n", "10", "-j", "1", "--no-progress",
                   "--variant", str(tmp_path / "keep.yaml"), "--variant-b", str(tmp_path / "rich.yaml")])
    assert status == 0
    coins = _rows(capsys.readouterr().out)["held purse: coin"]
    assert coins[:3] == ["11.25", "76.05", "64.80"]
    assert " ".join(coins[6:]).startswith("B higher by 64.8 (significant")


def test_the_progress_variant_shows_the_tiles_kept_and_fewer_coins(capsys):
    status = main(["compare", "--game", "vikings", "--players", "2", "-n", "10", "-j", "1", "--no-progress",
                   "--variant-b", "progress"])
    assert status == 0
    rows = _rows(capsys.readouterr().out)
    assert rows["held purse: coin"][:3] == ["2.00", "0.60", "-1.40"]
    assert rows["held kept: special"][:3] == ["0.00", "0.75", "0.75"]     # a zone only side B has
    assert rows["held homeland: ship"][:3] == ["7.00", "7.00", "0.00"]
    assert sorted(rows) == ["held base: viking", "held homeland: island",
                            "held homeland: ship", "held homeland: viking", "held kept: special",
                            "held purse: coin"]


def test_simulate_lists_what_is_held_at_the_end(capsys):
    assert main(["simulate", "--game", "goofspiel", "-n", "4", "-j", "1", "--no-progress"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = lines.index("held at the end, per player and game:  mean    sd   min  max")
    held = [line.split() for line in lines[at + 1:at + 3]]
    assert [row[:3] for row in held] == [["played:", "card", "13.0"], ["won:", "prize", held[1][2]]]
    # every prize goes to someone or is set aside on a tie: each player's share is at most 13
    assert 0 <= float(held[1][2]) <= 13


def test_held_items_counts_per_player_zones_by_piece():
    from nordlang.sim.simulate import Config, run_game
    rec = run_game(Config(rulebook="kuhn-poker", players=2), 0)
    assert rec["held"] == {"hand: card": [1, 1], "pot: chip": rec["held"]["pot: chip"]}
    assert sum(rec["held"]["pot: chip"]) + sum(rec["held"].get("stack: chip", [0, 0])) == 4


def test_a_results_file_with_a_broken_held_count_is_refused_on_resume(tmp_path, capsys):
    import json
    out = tmp_path / "r.jsonl"
    args = ["simulate", "--game", "tictactoe", "-n", "3", "--no-progress", "-j", "1", "--out", str(out)]
    assert main(args[:4] + ["2"] + args[5:]) == 0
    lines = out.read_text().splitlines(keepends=True)
    rec = json.loads(lines[1])
    assert rec["held"] == {"supply: mark": rec["held"]["supply: mark"]}      # a game of 2 records what it held
    rec["held"]["supply: mark"] = [1]
    lines[1] = json.dumps(rec) + "\n"
    out.write_text("".join(lines))
    capsys.readouterr()
    assert main(args + ["--resume"]) == 2
    assert "line 2 is not a game record of nord simulate ('held' is not a count for each of the 2 players " \
           "per zone and piece)" in capsys.readouterr().err
