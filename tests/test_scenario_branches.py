"""Branches: one scenario file holding several scripts from one position,
each run on its own copy of the game and reported as a test of its own
(`FILE::NAME`), with clean errors for a malformed branch (exit 2)."""

from pathlib import Path

import pytest

from nordlang.cli import main
from nordlang.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
PLACEMENT = ROOT / "variants" / "nord" / "scenarios" / "placement-1.yaml"
SEA_FLEET = "        fleet: [boat*4]\n"


def _copy(tmp_path, old="", new="", name="p1.yaml"):
    text = PLACEMENT.read_text()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1))
    return path


def test_each_branch_is_a_result_of_its_own(capsys):
    assert main(["test", str(PLACEMENT)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"PASS  {PLACEMENT}::forest", f"PASS  {PLACEMENT}::karst", f"PASS  {PLACEMENT}::mountain",
        f"PASS  {PLACEMENT}::sea", "4 passed, 0 failed"]


def test_each_branch_plays_on_its_own_copy_of_the_position():
    sc = load_scenario(PLACEMENT)
    assert sc.branches == ["forest", "karst", "mountain", "sea"]
    karst = sc.for_branch("karst")
    assert karst.run().passed
    # the karst branch placed red's worker on d4; the others start from the position still
    d4 = sc._location("d4", ())
    assert [sc.rules.show(i) for i in karst.game.state.items(d4)] == ["man:red"]
    assert [sc.rules.show(i) for i in sc.game.state.items(d4)] == ["gold"]
    reps = [sc.for_branch(name).run() for name in sc.branches]
    assert [(r.path, r.passed) for r in reps] == [(f"{PLACEMENT}::{n}", True) for n in sc.branches]
    assert sc.run().passed and sc.run().path == str(PLACEMENT)      # (the whole file: every branch)


def test_one_branch_is_run_as_file_colon_colon_name(capsys):
    assert main(["test", f"{PLACEMENT}::sea", "-v"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"PASS  {PLACEMENT}::sea  Sea: ")
    assert out[1] == "1 passed, 0 failed"


def test_an_unknown_branch_is_an_error_naming_the_branches(capsys):
    assert main(["test", f"{PLACEMENT}::see"]) == 2
    assert capsys.readouterr().out.splitlines() == [
        f"ERROR {PLACEMENT}::see", f"    error: {PLACEMENT} has no branch 'see'",
        "        hint: did you mean 'sea'?", "0 passed, 1 failed"]


def test_a_failing_branch_fails_alone_at_its_own_line(tmp_path, capsys):
    path = _copy(tmp_path, SEA_FLEET, "        fleet: [boat*3]\n")
    line = path.read_text().splitlines().index("        fleet: [boat*3]") + 1
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == [f"PASS  {path}::forest", f"PASS  {path}::karst", f"PASS  {path}::mountain"]
    assert out[3].startswith(f"FAIL  {path}::sea  Sea: ")
    assert out[4:] == [f"    {path}:{line}:16: pieces at fleet", "          expected: [boat, boat, boat]",
                       "          actual:   [boat, boat, boat, boat]", "3 passed, 1 failed"]


def test_the_moves_every_branch_starts_with_are_checked_in_each(tmp_path, capsys):
    path = _copy(tmp_path, "  - play none\n", "  - play none\n  - play none\n")
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.count("move 2 'play none' cannot be played") == 4
    assert out.splitlines()[-1] == "0 passed, 4 failed"


KARST_MOVES = """    moves:
      - expect:
          legal: [place d4]
          illegal: ["place c4,d4", "place d3,d4", "place d4,e4"]
      - place d4
"""


@pytest.mark.parametrize("old, new, where, message, more", [
    (KARST_MOVES, "    moves: []\n", "64:12", "branches/karst/moves: must not be empty", []),
    ("  karst:", "  forest:", "56:3", "duplicate key 'forest'",
     ["hint: each key may appear once in a mapping; nothing is silently overwritten"]),
    ("  karst:", '  "karst space":', "56:3", "'karst space' cannot name a branch",
     ["expected: letters, digits, '-', '_' and '.', starting with a letter or digit",
      "hint: the name is part of the test's id (FILE::NAME), as `nord test` and pytest show it"]),
    ("branches:", "expect: {player: blue}\nbranches:", "36:1",
     "'expect' beside 'branches': each branch states what must hold after it",
     ["hint: move these expectations into each branch's 'expect', or, if they hold where the branches part, "
      "make them the last entry of 'moves' ('- expect: ...')"]),
    ("      - place d4\n", '      - "place:d4"\n', "68:9", "bad move notation 'place:d4'",
     ["expected: '<choice> <option>', like 'place c3,c4'"]),
])
def test_a_malformed_branch_is_a_clean_error(tmp_path, capsys, old, new, where, message, more):
    path = _copy(tmp_path, old, new)
    assert main(["test", str(path)]) == 2
    out = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert out[0] == f"ERROR {path}"
    assert out[1] == f"{path}:{where}: error: {message}"
    assert [x for x in out[2:] if x.startswith(("expected:", "hint:"))] == more
    assert out[-1] == "0 passed, 1 failed"


def test_no_branches_at_all_is_an_error(tmp_path, capsys):
    text = PLACEMENT.read_text()
    path = tmp_path / "p1.yaml"
    path.write_text(text.split("branches:")[0] + "branches: {}\n")
    assert main(["test", str(path)]) == 2
    assert capsys.readouterr().out.splitlines()[1].strip() == f"{path}:36:11: error: branches: must not be empty"


def test_explain_on_a_file_with_branches_plays_the_moves_they_share(capsys):
    # (the position where the branches part: red has played no tile and places)
    assert main(["explain", str(PLACEMENT), "place d4"]) == 0
    assert main(["explain", str(PLACEMENT), "place d2"]) == 1



def _with_karst(tmp_path, branch, name):
    """placement-1.yaml with its branch 'karst' written anew."""
    text = PLACEMENT.read_text()
    start, end = text.index("  karst:\n"), text.index("  mountain:\n")
    path = tmp_path / name
    path.write_text(text[:start] + "  karst:\n" + branch + text[end:])
    return path


CHECKS = ("    moves:\n      - expect:\n          legal: [place d4]\n"
          "          illegal: [\"place c4,d4\", \"place d3,d4\", \"place d4,e4\"]\n")


def test_a_branch_of_checks_alone_checks_the_position_where_the_branches_part(tmp_path, capsys):
    """Checks of one position as branches of their own (per-check reports):
    a branch without moves, or with only 'expect' entries, plays nothing;
    its expectations hold where the branches part, and one that fails
    fails alone."""
    only_expect = "    expect:\n      player: red\n      choice: place\n"
    for name, branch in (("a.yaml", CHECKS), ("b.yaml", only_expect), ("c.yaml", CHECKS + only_expect)):
        path = _with_karst(tmp_path, branch, name)
        assert main(["test", str(path)]) == 0, capsys.readouterr().out
        assert capsys.readouterr().out.splitlines()[-1] == "4 passed, 0 failed"
        sc = load_scenario(path)
        karst = sc.for_branch("karst")
        assert karst.run().passed
        # the moves every branch starts with, and nothing of its own
        assert [h[2:4] for h in karst.game.state.history if not h[4]] == [("play", "none")]
    wrong = _with_karst(tmp_path, CHECKS.replace("legal: [place d4]", "legal: [place c4]"), "d.yaml")
    assert main(["test", str(wrong)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert [line[:4] for line in out if line[:4] in ("PASS", "FAIL")] == ["PASS", "FAIL", "PASS", "PASS"]
    assert out[-1] == "3 passed, 1 failed"


def test_a_branch_that_neither_plays_nor_checks_is_an_error(tmp_path, capsys):
    path = _with_karst(tmp_path, "    description: nothing at all\n", "e.yaml")
    assert main(["test", str(path)]) == 2
    out = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert out[1].endswith("error: branch 'karst' neither plays a move nor checks anything"), out
    assert out[2] == "karst:"
