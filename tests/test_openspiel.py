"""The OpenSpiel adapter (nordlang/openspiel/) under OpenSpiel's own tools.

The comparisons with OpenSpiel's own games count information states: a
leak (a player told something he may not see) splits information sets, a
loss (something he saw forgotten) merges them, so either changes the count.
`test_a_leak_or_a_loss_changes_the_count` shows the measure catching both.
OpenSpiel's own goofspiel without imp_info does not give perfect-recall
information states (its string keeps the hands and the winners, not the
order of the bids), so the counts are compared with the action-observation
histories of OpenSpiel's game (each player's observations and his own
actions, in order), which are perfect recall by construction; for Kuhn poker
and goofspiel with hidden bids, OpenSpiel's own strings give the same counts.
"""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import cfr, expected_game_score, exploitability  # noqa: E402

from nordlang import openspiel as nos  # noqa: E402
from nordlang.openspiel import core as nos_core  # noqa: E402
from nordlang.rules.games import bundled_games  # noqa: E402

SIMS = {"nord": 2, "vikings": 2, "hex": 3, "pig": 5}      # the long games get fewer random games


def need(name):
    if name not in bundled_games():
        pytest.skip(f"{name} is not bundled")


@pytest.mark.parametrize("name", sorted(bundled_games()))
def test_random_sim_test(name):
    game = nos.load_game(name)
    pyspiel.random_sim_test(game, num_sims=SIMS.get(name, 10), serialize=True, verbose=False)


def test_game_types():
    t = pyspiel.GameType
    ttt = nos.load_game("tictactoe").get_type()
    assert ttt.dynamics == t.Dynamics.SEQUENTIAL
    assert ttt.chance_mode == t.ChanceMode.DETERMINISTIC
    assert ttt.information == t.Information.PERFECT_INFORMATION
    assert ttt.utility == t.Utility.ZERO_SUM
    assert ttt.provides_information_state_string and ttt.provides_observation_string
    need("kuhn-poker")
    kuhn = nos.load_game("kuhn-poker")
    assert kuhn.get_type().chance_mode == t.ChanceMode.EXPLICIT_STOCHASTIC
    assert kuhn.get_type().information == t.Information.IMPERFECT_INFORMATION
    assert kuhn.num_players() == 2


def test_load_by_game_string_and_serialize():
    need("goofspiel")
    game = nos.load_game("goofspiel", cards=4, variants=["hidden-bids"])
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game) and "variants=hidden-bids" in str(game)
    state = game.new_initial_state()
    while not state.is_terminal() and len(state.history()) < 9:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[-1])
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert state2.history() == state.history()
    for p in range(2):
        assert state2.information_state_string(p) == state.information_state_string(p)
    assert state2.legal_actions() == state.legal_actions()


def test_action_strings_are_moves():
    game = nos.load_game("tictactoe")
    state = game.new_initial_state()
    moves = [state.action_to_string(0, a) for a in state.legal_actions()]
    assert len(moves) == 9 and all(len(m.split()) == 2 for m in moves)


def test_setup_chance_is_chance_nodes():
    need("kuhn-poker")
    state = nos.load_game("kuhn-poker").new_initial_state()
    assert state.is_chance_node()
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 3] * 3)      # the shuffle, place by place
    state.apply_action(0)
    assert state.is_chance_node() and len(state.chance_outcomes()) == 2
    state.apply_action(0)
    assert state.current_player() == 0


# ---------------- CFR on Kuhn poker ----------------
def test_cfr_kuhn_reaches_the_game_value():
    need("kuhn-poker")
    game = nos.load_game("kuhn-poker")
    solver = cfr.CFRSolver(game)
    for _ in range(200):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)[0]
    assert value == pytest.approx(-1 / 18, abs=0.003)
    assert exploitability.exploitability(game, policy) < 0.01


def test_cfr_kuhn_runs_as_on_openspiels_own():
    """The same iterations on both games give the same policy values: the
    same tree, the same information sets, the actions in the same order."""
    need("kuhn-poker")
    values = []
    for game in (nos.load_game("kuhn-poker"), pyspiel.load_game("kuhn_poker")):
        solver = cfr.CFRSolver(game)
        for _ in range(30):
            solver.evaluate_and_update_policy()
        values.append(expected_game_score.policy_value(game.new_initial_state(), [solver.average_policy()] * 2)[0])
    assert values[0] == pytest.approx(values[1], abs=1e-9)


