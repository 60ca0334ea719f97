"""A runaway rulebook is stopped with a clear error, not a hang."""

from pathlib import Path

import pytest
from helpers import first_error, past_setup

import nordlang
from nordlang.errors import NordError

RUNAWAY = """\
description: a turn that loops without end
extends: nord
patch:
  turn:
    - while: 'true'
      limit: 1000000000
      do: 'add("spins", 1)'
    - choose: never
      from: '[1, 2]'
"""

HUGE = """\
description: a huge range
extends: nord
patch:
  define:
    men_left(p): 'len(range(1000000000))'
"""


def test_runaway_loop_hits_the_step_budget(tmp_path, monkeypatch):
    from nordlang.engine import flow
    monkeypatch.setattr(flow, "STEP_BUDGET", 20_000)
    v = tmp_path / "runaway.yaml"
    v.write_text(RUNAWAY)
    with pytest.raises(NordError) as e:
        past_setup(nordlang.load(players=2, seed=1, variants=[str(v)]))
    assert "runaway rulebook" in e.value.message
    assert e.value.pos is not None and e.value.pos.line


def _start_error(tmp_path, name, text):
    """The error starting a game with this variant raises."""
    v = tmp_path / name
    v.write_text(text)
    with pytest.raises(NordError) as e:
        past_setup(nordlang.load(players=2, seed=1, variants=[str(v)]))
    return e.value


def test_huge_range_is_refused_with_its_position(tmp_path):
    e = _start_error(tmp_path, "huge.yaml", HUGE)
    assert "limit" in e.message
    assert e.pos.file.endswith("huge.yaml") and e.pos.line == 5


def test_a_while_loop_past_its_limit_is_an_error_at_the_loop(tmp_path):
    e = _start_error(tmp_path, "spins.yaml", RUNAWAY.replace("limit: 1000000000", "limit: 3"))
    assert "a 'while' loop ran 3 times without ending" in e.message
    assert e.pos.file.endswith("spins.yaml") and e.pos.line == 5


WRONG_HINT = """\
description: an 'exists' hint that contradicts its options
extends: nord
patch:
  flows:
    turn_a():
      - replace: placement
        with:
          id: placement
          choose: place
          from: 'placements(player, play)'
          exists: 'false'
"""


def test_validate_simulate_catches_a_wrong_exists_hint(tmp_path, capsys):
    from nordlang.cli import main
    v = tmp_path / "wrong-hint.yaml"
    v.write_text(WRONG_HINT)
    assert main(["validate", str(v), "--simulate", "1", "--players", "2"]) == 2
    err = capsys.readouterr().err
    assert "'exists' test of choice 'place'" in err
    assert "wrong-hint.yaml:8:" in err


def test_the_bundled_exists_hints_agree_with_their_options(capsys):
    """The rulebook's `exists` hints (probes trust them) checked against the
    options they stand for, at every decision of real games."""
    import nordlang
    from nordlang.cli import main
    assert main(["validate", str(nordlang.bundled("rulebook") / "nord"), "--simulate", "4"]) == 0
    assert "0 error(s)" in capsys.readouterr().out


FAILING_DEFINITION = """\
description: a small definition that fails when it runs
extends: nord
patch:
  define:
    warriors(p, s): 'amount(s, man(p)) // 0'
"""


def test_a_failing_inlined_definition_is_reported_at_its_own_text(tmp_path):
    """Small definitions are compiled into their callers; a failure inside
    one still names the definition's line, not the caller's."""
    v = tmp_path / "failing.yaml"
    v.write_text(FAILING_DEFINITION)
    rules = nordlang.load_rules(players=2, variants=[str(v)])
    caller = rules.names.funcs["challenge_targets"]
    assert "warriors" in caller.inlines
    with pytest.raises(NordError) as e:
        past_setup(nordlang.Game(rules, 1))
    assert "division by zero" in e.value.message
    assert e.value.pos.file.endswith("failing.yaml") and e.value.pos.line == 5


FAILING_STATEMENT = """\
description: the third statement of an effect block fails
extends: nord
patch:
  procedures:
    place_worker(s): |
      move(man(player), supply(player), s)
      if not land(s) { move(boat(), fleet, s) }
      let z = 1 / (len(items(s)) - 1)
"""

FAILING_INDEX = """\
description: an index out of range on the second line of a folded definition
extends: nord
patch:
  define:
    warrior_points(n): >
      n * n
        + [1][n]
"""

WRONG_KIND = """\
description: text added to a number
extends: nord
patch:
  define:
    warrior_points(n): 'n * n + "x"'
"""


