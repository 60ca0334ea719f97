"""Compile a validated rulebook document into `Rules`: the board for a
player count, every expression and effect compiled once, and the flow."""

from __future__ import annotations

import re
from typing import NamedTuple

from ..board.geometry import grid_name
from ..board.grid import Port
from ..engine import flow as F
from ..engine.library import STD
from ..errors import LangError, NordError, Pos, SchemaError, did_you_mean
from ..lang.builtins import BARE, EFFECT, Builtin, Registry
from ..lang.checks import rebinding
from ..lang.compiler import Compiler, Ctx, Names
from ..lang.memo import Func, by_position, is_cheap
from ..lang.parser import KEYWORDS, parse
from ..render.colors import display_color
from . import island as island_mod
from .loader import Doc, digest, parse_signature


class BoardCheck(NamedTuple):
    """A setup rule checked on the island a game plays on (board_checks), or
    a rule of the rulebook's own data (data_checks: `about` names the data)."""
    fn: object            # fn(ctx): true when the rule holds, or (offenders) what breaks it
    message: str
    warning: bool         # a "should" of the rules: reported, but the island still plays
    path: tuple           # where it is in the rulebook
    offenders: bool = False
    about: tuple | None = None    # data_checks: the path of the data it checks
    any_board: bool = False       # a need of the rules, checked on every board (a scenario's map too)


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


