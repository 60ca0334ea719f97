"""Setup 9, starting settlements: from the start player on, in turn order,
each player puts his jarl and a warrior into an unoccupied settlement of
his choice. The standard islands preset them (step 9 is skipped there):
an island (or scenario) that names seats fixes them. The variant
chosen-starts plays step 9 on the standard islands."""

import random

import pytest

import nordlang
from nordlang.errors import IllegalMove

SETTLEMENTS_2P = ["A", "B", "C", "D", "E", "F"]


def _holders(state, structures):
    return {s: dict(state.pools[s]) for s in structures}


def test_the_standard_islands_preset_the_starting_settlements():
    g = nordlang.load(players=2, seed=5)
    st = g.state
    assert st.turn == 1 and g.choice == "play"
    assert st.history[:2] == [(0, 0, "start", "D", True), (0, 1, "start", "F", True)]
    assert st.pools["D"] == {("jarl", 0): 1, ("man", 0): 1} and st.pools["F"] == {("jarl", 1): 1, ("man", 1): 1}


def test_each_player_in_turn_order_chooses_an_unoccupied_settlement():
    g = nordlang.load(players=2, seed=5, variants=["chosen-starts"])
    assert list(g.rules.structures_by_kind["settlement"]) == SETTLEMENTS_2P
    assert g.state.turn == 0 and g.choice == "start" and g.to_move == 0
    assert [str(m) for m in g.legal_moves()] == [f"start {s}" for s in SETTLEMENTS_2P]
    g.play("start D")
    assert g.to_move == 1 and [m.option for m in g.legal_moves()] == ["A", "B", "C", "E", "F"]
    with pytest.raises(IllegalMove) as e:
        g.play("start D")                       # taken by red
    assert "'D' is not one of the 5 options of 'start'" in e.value.message
    g.play("start A")
    st = g.state
    assert st.turn == 1 and st.player == 0 and g.to_move == 0 and g.choice == "play"
    assert _holders(st, SETTLEMENTS_2P) == {
        "A": {("jarl", 1): 1, ("man", 1): 1},
        "B": {("jarl", None): 1}, "C": {("jarl", None): 1},
        "D": {("jarl", 0): 1, ("man", 0): 1},
        "E": {("jarl", None): 1}, "F": {("jarl", None): 1}}
    assert st.history[:2] == [(0, 0, "start", "D", False), (0, 1, "start", "A", False)]


def test_the_first_placement_reaches_from_the_chosen_settlement():
    """Red's first workers stand next to the settlement red chose (the
    only one where red has a warrior), whichever it is."""
    from nordlang.board.grid import parse_space
    for start in ("A", "F"):
        g = nordlang.load(players=2, seed=5, variants=["chosen-starts"])
        g.play(f"start {start}")
        g.play_index(0)
        g.play("play none")
        x, y = g.rules.grid.structures[start].space
        spaces = [parse_space(t) for m in g.legal_moves() for t in m.option.split(",")]
        singles = [parse_space(m.option) for m in g.legal_moves() if "," not in m.option]
        assert spaces and singles
        assert all(abs(a - x) + abs(b - y) == 1 for a, b in singles), start


def test_an_island_that_names_seats_fixes_them(tmp_path):
    v = tmp_path / "fixed.yaml"
    v.write_text("description: fixed starting settlements\nextends: nord\n"
                 "patch:\n  boards:\n    \"2\":\n      seats: [E, C]\n")
    g = nordlang.load(players=2, seed=5, variants=[str(v)])
    st = g.state
    assert st.turn == 1 and g.choice != "start"
    assert st.history[:2] == [(0, 0, "start", "E", True), (0, 1, "start", "C", True)]
    assert st.pools["E"][("jarl", 0)] == 1 and st.pools["C"][("jarl", 1)] == 1


def test_random_starting_settlements_follow_the_seed():
    def starts(seed):
        g = nordlang.load(players=4, seed=seed, variants=["chosen-starts"])
        rng = random.Random(seed)
        while g.choice == "start":
            g.play_index(rng.randrange(len(g.state.pending.options)))
        return [h[3] for h in g.state.history if h[2] == "start"]
    assert starts(3) == starts(3)
    assert len({tuple(starts(s)) for s in range(20)}) > 10


