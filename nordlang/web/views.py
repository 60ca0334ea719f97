"""The JSON a page needs to show a position: the picture (render_svg), the
pending decision with its options as texts and each option's parts (the
names the picture's data-at attributes carry, so that a click can pick an
option), the log, the result, and the places a step's events touched."""

from __future__ import annotations

from ..engine.views import seen_events
from ..engine.views import view as seat_view
from ..render.svg import render_svg
from ..render.text import event_lines
from .sessions import PlaySession
from .timeline import Timeline

MAX_LOG = 2000          # log lines sent with a view (the latest)


def option_parts(rules, text: str) -> list[str]:
    """The places an option names: its text cut at ',' and the rulebook's
    chain separators outside brackets, brackets around a part taken off."""
    from ..explain import _split
    seps = [","] + [s for s in (rules.tuple_sep, rules.path_sep) if s]
    todo, out = [text.strip()], []
    while todo:
        t = todo.pop(0).strip()
        for sep in seps:
            pieces = _split(t, sep)
            if len(pieces) > 1:
                todo[:0] = pieces
                break
        else:
            if t.startswith("(") and t.endswith(")"):
                todo.insert(0, t[1:-1])
            elif t and t not in out:
                out.append(t)
    return out


def _decision(rules, state, viewer=None) -> dict | None:
    """The pending decision; its options only for the player who takes it
    (or the referee) when options may tell what is hidden (a hand's cards,
    a secret choice's answers): another seat learns who decides what, and
    how many options there are."""
    p = state.pending
    if p is None:
        return None
    if viewer is not None and viewer != p.player and (rules.hidden_information or p.step.simultaneous is not None):
        return {"choice": p.step.name, "player": rules.color(p.player), "options": [], "parts": [],
                "hidden": len(p.texts)}
    return {"choice": p.step.name, "player": rules.color(p.player), "options": list(p.texts),
            "parts": [option_parts(rules, t) for t in p.texts]}


def viewer_of(s: PlaySession):
    """Whose view a played game's page shows: the one human seat; in a hot
    seat (several humans at one page), the human to move, else the human
    who decided last (he is at the screen while the agents move), else the
    first; None (the referee) when no seat is human."""
    humans = [i for i, a in enumerate(s.agents) if a is None]
    if len(humans) <= 1:
        return humans[0] if humans else None
    p = s.game.to_move
    if p in humans:
        return p
    return next((who for _t, who, _c, _o, forced in reversed(s.game.state.history) if who in humans and not forced),
                humans[0])


def secret_seed(s: PlaySession) -> bool:
    """Is the seed kept from the page while the game goes on (it would tell
    the hidden order of things, or the dice to come, to a human seat)?"""
    rules = s.game.rules
    return (not s.game.over and any(a is None for a in s.agents)
            and (rules.hidden_information or rules.uses_chance or bool(s.game.state.hidden_moves)))


def _result(rules, state) -> dict | None:
    if not state.over:
        return None
    from ..engine.game import compute_result
    res = compute_result(rules, state)
    return {"points": {rules.color(p): n for p, n in enumerate(res.points)},
            "winners": [rules.color(p) for p in res.winners], "draw": bool(res.draw)}


def _log(rules, events) -> list[str]:
    lines = event_lines(rules, events, {})
    return lines[-MAX_LOG:]


def touched(rules, events, label: str | None = None) -> list[str]:
    """The names of places a run of events mentions (pieces' origins and
    destinations, awards' places, the option taken): what the page marks."""
    out: list[str] = []

    def add(name):
        for part in option_parts(rules, name):
            if part not in out:
                out.append(part)

    for ev in events:
        if ev[0] == "choice":
            add(str(ev[3]))
            continue
        for arg in ev[1:]:
            if isinstance(arg, (tuple, str)) and arg is not None:
                try:
                    add(rules.show(arg))
                except Exception:       # noqa: BLE001 - a value that is no place: nothing to mark
                    continue
    if label:
        add(label.partition(" ")[2])
    return out


def _position(rules, state) -> dict:
    return {"svg": render_svg(rules, state), "turn": state.turn, "over": state.over,
            "points": {rules.color(p): state.counters.get(("points", p), 0) for p in rules.player_range}}


def game_view(sid: str, s: PlaySession) -> dict:
    """A played game as the page shows it: from the view of `viewer_of(s)`
    (his picture, his log, his options only), the referee's when no seat is
    human."""
    g, rules = s.game, s.game.rules
    st = g.state
    viewer = viewer_of(s)
    shown = st if viewer is None else seat_view(st, viewer)
    start = len(s.before[-1].events) if s.before else len(st.events)
    last = seen_events(st, viewer, start)
    out = {"id": sid, "kind": "game", "game": rules.name, "seed": None if secret_seed(s) else s.header["seed"],
           "variants": s.header["variants"], "seats": {rules.color(i): seat for i, seat in enumerate(s.seats)},
           **_position(rules, shown), "decision": _decision(rules, st, viewer), "seat": s.seat_kind(),
           "log": _log(rules, shown.events), "result": _result(rules, st), "can_undo": s.undo_refused() is None,
           "decisions": len(s.before), "marks": touched(rules, last),
           "viewer": None if viewer is None else rules.color(viewer)}
    return out


def timeline_view(sid: str, t: Timeline, index: int) -> dict:
    step = t.step(index)
    rules = t.rules
    ev = t.events
    a, b = step.events
    view = {"id": sid, "kind": t.kind, "title": t.title, "game": rules.name, "step": index,
            "steps": [{"label": s.label, "kind": s.kind, "passed": s.passed, "part": s.part} for s in t.steps],
            **_position(rules, step.state), "decision": _decision(rules, step.state),
            "log": _log(rules, ev[:b]), "step_log": event_lines(rules, ev[a:b]),
            "marks": touched(rules, ev[a:b], step.label if step.kind == "move" else None),
            "result": _result(rules, step.state), "passed": step.passed, "failures": step.failures, "info": t.info,
            "viewer": None}          # a replay or a scenario is shown as the referee sees it: everything
    if t.kind == "scenario":        # its verdict as `nord test` gives it, and each branch's
        view.update(branch=t.branch, outcome=t.outcome,
                    branches=[{"name": b.branch, "outcome": b.outcome} for b in t.branches.values()])
    return view
