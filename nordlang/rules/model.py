"""Compile a validated rulebook document into `Rules`: the board for a
player count, every expression and effect compiled once, and the flow."""

from __future__ import annotations

import re
from typing import NamedTuple

from ..engine import flow as F
from ..errors import LangError, NordError, SchemaError, did_you_mean
from ..lang.compiler import Compiler, Ctx
from ..lang.memo import is_cheap, is_filter
from ..lang.parser import parse
from ..render.colors import display_color
from .board_names import BoardAndNames
from .flow_steps import StepCompiler, _split_args  # noqa: F401  (others import it from here)
from .loader import Doc, digest
from .rule_checks import RuleChecks
from .showing import Showing, _natural  # noqa: F401  (others import it from here)


class BoardCheck(NamedTuple):
    """A setup rule checked on the board a game plays on (board_checks), or
    a rule of the rulebook's own data (data_checks: `about` names the data)."""
    fn: object            # fn(ctx): true when the rule holds, or (offenders) what breaks it
    message: str
    warning: bool         # a "should" of the rules: reported, but the board still plays
    path: tuple           # where it is in the rulebook
    offenders: bool = False
    about: tuple | None = None    # data_checks: the path of the data it checks
    any_board: bool = False       # a need of the rules, checked on every board (a scenario's map too)


class Rules(BoardAndNames, StepCompiler, Showing, RuleChecks):
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
        # who sees what (engine/views.py): a zone's declared visibility, the kinds that lie face down elsewhere
        self.zone_visibility = {k: v["visible"] for k, v in self.zones.items() if "visible" in v}
        self.face_down = frozenset(k for k, v in self.pieces.items() if v.get("face_down"))
        hiding_zones = any(v != "all" for v in self.zone_visibility.values())
        self.hidden_information = bool(self.face_down) or hiding_zones
        # the kinds an item of which may lie hidden somewhere (a player's options are checked for them)
        self.hideable_kinds = frozenset(self.pieces) if hiding_zones else self.face_down
        for k, v in self.zones.items():
            if v.get("visible") == "owner" and not v.get("per_player"):
                self._err(("zones", k, "visible"), f"zone {k!r} is visible to its owner, but it is no player's: "
                          "it is not per_player", hint="say per_player: true, or visible: all or none")
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

    def _an_expression(self, body, path) -> bool:
        """Does a text that is no effects parse as an expression (a
        definition put under procedures by mistake)?"""
        start = len(self.errors)
        tree = self.parse_text(body, path, "expr")
        del self.errors[start:]
        return tree is not None

    def _compile_order(self, d) -> int:
        """Small definitions first, then filters, then the rest: a caller
        compiled later can write in the small ones and loop over a filter's
        collection in place (Expressions._fused_filter)."""
        mode, tree = d[4], d[5]
        if mode != "expr" or tree is None:
            return 2
        return 0 if is_cheap(tree, self.names) else 1 if is_filter(tree) else 2

    def _compile(self):
        data = self.data
        # small definitions compile first, so that every caller can inline
        # them; each definition's errors are still reported in file order
        found = []
        for section, key, f, body in self._defs:
            mode = "expr" if f.kind == "expr" else "effects"
            start = len(self.errors)
            tree = self.parse_text(body, (section, key), mode)
            if tree is None and mode == "effects" and self._an_expression(body, (section, key)):
                del self.errors[start:]
                self._err((section, key), f"procedure {key!r}: this looks like an expression, and a procedure's "
                                          "text is effects", key=True, cls=LangError,
                          hint="definitions (texts that give a value) go under define:")
            found.append((section, key, f, body, mode, tree, self.errors[start:]))
            del self.errors[start:]
        errors = {}
        for section, key, f, body, mode, tree, errs in sorted(found, key=self._compile_order):
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
        self.check_sides()
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
        self._check_hidden_reads()
        self.secret_choices = any(st.simultaneous is not None for st in self.choice_steps())
        # what the compiled texts call (a replaced text that original() runs included): the position at
        # the start of each turn is kept only for rules that read it; chance is a roll step or a shuffle
        used = self.names.primitives
        self.uses_turn_start = "at_turn_start" in used
        self.uses_chance = "shuffle" in used or any(isinstance(st, F.Roll) for st in self.all_steps())
        nxt = data.get("next_player")
        if nxt:
            self.next_player = self.compile_text(nxt, ("next_player",)) or (lambda ctx: 0)
            self.next_player_at = self.doc.pos(("next_player",))       # (pos, its line): where a bad answer is
            self.in_turn_order = False
        else:
            self.in_turn_order = True       # the next in turn order (the flow machine needs no expression)
            n = self.num_players
            self.next_player = lambda ctx: (ctx.state.player + 1) % n
        res = data["result"]
        self.rank = [self.compile_text(t, ("result", "rank", i), scope=frozenset({"p"})) for i, t in
                     enumerate(res["rank"])]
        self.rank_texts = [" ".join(str(t).split()) for t in res["rank"]]     # (the final table's headings)
        ev = res.get("evaluation")
        self.evaluation = self.compile_text(ev, ("result", "evaluation"), scope=frozenset({"p"})) if ev else None
        self.sources = tuple(res.get("sources", ()))
        # what a finished game is worth to each player (engine.game.returns; OpenSpiel, PettingZoo)
        self.returns = self.compile_text(res["returns"], ("result", "returns"), scope=frozenset({"p"})) \
            if "returns" in res else None
        # a drawn game has no winner: the rulebook says when (over the final position)
        self.draw = self.compile_text(res["draw"], ("result", "draw")) if "draw" in res else None
        self.trigger_note = self._summary_note(res)
        self.board_checks = []
        self.position_checks = []     # what may stand where: checked on the positions scenarios set up
        for section in ("board_checks", "data_checks", "position_checks"):
            for i, chk in enumerate(data.get(section) or []):
                # a check is a condition, or `offenders`: what breaks the rule (none may be left), named
                # in the message so a board's (or a table's) author sees where
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

    def data_at(self, path):
        """The rulebook value at a path (after includes and variants)."""
        v = self.data
        for k in path:
            v = v[k]
        return v

    def ctx(self, state, vars=None) -> Ctx:
        return Ctx(state, self, vars)


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


__all__ = ["Rules", "NordError"]
