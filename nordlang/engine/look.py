"""Looking at a position from Python: `Game.look(player)` and `Game.evaluate`.

A look reads a position by the names a rulebook and its players use, not
by the engine's keys: a space by its name ("c4"), a zone by its name and
owner (a player's number or colour), any expression of the rulebook's
language. What comes back is plain Python: numbers, truth, text, None;
a space as its name, an item as its text ("mark:red"), a zone as its text
("supply(red)"); a set as a frozenset, a list or tuple as a tuple, a
mapping as a dict, each of those values made plain too. The engine holds a
space as a pair of numbers, so any pair of whole numbers that is a space of
the board comes back as its name; `value` gives the engine's own value,
`show` its text in moves and logs. Compiled texts are kept per rulebook.

A look for a player is made from his view (views.py): each item he may
not see is face down there (its kind, tagged '?', shown "card:?"), in the
expressions evaluated on it too. The referee's look (player None) sees
everything.
"""

from __future__ import annotations

import re
import weakref

from ..board.grid import Port
from ..errors import LangError, LookError, NordError, Pos, did_you_mean
from ..lang.compiler import Compiler
from ..lang.parser import KEYWORDS, parse
from ..rules.showing import _natural
from .views import view

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_COMPILED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # rules -> {(text, names): function}
_PLAIN_IN = (int, float, str, type(None))
_WHERE = "<expression>"          # the file an error in an expression given here is placed in


class Position:
    """A position as one seat sees it (None: the referee, everything), read by names.
    A snapshot: it does not follow the game's later moves."""

    def __init__(self, rules, state, player: int | None):
        self.rules = rules
        self.state = state
        self.player = player

    def __repr__(self) -> str:
        who = "the referee" if self.player is None else self.rules.color(self.player)
        return f"<Position after {self.state.moves_made} moves, as {who} sees it>"

    def _repr_svg_(self) -> str:
        """Its picture, for a notebook (nordlang/notebook.py)."""
        from ..notebook import svg
        return svg(self)

    # ---- expressions ----
    def evaluate(self, text: str, **names):
        """The value of an expression of the rulebook's language here, made
        plain (see the module's doc). `names` bind local names the text may
        read: numbers, text, truth, or lists/sets of them (a space goes in
        by its name: evaluate("space(s)", s="c4"))."""
        return self.plain(self.value(text, **names))

    def show(self, text: str, **names) -> str:
        """An expression's value as the engine writes it in moves and logs ('c3,c4')."""
        return self.rules.show(self.value(text, **names))

    def value(self, text: str, **names):
        """An expression's value as the engine holds it (spaces as (row, column) pairs, items as (kind, tag))."""
        fn = _compiled(self.rules, text, tuple(sorted(names)))
        ctx = self.rules.ctx(self.state, {k: _engine_value(k, v) for k, v in names.items()})
        try:
            return fn(ctx)
        except NordError as e:
            raise _placed(e, text.splitlines()) from None

    def plain(self, v):
        """An engine value as plain Python (spaces and items by their names)."""
        if v is None or v is True or v is False or isinstance(v, (int, float, str)):
            return v
        if isinstance(v, (frozenset, set)):
            return frozenset(self.plain(x) for x in v)
        if isinstance(v, dict):
            return {self.plain(k): self.plain(x) for k, x in v.items()}
        if isinstance(v, Port):
            return self.rules.show(v)
        if isinstance(v, (tuple, list)):
            if self._named(v):
                return self.rules.show(v)
            return tuple(self.plain(x) for x in v)
        return v

    def _named(self, v) -> bool:
        """Is this tuple a thing the engine writes by name (a space, an item, a zone, a grid's cell)?"""
        rules = self.rules
        if len(v) == 2 and type(v[0]) is int and type(v[1]) is int:
            return v in rules.grid.space_set
        if len(v) == 2 and isinstance(v[0], str):
            return v[0] in rules.pieces or v[0] in rules.zones
        return len(v) == 4 and isinstance(v[0], str) and v[0] in rules.grid_zones

    # ---- places ----
    def space(self, name: str) -> dict:
        """What lies on a space, by its name ("c4"): {item text: count}, {} when empty."""
        return self._counted(self.state.pools.get(self._space(name), {}))

    def zone(self, name: str, owner=None):
        """What a zone holds, by its name and, for a zone each player has,
        its owner (a number or a colour): a pool as {item text: count}, a
        deck as a tuple of item texts in the deck's order, a track as a
        tuple of its slots (None for an empty one), a grid as {(row,
        column): {item text: count}} of the cells that hold something."""
        rules = self.rules
        spec = rules.zones.get(name) if isinstance(name, str) else None
        if spec is None:
            raise LookError(f"{name!r} is not a zone of this rulebook", text=str(name),
                            expected="one of " + (", ".join(sorted(rules.zones)) or "(it has no zones)"),
                            hint=did_you_mean(str(name), rules.zones))
        if spec.get("per_player"):
            if owner is None:
                raise LookError(f"the zone {name!r} is each player's: say whose", text=name,
                                expected=f"zone({name!r}, owner), the owner a player: {self._players()}")
            owner = player_of(rules, owner)
        elif owner is not None:
            raise LookError(f"the zone {name!r} is shared: it has no owner, but {owner!r} was given", text=name,
                            hint=f"zone({name!r})")
        key, st = (name, owner), self.state
        if name in rules.grid_zones:
            return {c[2:]: self._counted(st.pools[c]) for c in st.cells.get(key, ()) if st.pools[c]}
        if key in st.decks:
            return tuple(rules.show_item(x) for x in st.decks[key])
        if key in st.tracks:
            return tuple(None if x is None else rules.show_item(x) for x in st.tracks[key])
        return self._counted(st.pools.get(key, {}))

    # ---- the score ----
    def points(self, player=None):
        """A player's points (by number or colour), or every player's: {colour: points}."""
        if player is not None:
            return self.state.counters.get(("points", player_of(self.rules, player)), 0)
        return {self.rules.color(p): self.state.counters.get(("points", p), 0) for p in self.rules.player_range}

    def ranking(self) -> dict:
        """The rulebook's rank keys (result.rank) for each player, by colour: {colour: (keys...)}."""
        rules = self.rules
        return {rules.color(p): tuple(self.plain(f(rules.ctx(self.state, {"p": p}))) for f in rules.rank)
                for p in rules.player_range}

    # ---- helpers ----
    def _counted(self, pool: dict) -> dict:
        """A pool as {item text: count}, in the engine's order of texts (card:2 before card:10)."""
        show = self.rules.show_item
        return dict(sorted(((show(i), n) for i, n in pool.items()), key=lambda kv: _natural(kv[0])))

    def _space(self, name):
        grid = self.rules.grid
        s = grid.parse(name) if isinstance(name, str) else None
        if s is not None and s in grid.space_set:
            return s
        names = [grid.name(x) for x in grid.spaces]
        if not names:
            raise LookError(f"{name!r} is not a space: this game has no board", text=str(name),
                            hint="what it holds is in its zones: zone(name, owner)")
        some = ", ".join(names[:3]) + (f" ... {names[-1]}" if len(names) > 3 else "")
        raise LookError(f"{name!r} is not a space of this board", text=str(name), expected=f"a space's name: {some}",
                        hint=(did_you_mean(name, names) if isinstance(name, str) else None)
                        or 'evaluate("spaces") lists them all')

    def _players(self) -> str:
        rules = self.rules
        return ", ".join(f"{p} or {rules.color(p)!r}" for p in rules.player_range)