class Rules:
    """A rulebook compiled for a number of players."""

    def __init__(self, doc: Doc, players: int, errors: list):
        self.doc = doc
        data = self.data = doc.data
        self.errors = errors
        self.name = data.get("game", {}).get("name", "game")
        self.digest = digest(data)
        pl = data["players"]
        self.num_players = players
        # how ordered values are written (moves, logs): the parts of a tuple, the spaces of a path
        notation = data.get("notation") or {}
        self.tuple_sep, self.path_sep = notation.get("tuple"), notation.get("path")
        # a player's colour: its name (in logs, moves, scenarios) and what it is drawn in
        self.colors = tuple(c["name"] if isinstance(c, dict) else c for c in pl["colors"])
        self.color_values = tuple(display_color(name, c.get("value") if isinstance(c, dict) else None, i)
                                  for i, (name, c) in enumerate(zip(self.colors, pl["colors"])))
        if not pl["min"] <= players <= pl["max"] or players > len(self.colors):
            from ..errors import UsageError
            pos, line = self.doc.pos(("players",), key=True)
            raise UsageError(f"this rulebook is for {pl['min']} to {min(pl['max'], len(self.colors))} players, "
                             f"not {players}", pos, source_line=line,
                             hint="choose --players within that range, or a variant that allows more")
        self.player_range = tuple(range(players))       # (after the check: a huge count would overflow)
        self.terrains = data.get("terrains") or {}
        self.pieces = data["pieces"]
        # a piece that links joins the connection graph; one that occupies (or links) is the one piece
        # on its space that piece_at, occupied, open_spaces and occupied_by see
        self.linking = frozenset(k for k, v in self.pieces.items() if v.get("links"))
        self.occupying = self.linking | {k for k, v in self.pieces.items() if v.get("occupies")}
        self.zones = data["zones"]
        self._check_data_names()
        self.track_values = {k: tuple(v.get("values", ())) for k, v in self.zones.items() if v["type"] == "track"}
        # a grid zone's (rows, columns): a container of cells, made as items first come to them
        self.grid_zones = {k: (v.get("rows", 1), v.get("columns", 1)) for k, v in self.zones.items()
                           if v["type"] == "grid"}
        self.messages = data.get("messages", {})
        self._shown = {}
        self.trees = []             # (path, syntax tree, locate) of each text compiled: for checks that read them
        self._board()
        self._names()
        self._compile()

    # ---------------- errors ----------------
    def _err(self, path, msg, cls=SchemaError, key=False, **kw):
        pos, line = self.doc.pos(path, key=key)
        self.errors.append(cls(msg, pos, source_line=line, **kw))

    def _check_data_names(self):
        """Names the rulebook's data refers to: each must be declared."""
        data = self.data
        terrains, zones = set(self.terrains), set(self.zones)
        feats = data.get("features") or {}

        def need(path, value, known, what):
            if value is not None and value not in known:
                pos, line = self.doc.pos(path)
                self.errors.append(SchemaError(f"{value!r} is not a {what} of this rulebook", pos,
                                               source_line=line, expected=", ".join(sorted(known)),
                                               hint=did_you_mean(str(value), known)))
        for name, f in feats.items():
            need(("features", name, "terrain"), f.get("terrain"), terrains, "terrain")
        for name, pc in self.pieces.items():
            need(("pieces", name, "home"), pc.get("home"), zones, "zone")
        for name, st in (data.get("structures") or {}).items():
            need(("structures", name, "stands_on"), st.get("stands_on"), terrains, "terrain")
        for ch, spec in (data.get("legend") or {}).items():
            terr, _, rest = str(spec).partition("+")
            need(("legend", ch), terr, terrains, "terrain")
            for f in filter(None, rest.split("+")):
                need(("legend", ch), f, set(feats), "feature")

    # ---------------- board ----------------
    def _board(self):
        data = self.data
        legend = island_mod.Legend(self.terrains, data.get("features", {}), data.get("legend"))
        self.legend = legend
        pl = data["players"]
        spec, base, missing = island_mod.board_for(data.get("boards"), self.num_players,
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
        self.grid = island_mod.build_grid(spec, data, legend, err if missing is None else _ignore, one_region,
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
        reg.add(Builtin("seat", seat, arity=(1, 1), doc="the starting structure the island fixes for a player "
                        "(none when the island leaves it to the players)",
                        example="seat(player)", group="players", args=("player",), returns="structure"))
        reg.add(Builtin("tile_ids", lambda ctx: tuple(sorted(set(self.grid.tiles.values()))), BARE,
                        doc="the ids of the land tiles on the board", example="tile_ids", group="board"))
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

    # ---------------- compiling ----------------
    def parse_text(self, text, path, mode="expr"):
        """The syntax tree of one string of the rulebook, or None (the error recorded)."""
        try:
            return parse(text, mode, locate=self.doc.locator(path))
        except LangError as e:
            e.source_line = self.doc.line_of(e.pos) if e.pos else None
            self.errors.append(e)
            return None

    def compile_text(self, text, path, mode="expr", scope=frozenset(), current=None, tree=None):
        """Parse (unless `tree` is given) and compile one string of the
        rulebook; errors are recorded.

        With `current` (a definition or procedure), its body is compiled
        into current.py with its parameters as arguments.
        """
        locate = self.doc.locator(path)
        if tree is None:
            tree = self.parse_text(text, path, mode)
            if tree is None:
                return None
        self.trees.append((path, tree, locate))
        comp = Compiler(self.names, locate, current, text=text if mode == "expr" else None)
        if current is not None:
            fn = comp.function(current, tree, mode)
        elif mode == "effects":
            fn = comp.block(tree, scope)
        else:
            fn = comp.expr(tree, scope)
        for e in comp.errors:
            e.source_line = self.doc.line_of(e.pos)
        self.errors.extend(comp.errors)
        return None if comp.errors else fn

    def _compile(self):
        data = self.data
        # small definitions compile first, so that every caller can inline
        # them; each definition's errors are still reported in file order
        found = []
        for section, key, f, body in self._defs:
            mode = "expr" if f.kind == "expr" else "effects"
            start = len(self.errors)
            tree = self.parse_text(body, (section, key), mode)
            found.append((section, key, f, body, mode, tree, self.errors[start:]))
            del self.errors[start:]
        errors = {}
        for section, key, f, body, mode, tree, errs in sorted(
                found, key=lambda d: not (d[4] == "expr" and d[5] is not None and is_cheap(d[5], self.names))):
            start = len(self.errors)
            fn = self.compile_text(body, (section, key), mode, frozenset(), f, tree) if tree is not None else None
            errors[f.name] = errs + self.errors[start:]
            del self.errors[start:]
            if fn is None:
                f.py = lambda ctx, *a: None
                f.body = lambda ctx: None
        for _section, _key, f, *_rest in found:
            self.errors.extend(errors[f.name])
        self._compile_originals()
        self._check_cycles()
        self._mark_static()
        self._calls = {}
        for name, proc in list(self.procs.items()):
            self._current_flow = name
            proc.steps = self.steps(data["flows"][proc.key], ("flows", proc.key), frozenset(proc.params))
        self._current_flow = "(setup)"
        self.setup = self.steps(data["setup"], ("setup",), frozenset())
        self._current_flow = "(turn)"
        self.turn = self.steps(data["turn"], ("turn",), frozenset())
        self._check_flows()
        nxt = data.get("next_player")
        if nxt:
            self.next_player = self.compile_text(nxt, ("next_player",)) or (lambda ctx: 0)
        else:
            n = self.num_players
            self.next_player = lambda ctx: (ctx.state.player + 1) % n
        res = data["result"]
        self.rank = [self.compile_text(t, ("result", "rank", i), scope=frozenset({"p"})) for i, t in
                     enumerate(res["rank"])]
        ev = res.get("evaluation")
        self.evaluation = self.compile_text(ev, ("result", "evaluation"), scope=frozenset({"p"})) if ev else None
        self.sources = tuple(res.get("sources", ()))
        # a drawn game has no winner: the rulebook says when (over the final position)
        self.draw = self.compile_text(res["draw"], ("result", "draw")) if "draw" in res else None
        self.trigger_note = self._summary_note(res)
        self.board_checks = []
        self.position_checks = []     # what may stand where: checked on the positions scenarios set up
        for section in ("board_checks", "data_checks", "position_checks"):
            for i, chk in enumerate(data.get(section) or []):
                # a check is a condition, or `offenders`: what breaks the rule (none may be left), named
                # in the message so an island's (or a table's) author sees where
                key = "offenders" if "offenders" in chk else "check"
                fn = self.compile_text(chk[key], (section, i, key))
                about = self._data_path(chk["about"], (section, i, "about")) if "about" in chk else None
                if fn:
                    (self.position_checks if section == "position_checks" else self.board_checks).append(
                        BoardCheck(fn, chk["message"], chk.get("warning", False), (section, i), key == "offenders",
                                   about, chk.get("any_board", False)))

    def _summary_note(self, res: dict) -> str | None:
        """The note kind whose last argument says what set it off (simulate
        counts those: result.summary.triggers); it must be a note the rules make."""
        kind = (res.get("summary") or {}).get("triggers")
        if kind is None:
            return None
        made = {m for text in _texts(self.data) for m in re.findall(r"""\bnote\(\s*["']([^"']+)["']""", text)}
        if kind not in made:
            self._err(("result", "summary", "triggers"), f"result.summary.triggers names the note {kind!r}, "
                      "which no rule makes", hint=did_you_mean(kind, made) or
                      (f"notes made: {', '.join(sorted(made))}" if made else "no rule makes a note"))
        return kind

    def _data_path(self, dotted: str, where: tuple) -> tuple | None:
        """'tables.scoring_order' -> ('tables', 'scoring_order'), when the rulebook has that data."""
        path, node = [], self.data
        for part in dotted.split("."):
            key = int(part) if isinstance(node, list) and part.isdecimal() else part
            if not ((isinstance(node, dict) and key in node)
                    or (isinstance(node, list) and isinstance(key, int) and key < len(node))):
                pos, line = self.doc.pos(where)
                known = list(node) if isinstance(node, dict) else []
                self.errors.append(SchemaError(f"the rulebook has no data {dotted!r} (no {part!r} in "
                                               f"{'.'.join(path) or 'the top level'})", pos, source_line=line,
                                               hint=did_you_mean(part, known)))
                return None
            path.append(key)
            node = node[key]
        return tuple(path)

    def _check_flows(self):
        """Flows never call themselves (directly or not), and a turn asks someone something."""
        calls = self._calls
        for cyc in _cycles({n: calls.get(n, ()) for n in self.procs}):
            pos, line = self.doc.pos(("flows", self.procs[cyc[0]].key), key=True)
            self.errors.append(LangError(f"flows call each other in a circle: {' -> '.join(cyc)}", pos,
                                         source_line=line, hint="a flow that calls itself never ends"))
        # does the turn reach a choice?
        reach, todo = set(), ["(turn)"]
        while todo:
            n = todo.pop()
            if n not in reach:
                reach.add(n)
                todo.extend(calls.get(n, ()))

        def has_choice(steps):
            for st in steps:
                if isinstance(st, F.Choose):
                    return True
                for attr in ("then", "orelse", "body", "otherwise"):
                    sub = getattr(st, attr, None)
                    if sub and has_choice(sub):
                        return True
                for alt in getattr(st, "alternatives", ()) or ():
                    if has_choice(alt.steps):
                        return True
            return False
        if not any(has_choice(self.turn if n == "(turn)" else self.procs[n].steps) for n in reach
                   if n == "(turn)" or n in self.procs):
            pos, line = self.doc.pos(("turn",))
            self.errors.append(LangError("the turn never asks a player anything (no 'choose' step in it or in "
                                         "the flows it calls), so a game would never end", pos, source_line=line))

    def _mark_static(self):
        """A definition is static when neither it nor what it calls reads the position."""
        funcs = self.names.funcs
        memo = {}

        def static(name, seen=()):
            if name in memo:
                return memo[name]
            f = funcs[name]
            if f.kind != "expr" or f.dynamic or name in seen:
                memo[name] = False
                return False
            ok = all(static(d, seen + (name,)) for d in f.deps if d in funcs)
            memo[name] = ok
            return ok
        for name, f in funcs.items():
            f.static = static(name)
        for f in funcs.values():
            f.finish()

    def _check_cycles(self):
        funcs = self.names.funcs
        for cyc in _cycles({n: f.deps for n, f in funcs.items()}):
            self.errors.append(LangError(f"definitions call each other in a circle: {' -> '.join(cyc)}",
                                         funcs[cyc[0]].pos, hint="nordlang has no recursion, so every rule "
                                                                 "terminates"))

    def steps(self, items, path, scope):
        """Compile a list of flow steps (or effects text) into step objects."""
        if isinstance(items, str):
            fn = self.compile_text(items, path, "effects", scope)
            return (F.Do(self.doc.pos(path)[0], fn or _noop),)
        out = []
        for i, st in enumerate(items or []):
            p = path + (i,)
            pos = self.doc.pos(p)[0]
            if not isinstance(st, dict):
                continue
            if "do" in st and not ({"while", "for"} & set(st)):
                fn = self.compile_text(st["do"], p + ("do",), "effects", scope)
                out.append(F.Do(pos, fn or _noop))
            elif "let" in st:
                for name, text in st["let"].items():
                    self._check_binding(p + ("let", name), name, key=True)
                    fn = self.compile_text(text, p + ("let", name), "expr", scope)
                    out.append(F.Let(pos, name, fn or _noop))
                    scope = scope | {name}
            elif "if" in st:
                cond = self.compile_text(st["if"], p + ("if",), "expr", scope) or _noop
                then = self.steps(st.get("then", []), p + ("then",), scope)
                orelse = self.steps(st.get("else", []), p + ("else",), scope)
                out.append(F.If(pos, cond, then, orelse))
            elif "while" in st:
                cond = self.compile_text(st["while"], p + ("while",), "expr", scope) or _noop
                body = self.steps(st["do"], p + ("do",), scope)
                out.append(F.While(pos, cond, body, st.get("limit", 1000)))
            elif "for" in st:
                m = re.match(r"^\s*\(?\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*\)?\s+in\s+(.+)$", st["for"],
                             re.S)
                if not m:
                    self._err(p + ("for",), f"cannot read {st['for']!r}", expected="'name in collection' or "
                              "'a, b in collection'")
                    continue
                target = tuple(x.strip() for x in m.group(1).split(","))
                for name in target:
                    problem = rebinding(name, self.names.registry)
                    if problem:       # (at the name in the text)
                        at = self.doc.locator(p + ("for",))(1, m.start(1) + m.group(1).find(name) + 1)
                        self.errors.append(LangError(problem[0], at, hint=problem[1], width=len(name),
                                                     source_line=self.doc.line_of(at)))
                text = st["for"]
                offset = m.start(2)
                it = self._compile_sub(text, offset, p + ("for",), scope)
                body = self.steps(st["do"], p + ("do",), scope | set(target))
                out.append(F.ForEach(pos, target, it or _noop, body))
            elif "call" in st:
                sig = parse_signature(st["call"])
                if sig is None:
                    m = re.match(r"^\s*([A-Za-z_]\w*)\s*\((.*)\)\s*$", st["call"], re.S)
                    sig = (m.group(1), None) if m else None
                if sig is None:
                    self._err(p + ("call",), f"cannot read the call {st['call']!r}", expected="name(args)")
                    continue
                name = sig[0]
                proc = self.procs.get(name)
                text = st["call"]
                at_name = self.doc.locator(p + ("call",))(1, len(text) - len(text.lstrip()) + 1)
                if proc is None:
                    self.errors.append(LangError(f"unknown flow {name!r}", at_name, hint=did_you_mean(name, self.procs),
                                                 width=len(name)))
                    continue
                args = ()
                text = st["call"]
                inner = text[text.find("(") + 1:text.rfind(")")] if "(" in text else ""
                if inner.strip():
                    tree_fn = self._compile_sub(f"({inner},)", None, p + ("call",), scope, raw_offset=text.find("("))
                    args = (tree_fn,) if tree_fn else ()
                nargs = len([a for a in _split_args(inner)]) if inner.strip() else 0
                if nargs != len(proc.params):
                    self.errors.append(LangError(f"flow {name!r} takes {len(proc.params)} argument(s), got {nargs}",
                                                 at_name, width=len(name)))
                    continue
                self._calls.setdefault(self._current_flow, set()).add(name)
                out.append(F.CallProc(pos, name, args[0] if args else None))
            elif "choose" in st:
                self._check_binding(p + ("choose",), st["choose"])
                out.append(self._choose(st, p, pos, scope))
                scope = scope | {st["choose"]}
        return tuple(out)

    def _compile_sub(self, text, offset, path, scope, raw_offset=None):
        """Compile part of a string (after 'x in', inside a call) with positions kept."""
        sub = text[offset:] if offset is not None else text
        base_locate = self.doc.locator(path)
        shift = offset if offset is not None else (raw_offset or 0)

        def locate(line, col):
            return base_locate(line, col + (shift if line == 1 else 0))
        try:
            tree = parse(sub, "expr", locate=locate)
        except LangError as e:
            e.source_line = self.doc.line_of(e.pos) if e.pos else None
            self.errors.append(e)
            return None
        self.trees.append((path, tree, locate))
        comp = Compiler(self.names, locate, text=sub)
        fn = comp.expr(tree, scope)
        for e in comp.errors:
            e.source_line = self.doc.line_of(e.pos)
        self.errors.extend(comp.errors)
        return fn

    def _choose(self, st, p, pos, scope):
        name = st["choose"]
        common = dict(optional=st.get("optional"), lookahead=st.get("lookahead", False),
                      prompt=st.get("prompt", ""), path=p, scope=frozenset(scope))
        if "by" in st:
            common["by"] = self.compile_text(st["by"], p + ("by",), "expr", scope)
        otherwise = self.steps(st["otherwise"], p + ("otherwise",), scope) if "otherwise" in st else None
        if "options" in st:
            alts = []
            for label, opt in st["options"].items():
                when = None
                if "when" in opt:
                    when = self.compile_text(opt["when"], p + ("options", label, "when"), "expr", scope)
                body = self.steps(opt.get("do", []), p + ("options", label, "do"), scope | {name})
                alts.append(F.Alternative(str(label), when, body, opt.get("when")))
            return F.Choose(pos, name, alternatives=tuple(alts), otherwise=otherwise, **common)
        if "from" not in st:
            self._err(p, f"choice {name!r} needs 'from' (an expression of options) or 'options'")
            return F.Choose(pos, name, source=_noop, **common)
        src = self.compile_text(st["from"], p + ("from",), "expr", scope) or _noop
        exists = self.compile_text(st["exists"], p + ("exists",), "expr", scope) if "exists" in st else None
        if exists is not None:
            exists = by_position(exists)     # (asked again by each probe that reaches the choice)
        return F.Choose(pos, name, source=src, otherwise=otherwise, exists=exists, **common)

    # ---------------- showing values ----------------
    def show(self, v) -> str:
        """The one text form of a value: move notation, logs and messages use it."""
        if v is True or v is False:     # (equal to 1 and 0 as keys of the cache: never in it)
            return "true" if v else "false"
        try:
            return self._shown[v]
        except KeyError:
            pass
        except TypeError:
            return self._show(v)
        text = self._show(v)
        if len(self._shown) > 100_000:
            self._shown.clear()
        self._shown[v] = text
        return text

    def _show(self, v) -> str:
        if v is None:
            return "none"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return str(v)
        if isinstance(v, str):
            return v
        if isinstance(v, frozenset):
            return ",".join(sorted((self.show(x) for x in v), key=_natural))
        if isinstance(v, Port):
            return f"{v.structure}.{v.side}"
        if isinstance(v, tuple):
            if len(v) == 2 and isinstance(v[0], int) and isinstance(v[1], int) and not isinstance(v[0], bool):
                grid = getattr(self, "grid", None)       # (an error may be shown before the board is built)
                return grid.name(v) if grid is not None else grid_name(v)
            if len(v) == 2 and isinstance(v[0], str) and v[0] in self.pieces:
                return self.show_item(v)
            if len(v) == 2 and isinstance(v[0], str) and v[0] in self.zones:
                return v[0] if v[1] is None else f"{v[0]}({self.color(v[1])})"
            if len(v) == 4 and isinstance(v[0], str) and v[0] in self.grid_zones:
                return f"{self.show(v[:2])}[{v[2]},{v[3]}]"           # a cell: tableau(red)[1,3]
            if v and all(isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], int) for x in v):
                return self._joined(v, self.path_sep)       # a path of spaces
            if all(type(x) is int for x in v):
                return "(" + ", ".join(map(str, v)) + ")"      # numbers, not a chain of things: (2, 2, 40, 40)
            return self._joined(v, self.tuple_sep)
        if isinstance(v, dict):
            return "{" + ", ".join(f"{k}: {self.show(x)}" for k, x in v.items()) + "}"
        return str(v)

    def _joined(self, v: tuple, sep: str | None) -> str:
        """A tuple's parts joined by the rulebook's separator (notation), or
        '(a, b)' when it declares none; a part that is itself a chain is put
        in brackets, so a list of pairs reads '(a1>0)>(b1>2)', not 'a1>0>b1>2'."""
        parts = [self.show(x) for x in v]
        if sep is None:
            return "(" + ", ".join(parts) + ")"
        return sep.join(f"({t})" if isinstance(x, tuple) and not t.startswith("(") and self._is_chain(x) else t
                        for x, t in zip(v, parts))

    def _is_chain(self, x: tuple) -> bool:
        """A tuple shown as parts joined by a separator (not a space, item or zone)."""
        if len(x) == 2 and isinstance(x[0], int) and isinstance(x[1], int):
            return False
        if len(x) == 4 and isinstance(x[0], str) and x[0] in self.grid_zones:
            return False
        return not (len(x) == 2 and isinstance(x[0], str) and (x[0] in self.pieces or x[0] in self.zones))

    def show_item(self, item) -> str:
        kind, tag = item
        how = self.pieces.get(kind, {}).get("show", "both")
        if tag is None:
            return kind
        tag_text = self.color(tag) if isinstance(tag, int) and self.pieces.get(kind, {}).get("owned") else str(tag)
        if how == "tag":
            return tag_text
        if how == "kind":
            return kind
        return f"{kind}:{tag_text}"

    def color(self, p) -> str:
        if isinstance(p, int) and 0 <= p < len(self.colors):
            return self.colors[p]
        return str(p)

    def data_at(self, path):
        """The rulebook value at a path (after includes and variants)."""
        v = self.data
        for k in path:
            v = v[k]
        return v

    def ctx(self, state, vars=None) -> Ctx:
        return Ctx(state, self, vars)


