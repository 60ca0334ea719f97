"""What a scenario script can do besides moves, and what it can expect of
the game beyond its position: stops at forced choices and at quiet turns'
ends, a flow triggered now, the legal moves counted or listed whole, and
the notes the rulebook emitted since the previous step.

A game never sets these stops: they live on the scenario's own machine,
so games, simulations and replays play exactly as before.
"""

from __future__ import annotations

from ..engine.flow import Choice, DeadEnd, Frame, programs
from ..engine.game import Move
from ..engine.record import describe
from ..errors import NordError, did_you_mean
from .names import _err, _list


# ---------------- stops ----------------
def choice_names(rules) -> set:
    """Every choice the rulebook's flows can ask."""
    return {ins.step.name for code in programs(rules).values() for ins in code if type(ins) is Choice}


def set_stops(rules, machine, data, src) -> None:
    """The stops a scenario asks for: `stop_at_forced` (true: every choice
    with one option is asked; a list: those choices), `stop_at_quiet_turns`
    (a turn in which nobody decides ends with a stop) and `stop_at_turn_ends`
    (every turn does). `stop_before_first_turn` is the loader's: it begins no turn."""
    machine.keep_turn_start = True      # (an expectation may read at_turn_start, whatever the rules read)
    forced = data.get("stop_at_forced", False)
    if forced is True:
        machine.ask_forced = True
    elif forced:
        names = choice_names(rules)
        for i, name in enumerate(forced):
            if name not in names:
                raise _err(src, ("stop_at_forced", i), f"the rules ask no choice {name!r}",
                           expected=", ".join(sorted(names)) or "none", hint=did_you_mean(str(name), names))
        machine.ask_forced = frozenset(forced)
    if data.get("stop_at_turn_ends"):
        if data.get("stop_at_quiet_turns"):
            raise _err(src, ("stop_at_quiet_turns",), "stop_at_quiet_turns beside stop_at_turn_ends: every turn "
                       "ends with a stop already, a quiet one too", key=True,
                       expected="one of the two", hint="leave out stop_at_quiet_turns")
        machine.turn_stop = "always"        # (the machine stops whenever the flow it runs, a turn, ends)
    elif data.get("stop_at_quiet_turns"):
        machine.turn_stop = "quiet"


def between_turns(state) -> bool:
    """Stopped where a turn ended (or before the first), before the next begins (not over, nothing pending)."""
    return state.pending is None and not state.over and not state.frames


def next_turn(game, first: bool | None = None) -> None:
    """Begin the next turn and run to its next stop. `first`: the scenario's
    first turn (its player is position/player's, not the next in turn;
    default: when no turn has been counted yet)."""
    m, st = game.machine, game.state
    m.begin_turn(st, first=st.turn == 0 if first is None else first)
    _run(m, st)


def nobody_decides(sc) -> str:
    """Why no choice is pending at this point of the script."""
    st, color = sc.game.state, sc.rules.color(sc.game.state.player)
    if st.over:
        return "the game is over"
    if sc.first_turn_due:
        return f"stopped before the first turn, {color}'s; the next move or next_turn begins it"
    return f"the turn of {color} has ended; the next move or next_turn begins the next"


def end_now(game) -> None:
    """`end_game`: the game ends where it stands, as the effect end_game()
    ends it, and no flow runs on: a scenario can ask a position's result
    (winners, a draw) without playing the rulebook's way to its end."""
    st = game.state
    if st.over:
        raise NordError("the game is already over")
    st.over = True
    st.touch("over")
    st.events.append(("end",))
    st.pending, st.frames = None, []


def _run(m, st) -> None:
    try:
        m.run(st)
    except DeadEnd as e:
        raise NordError(f"the rules demand a choice {e.step.name!r} here, but it has no option", e.step.pos) from None


# ---------------- a flow triggered now ----------------
def flow_call(sc, text, path):
    """(flow name, compiled argument tuple or None) of a `run` step's text, like 'scoring("test")'."""
    from ..rules.model import _split_args
    rules = sc.rules
    name, paren, rest = str(text).strip().partition("(")
    name = name.strip()
    if not paren or not rest.rstrip().endswith(")") or not name.isidentifier():
        raise _err(sc.src, path, f"cannot read the flow call {text!r}", expected="name(arguments), like scoring(\"x\")")
    if name not in rules.procs:
        raise _err(sc.src, path, f"the rules have no flow {name!r}", expected=", ".join(sorted(rules.procs)) or "none",
                   hint=did_you_mean(name, rules.procs))
    inner = rest.rstrip()[:-1]
    params = rules.procs[name].params
    n = len(list(_split_args(inner))) if inner.strip() else 0
    if n != len(params):
        raise _err(sc.src, path, f"flow {name!r} takes {len(params)} argument(s) ({', '.join(params)}), got {n}")
    return name, (sc._compile(f"({inner},)", path) if n else None)


