"""The part of compiling a rulebook that builds its board for a player count
and the names its expressions may use (and the checks on binding them)."""

from __future__ import annotations

import re

from ..engine.library import STD
from ..errors import LangError, Pos, SchemaError, did_you_mean
from ..lang.builtins import BARE, EFFECT, Builtin, Registry
from ..lang.checks import rebinding
from ..lang.memo import Func
from ..lang.names import Names
from ..lang.parser import KEYWORDS
from . import boards as boards_mod
from .loader import parse_signature


class _SpaceNames:
    """The names of a board's spaces, as the `space(...)` primitive reads them."""

    def __init__(self, grid):
        self.grid = grid

    def __contains__(self, text) -> bool:
        return isinstance(text, str) and self.grid.parse(text) in self.grid.space_set

    def __iter__(self):
        return (self.grid.name(s) for s in self.grid.spaces)

    def __len__(self) -> int:
        return len(self.grid.spaces)


class Record(dict):
    """A table row or mapping from the rulebook: read-only, hashable, so
    definitions taking it as an argument can be memoised."""

    def __hash__(self):
        return hash(tuple(self.items()))

    def _readonly(self, *a, **k):  # pragma: no cover - rules never mutate tables
        raise TypeError("rulebook tables are read-only")

    __setitem__ = __delitem__ = update = pop = clear = setdefault = _readonly


def _freeze(v):
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return Record({k: _freeze(x) for k, x in v.items()})
    return v


def _ignore(*args, **kw):
    """Errors of a stand-in board (the rulebook has none for the count), not reported."""




class _Proc:
    def __init__(self, name, params, steps, key):
        self.name, self.params, self.steps, self.key = name, params, steps, key