def player_of(rules, player) -> int:
    """A player's number from his number or colour (a LookError otherwise)."""
    if type(player) is int and 0 <= player < rules.num_players:
        return player
    if isinstance(player, str) and player in rules.colors:
        return rules.colors.index(player)
    players = ", ".join(f"{p} or {rules.color(p)!r}" for p in rules.player_range)
    raise LookError(f"{player!r} is not a player of this game", text=str(player),
                    expected=f"a player: {players}",
                    hint=did_you_mean(player, rules.colors) if isinstance(player, str) else None)


def look(game, player) -> Position:
    """The position as `player` (a number, a colour, or None: the referee) sees it."""
    rules = game.rules
    seat = None if player is None else player_of(rules, player)
    return Position(rules, view(game.state, seat), seat)


def _compiled(rules, text, names: tuple):
    """The function of an expression text with local `names`, compiled once per rules."""
    table = _COMPILED.setdefault(rules, {})
    fn = table.get((text, names))
    if fn is None:
        fn = table[(text, names)] = _compile(rules, text, names)
    return fn


def _compile(rules, text, names):
    if not isinstance(text, str):
        raise LookError(f"an expression is text, like 'points(0)', not {type(text).__name__}")
    for n in names:
        if not _NAME.match(n) or n in KEYWORDS:
            raise LookError(f"{n!r} cannot be a name in an expression", text=n,
                            expected="a name: letters, digits and '_', not a keyword")
    lines = text.splitlines() or [""]

    def locate(line, col):
        return Pos(_WHERE, line, col)
    try:
        tree = parse(text, "expr", locate=locate)
    except LangError as e:
        raise _placed(e, lines) from None
    comp = Compiler(rules.names, locate, text=text)
    fn = comp.expr(tree, frozenset(names))
    if comp.errors:
        raise _placed(comp.errors[0], lines) from None
    return fn


def _placed(e: NordError, lines) -> NordError:
    """The error with the line of the expression it points into, so it shows with a caret."""
    pos = e.pos
    if e.source_line is None and pos is not None and pos.file == _WHERE and pos.line and pos.line <= len(lines):
        e.source_line = lines[pos.line - 1]
    return e


def _engine_value(name, v):
    """A bound name's value as the engine holds it: lists as tuples, sets as frozensets."""
    if v is None or isinstance(v, _PLAIN_IN):
        return v
    if isinstance(v, (list, tuple)):
        return tuple(_engine_value(name, x) for x in v)
    if isinstance(v, (set, frozenset)):
        return frozenset(_engine_value(name, x) for x in v)
    raise LookError(f"the value of {name!r} is of type {type(v).__name__}; an expression takes numbers, text, "
                    "truth and lists or sets of them", text=repr(v),
                    hint='a space goes in by its name: evaluate("space(s)", s="c4")')