class _Proc:
    def __init__(self, name, params, steps, key):
        self.name, self.params, self.steps, self.key = name, params, steps, key


def _split_args(inner: str):
    depth, cur, out = 0, "", []
    for ch in inner:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


def _cycles(graph: dict) -> list:
    """Each circle of calls in a graph name -> names it calls (depth-first, in name order)."""
    state, out = {}, []

    def visit(name, stack):
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            out.append(stack[stack.index(name):] + [name])
            return
        state[name] = 1
        for d in sorted(graph.get(name, ())):
            if d in graph:
                visit(d, stack + [name])
        state[name] = 2
    for name in sorted(graph):
        visit(name, [])
    return out


def _texts(node):
    """Every text in a rulebook's data (its expressions among them)."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield from _texts(k)
            yield from _texts(v)
    elif isinstance(node, list):
        for v in node:
            yield from _texts(v)


def _noop(ctx):
    return None


def _ignore(*args, **kw):
    """Errors of a stand-in board (the rulebook has none for the count), not reported."""


__all__ = ["Rules", "NordError"]


def _natural(text: str) -> tuple:
    """Sort key that reads numbers as numbers: b3 < c2 < c9 < c10."""
    return tuple(int(t) if t.isdecimal() else t for t in re.split(r"(\d+)", text))
