"""What a running flow keeps: its frames (a program counter, variables and
loop counters for each flow being run) and the choice pending, with its
options and their texts (see flow.py)."""

from __future__ import annotations

import itertools
import re
import weakref

from ..lang import ast as A
from .board_index import BoardIndex


# ---------------- frames ----------------
class Frame:
    """A flow being run: its program, where it is, its variables and its
    loops' state (by slot, or None). It holds nothing that refers back to
    the state, so a copy of a state that is dropped is freed at once, not
    left in a reference cycle for the collector."""

    __slots__ = ("code", "pc", "vars", "loops")

    def __init__(self, code, vars):
        self.code = code
        self.pc = 0
        self.vars = vars
        self.loops = None

    @staticmethod
    def resumed(code, pc, vars, loops):
        """A frame at pc with these variables and a copy of these loops' state."""
        f = Frame.__new__(Frame)
        f.code, f.pc, f.vars = code, pc, vars
        f.loops = dict(loops) if loops else None
        return f

    def copy(self, memo):
        f = Frame.__new__(Frame)
        f.code, f.pc = self.code, self.pc
        f.loops = dict(self.loops) if self.loops else None
        f.vars = shared_copy(memo, self.vars)
        return f


def copied(frames, pending) -> tuple:
    """(a copy of the frames, a copy of the pending choice or None), the
    variables they share copied once: Frame.copy and Pending.copy written
    out, for a search makes a copy of every position it plays."""
    memo = {}
    out = []
    new = Frame.__new__
    for f in frames:
        c = new(Frame)
        c.code, c.pc, loops, v = f.code, f.pc, f.loops, f.vars
        c.loops = dict(loops) if loops else None
        w = memo.get(id(v))
        if w is None:
            w = memo[id(v)] = v.copy()
        c.vars = w
        out.append(c)
    if pending is None:
        return out, None
    p = Pending.__new__(Pending)
    p.step, p.options, p._texts, p.player, p.show = pending.step, pending.options, pending._texts, \
        pending.player, pending.show
    v = pending.vars
    w = memo.get(id(v))
    p.vars = v.copy() if w is None else w
    return out, p


def option_text(step, value, show) -> str:
    """How an option reads in moves and logs: the choice's text for 'nothing', else the value shown."""
    return step.optional if value is None and step.optional is not None else show(value)


class _InPlace:
    """A probe running on the position itself: the frames below the top one
    stay the position's own until one is on top again (then it is copied,
    with the variables it shares with others copied once, through `memo`).
    `own` is the position's list of frames (a probe runs on a list of its own)."""

    __slots__ = ("own", "memo")

    def __init__(self, own):
        self.own = own
        self.memo = {}

    def is_own(self, frame) -> bool:
        """Is this frame the position's own (not yet copied for the probe)?"""
        for f in self.own:
            if f is frame:
                return True
        return False


class Pending:
    """A decision a player must take (the player to move, unless the choice
    names who decides).

    Option texts are made when first asked for: a random or search agent
    that picks by index never needs them, and a move's record needs one.
    """

    __slots__ = ("step", "options", "_texts", "vars", "player", "show")

    def __init__(self, step, options, texts, vars, player, show=None):
        self.step, self.options, self._texts, self.vars, self.player = step, options, texts, vars, player
        self.show = show

    def text(self, i) -> str:
        if self._texts is not None:
            return self._texts[i]
        return option_text(self.step, self.options[i], self.show)

    @property
    def texts(self) -> list:
        if self._texts is None:
            self._texts = [self.text(i) for i in range(len(self.options))]
        return self._texts

    def find(self, text: str) -> int | None:
        """The index of the option a move's text names, or None.

        A text names an option when it is the option's text, give or take
        blanks ('c2, d2'); a set is named by its members in any order
        ('d2,c2' for 'c2,d2'), each once. So a user need not know which order
        the one text form happens to list a set in.
        """
        texts = self.texts
        try:
            return texts.index(text)
        except ValueError:
            pass
        loose = _blanks(text)
        members = sorted(loose.split(","))
        for i, t in enumerate(texts):
            if _blanks(t) == loose or (type(self.options[i]) is frozenset and sorted(t.split(",")) == members):
                return i
        return None

    def copy(self, memo):
        p = Pending.__new__(Pending)
        p.step, p.options, p._texts, p.player, p.show = self.step, self.options, self._texts, self.player, self.show
        p.vars = shared_copy(memo, self.vars)
        return p


