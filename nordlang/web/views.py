"""The JSON a page needs to show a position: the picture (render_svg), the
pending decision with its options as texts and each option's parts (the
names the picture's data-at attributes carry, so that a click can pick an
option), the log, the result, and the places a step's events touched."""

from __future__ import annotations

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


def _decision(rules, state) -> dict | None:
    p = state.pending
    if p is None:
        return None
    return {"choice": p.step.name, "player": rules.color(p.player), "options": list(p.texts),
            "parts": [option_parts(rules, t) for t in p.texts]}


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
    g, rules = s.game, s.game.rules
    st = g.state
    last = st.events[len(s.before[-1].events):] if s.before else []
    view = {"id": sid, "kind": "game", "game": rules.name, "seed": s.header["seed"],
            "variants": s.header["variants"], "seats": {rules.color(i): seat for i, seat in enumerate(s.seats)},
            **_position(rules, st), "decision": _decision(rules, st), "seat": s.seat_kind(),
            "log": _log(rules, st.events), "result": _result(rules, st), "can_undo": bool(s.before),
            "decisions": len(s.before), "marks": touched(rules, last)}
    return view


def timeline_view(sid: str, t: Timeline, index: int) -> dict:
    step = t.step(index)
    rules = t.rules
    ev = t.events
    a, b = step.events
    view = {"id": sid, "kind": t.kind, "title": t.title, "game": rules.name, "step": index,
            "steps": [{"label": s.label, "kind": s.kind, "passed": s.passed} for s in t.steps],
            **_position(rules, step.state), "decision": _decision(rules, step.state),
            "log": _log(rules, ev[:b]), "step_log": event_lines(rules, ev[a:b]),
            "marks": touched(rules, ev[a:b], step.label if step.kind == "move" else None),
            "result": _result(rules, step.state), "passed": step.passed, "failures": step.failures, "info": t.info}
    return view
