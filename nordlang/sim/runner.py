"""Play a game to its end with one agent per seat."""

from __future__ import annotations

from ..errors import RulesError


def play_out(game, agents, on_step=None, max_decisions: int = 100_000):
    """Let the agents play `game` to the end; `on_step(game)` after each decision."""
    n = 0
    while not game.over:
        seat = game.to_move
        if seat is None:
            raise _nobody_to_move()
        idx = agents[seat].choose(game)
        game.play_index(idx)
        n += 1
        if on_step is not None:
            on_step(game)
        if n >= max_decisions:
            raise _too_long(max_decisions)
    return game


def play_counted(game, agents, points_part, point_keys, max_decisions: int = 100_000):
    """play_out for a simulation's record, with what it counts written into
    the loop (a call less per decision matters in a game of cheap turns):
    ({turn: [decisions, options]}, lead changes). The leader (one player with
    the most points) is looked at only when the points changed."""
    st = game.state
    options_by_turn: dict = {}
    seen = leader = None
    changes = n = 0
    while not st.over:
        p = st.pending
        if p is None:
            raise _nobody_to_move()
        slot = options_by_turn.get(st.turn)
        if slot is None:
            slot = options_by_turn[st.turn] = [0, 0]
        slot[0] += 1
        slot[1] += len(p.options)
        game.play_index(agents[p.player].choose(game))
        n += 1
        now = (st.base, st.parts.get(points_part))     # (the points' version: lang/reads.py)
        if now != seen:
            seen = now
            counters = st.counters
            pts = [counters.get(k, 0) for k in point_keys]
            top = max(pts)
            ld = pts.index(top) if pts.count(top) == 1 else None
            if ld is not None and ld != leader:
                if leader is not None:
                    changes += 1
                leader = ld
        if n >= max_decisions:
            raise _too_long(max_decisions)
    return options_by_turn, changes


def _nobody_to_move() -> RulesError:
    return RulesError("the game is not over, but nobody has a decision to take")


def _too_long(max_decisions) -> RulesError:
    return RulesError(f"the game did not end within {max_decisions} decisions",
                      hint="a rule may keep it from ending: an effect that changes nothing (a count of "
                           "0), or an end that can never come; `nord play` shows the turns as they go")
