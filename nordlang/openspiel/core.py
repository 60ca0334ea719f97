"""The engine side of the OpenSpiel adapter: one compiled game and what is
known of it (its bounds, estimated from seeded random games), and a
position with the outcomes and actions that led to it (see the package's
notes). The pyspiel classes around it are in __init__.py."""

from __future__ import annotations

import copy
from collections import Counter

import pyspiel

import nordlang
from nordlang.engine.chance import ChanceNeeded, Scripted
from nordlang.engine.flow import DeadEnd, Machine
from nordlang.engine.game import Game
from nordlang.engine.program import Choice
from nordlang.engine.rng import Rng
from nordlang.engine.state import State
from nordlang.engine.views import observation
from nordlang.errors import RulesError

VARIANT_SEP = "+"               # variants in a game string (OpenSpiel's own separator is the comma)
SAMPLE_GAMES = 16               # seeded random games that estimate a game's bounds
_CACHE_LIMIT = 4_096            # transitions kept per game (cleared when full: a tree walk keeps its own)


# ---------------- one compiled game and what is known of it ----------------
class _Recorder(Rng):
    """A seeded source that notes the most outcomes any chance event had."""

    __slots__ = ("most", "events")

    def __init__(self, seed):
        super().__init__(seed)
        self.most = 0
        self.events = 0

    def copy(self):
        r = _Recorder(0)
        r.state, r.most, r.events = self.state, self.most, self.events
        return r

    def for_probe(self):
        return Rng(0x5EED)

    def _note(self, n):
        self.most = max(self.most, n)
        self.events += 1

    def roll(self, outcomes, probs, label=None):
        self._note(sum(1 for q in probs if q))
        return super().roll(outcomes, probs, label)

    def shuffle(self, items, label=None):
        if len(items) > 1:
            self._note(len(items))
            self.events += len(items) - 2
        return super().shuffle(items, label)


class _Engine:
    """A compiled rulebook, its machine, and the game's bounds (estimated
    from seeded random games where the rules do not fix them)."""

    def __init__(self, name, params, spec):
        # the game's own parameters: those set to other than the rulebook's value (a variant may set them too)
        own = {k: v for k, v in params.items() if k not in ("players", "variants", "max_actions")
               and (k not in spec or spec[k] != v)}
        variants = [v for v in params.get("variants", "").split(VARIANT_SEP) if v]
        self.name = name
        self.params_key = tuple(sorted(params.items()))
        self.rules = rules = nordlang.load_rules(name, params.get("players") or None, variants, own or None)
        self.machine = Machine(rules)
        secret = any(type(ins) is Choice and ins.step.simultaneous is not None
                     for code in self.machine.programs.values() for ins in code)
        self.perfect = not (rules.hidden_information or secret)
        self.cache: dict = {}
        self.root = None
        self._estimate(params.get("max_actions") or 0)

    def _estimate(self, max_actions):
        rules, machine = self.rules, self.machine
        most_options = most_outcomes = longest = 0
        sums, lo, hi = set(), 0.0, 0.0
        for seed in range(SAMPLE_GAMES):
            s = State(rules, seed)
            s.rng = rec = _Recorder(seed)
            pick = Rng(10_000 + seed)
            machine.start(s)
            moves = 0
            while not s.over:
                n = len(s.pending.options)
                most_options = max(most_options, n)
                machine.choose(s, pick.randrange(n))
                moves += 1
            longest = max(longest, moves + rec.events)
            most_outcomes = max(most_outcomes, rec.most)
            r = returns_of(rules, s)
            sums.add(round(sum(r), 9))
            lo, hi = min(lo, *r), max(hi, *r)
        self.num_actions = max_actions or max(2 * most_options, 8)
        self.num_outcomes = max(2 * most_outcomes, 8) if rules.uses_chance else 0
        self.max_length = 2 * longest + 16
        t = pyspiel.GameType.Utility
        if sums == {0.0}:
            self.utility, self.utility_sum = t.ZERO_SUM, 0.0
        elif len(sums) == 1:
            self.utility, self.utility_sum = t.CONSTANT_SUM, sums.pop()
        else:
            self.utility, self.utility_sum = t.GENERAL_SUM, None
        if rules.returns is None:
            self.min_utility, self.max_utility = -1.0, 1.0
        else:                           # (rulebook returns: what the sample saw, doubled)
            self.min_utility, self.max_utility = 2 * lo, 2 * hi
            if self.min_utility == self.max_utility:
                self.min_utility, self.max_utility = self.min_utility - 1, self.max_utility + 1

    def initial(self) -> _Core:
        if self.root is None:
            s = State(self.rules, 0)
            self.machine.start(s, run=False)
            n = self.rules.num_players
            core = _Core(self, s, None, (), 0)
            core.tokens = ((),) * n
            core.last_obs = ((),) * n
            core.secret = (frozenset(),) * n
            core.seen = 0
            core.advance()
            self.root = core
        return self.root