class BoardAndNames:
    """What Rules knows of its board and its names. (a part of Rules)"""

    # ---------------- board ----------------
    def _board(self):
        data = self.data
        legend = boards_mod.Legend(self.terrains, data.get("features", {}), data.get("legend"))
        self.legend = legend
        pl = data["players"]
        spec, base, missing = boards_mod.board_for(data.get("boards"), self.num_players,
                                                   range(pl["min"], min(pl["max"], len(self.colors)) + 1))
        if missing is not None:
            # (no board: nothing is built, and nothing else is checked against a board that is not there)
            self._err(("boards",), missing[0], key="boards" in data, hint=missing[1])
            spec = {"size": [1, 1]}
            base = ("boards",)
        self.board = spec
        self.board_missing = missing is not None
        self.board_path = base              # where it is in the rulebook: ('boards',) or ('boards', count)
        one_region = [t for t, v in self.terrains.items() if v.get("one_region")]
        under = {k: v.get("stands_on") for k, v in (data.get("structures") or {}).items()}

        def err(path, msg, col=None, **kw):
            pos, line = self.doc.pos(base + tuple(path))
            if col is not None and pos.col is not None and path and path[0] == "map":
                pos = Pos(pos.file, pos.line, pos.col + col + (1 if line and line.lstrip().startswith("- \"") else 0))
            self.errors.append(SchemaError(msg, pos, source_line=line, **kw))
        self.grid = boards_mod.build_grid(spec, data, legend, err if missing is None else _ignore, one_region,
                                          under)
        kinds = data.get("structures") or {}
        self.structures_by_kind = {}
        for sid in sorted(self.grid.structures):
            st = self.grid.structures[sid]
            if st.kind not in kinds:
                err(("structures", sid, "kind"), f"unknown structure kind {st.kind!r}",
                    hint=did_you_mean(st.kind, kinds))
            self.structures_by_kind.setdefault(st.kind, []).append(sid)
        self.structures_by_kind = {k: tuple(v) for k, v in self.structures_by_kind.items()}
        self.seats = tuple(spec.get("seats", ()))
        for i, sid in enumerate(self.seats):
            if sid not in self.grid.structures:
                err(("seats", i), f"seat {sid!r} is not a structure of this board",
                    hint=did_you_mean(sid, self.grid.structures))
        if self.seats and len(self.seats) < self.num_players:
            err(("seats",), f"{self.num_players} players need {self.num_players} seats; the board names "
                            f"{len(self.seats)}")
        # a seat is where one player starts: each player's own, all of one kind of structure
        seated = self.seats[:self.num_players]
        for i, sid in enumerate(seated):
            if sid in seated[:i]:
                err(("seats", i), f"seat {sid!r} is named twice: each player starts in a place of their own")
        known = self.grid.structures
        seat_kinds = [(i, known[sid].kind) for i, sid in enumerate(seated) if sid in known]
        odd = next((i for i, k in seat_kinds if k != seat_kinds[0][1]), None)
        if odd is not None:
            err(("seats", odd), f"seat {seated[odd]!r} is a {dict(seat_kinds)[odd]}, the seats before it are "
                                f"{seat_kinds[0][1]}s: the players start in structures of one kind")

    # ---------------- names ----------------
    def _names(self):
        data = self.data
        reg = Registry(dict(STD.items))
        seats = self.seats

        def seat(ctx, p):
            return seats[p] if seats else None
        reg.add(Builtin("seat", seat, arity=(1, 1), doc="the starting structure the board fixes for a player "
                        "(none when the board leaves it to the players)",
                        example="seat(player)", group="players", args=("player",), returns="structure"))
        reg.add(Builtin("tile_ids", lambda ctx: tuple(sorted(set(self.grid.tiles.values()))), BARE,
                        doc="the ids of the tiles the board is made of", example="tile_ids", group="board"))
        self.registry = reg
        constants = {}
        for k, v in (data.get("constants") or {}).items():
            constants[k] = _freeze(v)
        for k, v in (data.get("tables") or {}).items():
            if k in constants:
                self._err(("tables", k), f"{k!r} is both a constant and a table", key=True)
            constants[k] = _freeze(v)
        constants["terrains"] = _freeze(self.terrains)
        constructors = {}
        for name, z in self.zones.items():
            if z.get("per_player"):
                constructors[name] = (1, 1)
            else:
                constants[name] = (name, None)
        for name, _pc in self.pieces.items():
            if name in constructors or name in constants:
                self._err(("pieces", name), f"piece kind {name!r} has the name of a zone or constant", key=True)
            constructors[name] = (0, 1)
        for name in list(constants) + list(constructors):
            if name in reg.items:
                where = ("tables", name) if name in (data.get("tables") or {}) else ("constants", name)
                self._err(where, f"{name!r} is the name of a built-in primitive; choose another name", key=True)
        self.names = Names(reg, constants, {}, constructors, colors=self.colors)
        terr = set(self.terrains)
        kinds = set(self.pieces)
        feats = set(data.get("features") or {})
        skinds = set(data.get("structures") or {})
        # the names of each kind of value that primitives take and give (builtins.KINDS)
        self.names.known = {"terrain": ("terrain", terr), "piece kind": ("piece kind", kinds),
                            "feature": ("feature", feats), "structure kind": ("structure kind", skinds),
                            "structure": ("structure of this board", set(self.grid.structures)),
                            "space name": ("space of this board", _SpaceNames(self.grid))}
        if self.board_missing:      # (no board to check names against: its one error says so)
            del self.names.known["structure"], self.names.known["space name"]
        declared = (data.get("result") or {}).get("sources")
        if declared:
            # points come from the sources the result names (its table has a column for each)
            self.names.known["source"] = ("source of points (result.sources)", set(declared))
        # a player's zone is made from a player: supply(p)
        self.names.constructor_args = {name: "player" for name, z in self.zones.items() if z.get("per_player")}
        # definitions and procedures: register signatures first, compile bodies after
        self._defs = []
        self._originals = []        # the definitions and procedures variants replaced (see _originals_of)
        for section, kind in (("define", "expr"), ("procedures", EFFECT)):
            for key, body in (data.get(section) or {}).items():
                sig = parse_signature(key)
                if sig is None:
                    words = KEYWORDS.intersection(re.findall(r"\w+", str(key)))
                    self._err((section, key), f"{key!r} is not a valid name or signature", key=True,
                              expected="name or name(param, ...)",
                              hint=f"{sorted(words)[0]!r} is a word of the language, not a name" if words else None)
                    continue
                name, params = sig
                self._check_params((section, key), params)
                if name in self.names.funcs:
                    other = self.names.funcs[name]
                    where = self.doc.pos(other.path, key=True)[0]
                    self._err((section, key), f"{key!r} defines {name!r} again: {other.path[1]!r} already does "
                                              f"(at {where})", key=True,
                              hint=f"to change it, patch the same key {other.path[1]!r} (with its parameters); "
                                   "a key with other parameters is a second definition")
                    continue
                if name in constants or name in constructors or name in reg.items:
                    what = "a constant or table" if name in constants else \
                        "a piece or zone" if name in constructors else "a built-in primitive"
                    self._err((section, key), f"{name!r} is already the name of {what}; choose another name",
                              key=True)
                    continue
                f = Func(name, params, kind, pos=self.doc.pos((section, key), key=True)[0], text=body,
                         path=(section, key))
                self.names.funcs[name] = f
                self._defs.append((section, key, f, body))
                self._originals_of(section, key, f)
        self.procs = {}
        for key, _steps in (data.get("flows") or {}).items():
            sig = parse_signature(key)
            if sig is None:
                self._err(("flows", key), f"{key!r} is not a valid flow name", key=True)
                continue
            self._check_params(("flows", key), sig[1])
            self.procs[sig[0]] = _Proc(sig[0], sig[1], (), key)

    def _originals_of(self, section, key, f) -> None:
        """The texts variants replaced at (section, key), newest first, as
        definitions f.original, f.original.original, ... (original(...) in
        the text calls them; compiled only if called: see _compile_originals)."""
        replaced = self.doc.replaced.get((section, key), ())
        for i in range(len(replaced) - 1, -1, -1):
            path = (section, key, "$original", i)
            hidden = f"original {f.name}" + (f" #{i + 1}" if i < len(replaced) - 1 else "")
            f.original = Func(hidden, f.params, f.kind, pos=self.doc.pos(path, key=True)[0],
                              text=replaced[i][0], path=path)
            self._originals.append(f.original)
            f = f.original

    def _compile_originals(self) -> None:
        """Compile the replaced texts some definition calls as original(...)
        (and the ones those call); the others are never compiled, so a
        variant may replace a text that no longer compiles with its changes."""
        done: set = set()
        while True:
            todo = [o for o in self._originals if o.name in self.names.used and o.name not in done]
            if not todo:
                return
            for o in todo:
                done.add(o.name)
                self.names.funcs[o.name] = o
                mode = "expr" if o.kind == "expr" else "effects"
                if self.compile_text(o.text, o.path, mode, frozenset(), o) is None:
                    o.py = lambda ctx, *a: None
                    o.body = lambda ctx: None

    def _check_binding(self, path, name, key=False) -> None:
        """A flow's let, for or choice, or a parameter, must not bind a
        built-in value like player (lang.checks.rebinding says why)."""
        problem = rebinding(name, self.names.registry)
        if problem:
            self._err(path, problem[0], key=key, cls=LangError, hint=problem[1])

    def _check_params(self, path, params) -> None:
        for p in params:
            self._check_binding(path, p, key=True)

    def check_sides(self) -> None:
        """boards.sides (what a picture draws along the board for each player):
        each key a colour of the rulebook's players, each name a definition
        without parameters (its value, a list of spaces, is read when drawing)."""
        sides = self.board.get("sides") if isinstance(self.board, dict) else None
        funcs = self.names.funcs
        for colour, names in (sides or {}).items():
            if colour not in self.colors:
                self._err(self.board_path + ("sides", colour), f"boards.sides names {colour!r}, which is no "
                          "player's colour", key=True, expected=", ".join(self.colors),
                          hint=did_you_mean(str(colour), self.colors))
                continue
            for i, name in enumerate(names):
                f = funcs.get(name)
                if f is None or f.params:
                    self._err(self.board_path + ("sides", colour, i),
                              f"boards.sides.{colour}: {name!r} is no definition without parameters",
                              expected="the name of a definition that gives a list of spaces, like top",
                              hint=did_you_mean(str(name), [n for n, g in funcs.items() if not g.params]))
