"""Making an agent by name imports every agent's module (agents/base.py
_load_all); the terminal seat's renderer and explainer are imported only
when a person first plays, so a program's seat (a search's process, a
simulation's worker) never pays for them."""

from __future__ import annotations

import os
import subprocess
import sys

_LATE = ("nordlang.explain", "nordlang.render.text")

_RUN = """
import sys
from nordlang.agents.base import make_agent
make_agent("mcts", 1)
print(",".join(m for m in {late!r} if m in sys.modules))
"""


def test_making_an_agent_by_name_leaves_the_renderer_and_the_explainer_unimported():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root)
    out = subprocess.run([sys.executable, "-c", _RUN.format(late=_LATE)], capture_output=True, text=True,
                         env=env, check=True)
    assert out.stdout.strip() == ""


def test_the_terminal_seat_still_explains_a_refused_move():
    from nordlang import Game, load_rules
    from nordlang.agents import human
    lines = human.why_not(Game(load_rules("tictactoe"), 1), "cell z9")
    assert lines and lines[0].startswith("why: ")