@pytest.mark.parametrize("text, line, col, message, shown", [
    (FAILING_STATEMENT, 8, 15, "division by zero", "let z = 1 / (len(items(s)) - 1)"),
    (FAILING_INDEX, 7, 15, "index 1 out of range (0..0)", "+ [1][n]"),
    (WRONG_KIND, 5, 25, "wrong kind of value: cannot use + on a number and a text", "'n * n + \"x\"'"),
], ids=["statement-in-a-block", "index-in-a-folded-text", "number-plus-text"])
def test_a_failure_while_playing_names_its_own_line_and_shows_it(tmp_path, text, line, col, message, shown):
    """Not the first line of the block or text it is in; with the line and a caret, in nordlang's words."""
    v = tmp_path / "failing.yaml"
    v.write_text(text)
    rules = nordlang.load_rules(players=2, variants=[str(v)])
    with pytest.raises(NordError) as e:
        game = nordlang.Game(rules, 1)
        while not game.over:
            game.play(game.legal_moves()[-1])
    err = e.value
    assert (err.pos.line, err.pos.col) == (line, col) and err.message == message
    assert err.pos.file.endswith("failing.yaml")
    out = err.format().splitlines()
    assert shown in out[1] and out[2].index("^") == out[1].index(text.splitlines()[line - 1][col - 1:][:3])


def test_groups_beyond_their_limit_is_an_error_at_the_rule(tmp_path, monkeypatch):
    """groups() of up to 40 spaces would list millions of sets (a hang):
    past its limit it is an error at the definition that asked."""
    from nordlang.engine.library import subsets as library
    monkeypatch.setattr(library, "GROUPS_LIMIT", 5_000)
    v = tmp_path / "groups.yaml"
    e = first_error(v, "description: groups without end\nextends: nord\npatch:\n  define:\n"
                       "    land_groups(p, lim): 'groups(open_spaces(land_spaces), 1, 40, reach(p), 9)'\n")
    assert e.message == "groups(...) of up to 40 spaces finds more than 5000 sets of one size here"
    assert (e.pos.file, e.pos.line) == (str(v), 5)


@pytest.mark.parametrize("count, shown", [("-1", "-1"), ("1.5", "1.5"), ('"two"', "two")])
def test_a_count_of_items_is_a_whole_number(tmp_path, count, shown):
    """move(..., n) with n below 0 or not whole was silently nothing, or a
    misleading error ('already holds a piece'): it is the rule's error."""
    v = tmp_path / "count.yaml"
    e = first_error(v, "description: a bad count\nextends: nord\npatch:\n  procedures:\n"
                       f"    place_worker(s): 'move(man(player), supply(player), s, {count})'\n")
    assert e.message == f"a count of items must be a whole number, 0 or more, not {shown}"
    assert (e.pos.file, e.pos.line) == (str(v), 5)


def test_validate_simulate_checks_the_positions_a_game_reaches(tmp_path, capsys):
    """position_checks hold in every position a game reaches: a variant whose
    sea workers take no boat breaks one (named once, with its seed)."""
    from nordlang.cli import main
    v = tmp_path / "no-boat.yaml"
    v.write_text("description: sea workers without boats\nextends: nord\npatch:\n  procedures:\n"
                 "    place_worker(s): 'move(man(player), supply(player), s)'\n")
    assert main(["validate", str(v), "--simulate", "1", "--players", "2"]) == 2
    err = capsys.readouterr().err
    line = next(x for x in err.splitlines() if "error:" in x)
    assert "no-boat.yaml (2 players), random game with seed 1000: turn " in line
    assert ": this position breaks a rule: a worker on the sea stands in one fishing boat: " in line
    assert line.count("seed") == 1


def test_a_track_slot_out_of_range_is_the_rules_error(tmp_path):
    """take(track, 99, ...) raised Python's 'list index out of range'."""
    v = tmp_path / "slot.yaml"
    e = first_error(v, "description: a slot the track lacks\nextends: nord\npatch:\n  procedures:\n"
                       "    place_worker(s): 'move(man(player), supply(player), s);"
                       " take(longboat, 99, hand(player))'\n")
    assert e.message == "longboat has no slot 99 (its slots: 0 to 9)"
    assert (e.pos.file, e.pos.line) == (str(v), 5)


DEEP_FAILURE = """\
description: a definition that fails on a later line of its text
extends: nord
patch:
  define:
    challenge_targets(p): >
      [s for s in settlements
         if warriors(player, s) >= 0
         and len(warriors(player, s)) > 9]
"""

