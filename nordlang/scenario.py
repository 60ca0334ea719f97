"""Scenario files: an island drawn as a map, a position on it, scripted
moves, and expectations that are checked like a test.

A position is built the way a player would set up the table: the
rulebook's own setup runs first, then each location the scenario lists
gets exactly the pieces it names, taken from what the game has (never
created), so pieces are conserved and a count above the supply is an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .engine.flow import DeadEnd
from .engine.game import Game, Move, compute_result
from .engine.state import State
from .errors import EvalError, LangError, NordError, Pos, SchemaError, UsageError, did_you_mean
from .lang.builtins import ordered
from .lang.compiler import Compiler
from .lang.parser import parse as parse_text
from .rules import schema as schema_mod
from .rules.build import read_doc
from .rules.games import scenario_rulebook, variants_folder
from .rules.loader import check_errors, fix_lines, wrong_kind
from .rules.overlay import variant_file
from .rules.yamlpos import load_yaml


@dataclass
class Failure:
    pos: Pos
    what: str
    expected: str
    actual: str

    def format(self) -> str:
        return f"{self.pos}: {self.what}\n      expected: {self.expected}\n      actual:   {self.actual}"


@dataclass
class Report:
    path: str
    description: str
    failures: list = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


class Scenario:
    """A loaded scenario: rules, a game at the position, the script."""

    def __init__(self, path, data, src, rules, game):
        self.path, self.data, self.src, self.rules, self.game = str(path), data, src, rules, game

    def check_script(self) -> None:
        """Before anything runs: every move in notation, every expression resolves."""
        errors = []

        def notation(text, path):
            try:
                Move.parse(text)
            except NordError as e:
                p = self.src.pos(path)
                errors.append(SchemaError(e.message, p, source_line=self.src.line(p.line), expected=e.expected))

        def expect(exp, path):
            # the players named are players of this game
            named = ([(("player",), exp["player"], False)] if "player" in exp else []) + \
                [(("winner", i), c, False) for i, c in enumerate(exp.get("winner") or [])] + \
                [((section, c), c, True) for section in ("points", "points_from") for c in exp.get(section) or {}]
            for where, color, key in named:
                try:
                    _player(self.rules, color, self.src, path + where, key=key)
                except NordError as e:
                    errors.append(e)
            # the sources named are sources of points the rules award (an award whose
            # source is an expression may name any)
            awarded = self.rules.names.literals.get(("award", 2), set()) | set(self.rules.sources)
            for color, by in (exp.get("points_from") or {}).items():
                for source in (by or {}) if None not in awarded else ():
                    if source not in awarded:
                        errors.append(_err(self.src, path + ("points_from", color, source),
                                           f"the rules award no points from {source!r}", key=True,
                                           expected=", ".join(sorted(awarded)) or "none",
                                           hint=did_you_mean(str(source), awarded)))
            for kind in ("legal", "illegal"):
                for i, text in enumerate(exp.get(kind) or []):
                    notation(text, path + (kind, i))
            for i, text in enumerate(exp.get("holds") or []):
                try:
                    self._compile(text, path + ("holds", i))
                except NordError as e:
                    errors.append(e)
            for text in exp.get("values") or {}:
                try:
                    self._compile(text, path + ("values", text), key=True)
                except NordError as e:
                    errors.append(e)
        for i, step in enumerate(self.data.get("moves", []) or []):
            if isinstance(step, dict):
                expect(step["expect"], ("moves", i, "expect"))
            else:
                notation(step, ("moves", i))
        if "expect" in self.data:
            expect(self.data["expect"], ("expect",))
        check_errors(errors)

    # ---------------- running ----------------
    def run_moves(self, upto: int | None = None) -> str | None:
        """Play the scripted moves only (of the first `upto` entries of 'moves',
        else all; expectations are not checked); an error message if one
        cannot be played."""
        for i, step in enumerate((self.data.get("moves", []) or [])[:upto]):
            if isinstance(step, dict):
                continue
            try:
                self.game.play(step)
            except NordError as e:
                return f"{self.src.pos(('moves', i))}: move {i + 1} {step!r} cannot be played: {e.message}"
        return None

    def run(self) -> Report:
        rep = Report(self.path, self.data.get("description", "").strip().split(". ")[0].split("\n")[0])
        for i, step in enumerate(self.data.get("moves", []) or []):
            if isinstance(step, dict):
                self.check(step["expect"], ("moves", i, "expect"), rep)
                continue
            try:
                self.game.play(step)
            except NordError as e:
                rep.failures.append(Failure(self.src.pos(("moves", i)), f"move {i + 1} {step!r} cannot be played",
                                            "a legal move", e.message + (f" ({e.hint})" if e.hint else "")))
                return rep
        if "expect" in self.data:
            self.check(self.data["expect"], ("expect",), rep)
        return rep

    def check(self, exp: dict, path, rep: Report) -> None:
        g, rules = self.game, self.rules
        st = g.state
        fail = rep.failures

        def at(*p):
            return self.src.pos(path + p)
        for color, n in (exp.get("points") or {}).items():
            p = self._player(color, path + ("points", color))
            got = st.counters.get(("points", p), 0)
            if got != n:
                fail.append(Failure(at("points", color), f"points of {color}", str(n), str(got)))
        for color, by in (exp.get("points_from") or {}).items():
            p = self._player(color, path + ("points_from", color))
            for source, n in by.items():
                got = st.counters.get(("points", p, source), 0)
                if got != n:
                    fail.append(Failure(at("points_from", color, source), f"{source} points of {color}", str(n),
                                        str(got)))
        for loc, spec in (exp.get("at") or {}).items():
            key = self._location(loc, path + ("at", loc))
            want = self._items(spec, path + ("at", loc))
            kind = st.zone_kind(key)
            if kind == "pool":
                got = sorted(rules.show(i) for i, n in st.pools[key].items() for _ in range(n))
                want_s = sorted(rules.show(i) for i in want)
            else:
                got = [rules.show(i) for i in st.items(key)]
                want_s = [rules.show(i) for i in want]
            if got != want_s:
                fail.append(Failure(at("at", loc), f"pieces at {loc}", _list(want_s), _list(got)))
        pending = st.pending
        if "choice" in exp:
            got = pending.step.name if pending else None
            if got != exp["choice"]:
                fail.append(Failure(at("choice"), "the pending choice", str(exp["choice"]), str(got)))
        if "player" in exp:
            got = rules.color(pending.player) if pending else "nobody (the game is over)"
            if got != exp["player"]:
                fail.append(Failure(at("player"), "who decides now", exp["player"], got))
        for kind in ("legal", "illegal"):
            for i, text in enumerate(exp.get(kind) or []):
                try:
                    mv = Move.parse(text)
                except NordError as e:
                    raise SchemaError(e.message, at(kind, i), expected=e.expected) from None
                if pending is None:
                    fail.append(Failure(at(kind, i), f"{text!r} is {kind}", kind, "the game is over"))
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
        for name, opts in (exp.get("options") or {}).items():
            if pending is None or pending.step.name != name:
                forced = g.taken_at_once(name)
                now = f"{pending.step.name}, for {rules.color(pending.player)}" if pending else "none"
                fail.append(Failure(at("options", name), f"options of '{name}'", _list(sorted(opts)),
                                    f"no '{name}' choice pending" + (f": {forced}" if forced else "")
                                    + f" (pending: {now})"))
                continue
            if sorted(opts) != sorted(pending.texts):
                fail.append(Failure(at("options", name), f"options of '{name}'", _list(sorted(opts)),
                                    _list(sorted(pending.texts))))
        for i, text in enumerate(exp.get("holds") or []):
            fn = self._compile(text, path + ("holds", i))
            val = self._eval(fn, path + ("holds", i))
            if val is not True:
                fail.append(Failure(at("holds", i), f"{text!r} holds", "true",
                                    _got(rules, val) + ("" if isinstance(val, bool) else " (not true or false: "
                                                        "'holds' takes conditions; 'values' compares a value)")))
        for text, want in (exp.get("values") or {}).items():
            fn = self._compile(text, path + ("values", text), key=True)
            val = self._eval(fn, path + ("values", text))
            if not _same(rules, val, want):
                fail.append(Failure(self.src.pos(path + ("values", text), key=True), f"value of {text}",
                                    _shown(rules, want), _got(rules, val, want)))
        if "over" in exp and exp["over"] != st.over:
            fail.append(Failure(at("over"), "the game is over", str(exp["over"]).lower(), str(st.over).lower()))
        if "winner" in exp:
            want = sorted(exp["winner"])
            if not st.over:
                fail.append(Failure(at("winner"), "winner", _list(want), "the game is not over"))
            else:
                got = sorted(rules.color(w) for w in compute_result(rules, st).winners)
                if got != want:
                    fail.append(Failure(at("winner"), "winner", _list(want), _list(got)))
        if "draw" in exp:
            if not st.over:
                fail.append(Failure(at("draw"), "a draw", str(exp["draw"]).lower(), "the game is not over"))
            else:
                got = compute_result(rules, st).draw
                if got != exp["draw"]:
                    fail.append(Failure(at("draw"), "a draw", str(exp["draw"]).lower(), str(got).lower()))

    def _compile(self, text, path, key=False):
        info_path = path
        if key:
            # a key's text: locate within the key
            def locate(ln, c):
                return self.src.locate_key(path, ln, c)
        else:
            def locate(ln, c):
                return self.src.locate(info_path, ln, c)
        try:
            tree = parse_text(text, "expr", locate=locate)
        except LangError as e:
            e.source_line = self.src.line(e.pos.line) if e.pos and e.pos.line else None
            raise
        comp = Compiler(self.rules.names, locate)
        fn = comp.expr(tree, frozenset())
        if comp.errors:
            e = comp.errors[0]
            e.source_line = self.src.line(e.pos.line) if e.pos.line else None
            raise e
        return fn

    def _eval(self, fn, path):
        try:
            return fn(self.rules.ctx(self.game.state))
        except NordError as e:
            if e.source_line is None and e.pos and e.pos.line:
                e.source_line = self.src.line(e.pos.line)
            raise

    # ---------------- names in the file ----------------
    def _player(self, color, path):
        return _player(self.rules, color, self.src, path)

    def _location(self, text, path):
        return _location(self.rules, text, self.src, path)

    def _items(self, spec, path):
        return _items(self.rules, spec, self.src, path)


def _list(xs) -> str:
    return "[" + ", ".join(xs) + "]"


def _shown(rules, v) -> str:
    if isinstance(v, list):
        return _list([_shown(rules, x) for x in v])
    return rules.show(v)


def _got(rules, val, want=None) -> str:
    """A value found, shown for a failure: a list as a list where a list was
    expected, and two numbers, which are also a space, as both where nothing
    says which was meant (a text expected means a space)."""
    if isinstance(want, list) and isinstance(val, (tuple, frozenset)):
        return _list([rules.show(x) for x in ordered(val)])
    text = rules.show(val)
    if not isinstance(want, str) and isinstance(val, tuple) and len(val) == 2 and all(type(x) is int for x in val):
        return f"{text} (a space, or the list [{val[0]}, {val[1]}])"
    return text


def _same(rules, val, want) -> bool:
    if isinstance(want, bool) or isinstance(want, (int, float)) and not isinstance(val, (tuple, frozenset)):
        return val == want
    if isinstance(want, list):
        if not isinstance(val, (tuple, frozenset, list)):
            return False
        got = [rules.show(x) for x in val]
        exp = [_shown(rules, x) for x in want]
        return sorted(got) == sorted(exp) if isinstance(val, frozenset) else got == exp
    return rules.show(val) == _shown(rules, want)


def _err(src, path, msg, key=False, **kw):
    p = src.pos(path, key=key)
    return SchemaError(msg, p, source_line=src.line(p.line), **kw)


def _player(rules, color, src, path, key=True):
    colors = rules.colors[:rules.num_players]
    if color not in colors:
        raise _err(src, path, f"{color!r} is not a player of this game", key=key,
                   expected=", ".join(colors), hint=did_you_mean(str(color), colors))
    return colors.index(color)


def _location(rules, text, src, path):
    text = str(text)
    s = rules.grid.parse(text)
    if s is not None and s in rules.grid.space_set:
        return s
    if text in rules.grid.structures:
        return text
    name, _, rest = text.partition("(")
    if name in rules.zones:
        z = rules.zones[name]
        if z.get("per_player"):
            if not rest.endswith(")"):
                raise _err(src, path, f"zone {name!r} belongs to a player: write {name}(colour)", key=True)
            return (name, _player(rules, rest[:-1].strip(), src, path))
        if rest:
            raise _err(src, path, f"zone {name!r} is shared: write {name} without a player", key=True)
        return (name, None)
    known = [*rules.grid.structures, *rules.zones]
    if s is not None:
        raise _err(src, path, f"{text} is outside the board", key=True)
    raise _err(src, path, f"unknown location {text!r}", key=True,
               expected="a space like c4, a structure letter, or a zone like supply(red)",
               hint=did_you_mean(text, known))


def item_names(rules) -> dict:
    """Every text an item can be written as -> the item."""
    out = {}
    for kind, spec in rules.pieces.items():
        out[kind] = (kind, None)
        if spec.get("owned"):
            for i, c in enumerate(rules.colors):
                out[f"{kind}:{c}"] = (kind, i)
        for t in spec.get("tags", []) or []:
            out[f"{kind}:{t}"] = (kind, t)
            if spec.get("show") == "tag":
                out[str(t)] = (kind, t)
    return out


def _items(rules, spec, src, path) -> list:
    return [item for item, _ in _items_at(rules, spec, src, path)]


def _items_at(rules, spec, src, path) -> list:
    """(item, path of the text that named it) for each item of a location's list."""
    names = item_names(rules)
    parts = [spec] if isinstance(spec, str) else list(spec)
    out = []
    for i, raw in enumerate(parts):
        text = str(raw).strip()
        p = path if isinstance(spec, str) else path + (i,)
        if text in ("", "-"):
            out.append((None, p))
            continue
        n = 1
        if "*" in text:
            text, _, count = text.partition("*")
            text = text.strip()
            count = count.strip()
            if not (count.isascii() and count.isdigit()) or int(count) < 1:
                raise _err(src, p, f"bad count in {raw!r}", expected="item*N with N a whole number, like man:red*3")
            n = int(count)
        item = names.get(text)
        if item is None:
            raise _err(src, p, f"unknown piece {text!r}", expected="a piece like " + ", ".join(list(names)[:6]),
                       hint=did_you_mean(text, names))
        out.extend([(item, p)] * n)
    return out


