"""Expectations of what is put to whom: moves the pending choice accepts
or refuses, a choice's options, for the player it is pending for or for a
player named (what he could choose if this decision were his now), and
choices never put to a player.

A named player's options are found on a copy of the game, so the script
plays on exactly as before: the pending choice is asked again with that
player in place of the one to move (at a stop between turns: his turn
begins now and runs to its first decision).
"""

from __future__ import annotations

from ..engine.flow import DeadEnd
from ..engine.game import Move
from ..errors import NordError, SchemaError, did_you_mean
from .names import _err, _list, _player
from .steps import choice_names, nobody_decides


# ---------------- before the script runs ----------------
def check_asked_names(sc, exp, path, errors) -> None:
    """The choices 'options' and 'never_asked' name are choices the rules
    ask, and the colours they name are players of this game: a misspelt
    name would make 'never_asked' hold whatever happens."""
    rules, src = sc.rules, sc.src
    names = choice_names(rules)

    def choice(name, where, key):
        if name not in names:
            errors.append(_err(src, where, f"the rules ask no choice {name!r}", key=key,
                               expected=", ".join(sorted(names)) or "none", hint=did_you_mean(str(name), names)))

    def player(color, where, key):
        try:
            _player(rules, color, src, where, key=key)
        except NordError as e:
            errors.append(e)
    for name, spec in (exp.get("options") or {}).items():
        choice(name, path + ("options", name), True)
        if spec == {}:
            errors.append(_err(src, path + ("options", name), f"the options of {name!r} are named for no player",
                               expected="colour -> options, like {blue: [none]}", hint="a list of options "
                               "(without colours) is the options of the choice pending now"))
        for color in spec if isinstance(spec, dict) else ():
            player(color, path + ("options", name, color), True)
    never = exp.get("never_asked")
    if never is not None and len(never) == 0:
        errors.append(_err(src, path + ("never_asked",), "'never_asked' names no choice",
                           expected="choice names, like [NAME], or choice -> colours, like {NAME: [COLOUR]}"))
    if isinstance(never, dict):
        for name, colors in never.items():
            choice(name, path + ("never_asked", name), True)
            if not colors:
                errors.append(_err(src, path + ("never_asked", name), f"{name!r} is never asked of no player",
                                   expected="the colours it was never put to", hint=f"'never_asked: [{name}]': "
                                   "put to nobody"))
            for i, color in enumerate(colors or []):
                player(color, path + ("never_asked", name, i), False)
    else:
        for i, name in enumerate(never or []):
            choice(name, path + ("never_asked", i), False)


# ---------------- options ----------------
def check_options(sc, exp, at, fail, Failure) -> None:
    """`options`: name -> the pending choice's options; name -> colour ->
    that player's options, were this decision his now."""
    rules, g = sc.rules, sc.game
    pending = g.state.pending
    for name, spec in (exp.get("options") or {}).items():
        if isinstance(spec, dict):
            for color, opts in spec.items():
                got, why = options_for(sc, name, rules.colors.index(color))
                what = f"options of '{name}' for {color}"
                if got is None:
                    fail.append(Failure(at("options", name, color), what, _list(sorted(opts)), why))
                elif sorted(opts) != sorted(got):
                    fail.append(Failure(at("options", name, color), what, _list(sorted(opts)), _list(sorted(got))))
            continue
        if pending is None or pending.step.name != name:
            fail.append(Failure(at("options", name), f"options of '{name}'", _list(sorted(spec)),
                                _not_pending(sc, name)))
            continue
        if sorted(spec) != sorted(pending.texts):
            fail.append(Failure(at("options", name), f"options of '{name}'", _list(sorted(spec)),
                                _list(sorted(pending.texts))))


def check_legal(sc, exp, at, fail, Failure) -> None:
    """`legal` and `illegal`: moves the pending choice accepts, and refuses."""
    g, rules = sc.game, sc.rules
    pending = g.state.pending
    for kind in ("legal", "illegal"):
        for i, text in enumerate(exp.get(kind) or []):
            try:
                mv = Move.parse(text)
            except NordError as e:
                raise SchemaError(e.message, at(kind, i), expected=e.expected) from None
            if pending is None:
                fail.append(Failure(at(kind, i), f"{text!r} is {kind}", kind, nobody_decides(sc)))
                continue
            if mv.choice != pending.step.name:
                forced = g.taken_at_once(mv.choice)
                fail.append(Failure(at(kind, i), f"{text!r} is {kind}",
                                    f"a '{mv.choice}' choice pending", (f"{forced}; " if forced else "")
                                    + f"the pending choice is '{pending.step.name}' (for "
                                    f"{rules.color(pending.player)}): {_list(pending.texts)}"))
                continue
            ok = pending.find(mv.option) is not None
            if ok != (kind == "legal"):
                fail.append(Failure(at(kind, i), f"{text!r} is {kind}", kind,
                                    ("legal" if ok else "illegal") + f"; options: {_list(pending.texts)}"))