# ---------------- information states against OpenSpiel's own games ----------------
def count_infosets(game, aoh=False):
    """Distinct information states of each player where he decides, over the
    whole tree (aoh: his action-observation histories instead of the game's
    strings), and the value of the game for uniformly random play."""
    n = game.num_players()
    seen = [set() for _ in range(n)]

    def walk(s, hist, prob):
        if s.is_terminal():
            return [prob * r for r in s.returns()]
        total = [0.0] * n
        if s.is_chance_node():
            branches = s.chance_outcomes()
        else:
            p = s.current_player()
            seen[p].add(hist[p] if aoh else s.information_state_string(p))
            acts = s.legal_actions()
            branches = [(a, 1 / len(acts)) for a in acts]
        for a, q in branches:
            c = s.child(a)
            if aoh:
                mover = s.current_player()
                h = tuple(x + ((("a", a),) if i == mover else ()) + (c.observation_string(i),)
                          for i, x in enumerate(hist))
            else:
                h = hist
            total = [t + v for t, v in zip(total, walk(c, h, prob * q))]
        return total

    root = game.new_initial_state()
    hist = tuple((root.observation_string(i),) for i in range(n)) if aoh else None
    value = walk(root, hist, 1.0)
    return [len(x) for x in seen], value


def openspiel(spec):
    game = pyspiel.load_game(spec)
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    return game


CASES = {
    "kuhn": (("kuhn-poker", {}), "kuhn_poker", True),
    "goofspiel-4": (("goofspiel", {"cards": 4}), "goofspiel(num_cards=4,points_order=random,imp_info=False)", False),
    "goofspiel-4-hidden": (("goofspiel", {"cards": 4, "variants": "hidden-bids"}),
                           "goofspiel(num_cards=4,points_order=random,imp_info=True)", True),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_information_states_match_openspiel(case):
    (name, params), spec, own_strings_perfect = CASES[case]
    need(name)
    ours, our_value = count_infosets(nos.load_game(name, **params))
    theirs = openspiel(spec)
    aoh, their_value = count_infosets(theirs, aoh=True)
    assert ours == aoh
    if own_strings_perfect:
        assert ours == count_infosets(theirs)[0]
    assert our_value == pytest.approx(their_value, abs=1e-9)        # the same game under random play


def test_a_leak_or_a_loss_changes_the_count(monkeypatch):
    """A deliberately leaky observation (the referee's, who sees every card
    and bid) splits information sets; one that forgets (only whose turn it
    is) merges them: both are caught by the count."""
    need("kuhn-poker")
    need("goofspiel")
    real = nos_core.observation
    cases = [(("kuhn-poker", {}), "kuhn_poker"),
             (("goofspiel", {"cards": 3, "variants": "hidden-bids"}),
              "goofspiel(num_cards=3,points_order=random,imp_info=True)")]
    for (name, params), spec in cases:
        assert count_infosets(nos.load_game(name, **params))[0] == count_infosets(openspiel(spec))[0]
    for fake, compare in ((lambda state, p: real(state, None), "gt"),
                          (lambda state, p: real(state, p).split("\n")[0], "lt")):
        monkeypatch.setattr(nos_core, "observation", fake)
        monkeypatch.setattr(nos, "_ENGINES", {})            # games made afresh, with the fake observation
        for (name, params), spec in cases:
            ours = count_infosets(nos.load_game(name, **params))[0]
            theirs = count_infosets(openspiel(spec))[0]
            for o, t in zip(ours, theirs):
                assert o > t if compare == "gt" else o < t, (name, compare, ours, theirs)


def test_a_rolls_outcome_is_in_every_players_information_state_a_shuffles_in_none():
    """In a game with hidden parts a roll is still seen by all (its outcome is a line of every
    information state), while the order a shuffle deals stays unseen (tests/games/honesty:
    secret bids for face-down prizes, a die for a bonus point)."""
    from nordlang.openspiel.core import _Engine
    spec = {"players": 2, "variants": "", "max_actions": 0}
    from pathlib import Path
    bids = Path(__file__).resolve().parent / "games" / "honesty" / "bids.yaml"
    engine = _Engine(str(bids), dict(spec), spec)
    assert not engine.perfect
    core = engine.initial()
    shuffles = 0
    while core.chance is not None and core.chance.label.startswith("shuffle"):
        core = core.apply(1)
        shuffles += 1
    assert shuffles == 3 and not any("shuffle" in t for q in (0, 1) for t in core.tokens[q])
    core = core.apply(0).apply(1)                        # the two secret bids
    assert core.chance is not None and core.chance.label == "roll bonus" and core.chance.public
    core = core.apply(1)
    for p in (0, 1):
        assert "* roll bonus: 1" in core.information_state(p).splitlines()
