"""nordlang.pettingzoo: every bundled game as a PettingZoo AEC environment,
its observations each player's own view, its rewards the game's returns."""

import subprocess
import sys
import warnings

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import nordlang  # noqa: E402
from nordlang.engine.rng import Rng  # noqa: E402
from nordlang.errors import IllegalMove, RulesError  # noqa: E402
from nordlang.pettingzoo import env  # noqa: E402

GAMES = ["nord", "vikings", "tictactoe", "connect-four", "hex", "goofspiel", "kuhn-poker", "pig"]
# (the warnings left: an observation with an action mask is a dict, as in PettingZoo's own classic games)
EXPECTED_WARNINGS = {"Observation space for each agent probably should be", "Observation is not a NumPy array"}


@pytest.mark.parametrize("name", GAMES)
def test_api_test_passes(name, capsys):
    e = env(name, players=2)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        api_test(e, num_cycles=300)
    assert "Passed API test" in capsys.readouterr().out
    assert {next((x for x in EXPECTED_WARNINGS if str(w.message).startswith(x)), str(w.message))
            for w in seen} == EXPECTED_WARNINGS


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_api_test_passes_with_sections_and_three_players():
    api_test(env("nord", players=3, flat=False), num_cycles=200)


def _play(e, seed, pick):
    """One game through the environment; (the option indices taken, the final rewards by agent)."""
    e.reset(seed=seed)
    taken, final = [], {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) == len(e.game.legal_moves())
        action = int(legal[pick.randrange(len(legal))])
        taken.append(action)
        e.step(action)
    return taken, final


@pytest.mark.parametrize("name, games", [("tictactoe", 100), ("connect-four", 100), ("hex", 100), ("nord", 12),
                                         ("vikings", 6)])
def test_random_agents_play_whole_games(name, games):
    """Each game ends with every agent terminated, rewarded the returns of the same game played on the engine."""
    e = env(name, players=2)
    pick = Rng(77)
    wins = [0, 0, 0]
    for seed in range(games):
        taken, final = _play(e, seed, pick)
        g = nordlang.load(name, players=2, seed=seed)
        for i in taken:
            g.play_index(i)
        assert g.over and e.agents == []
        assert final == {f"player_{p}": r for p, r in enumerate(g.returns())}
        wins[2 if g.result.draw else g.result.winners[0]] += 1
    assert sum(wins) == games
    if name == "tictactoe":
        assert wins == [59, 30, 11]           # (first player's edge, as random play gives it)


def test_observation_is_the_players_own_view():
    """A hidden hand: its owner sees the tiles, the other player sees as many face down."""
    e = env("nord", players=2, flat=False)
    e.reset(seed=3)
    enc = e.encoding
    own = e.observe("player_0")["observation"]["zones"]
    other = e.observe("player_1")["observation"]["zones"]
    hand0_for_0 = own[enc.zone_rows.index("hand+0")]
    hand0_for_1 = other[enc.zone_rows.index("hand+1")]      # (relative: player 0 is player 1's next seat)
    named = {c: hand0_for_0[i] for i, c in enumerate(enc.channels) if hand0_for_0[i]}
    assert named == {"treasure:gold": 1, "treasure:axe": 1, "treasure:sword": 1}
    assert {c: hand0_for_1[i] for i, c in enumerate(enc.channels) if hand0_for_1[i]} == {"treasure:?": 3}


def test_board_owners_are_relative_and_choice_is_encoded():
    e = env("tictactoe", flat=False)
    e.reset(seed=0)
    enc = e.encoding
    e.step(4)                   # (the fifth option of the first choice: place b2)
    assert str(e.game.state.history[-1][3]) == "b2"
    row = enc.spaces.index(e.game.rules.grid.parse("b2"))
    mine, theirs = enc.channels.index("mark:owner+0"), enc.channels.index("mark:owner+1")
    for agent, channel in (("player_0", mine), ("player_1", theirs)):
        o = e.observe(agent)["observation"]
        assert o["board"].sum() == 1 and o["board"][row, channel] == 1
    o = e.observe("player_1")["observation"]
    assert enc.choices == ["place"]
    assert o["choice"].tolist() == [1, 1, 0, 8]          # place; his own decision; 8 options
    assert e.observe("player_0")["observation"]["choice"].tolist() == [1, 0, 1, 8]
    assert o["counters"].tolist() == [0, 0, e.game.state.turn]
    assert e.observe("player_0")["action_mask"].sum() == 0
    assert e.observe("player_1")["action_mask"].tolist() == [1, 1, 1, 1, 1, 1, 1, 1] + [0] * 10