def turn_start(state):
    """The position as a turn begins (for at_turn_start: no flow, no log, no
    chance), sharing the state's zones: the state is marked shared, so its
    next effect copies them first (flow.py _run), as the copy made here
    would have. A position a search only copies, never plays on, is then
    never copied twice (a search makes one at each turn's start)."""
    s = state._copy(light=True)
    s.rng = None
    s.frames, s.pending = [], None
    s.turn_start = None
    s.events, s.history = [], []
    s.hidden_moves = frozenset()
    state.shared = True
    state._mine = set()          # (its pools are the copy's too: changed in place by neither)
    return s


class OccupancyAtStart(BoardIndex):
    """A turn's start that keeps only the board's occupancy (with the
    connection graph and owners' masks made from it): all that rules whose
    at_turn_start asks only of connections read (`occupancy_is_enough`).
    The full snapshot (turn_start) costs the position a copy of every zone
    table at its next effect and of each zone it then changes; this one
    copies the occupancy alone. It is never changed."""

    __slots__ = ("rules", "places", "by_owner", "occupied", "_links", "_occ", "owned", "free", "free_at",
                 "free_view", "free_mine", "version", "parts", "base", "player", "turn", "over", "frames",
                 "pending", "probing", "rng", "turn_start", "run_ctx")

    def __getattr__(self, name):
        raise AttributeError(f"a turn's start keeps only the board's occupancy (all this rulebook's "
                             f"at_turn_start reads), not {name!r}")

    def fresh_copy(self) -> OccupancyAtStart:
        """The same position under a version of its own (a sample's: samples.py)."""
        s = occupancy_at_start(self)
        s.version = hash(("fresh start", next(_FRESH)))
        s.parts, s.base = {}, s.version
        return s


def occupancy_at_start(state) -> OccupancyAtStart:
    """The position's occupancy as the turn begins (turn_start's thin form)."""
    s = OccupancyAtStart.__new__(OccupancyAtStart)
    s.rules = state.rules
    s.places = state.places
    s.by_owner = state.by_owner
    s.occupied = state.occupied.copy()
    s._links = state._links          # (a graph is never changed: the position's next is a new one)
    s._occ = state._occ
    s.owned = s.free = s.free_at = s.free_view = None     # (made from the occupancy if asked)
    s.free_mine = False
    s.version = state.version
    s.parts = state.parts.copy()
    s.base = state.base
    s.player = state.player
    s.turn = state.turn
    s.over = state.over
    s.frames, s.pending, s.probing, s.rng, s.turn_start, s.run_ctx = [], None, False, None, None, None
    return s


_FRESH = itertools.count()

# the primitives that read the position only through its occupancy (the pieces on the board's spaces)
_OF_OCCUPANCY = frozenset({"connected", "connected_pairs"})


def occupancy_is_enough(rules) -> bool:
    """Whether each at_turn_start of the rulebook asks only a primitive that
    reads the occupancy, of constants (at_turn_start(connected_pairs("x"))),
    and no occupying piece can be hidden (a sample deals the occupancy anew
    then): a turn's start may then be an OccupancyAtStart. Worked out once a rulebook."""
    known = _ENOUGH.get(rules)
    if known is None:
        known = _ENOUGH[rules] = _occupancy_is_enough(rules)
    return known


_ENOUGH: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _occupancy_is_enough(rules) -> bool:
    if "conceal" in rules.names.primitives or rules.occupying & rules.face_down:
        return False
    found = 0
    for _path, tree, _locate in rules.trees:
        for node in A.walk(tree):
            if node.__class__ is A.Call and node.func.__class__ is A.Name and node.func.id == "at_turn_start":
                found += 1
                asked = node.args[0] if len(node.args) == 1 and node.gen is None else None
                if not (asked.__class__ is A.Call and asked.func.__class__ is A.Name
                        and asked.func.id in _OF_OCCUPANCY and asked.gen is None
                        and all(a.__class__ is A.Const for a in asked.args)):
                    return False
    return found > 0


def record_choice(state, who, name, text, forced) -> int:
    """A choice taken (asked, or forced: it had one option) into the history
    and the events, which are written together; its index in the history."""
    state.history.append((state.turn, who, name, text, forced))
    state.events.append(("choice", who, name, text, forced, state.turn))
    return len(state.history) - 1


def shared_copy(memo: dict, variables: dict) -> dict:
    """A copy of a flow's variables, made once per copy of the state: the
    frames and the pending choice that share them keep sharing the copy."""
    v = memo.get(id(variables))
    if v is None:
        v = memo[id(variables)] = dict(variables)
    return v


_PUNCTUATION_BLANKS = re.compile(r"\s*([,()\[\]{}])\s*")


def _blanks(text: str) -> str:
    """A text give or take blanks beside punctuation ('c2, d2' is 'c2,d2',
    '(a, b)' is '(a,b)'); blanks inside a word stay, so 'he lmet' names no
    option 'helmet'."""
    return _PUNCTUATION_BLANKS.sub(r"\1", " ".join(text.split()))