def trigger(sc, text, path) -> None:
    """Run a named flow now, with its arguments, then go on as before. A
    pending choice is put aside and asked again when the flow ends (its
    options as the position now gives them); a choice the flow asks is
    answered by the script's next moves."""
    name, args = flow_call(sc, text, path)
    g = sc.game
    st, m = g.state, g.machine
    if st.over:
        raise _err(sc.src, path, f"cannot run {text!r}: the game is over")
    vals = sc._eval(args, path) if args is not None else ()
    sc.put_aside.append((st.frames, st.pending is not None, m.turn_stop))
    st.frames, st.pending = [Frame(m.programs[name], dict(zip(sc.rules.procs[name].params, vals)))], None
    m.turn_stop = "always"
    _run(m, st)
    resume(sc)


def resume(sc) -> None:
    """When a triggered flow has ended: back to what it interrupted."""
    g = sc.game
    st, m = g.state, g.machine
    while sc.put_aside and st.pending is None and not st.frames:
        frames, pending, turn_stop = sc.put_aside.pop()
        m.turn_stop = turn_stop
        if st.over:
            continue
        st.frames = frames
        if pending:
            st.frames[-1].pc -= 1           # (the choice is asked again, on the position as it is now)
            _run(m, st)


# ---------------- expectations ----------------
def note_texts(rules, events) -> list:
    """The rulebook's notes among events, each as the log writes it (blanks trimmed)."""
    return [" ".join(describe(rules, ev).split()) for ev in events if ev[0] == "note"]


def check_events(sc, exp, at, fail, Failure) -> None:
    """`events`: the notes since the previous step, exactly and in order;
    `events_include`: these among them, in this order (others may come between)."""
    got = note_texts(sc.rules, sc.game.state.events[sc.events_seen:])
    if "events" in exp:
        want = [" ".join(str(t).split()) for t in exp["events"]]
        if want != got:
            fail.append(Failure(at("events"), "the events since the previous step", _lines(want),
                                _lines(got) + _diff(want, got)))
    if "events_include" in exp:
        i = 0
        for k, text in enumerate(exp["events_include"]):
            want = " ".join(str(text).split())
            j = next((j for j in range(i, len(got)) if got[j] == want), None)
            if j is None:
                where = "at all" if want not in got else "after the events listed before it"
                fail.append(Failure(at("events_include", k), "an event since the previous step",
                                    want, f"not {where}; the events: {_lines(got)}"))
                return
            i = j + 1


def _lines(texts) -> str:
    """Events one a line, under a failure's 'expected:' or 'actual:'."""
    return "none" if not texts else ("\n" + " " * 16).join(texts)


def _diff(want, got) -> str:
    """The lines a failure adds under 'actual:': each event missing, each unexpected."""
    missing = [t for t in want if t not in got]
    extra = [t for t in got if t not in want]
    lines = [f"missing:    {t}" for t in missing] + [f"unexpected: {t}" for t in extra]
    return "".join("\n      " + ln for ln in lines or ["(the same events, in another order)"])


def check_moves(sc, exp, at, fail, Failure) -> None:
    """`legal_count`: how many moves are legal now; `legal_moves`: all of them, exactly (in any order)."""
    got = [str(mv) for mv in sc.game.legal_moves()]
    if "legal_count" in exp and exp["legal_count"] != len(got):
        fail.append(Failure(at("legal_count"), "the number of legal moves", str(exp["legal_count"]),
                            f"{len(got)}: {_list(got)}" if len(got) <= 12 else str(len(got))))
    if "legal_moves" in exp:
        want = [str(Move.parse(t)) for t in exp["legal_moves"]]
        if sorted(want) != sorted(got):
            missing = [t for t in dict.fromkeys(want) if t not in got]
            extra = [t for t in got if t not in want]
            twice = sorted({t for t in want if want.count(t) > 1})
            diff = "; ".join(p for p in (f"missing: {_list(missing)}" if missing else "",
                                         f"unexpected: {_list(extra)}" if extra else "",
                                         f"listed twice: {_list(twice)}" if twice else "") if p)
            fail.append(Failure(at("legal_moves"), "the legal moves", _list(sorted(want)),
                                _list(sorted(got)) + f" ({diff})"))