# ---------------- loading ----------------
def load_scenario(path, rulebook=None) -> Scenario:
    """A scenario file, on the game it names (or `rulebook`: a game name or a
    path, from --game/--rulebook; one the scenario names must agree)."""
    path = Path(path)
    data, src = load_yaml(path)
    if not isinstance(data, dict):
        raise SchemaError("a scenario must be a mapping", Pos(str(path), 1, 1))
    mistaken = wrong_kind(path, data, "scenario")
    if mistaken is not None:
        raise mistaken

    def locate(p, key=False):
        pos = src.pos(p, key=key)
        return pos, src.line(pos.line)
    errors = schema_mod.validate(data, "scenario", locate)
    check_errors(errors)
    rulebook = scenario_rulebook(path, data, src, rulebook)
    folder = variants_folder(rulebook)
    variants = [str(path.parent / v) if (path.parent / v).exists() else v for v in data.get("variants", [])]
    for i, v in enumerate(variants):
        try:
            variant_file(v, folder)
        except NordError as e:
            raise _err(src, ("variants", i), e.message, hint=e.hint) from None
    doc = read_doc(rulebook, variants)
    players = data["players"]
    _board(doc, data, src, players)
    if "legend" in data:
        doc.data["legend"] = {**(doc.data.get("legend") or {}), **data["legend"]}
    from .rules.model import Rules
    errors = []
    try:
        rules = Rules(doc, players, errors)
    except UsageError as e:         # a player count the rulebook does not allow: said at the scenario's
        raise _err(src, ("players",), e.message) from None
    fix_lines(doc, errors)
    check_errors(errors)
    game = _arrange(rules, data, src)
    sc = Scenario(path, data, src, rules, game)
    sc.check_script()
    return sc


