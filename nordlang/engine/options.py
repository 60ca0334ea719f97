"""A choice's options: its values before lookahead (duplicates removed,
'nothing' first when allowed), their texts, who decides, and the check
that no option shows a player an item he cannot see. A mixin of the
flow's Machine (flow.py), with the step errors its loops share."""

from __future__ import annotations

import weakref

from ..errors import EvalError, RulesError, describe_value
from ..lang.builtins import ordered
from ..lang.compiler import Ctx
from ..lang.memo import by_position
from .frames import option_text
from .views import unseen_option


class Options:
    """The Machine's choices' options (it gives `rules`)."""

    def _ctx(self, state, fr):
        return Ctx(state, self.rules, fr.vars)

    def values(self, state, fr, step, ctx=None) -> list:
        """The option values of a choice before lookahead, duplicates removed."""
        if ctx is None:
            ctx = self._ctx(state, fr)
        if not step.alternatives:
            return self.from_source(step, (_listing(step) if step.lookahead else step.source)(ctx))
        vals = [a.label for a in step.alternatives if a.when is None or a.when(ctx)]
        if step.optional is not None and None not in vals:
            vals.insert(0, None)
        return vals

    @staticmethod
    def from_source(step, src) -> list | tuple:
        """The option values of a choice from what its 'from' gave."""
        if type(src) is not tuple and type(src) is not list:
            src = _collection(src, step, "from")
        # (a source known to hold nothing twice needs no search for duplicates: hashing a
        # board's spaces is most of the cost of listing them)
        if step.distinct:
            if type(src) is tuple and step.optional is None:
                return src          # (a tuple is never changed: the options may be it)
            vals = list(src)
        elif len(set(src)) == len(src):
            vals = list(src)        # (nothing twice, the common case: a set finds it for less than a dict)
        else:
            vals = list(dict.fromkeys(src))
        if step.optional is not None and None not in vals:
            vals.insert(0, None)
        return vals

    def texts(self, vals, step) -> list:
        show = self.rules.show
        return [option_text(step, v, show) for v in vals]

    def options(self, state, fr, step):
        """(values, texts) of a choice before lookahead."""
        vals = self.values(state, fr, step)
        return vals, self.texts(vals, step)

    def check_seen(self, state, step, vals, who) -> None:
        """A player's options must not show him an item he cannot see (the rule is named)."""
        if len(vals) > 8 and tuple not in set(map(type, vals)):
            return      # (an item is a tuple: a long list with none, as a placement's, passes at C speed;
                        # for a short one, or one of tuples, the set costs more than unseen_option's test)
        bad = unseen_option(state, vals, who)
        if bad is not None:
            raise RulesError(f"choice {step.name!r} offers {self.rules.color(who)} the option "
                             f"{self.rules.show(bad)}, an item {self.rules.color(who)} cannot see: the option's text "
                             "would reveal it", step.pos, hint="offer what the player sees (a place, a count), or "
                             "reveal the item first")

    def _decider(self, step, ctx) -> int:
        """Who decides a choice with 'by': a player, else its error."""
        return self._player(step.by(ctx), lambda who: RulesError(
            f"choice {step.name!r} is to be decided by {self.rules.show(who)}, which is not a player", step.pos,
            hint="'by' must give a player, like p in 'for p in players'"))

    def _next_player(self, ctx) -> int:
        """Whose turn is next, by the rulebook's next_player: a player, else its error."""
        rules = self.rules
        pos, line = rules.next_player_at
        return self._player(rules.next_player(ctx), lambda who: RulesError(
            f"next_player gives {rules.show(who)}, which is not a player", pos, source_line=line,
            hint=f"it must give a player: a number in turn order, 0 to {rules.num_players - 1}"))

    def _player(self, who, error) -> int:
        """`who` when it is a player (a number in turn order; a truth value is none), else error(who) raised."""
        if type(who) is not int or not 0 <= who < self.rules.num_players:
            raise error(who)
        return who

    @staticmethod
    def _bind_choice(fr, step, value):
        fr.vars[step.name] = value
        if step.alternatives:
            fr.pc = fr.code[fr.pc - 1].targets[value]     # (the choice is the instruction just run)


def _listing(step):
    """A lookahead choice's 'from', memoised by the position when it reads no
    flow variable: its probes list it again for each option of the choice
    before it that leads there (two tiles that both lead to it), and the
    flow lists it once more when it is asked."""
    listing = _LISTINGS.get(step)
    if listing is None:
        listing = _LISTINGS[step] = by_position(step.source)
    return listing


_LISTINGS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()     # choice step -> its listing


def _collection(value, step, what):
    """The items of a step's collection, in order; none, a number or a truth
    value is the step's error, not Python's."""
    if value is None or isinstance(value, (bool, int, float)):
        got = "none" if value is None else describe_value(value)
        raise RulesError(f"'{what}' must give a collection, got {got}", step.pos,
                         hint="a list, a set or a range, like [1, 2] or range(0, 3)")
    return ordered(value)


def _bind(v, target, x):
    if len(target) == 1:
        v[target[0]] = x
        return
    if not isinstance(x, tuple) or len(x) != len(target):
        raise EvalError(f"cannot unpack {x!r} into {', '.join(target)}")
    for n, y in zip(target, x):
        v[n] = y