CALLED_FAILURE = """\
description: a small definition failing in the definitions that call it
extends: nord
patch:
  define:
    warriors(p, s): 'amount(s, man(p)) + len(p)'
"""

PROCEDURE_FAILURE = """\
description: a definition failing in a procedure's statement
extends: nord
patch:
  define:
    crowd(s): 'len(items(s)) + len(5)'
  procedures:
    place_worker(s): |
      move(man(player), supply(player), s)
      note("crowd", crowd(s))
"""


def _failure(tmp_path, text):
    v = tmp_path / "failing.yaml"
    v.write_text(text)
    with pytest.raises(NordError) as e:
        game = past_setup(nordlang.Game(nordlang.load_rules(players=2, variants=[str(v)]), 1))
        while not game.over:
            game.play(game.legal_moves()[0])
    return e.value, str(v)


def _turn_line(text, nth=1):
    """The line of rulebook/nord/turn.yaml holding `text` (its nth occurrence), from 1."""
    turn = Path(nordlang.__file__).resolve().parent.parent / "rulebook" / "nord" / "turn.yaml"
    lines = turn.read_text().splitlines()
    found = [i + 1 for i, line in enumerate(lines) if text in line]
    return found[nth - 1]


def _where(frames):
    """(label, (file name, line, col) or None) for each frame of an error."""
    return [(label, site and (site.file.rsplit("/", 1)[-1], site.line, site.col)) for label, site in frames]


def test_a_failure_inside_a_definition_names_it_and_the_step_that_called_it(tmp_path):
    """Not the start of the definition's text (nor the step that called it):
    the expression that failed, with the definition and the step named."""
    err, path = _failure(tmp_path, DEEP_FAILURE)
    assert err.message == "wrong kind of value: a number has no length"
    assert (err.pos.file, err.pos.line, err.pos.col) == (path, 8, 14)       # len(warriors(player, s))
    step = ("turn.yaml", _turn_line("when: 'len(challenge_targets(player)) > 0'"), 20)
    assert _where(err.frames) == [("definition challenge_targets(p)", None), (None, step)]
    out = err.format().splitlines()
    assert out[1].strip() == "and len(warriors(player, s)) > 9]"
    assert out[2].strip() == "^" * len("len(warriors(player, s))")
    assert out[3:5] == ["    in definition challenge_targets(p)", f"    called from {err.frames[1][1]}"]


def test_a_failure_names_each_definition_it_passed_through(tmp_path):
    """A small definition written into its callers' code still fails in its
    own text; each caller says where in its text it called."""
    err, path = _failure(tmp_path, CALLED_FAILURE)
    assert err.message == "wrong kind of value: a number has no length"
    assert (err.pos.file, err.pos.line, err.pos.col, err.width) == (path, 5, 42, len("len(p)"))
    frames = _where(err.frames)
    assert frames[0] == ("definition warriors(p, s)", None)
    assert frames[1][0] == "definition challenge_targets(p)"
    assert frames[1][1][:2] == ("turn.yaml", _turn_line("if warriors(p, s) >= 2"))
    assert frames[-1][0] is None and frames[-1][1][0] == "turn.yaml"       # the step's own text


def test_a_failure_in_a_procedures_statement_names_the_procedure_and_its_caller(tmp_path):
    err, path = _failure(tmp_path, PROCEDURE_FAILURE)
    assert err.message == "wrong kind of value: a number has no length"
    assert (err.pos.file, err.pos.line, err.pos.col) == (path, 5, 32)
    frames = _where(err.frames)
    assert frames[:2] == [("definition crowd(s)", None), ("procedure place_worker(s)", ("failing.yaml", 9, 7))]
    assert frames[-1][0] is None and frames[-1][1][0] == "turn.yaml"    # the flow's step that placed


def test_placing_errors_costs_a_game_nothing():
    """The traced replay that places an error is compiled only when something
    fails: after a whole game none is, and each expression keeps its text
    (a string) for it, not its syntax tree."""
    import random

    from nordlang.lang.trace import Where
    rules = nordlang.load_rules(players=3)
    game = nordlang.Game(rules, 5)
    rng = random.Random(5)
    while not game.over:
        game.play_index(rng.randrange(len(game.state.pending.options)))
    wheres = {id(w): w for f in rules.names.funcs.values() if hasattr(f.py, "__globals__")
              for w in f.py.__globals__.values() if isinstance(w, Where)}.values()
    replayable = [w for w in wheres if w.source is not None]
    assert len(replayable) > 20
    assert all(w.replay is None for w in wheres)
    assert all(isinstance(w.source[0], str) for w in replayable)
