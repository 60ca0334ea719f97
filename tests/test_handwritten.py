"""nordlang's Nord against Nord written by hand (bench/handwritten/nord.py).

Two engines written apart, from the same rules: random games played in
both in lockstep must offer the same options at every decision, in the
same positions. A rule the rulebook's YAML says differently from the
hand-written engine (or a change to either) fails here, with the turn and
what differs.
"""

import importlib.util
import io
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent.parent / "bench" / "handwritten"


def _check_module():
    sys.path.insert(0, str(HERE))
    try:
        spec = importlib.util.spec_from_file_location("handwritten_check", HERE / "check.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(str(HERE))
    return mod


def test_random_games_offer_the_same_options_in_both_engines():
    check = _check_module()
    out = io.StringIO()
    with redirect_stdout(out):
        assert check.main(["8"]) == 0
    text = out.getvalue()
    assert text.startswith("8 random 4-player games in lockstep: the same options at all ")
    decisions = int(text.split("at all ")[1].split()[0])
    assert decisions > 8 * 100              # (about 160 decisions a game: the check did look at them)


def test_the_lockstep_check_sees_a_difference():
    """A position that differs is reported (so the test above can fail)."""
    check = _check_module()
    import nordlang

    rules = nordlang.load_rules(None, 4)
    game = check.Lockstep(rules, 1)
    game.supply[0] -= 1
    with pytest.raises(AssertionError, match="supply differ"):
        game.compare(game.g.state)