_DRAWING = ("map", "tile_map", "structures", "geometry", "shape", "size")


def _board(doc, data, src, players) -> None:
    """The board the scenario plays on: the one it draws (a 'map'), else the
    rulebook's for its player count ('seats' may still choose the seats)."""
    from .rules.island import board_for, by_count
    boards = doc.data.get("boards")
    _, path, _ = board_for(boards, players)
    if "map" not in data:
        for k in _DRAWING:
            if k in data:
                raise _err(src, (k,), f"{k!r} draws a board, and this scenario draws none (it has no 'map')",
                           key=True, hint="draw the board with a 'map', or leave the scenario on the rulebook's "
                                          "board")
        if "seats" in data and path is not None:
            _put(doc, path, {**_at(doc.data, path), "seats": data["seats"]}, {path + ("seats",): (src, ("seats",))})
        return
    board = {k: data[k] for k in _DRAWING if k in data and k != "structures"}
    base = _at(doc.data, path) if path is not None else None
    if isinstance(base, dict):       # the map is drawn on the rulebook's geometry (a hex game's too)
        board.update({k: base[k] for k in ("geometry", "shape") if k in base and k not in board})
    drawn = data.get("structures") or {}
    board["structures"] = {k: {"kind": v} if isinstance(v, str) else v for k, v in drawn.items()}
    if "seats" in data:
        board["seats"] = data["seats"]
    else:
        kinds = list(doc.data.get("structures") or {})
        first = sorted(k for k, v in board["structures"].items() if kinds and v.get("kind") == kinds[0])
        board["seats"] = first[:players]
    if path is None:            # (the rulebook has no board for this count, or one board for all)
        path = ("boards", players) if by_count(boards) else ("boards",)
    _put(doc, path, board, {path: (src, ())})