def _not_pending(sc, name) -> str:
    """Why no choice `name` is pending now."""
    g, rules = sc.game, sc.rules
    pending = g.state.pending
    forced = g.taken_at_once(name)
    now = f"{pending.step.name}, for {rules.color(pending.player)}" if pending else f"none: {nobody_decides(sc)}"
    return f"no '{name}' choice pending" + (f": {forced}" if forced else "") + f" (pending: {now})"


def options_for(sc, name: str, player: int) -> tuple[list | None, str | None]:
    """(option texts, None) of choice `name` for `player`, were this decision
    his now; (None, why) when it would not be put to him. The pending choice
    is his already, or is asked again on a copy with him to move; at a stop
    between turns his turn begins on a copy. A choice with one option is
    asked too (it is what he could do), and no chance outcome the scenario
    fixed is used up."""
    g, rules = sc.game, sc.rules
    st, m = g.state, g.machine
    pending, color = st.pending, rules.color(player)
    if st.over:
        return None, "the game is over"
    if pending is not None and pending.step.name == name and pending.player == player:
        return pending.texts, None
    if pending is not None and pending.step.name != name:
        return None, _not_pending(sc, name)
    trial = st.clone()
    trial.rng = st.rng.for_probe() if st.rng is not None else None
    trial.player = player
    if pending is None:
        where = f"were {color}'s turn to begin now"
        m.begin_turn(trial, first=True)             # (whose turn it is changes: begin_turn says so)
    else:
        where = f"were this decision {color}'s"
        trial.touch("turn", player, trial.turn)     # (whose turn is a part of the position: lang/reads.py)
        trial.pending = None
        trial.frames[-1].pc -= 1                    # (the choice is asked again, of him)
    saved = m.ask_forced, m.turn_stop
    m.ask_forced = True if saved[0] is True else frozenset(saved[0]) | {name}
    m.turn_stop = "always"
    try:
        m.run(trial)
    except DeadEnd as e:
        return None, f"{where}, the rules would demand a choice '{e.step.name}' that has no option"
    except NordError as e:
        return None, f"{where}: {e.message}"
    finally:
        m.ask_forced, m.turn_stop = saved
    q = trial.pending
    if q is None:
        return None, f"{where}, nothing would be put to {color}" + (": the game would end" if trial.over else "")
    if q.step.name != name:
        return None, f"{where}, the first decision would be '{q.step.name}', for {rules.color(q.player)}"
    if q.player != player:
        return None, (f"{where}, '{name}' would still be {rules.color(q.player)}'s: the rules say who decides it, "
                      "whoever's turn it is")
    return q.texts, None


# ---------------- never asked ----------------
def check_never_asked(sc, exp, at, fail, Failure) -> None:
    """`never_asked`: each choice named was put to nobody (or to none of the
    players named) from the position up to this point; the choice pending
    now counts as put. A choice taken at once (one option) was not put."""
    spec = exp.get("never_asked")
    if not spec:
        return
    rules, st = sc.rules, sc.game.state
    if isinstance(spec, dict):
        entries = [(name, [rules.colors.index(c) for c in colors], at("never_asked", name))
                   for name, colors in spec.items()]
    else:
        entries = [(name, None, at("never_asked", i)) for i, name in enumerate(spec)]
    for name, players, where in entries:
        put = [(turn, who, f"answered {text!r}") for turn, who, choice, text, forced in st.history
               if choice == name and not forced]
        if st.pending is not None and st.pending.step.name == name:
            put.append((st.turn, st.pending.player, "pending now"))
        put = [x for x in put if players is None or x[1] in players]
        if put:
            shown = [f"{rules.color(who)} in turn {turn}, {how}" for turn, who, how in put[:6]]
            more = f" (and {len(put) - 6} more)" if len(put) > 6 else ""
            whom = "" if players is None else " of " + ", ".join(rules.color(p) for p in players)
            fail.append(Failure(where, f"'{name}' was never asked{whom}", "never asked",
                                "asked of " + "; ".join(shown) + more))
