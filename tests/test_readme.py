"""The README's examples work as written."""

from pathlib import Path

import nordlang
from nordlang.scenario import load_scenario

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_first_lines_give_the_two_commands():
    head = README.split("```sh", 1)[1].split("```", 1)[0]
    assert "pip install . && nord play" in head
    assert "pip install '.[test]' && python3 -m pytest" in head
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text()
    assert "python3 -m pip install '.[test]' && python3 -m pytest" in ci
    command = next(x for x in head.splitlines() if "[test]" in x).split("#")[0].strip()
    assert command in ci.splitlines()          # CI runs the README's test command, word for word


def test_scenario_example_passes(tmp_path):
    block = README.split("```yaml\ndescription: The simple attack", 1)[1].split("```", 1)[0]
    f = tmp_path / "example.yaml"
    f.write_text("description: The simple attack" + block)
    rep = load_scenario(f).run()
    assert rep.passed, [x.format() for x in rep.failures]


def test_python_example_runs():
    game = nordlang.load(players=3, seed=7)
    n = 0
    while not game.over:
        moves = game.legal_moves()
        assert all(nordlang.parse(str(m)) == m for m in moves)
        game.play(moves[0])
        n += 1
    assert game.result.winners and n > 20


def test_looking_at_a_position_runs_as_written():
    """The 'Looking at a position' session gives the values it shows (run as a doctest)."""
    import doctest
    section = README.split("### Looking at a position", 1)[1]
    block = section.split("```pycon\n", 1)[1].split("```", 1)[0]
    test = doctest.DocTestParser().get_doctest(block, {}, "README: Looking at a position", "README.md", 0)
    assert len(test.examples) > 10
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = []
    result = runner.run(test, out=out.append)
    assert result.failed == 0, "".join(out)