@pytest.mark.parametrize("options, message", [
    ("[1, 2]", "the rulebook's setup asks for a choice 'colour' here (2 options), but the scenario sc.yaml"),
    ("[]", "the rulebook's setup needs a choice 'colour' that has no option here"),
])
def test_a_scenario_over_a_setup_that_asks_says_where(tmp_path, options, message):
    """Scenarios fix the seats (or take the first settlements); a rulebook
    whose setup asks another question cannot be arranged, and the error
    points at that question."""
    from nordlang.errors import NordError
    from nordlang.scenario import load_scenario
    (tmp_path / "ask.yaml").write_text(
        "description: a setup that asks a question\nextends: nord\npatch:\n  setup:\n"
        "    - after: starting_settlements\n      insert:\n        - choose: colour\n"
        f"          from: '{options}'\n")
    sc = tmp_path / "sc.yaml"
    sc.write_text("description: a scenario over that variant\ngame: nord\nplayers: 2\nvariants: [ask.yaml]\nmap:\n"
                  "  - \"~~~~~~~~~\"\n  - \"~AmmB~~X~\"\n  - \"~ffkff~~~\"\n"
                  "structures: {A: settlement, B: settlement, X: dragon}\n")
    with pytest.raises(NordError) as e:
        load_scenario(sc)
    assert message in e.value.message
    pos = e.value.pos                                   # the choice, in the variant that adds it
    assert pos.file.endswith("ask.yaml") and (pos.line, pos.col) == (7, 11)
    assert "choose: colour" in e.value.source_line


def test_areas_are_the_connected_parts_of_a_set_of_spaces():
    from nordlang.board.grid import parse_space
    from nordlang.engine.library import STD
    from nordlang.lang.compiler import Ctx
    rules = nordlang.load_rules(players=2)
    areas = STD.get("areas").fn
    ctx = Ctx(nordlang.Game(rules, 1).state, rules)
    sp = [parse_space(t) for t in ("c4", "a1", "c5", "b1", "d5", "j9", "a3")]
    assert areas(ctx, sp) == ((sp[1], sp[3]), (sp[6],), (sp[0], sp[2], sp[4]), (sp[5],))
    assert areas(ctx, reversed(sp)) == areas(ctx, sp) and areas(ctx, []) == ()
    land = [s for s in rules.grid.spaces if rules.grid.tiles.get(s) is not None]
    assert len(land) == 48 and [len(a) for a in areas(ctx, land)] == [48]


def test_an_island_in_two_pieces_breaks_a_setup_rule(tmp_path):
    """Moving one tile of the 2-player island (and its settlement) two rows
    down leaves it touching no other tile."""
    from nordlang.errors import NordError
    v = tmp_path / "apart.yaml"
    v.write_text('description: tile 6 apart\nextends: nord\npatch:\n  boards:\n    "2":\n'
                 '      size: [13, 11]\n      tiles:\n'
                 '        - {tile: "1", at: c3, turn: 0}\n        - {tile: "2", at: g3, turn: 90}\n'
                 '        - {tile: "3", at: e7, turn: 0}\n        - {tile: "4", at: c5, turn: 90}\n'
                 '        - {tile: "5", at: i3, turn: 90}\n        - {tile: "6", at: c11, turn: 0}\n'
                 '      structures:\n        F: {kind: settlement, at: f12}\n')
    with pytest.raises(NordError) as e:
        nordlang.load_rules(players=2, variants=[str(v)])
    text = str(e.value)
    assert "all land tiles touch each other along edges (one island)" in text
    assert "every land tile touches the sea" not in text and "apart.yaml" in text


def test_a_counter_named_by_an_expression_lets_a_scenario_set_any_counter(tmp_path):
    """The counter check knows the literal names the rules use; a rule that
    names a counter by an expression may read any name, so the scenario's
    counter is kept as written, not refused."""
    from nordlang.errors import NordError
    from nordlang.scenario import load_scenario
    (tmp_path / "tally.yaml").write_text(
        "description: a counter named by an expression\nextends: nord\n"
        "patch:\n  define:\n    tally(name): 'counter(name)'\n")
    board = ("game: nord\nplayers: 2\nmap:\n  - \"~~~~~~~~~\"\n  - \"~AmmB~~X~\"\n  - \"~ffkff~~~\"\n"
             "structures: {A: settlement, B: settlement, X: dragon}\nseats: [A, B]\n"
             "position:\n  counters: {harvest: 3}\n")
    sc = tmp_path / "sc.yaml"
    sc.write_text("description: sets a counter only an expression names\nvariants: [tally.yaml]\n" + board)
    game = load_scenario(sc).game
    assert game.state.counters[("counter", "harvest")] == 3
    plain = tmp_path / "plain.yaml"                  # without the variant, the name is unknown
    plain.write_text("description: the same counter over the rulebook alone\n" + board)
    with pytest.raises(NordError, match="the rules use no counter 'harvest'"):
        load_scenario(plain)