def test_counters_hold_points_by_source_and_the_named_counters():
    e = env("pig", flat=False)
    enc = e.encoding
    assert enc.counters == ["points+0", "points+1", "points:banked+0", "points:banked+1", "counter:decisions",
                            "counter:rolling", "counter:turn_total", "turn"]
    e.reset(seed=1)
    while e.game.evaluate('counter("turn_total")') == 0 or e.game.to_move != 1:
        e.step(0)
    got = dict(zip(enc.counters, e.observe("player_1")["observation"]["counters"].tolist()))
    assert got["counter:turn_total"] == e.game.evaluate('counter("turn_total")') > 0
    assert got["turn"] == e.game.state.turn
    assert (got["points+0"], got["points+1"]) == (e.game.points()[1], e.game.points()[0])   # (his own first)


def test_flat_observation_splits_into_its_sections():
    flat, sections = env("connect-four"), env("connect-four", flat=False)
    for x in (flat, sections):
        x.reset(seed=4)
        for a in (3, 3, 2):
            x.step(a)
    v = flat.observe("player_0")["observation"]
    assert v.dtype == np.float32 and v.shape == flat.observation_space("player_0")["observation"].shape
    parts = flat.encoding.split(v)
    want = sections.observe("player_0")["observation"]
    assert list(parts) == list(want) == ["board", "zones", "counters", "choice"]
    for k in want:
        assert np.array_equal(parts[k], want[k])
    assert parts["board"].sum() == 3


def test_a_masked_action_is_an_illegal_move():
    e = env("tictactoe")
    e.reset()
    with pytest.raises(IllegalMove, match="action 9 is not allowed: player_0's choice 'place' has 9 options"):
        e.step(9)
    with pytest.raises(IllegalMove, match="None is an action only for an agent that is done"):
        e.step(None)


def test_too_few_actions_is_a_clear_error():
    with pytest.raises(RulesError, match="choice 'place' has 121 options, more than the environment's 50 actions: "
                                         "make it with a larger max_actions"):
        env("hex", max_actions=50).reset()


def test_max_moves_truncates():
    e = env("hex", max_moves=5)
    e.reset(seed=1)
    for _ in range(5):
        e.step(0)
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert e.observe(e.agent_selection)["action_mask"].sum() == 0


def test_render_draws_the_whole_position():
    e = env("connect-four", render_mode="svg")
    e.reset(seed=0)
    e.step(3)
    svg = e.render()
    assert svg.startswith("<svg") and svg.count('class="piece"') == 3      # (one disc, two supplies)
    text = env("connect-four", render_mode="ansi")
    text.reset(seed=0)
    assert text.render().splitlines()[0] == "turn 1: red chooses drop"
    with pytest.raises(ValueError, match=r"render_mode is one of \['ansi', 'svg'\] or None, not 'human'"):
        env("connect-four", render_mode="human")


def test_reset_seeds_the_game():
    e = env("vikings", players=2)
    e.reset(seed=5)
    first = e.observe("player_0")["observation"].copy()
    e.reset()
    assert not np.array_equal(first, e.observe("player_0")["observation"])     # (the next seed: 6)
    e.reset(seed=5)
    assert np.array_equal(first, e.observe("player_0")["observation"])


def test_missing_pettingzoo_is_a_clear_error():
    code = ("import sys; sys.modules['pettingzoo'] = None\n"
            "from nordlang.errors import NordError\n"
            "try:\n    import nordlang.pettingzoo\nexcept NordError as e:\n    print(e.message, '|', e.hint)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ("nordlang.pettingzoo needs PettingZoo, which is not installed (pettingzoo is missing) | "
                           "pip install 'nordlang[pettingzoo]'")


def test_the_readme_snippet_runs_as_written():
    from pathlib import Path
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme.split("## Notebooks, PettingZoo and plots", 1)[1]
    block = next(b for b in section.split("```python\n")[1:] if "nordlang.pettingzoo" in b).split("```", 1)[0]
    names: dict = {}
    exec(block, names)
    assert names["e"].agents == [] and names["e"].game.over
