"""What a running flow keeps: its frames (a program counter, variables and
loop counters for each flow being run) and the choice pending, with its
options and their texts (see flow.py)."""

from __future__ import annotations

import re


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