def _at(data, path):
    for k in path:
        data = data[k]
    return data


def _put(doc, path, board, overrides) -> None:
    """Set the board at path ('boards' or 'boards'/count) in the merged document."""
    if len(path) == 1:
        doc.data["boards"] = board
    else:
        doc.data["boards"] = {**doc.data["boards"], path[1]: board}
    doc.overrides.update(overrides)


def _arrange(rules, data, src) -> Game:
    state = State(rules, data.get("seed", 0))
    game = Game.__new__(Game)
    game.rules, game.seed, game.state = rules, data.get("seed", 0), state
    from .engine.flow import Machine
    game.machine = m = Machine(rules)
    m.start(state, run=False)
    try:
        m.run(state, stop=True)
    except DeadEnd as e:
        raise SchemaError(f"the rulebook's setup needs a choice {e.step.name!r} that has no option here",
                          e.step.pos, source_line=rules.doc.line_of(e.step.pos)) from None
    if state.pending is not None:
        step = state.pending.step
        raise SchemaError(f"the rulebook's setup asks for a choice {step.name!r} here ({len(state.pending.options)} "
                          f"options), but the scenario {Path(src.file).name} is set up without choices", step.pos,
                          source_line=rules.doc.line_of(step.pos),
                          hint="a setup choice must have one option in a scenario: 'seats' fixes the starting "
                               "structures; any other choice needs a variant that settles it")
    pos = data.get("position") or {}
    at = pos.get("at") or {}
    listed = {}
    for loc in at:
        listed[_location(rules, loc, src, ("position", "at", loc))] = loc
    limbo: dict = {}
    came_from: dict = {}        # item -> the first listed place that held it
    for key in listed:
        for item in list(state.items(key)):
            n = state.amount(key, item)
            state.remove(key, item, n)
            limbo[item] = limbo.get(item, 0) + n
            came_from.setdefault(item, listed[key])
    order = sorted((k for k in list(state.pools) + list(state.decks) + list(state.tracks) if k not in listed),
                   key=lambda k: rules.show(k))
    for key, loc in listed.items():
        path = ("position", "at", loc)
        items = _items_at(rules, at[loc], src, path)
        track = state.tracks.get(key)
        if track is not None and len(items) > len(track):
            raise _err(src, path, f"{loc} has {len(track)} slots; {len(items)} items listed")
        for slot, (item, ipath) in enumerate(items):
            if item is None:
                if track is None:
                    raise _err(src, ipath, "'-' (an empty slot) is only for tracks")
                continue
            _take(rules, state, item, limbo, order, listed, src, ipath, loc)
            try:
                if track is not None:
                    track[slot] = item
                else:
                    state.add(key, item)
            except EvalError as e:
                raise _err(src, ipath, f"{e.message}",
                           hint="one piece per space: two workers cannot share it") from None
    homeless: dict = {}         # listed home -> its pieces the listing leaves out
    for item, n in sorted(limbo.items(), key=lambda kv: rules.show(kv[0])):
        if n <= 0:
            continue
        home = _home(rules, item)
        if home is None:
            loc = came_from[item]
            raise _err(src, ("position", "at", loc), f"the listing of {loc} leaves out {rules.show(item)}, which "
                       "stood there, and it has no home to go back to", key=True,
                       hint=f"list {rules.show(item)} where it stands now (in {loc}, or in another place)")
        if home in listed:
            homeless.setdefault(home, []).append((item, n))
        else:
            state.add(home, item, n)
    for home in (h for h in listed if h in homeless):
        # a home that is listed keeps what it lists: the rest of its pieces has no place to go
        left = homeless[home]
        loc, total = listed[home], sum(n for _, n in left)
        what = ", ".join(f"{n} {rules.show(item)}" for item, n in left[:4]) + (", ..." if len(left) > 4 else "")
        raise _err(src, ("position", "at", loc), f"{loc} is listed with {state.total(home)} piece(s), which leaves "
                   f"{total} of the game's pieces that were there with no place to go ({what})", key=True,
                   hint=f"the game keeps every piece: list where these {total} stand now, or leave {loc} out of "
                        "'at' to keep them there")
    for color, n in (pos.get("points") or {}).items():
        p = _player(rules, color, src, ("position", "points", color))
        state.counters[("points", p)] = n
        state.counters[("points", p, "before")] = n
    lits = rules.names.literals
    counters = lits.get(("counter", 0), set()) | lits.get(("add", 0), set())
    for name, n in (pos.get("counters") or {}).items():
        if name not in counters and None not in counters:     # (a counter named by an expression: any name)
            raise _err(src, ("position", "counters", name), f"the rules use no counter {name!r}", key=True,
                       expected=", ".join(sorted(counters - {None})) or "none", hint=did_you_mean(str(name), counters))
        state.counters[("counter", name)] = n
    state.player = _player(rules, pos["player"], src, ("position", "player"), key=False) if "player" in pos else 0
    state.turn = pos.get("turn", 1) - 1
    state.fresh()
    _check_position(rules, state, listed, src)
    state.events.clear()
    state.history.clear()
    state.frames = []
    m.begin_turn(state, first=True)
    try:
        m.run(state)
    except DeadEnd as e:
        raise SchemaError(f"in this position the rules demand a choice {e.step.name!r} that has no option",
                          src.pos(("position",))) from None
    return game


