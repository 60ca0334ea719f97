"""Why a move is legal or not.

For an illegal move: the choice that is pending, and the rule that offers
its options, taken apart: each filter of a comprehension evaluated for the
move's value, each operand shown with its value, down through the
definitions it calls; primitives that build options (such as groups)
say which of their conditions the value misses, and why a member of it is
not among what they draw from (their first argument): a primitive that
filters a collection left it out (what the space holds), or it is not of
that kind at all. Of options made of parts (a + b), a part whose kind the
value is not (it is missing from a collection that depends on the board
alone) is told in one line. For a legal move: what it would do (the
events it causes until the next decision).
"""

from __future__ import annotations

from ..engine.game import Move
from ..render.text import event_lines
from .explainer import Explainer
from .option_text import _split, parse_value  # noqa: F401  (others import them from here)
from .sentence import summary  # noqa: F401  (the page's first line)


def explain(game, text: str) -> tuple[bool, list[str]]:
    """(legal, lines) for a move in the game's current position."""
    rules = game.rules
    st = game.state
    move = Move.parse(text)
    p = st.pending
    if p is None:
        if st.over:
            return False, [f"{text}: illegal, the game is over"]
        return False, [f"{text}: illegal: nobody decides now: the turn of {rules.color(st.player)} has ended "
                       "and the next has not begun (a stop between turns)"]
    step = p.step
    lines = []
    if move.choice != step.name:
        lines = [f"{text}: illegal: the pending decision is '{step.name}' ({rules.color(p.player)} "
                 f"decides; rule at {step.pos}), not '{move.choice}'",
                 f"  options of '{step.name}': {', '.join(p.texts)}"]
        forced = [h for h in st.history if h[0] == st.turn and h[2] == move.choice and h[4]]
        earlier = _find_choice(rules, move.choice)
        if forced and earlier is not None:
            lines.append(f"  '{move.choice}' was decided earlier this turn: it had one option, "
                         f"'{forced[-1][3]}', taken at once")
            for alt in earlier.alternatives:
                if alt.label == move.option and alt.when_text:
                    lines.append(f"  '{alt.label}' is allowed only when: {alt.when_text}")
                    lines.extend(Explainer(game, {}, earlier.scope).why_false(
                        alt.when_text, earlier.path + ("options", alt.label, "when"), 4))
        return False, lines
    if p.find(move.option) is not None:
        g = game.clone()
        g.state.events = []
        g.play(move)
        lines.append(f"{text}: legal ({rules.color(p.player)} decides '{step.name}', rule at {step.pos})")
        lines.append("it would do:")
        lines.extend("  " + ln for ln in event_lines(rules, g.state.events) or ["  nothing visible"])
        if g.over:
            lines.append("  and the game would end")
        return True, lines
    lines.append(f"{text}: illegal: {move.option!r} is not an option of '{step.name}' (rule at {step.pos})")
    value = parse_value(rules, move.option)
    m = game.machine
    fr = st.frames[-1]
    raw = m.values(st, fr, step)
    if value not in raw and not isinstance(value, frozenset) and frozenset((value,)) in raw:
        value = frozenset((value,))         # one member's text is also the text of a set of one
    if value in raw:
        canon = rules.show(value)
        if canon in p.texts:
            # the option is there, written otherwise (a space named twice, 'c02' for 'c2'...)
            lines.append(f"  the rule offers {canon!r}, which {move.option!r} does not name exactly: "
                         f"did you mean '{step.name} {canon}'?")
        elif step.lookahead:
            lines.append(f"  the rule offers {canon!r}, but the turn could not go on after it: this choice "
                         "keeps only options after which the turn can be completed (lookahead)")
        else:  # pragma: no cover - every offered option of a choice without lookahead is an option
            lines.append(f"  the rule offers {canon!r}")
        return False, lines
    if step.alternatives:
        for alt in step.alternatives:
            if alt.label == move.option:
                lines.append(f"  '{alt.label}' is allowed only when: {alt.when_text}")
                lines.extend(Explainer(game, fr.vars, step.scope).why_false(alt.when_text, step.path + (
                    "options", alt.label, "when"), 2))
                return False, lines
        lines.append(f"  '{step.name}' has the alternatives {', '.join(a.label for a in step.alternatives)}")
        return False, lines
    odd = _odd_parts(value)
    if odd:
        lines.append(f"  {', '.join(odd)} in {move.option!r} is not a space of this board: the parts of an option "
                     "are all of one kind")
        return False, lines
    src = rules.data_at(step.path + ("from",))
    lines.append(f"  its options are: {src.strip()}")
    lines.extend(Explainer(game, fr.vars, step.scope).why_not_in(src, step.path + ("from",), value, 2))
    return False, lines


def _odd_parts(value) -> list[str]:
    """The parts of a set or sequence of spaces that are not spaces (a
    misspelt space reads as a name: 'c3,cc4'), shown; no rule offers such
    a mix, and the primitives that explain a set take one kind of value."""
    if not isinstance(value, (frozenset, tuple)) or not any(isinstance(x, tuple) for x in value):
        return []
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(x, int) for x in value):
        return []               # (a space itself)
    return sorted(repr(x) if isinstance(x, str) else str(x) for x in value if not isinstance(x, tuple))


def _find_choice(rules, name):
    """The first choice step of that name anywhere in the flow."""
    return next((st for st in rules.choice_steps() if st.name == name), None)
