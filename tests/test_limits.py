"""A runaway rulebook is stopped with a clear error, not a hang."""

import pytest

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
        nordlang.load(players=2, seed=1, variants=[str(v)])
    assert "runaway rulebook" in e.value.message
    assert e.value.pos is not None and e.value.pos.line


def test_huge_range_is_refused_with_its_position(tmp_path):
    v = tmp_path / "huge.yaml"
    v.write_text(HUGE)
    with pytest.raises(NordError) as e:
        nordlang.load(players=2, seed=1, variants=[str(v)])
    assert "limit" in e.value.message
    assert e.value.pos.file.endswith("huge.yaml") and e.value.pos.line == 5
