"""An honest sample's turn start (samples.py sample) is a position of its
own: what a rule asks of the turn's start (`at_turn_start`) in a search is
the sample's redeal, never a value memoised on the real turn start."""

import random

import nordlang
from nordlang.engine.game import Game
from nordlang.lang import memo
from nordlang.lang.memo import clear_memo
from nordlang.rules import build

# what the others held when the turn began: hidden from the mover
_SHOWS = ("description: hands at the turn's start\npatch:\n  define:\n"
          "    held(p): 'sorted(items(hand(p)))'\n"
          "    held_at_start(p): 'at_turn_start(held(p))'\n")


def _held(game, state):
    ctx = game.rules.ctx(state, {})
    f = game.rules.names.funcs["held_at_start"]
    return [f.call(ctx, p) for p in game.rules.player_range]


def test_turn_start_of_a_sample_is_never_answered_from_the_real_one(tmp_path, monkeypatch):
    variant = tmp_path / "shows.yaml"
    variant.write_text(_SHOWS)
    monkeypatch.setattr(build, "_CACHE", {})
    monkeypatch.setattr(memo, "_TRIAL", 10 ** 9)        # (every memo kept on trial: it always answers)
    rules = nordlang.load_rules(None, 4, [str(variant)])
    g = Game(rules, seed=3)
    r = random.Random(3)
    for _ in range(30):
        g.play_index(r.randrange(len(g.legal_moves())))
    assert g.state.turn_start is not None
    clear_memo()
    real = _held(g, g.state)                       # memoised on the real turn start
    s = g.for_player(g.to_move, 5).state
    assert s.turn_start.version != g.state.turn_start.version
    warm = _held(g, s)
    clear_memo()
    assert warm == _held(g, s)                     # the sample's own turn start, asked afresh
    assert warm != real                            # (the redeal changed what the others held)
    assert warm[g.to_move] == real[g.to_move]      # the mover's own hand is what he knows
