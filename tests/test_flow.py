"""Flows run as their step trees say: branches, loops, alternatives,
'otherwise', and a choice inside a loop that a copy resumes on its own
(a loop past its limit: test_limits.py)."""

import pytest
from helpers import counters, first_error, past_setup, variant_rules

import nordlang

STEPS = """\
description: every kind of flow step, counted
extends: nord
patch:
  turn:
    - for: 'i in [1, 2, 3]'
      do:
        - if: 'i == 2'
          then:
            - do: 'add("twos", 1)'
          else:
            - do: 'add("others", i)'
    - while: 'counter("spins") < 4'
      limit: 10
      do: 'add("spins", 1)'
    - for: 'i in [1, 2]'
      do:
        - choose: x
          from: '[10 * i, 10 * i + 1]'
        - do: 'add("sum", x)'
    - choose: pick
      options:
        a:
          do:
            - do: 'add("a", 1)'
        b: {}
    - choose: empty
      from: '[]'
      otherwise:
        - do: 'add("nothing", 1)'
    - do: 'end_game()'
"""

@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    return variant_rules(tmp_path_factory.mktemp("flow"), STEPS)


def _play(g, *indices):
    for i in indices:
        g.play_index(i)
    return counters(g)


def test_branches_and_loops_run_as_written(rules):
    g = past_setup(nordlang.Game(rules, 1))
    assert g.state.pending.step.name == "x" and list(g.state.pending.options) == [10, 11]
    assert _play(g) == {"twos": 1, "others": 4, "spins": 4}


def test_a_choice_inside_a_loop_resumes_the_loop(rules):
    g = past_setup(nordlang.Game(rules, 1))
    g.play_index(1)                                  # x = 11
    assert list(g.state.pending.options) == [20, 21]
    copy = g.clone()
    assert _play(g, 0, 0)["sum"] == 31 and g.over   # 11 + 20, then alternative a
    assert _play(copy, 1, 1)["sum"] == 32 and copy.over   # the copy goes its own way: 11 + 21, then b


def test_alternatives_and_otherwise(rules):
    g = past_setup(nordlang.Game(rules, 1))
    g.play_index(0)
    g.play_index(0)
    assert g.state.pending.step.name == "pick" and list(g.state.pending.options) == ["a", "b"]
    done = _play(g, 0)
    assert done["a"] == 1 and done["nothing"] == 1 and g.over
    g = past_setup(nordlang.Game(rules, 1))
    done = _play(g, 0, 0, 1)
    assert "a" not in done and done["nothing"] == 1 and g.over



BY = """\
description: a choice another player decides
extends: nord
patch:
  turn:
    - choose: ask
      by: '{by}'
      from: '[1, 2]'
    - choose: own
      from: '[3, 4]'
    - do: 'end_game()'
"""


def test_a_choice_names_who_decides(tmp_path):
    """`by` hands a choice to another player: the game asks that player
    (agents go by to_move), the log and history name him, and the turn
    still belongs to the player to move."""
    v = tmp_path / "by.yaml"
    v.write_text(BY.format(by="(player + 1) % num_players"))
    g = past_setup(nordlang.load(players=3, seed=1, variants=[str(v)]))
    st = g.state
    assert st.player == 0 and g.choice == "ask" and g.to_move == 1
    g.play("ask 2")
    assert g.choice == "own" and g.to_move == 0
    g.play("own 3")
    assert [h[1:4] for h in st.history if h[0] == 1] == [(1, "ask", "2"), (0, "own", "3")]


@pytest.mark.parametrize("by, message", [
    ("7", "to be decided by 7, which is not a player"),
    ("\"red\"", "which is not a player"),
])
def test_a_choice_by_no_player_is_an_error_at_the_choice(tmp_path, by, message):
    from nordlang.errors import NordError
    v = tmp_path / "by.yaml"
    v.write_text(BY.format(by=by))
    with pytest.raises(NordError) as e:
        past_setup(nordlang.load(players=2, seed=1, variants=[str(v)]))
    assert message in e.value.message
    assert e.value.pos.file.endswith("by.yaml") and e.value.pos.line == 5


def test_a_choice_by_an_unknown_name_fails_when_the_rules_load(tmp_path):
    from nordlang.errors import NordError
    v = tmp_path / "by.yaml"
    v.write_text(BY.format(by="nobody"))
    with pytest.raises(NordError) as e:
        nordlang.load_rules(players=2, variants=[str(v)])
    assert "nobody" in str(e.value) and "by.yaml:6:" in str(e.value)


@pytest.mark.parametrize("step, what", [
    ("- choose: extra\n            from: 'len(place)'", "from"),
    ("- for: 'x in len(place)'\n            do: [do: 'add(\"x\", 1)']", "for"),
])
def test_a_step_over_a_number_is_the_steps_error(tmp_path, step, what):
    """`from` and `for` need a collection: a number is an error at the step
    (before: Python's TypeError, a traceback)."""
    v = tmp_path / "v.yaml"
    e = first_error(v, "description: a step over a number\nextends: nord\npatch:\n  flows:\n    turn_a():\n"
                       f"      - after: placement\n        insert:\n          {step}\n")
    assert e.message == f"'{what}' must give a collection, got the number 1"
    assert (e.pos.file, e.pos.line) == (str(v), 8)


def test_the_turns_start_is_kept_only_for_rules_that_read_it():
    """A snapshot of each turn's start is taken only when a rule reads at_turn_start
    (Nord's); Hex never reads it and never pays for it; a scenario keeps it always."""
    nord = nordlang.load("nord", players=2, seed=1)
    assert nord.rules.uses_turn_start and nord.state.turn_start is not None
    hexgame = nordlang.load("hex", seed=1)
    assert not hexgame.rules.uses_turn_start and hexgame.state.turn_start is None


def test_what_the_rules_call_is_read_from_the_compiled_texts_a_variants_original_included():
    """A variant that replaces the one definition reading at_turn_start, and calls it as
    original(), still reads it: the snapshot is kept (dragon-raids)."""
    rules = nordlang.load_rules(players=3, variants=["dragon-raids"])
    assert "at_turn_start" not in rules.data["define"]["attack_pairs"]
    assert rules.uses_turn_start and rules.uses_chance