def returns_of(rules, state) -> tuple:
    """A finished position's returns, as the engine's Game gives them."""
    g = Game.__new__(Game)
    g.rules, g.state = rules, state
    return tuple(float(x) for x in g.returns())


def _copy(state) -> State:
    """A copy of a settled position to run on: the moves made kept (secret ones still marked)."""
    s = state.clone()
    s.history = list(state.history)
    s.hidden_moves = state.hidden_moves
    return s


# ---------------- a position, as OpenSpiel sees it ----------------
_NEXT_KEY = iter(range(1, 1 << 62))


class _Core:
    """What an OpenSpiel state holds. Its fields are replaced, never changed
    in place, so a copy is shallow and positions share what they can.

    Settled (`chance` None): `state` is the position, a decision pending or
    the game over. At a chance node: `state` is the position the step began
    from, `action` the option it takes (None: the setup), `outcomes` the
    chance outcomes given since, `chance` the event waiting for one.
    """

    __slots__ = ("engine", "state", "action", "outcomes", "chance", "key", "tokens", "last_obs", "secret",
                 "seen", "actions", "_returns", "_info")

    def __init__(self, engine, state, action, outcomes, key):
        self.engine, self.state, self.action, self.outcomes, self.key = engine, state, action, outcomes, key
        self.chance = None
        self.actions = ()
        self._returns = None
        self._info = {}

    def __copy__(self):
        c = _Core.__new__(_Core)
        for f in _Core.__slots__:
            setattr(c, f, getattr(self, f))
        c._info = dict(self._info)
        return c

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):            # (pickling: the game and the actions, replayed when read back)
        from . import _rebuild  # (the package makes engines by name; it imports this module)
        return _rebuild, (self.engine.name, self.engine.params_key, self.actions)

    # ---- moving on ----
    def apply(self, action: int) -> _Core:
        engine = self.engine
        hit = engine.cache.get((self.key, action))
        if hit is not None:
            return hit
        c = copy.copy(self)
        c.key = next(_NEXT_KEY)
        c.actions = self.actions + (action,)
        c._returns, c._info = None, {}
        if self.chance is not None:
            outcomes = [i for i, q in enumerate(self.chance.probs) if q]
            if action not in outcomes:
                raise ValueError(f"chance outcome {action} is not one of {outcomes} ({self.chance.label})")
            c.outcomes = self.outcomes + (action,)
            if engine.perfect or self.chance.public:      # (a roll is seen by all; a shuffle's order by none)
                c._add_all(f"* {self.chance.label}: {self.chance.outcomes[action]}")
        else:
            p = self.state.pending
            if p is None:
                raise ValueError(f"action {action}: the game is over")
            if not 0 <= action < len(p.options):
                raise ValueError(f"action {action} is not one of the {len(p.options)} options of {p.step.name!r}")
            c.action, c.outcomes = action, ()
            text = f"{p.step.name} {p.text(action)}"
            who = engine.rules.color(p.player)
            if engine.perfect:
                c._add_all(f"> {who} {text}")
            else:
                hidden = p.step.simultaneous is not None
                at = len(self.state.history)
                c.tokens = tuple(t + (f"> {who} {text}" if q == p.player or not hidden else f"> {who} {p.step.name} ?",)
                                 for q, t in enumerate(self.tokens))
                if hidden:
                    c.secret = tuple(s | {at} if q != p.player else s for q, s in enumerate(self.secret))
                c.seen = at + 1
        c.advance()
        if len(engine.cache) >= _CACHE_LIMIT:
            engine.cache.clear()
        engine.cache[(self.key, action)] = c
        return c

    def _add_all(self, token):
        self.tokens = tuple(t + (token,) for t in self.tokens)

    def advance(self) -> None:
        """Run the step with the outcomes given so far: to the next decision
        (or the end), or to the next chance event."""
        engine = self.engine
        s = _copy(self.state)
        s.rng = Scripted(self.outcomes)
        try:
            if self.action is None:
                engine.machine.run(s)
            else:
                engine.machine.choose(s, self.action)
        except ChanceNeeded as e:
            if not engine.rules.uses_chance:
                raise RulesError(f"a chance event ({e.label}) in rules that say they use none") from None
            if len(e.outcomes) > engine.num_outcomes:
                raise RulesError(f"{e.label} has {len(e.outcomes)} outcomes, more than the bound of "
                                 f"{engine.num_outcomes} estimated for this game") from None
            self.chance = e
            return
        except DeadEnd as e:
            raise RulesError(f"the rules demand a choice {e.step.name!r} here, but it has no option",
                             e.step.pos) from None
        s.rng = Scripted()          # settled: any later chance event is a chance node again
        self.state, self.chance, self.action, self.outcomes = s, None, None, ()
        if s.pending is not None and len(s.pending.options) > engine.num_actions:
            raise RulesError(f"choice {s.pending.step.name!r} has {len(s.pending.options)} options, more than the "
                             f"game's {engine.num_actions} action ids: load it with a larger max_actions")
        if not engine.perfect:
            self._settle(s)

    def _settle(self, s) -> None:
        """What each player comes to know from the step just run."""
        rules = self.engine.rules
        hidden = s.hidden_moves
        tokens, last, secret = list(self.tokens), list(self.last_obs), list(self.secret)
        bare = s.clone()            # (the position without its log: what an observation reads, copied the faster)
        for p in rules.player_range:
            add = []
            for i in range(self.seen, len(s.history)):
                _turn, who, choice, text, _forced = s.history[i]
                if i in hidden and who != p:
                    add.append(f"> {rules.color(who)} {choice} ?")
                    secret[p] = secret[p] | {i}
                else:
                    add.append(f"> {rules.color(who)} {choice} {text}")
            shown = sorted(i for i in secret[p] if i not in hidden)
            for i in shown:
                _turn, who, choice, text, _forced = s.history[i]
                add.append(f"! {rules.color(who)} {choice} {text}")
            if shown:
                secret[p] = secret[p] - set(shown)
            lines = observation(bare, p).split("\n")
            head, rest = lines[0], lines[1:]
            before, now = Counter(last[p]), Counter(rest)
            add.append("# " + head)
            add.extend("-" + x for x in (before - now).elements())
            add.extend("+" + x for x in (now - before).elements())
            last[p] = tuple(rest)
            tokens[p] = tokens[p] + tuple(add)
        self.tokens, self.last_obs, self.secret = tuple(tokens), tuple(last), tuple(secret)
        self.seen = len(s.history)

    # ---- reading ----
    def current_player(self) -> int:
        if self.chance is not None:
            return pyspiel.PlayerId.CHANCE
        if self.state.over:
            return pyspiel.PlayerId.TERMINAL
        return self.state.pending.player

    def returns(self) -> list:
        if self.chance is not None or not self.state.over:
            return [0.0] * self.engine.rules.num_players
        if self._returns is None:
            self._returns = list(returns_of(self.engine.rules, self.state))
        return list(self._returns)

    def information_state(self, player: int) -> str:
        got = self._info.get(player)
        if got is None:
            got = self._info[player] = "\n".join((f"@ {self.engine.rules.color(player)}",) + self.tokens[player])
        return got

    def observation(self, player: int) -> str:
        return observation(self.state, player)