def _check_position(rules, state, listed, src) -> None:
    """The rulebook's position_checks on the position as set up: what breaks
    one is named, at its listing (else at 'position')."""
    from .rules.build import position_message, position_problem
    problem = position_problem(rules, state)
    if problem is not None:
        chk, bad = problem
        loc = next((listed[x] for x in bad if x in listed), None)
        raise _err(src, ("position", "at", loc) if loc is not None else ("position",),
                   position_message(rules, problem), key=loc is not None,
                   hint=f"the rule is at {rules.doc.pos(chk.path)[0]}")


def _home(rules, item):
    kind, tag = item
    home = rules.pieces.get(kind, {}).get("home")
    if home is None:
        return None
    if rules.zones.get(home, {}).get("per_player"):
        if isinstance(tag, int) and tag < rules.num_players:
            return (home, tag)
        return None
    return (home, None)


def _take(rules, state, item, limbo, order, listed, src, path, loc):
    """Take a listed piece from the pieces the listing displaced, its home,
    or any place not listed (a listed place holds what it lists, no more)."""
    if limbo.get(item, 0) > 0:
        limbo[item] -= 1
        return
    home = _home(rules, item)
    if home is not None and home not in listed and state.amount(home, item) > 0:
        state.remove(home, item)
        return
    for key in order:
        if state.amount(key, item) > 0:
            state.remove(key, item)
            return
    made = state.counters.get(("created", item), 0)
    raise _err(src, path, f"no {rules.show(item)} left to put on {loc}: the game has {made} in all",
               hint="a position cannot hold more pieces than the game has")
