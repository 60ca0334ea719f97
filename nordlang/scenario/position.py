"""Loading a scenario: its board (drawn, or the rulebook's) and the position
it sets up on it, pieces taken from what the game has."""

from __future__ import annotations

import re
from pathlib import Path

from ..engine.flow import DeadEnd
from ..engine.game import Game
from ..engine.invariants import created_items, rebase_created
from ..engine.state import State
from ..errors import ErrorList, EvalError, NordError, Pos, SchemaError, UsageError, did_you_mean, unique
from ..rules import schema as schema_mod
from ..rules.build import check_board, read_doc
from ..rules.games import scenario_rulebook, variants_folder
from ..rules.loader import check_errors, fix_lines, wrong_kind
from ..rules.overlay import bundled_variant, variant_file
from ..rules.yamlpos import load_yaml
from .chance import ChanceMismatch, install
from .check import Scenario
from .names import _err, _items_at, _location, _player, grid_cells, is_grid
from .steps import set_stops


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
    _check_branches(data, src)
    rulebook = scenario_rulebook(path, data, src, rulebook)
    folder = variants_folder(rulebook)
    # (a bare name is the game's variant even beside a folder of that name; else a path from the scenario's folder)
    variants = [v if bundled_variant(v, folder) is not None or not (path.parent / v).exists() else str(path.parent / v)
                for v in data.get("variants", [])]
    for i, v in enumerate(variants):
        try:
            variant_file(v, folder)
        except NordError as e:
            raise _err(src, ("variants", i), e.message, hint=e.hint) from None
    doc = read_doc(rulebook, variants)
    players = data["players"]
    _board(doc, data, src, players)
    _track_values(doc, data, src)
    if "legend" in data:
        doc.data["legend"] = {**(doc.data.get("legend") or {}), **data["legend"]}
    from ..rules.model import Rules
    errors = []
    try:
        rules = Rules(doc, players, errors)
    except UsageError as e:         # a player count the rulebook does not allow: said at the scenario's
        raise _err(src, ("players",), e.message) from None
    fix_lines(doc, errors)
    check_errors(errors)
    at = ("map",) if "map" in data else ("seats",) if "seats" in data else ()
    check_errors([e for e in check_board(rules, (src, at)) if e.kind == "error"])
    game = _arrange(rules, data, src)
    sc = Scenario(path, data, src, rules, game)
    sc.first_turn_due = bool(data.get("stop_before_first_turn"))
    sc.check_script()
    return sc


_BRANCH_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def _check_branches(data, src) -> None:
    """What the schema cannot say of 'branches': a name fit for FILE::NAME and
    `pytest -k`, a branch that plays or checks something, no 'expect' beside
    them. A branch of checks alone (no moves, or only 'expect' entries) checks
    the position where the branches part, reported as a test of its own."""
    branches = data.get("branches")
    if branches is None:
        return
    if "expect" in data:
        raise _err(src, ("expect",), "'expect' beside 'branches': each branch states what must hold after it",
                   key=True, hint="move these expectations into each branch's 'expect', or, if they hold where "
                                  "the branches part, make them the last entry of 'moves' ('- expect: ...')")
    for name, branch in branches.items():
        if not _BRANCH_NAME.fullmatch(str(name)):
            raise _err(src, ("branches", name), f"{str(name)!r} cannot name a branch", key=True,
                       expected="letters, digits, '-', '_' and '.', starting with a letter or digit",
                       hint="the name is part of the test's id (FILE::NAME), as `nord test` and pytest show it")
        if "moves" not in branch and "expect" not in branch:
            raise _err(src, ("branches", name), f"branch {name!r} neither plays a move nor checks anything",
                       key=True, expected="'moves' (its script), 'expect' (what must hold after it), or both")


_DRAWING = ("map", "tile_map", "structures", "geometry", "shape", "size")


def _board(doc, data, src, players) -> None:
    """The board the scenario plays on: the one it draws (a 'map'), else the
    rulebook's for its player count ('seats' may still choose the seats)."""
    from ..rules.boards import board_for, by_count
    boards = doc.data.get("boards")
    _, path, _ = board_for(boards, players)
    if data.get("seats") == []:
        raise _err(src, ("seats",), "'seats: []' names no seat", key=True,
                   hint="leave 'seats' out (the position, or the rulebook's own setup, then decides where each "
                        "player starts), or name each player's starting structure in turn order")
    if "map" not in data:
        for k in _DRAWING:
            if k in data:
                raise _err(src, (k,), f"{k!r} draws a board, and this scenario draws none (it has no 'map')",
                           key=True, hint="draw the board with a 'map', or leave the scenario on the rulebook's "
                                          "board")
        if "seats" in data and path is not None:
            _put(doc, path, {**_at(doc.data, path), "seats": data["seats"]}, {path + ("seats",): (src, ("seats",))})
        return
    if not boards:
        raise _err(src, ("map",), f"'map' draws a board, and {doc.data.get('game', {}).get('name', 'this game')!r} "
                   "plays on none", key=True, hint="leave out 'map' (and 'structures', 'seats'): a game without a "
                   "board sets its position with 'position: at:' only")
    board = {k: data[k] for k in _DRAWING if k in data and k != "structures"}
    base = _at(doc.data, path) if path is not None else None
    if isinstance(base, dict):       # the map is drawn on the rulebook's geometry (a hex game's too)
        board.update({k: base[k] for k in ("geometry", "shape") if k in base and k not in board})
    drawn = data.get("structures") or {}
    board["structures"] = {k: {"kind": v} if isinstance(v, str) else v for k, v in drawn.items()}
    if "seats" in data:
        board["seats"] = data["seats"]
    else:
        board["seats"] = _seats_from_position(doc, data, board["structures"], players)
    if path is None:            # (the rulebook has no board for this count, or one board for all)
        path = ("boards", players) if by_count(boards) else ("boards",)
    _put(doc, path, board, {path: (src, ())})


def _seats_from_position(doc, data, drawn, players) -> list:
    """The seats of a drawn board that names none: the position decides.
    Player p's seat is the first structure (of the first structure kind)
    the position lists holding a piece of p's colour, else the first listed
    one still free, else the first free one by letter; so the setup's
    pieces go where the position puts pieces anyway."""
    kinds = list(doc.data.get("structures") or {})
    seatable = sorted(k for k, v in drawn.items() if kinds and v.get("kind") == kinds[0])
    at = (data.get("position") or {}).get("at") or {}
    listed = [str(k) for k in at if str(k) in seatable]
    colors = list((doc.data.get("players") or {}).get("colors") or [])

    def colours_in(spec) -> set:
        parts = [spec] if isinstance(spec, (str, int)) else spec if isinstance(spec, list) else []
        return {str(x).partition("*")[0].partition(":")[2].strip() for x in parts}
    seats: list = []
    for p in range(players):
        mine = [k for k in listed if k not in seats and p < len(colors) and colors[p] in colours_in(at[k])]
        free = mine or [k for k in listed if k not in seats] or [k for k in seatable if k not in seats]
        if free:
            seats.append(free[0])
    return seats


def _track_values(doc, data, src) -> None:
    """position.track_values: a track's values (the points of its slots, in
    order), set for this scenario as a variant would set them."""
    values = (data.get("position") or {}).get("track_values") or {}
    zones = doc.data.get("zones") or {}
    tracks = [k for k, z in zones.items() if isinstance(z, dict) and z.get("type") == "track"]
    for name, vals in values.items():
        path = ("position", "track_values", name)
        if name not in tracks:
            raise _err(src, path, f"{name!r} is not a track of this game", key=True,
                       expected=", ".join(tracks) or "none: the rulebook has no track",
                       hint=did_you_mean(str(name), tracks))
        doc.data["zones"] = zones = {**zones, name: {**zones[name], "values": vals}}
        doc.overrides[("zones", name, "values")] = (src, path)


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
    from ..engine.flow import Machine
    game.machine = m = Machine(rules)
    install(game, data, src)            # the outcomes the scenario fixes, from the setup on
    m.start(state, run=False)
    try:
        m.run(state, stop=True)
    except ChanceMismatch as e:
        raise e.error from None
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
    problems: list = []                 # every mistake of the position, told at once (each entry apart)
    listed, specs = _listing(rules, state, at, src, problems)
    made = created_items(state)         # what the setup made: a colour no player has comes only from it
    limbo: dict = {}                    # the pieces taken off the listed places, until placed again
    for key in listed:
        for item in list(state.items(key)):
            n = state.amount(key, item)
            state.remove(key, item, n)
            limbo[item] = limbo.get(item, 0) + n
    for key, loc in listed.items():
        spec, path = specs[key]
        try:
            items = _items_at(rules, spec, src, path)
        except NordError as e:
            problems.append(e)
            continue
        track = state.tracks.get(key)
        if track is not None and len(items) > len(track):
            problems.append(_err(src, path, f"{loc} has {len(track)} slots; {len(items)} items listed"))
            continue
        for slot, (item, ipath) in enumerate(items):
            if item is None:
                if track is None:
                    problems.append(_err(src, ipath, "'-' (an empty slot) is only for tracks"))
                continue
            try:
                _take(rules, state, item, limbo, listed, made, src, ipath)
                if track is not None:
                    track[slot] = item
                else:
                    state.add(key, item)
            except EvalError as e:
                problems.append(_err(src, ipath, f"{e.message}", hint="one piece per space: two workers cannot "
                                                                      "share it"))
            except NordError as e:
                problems.append(e)
    for item, n in sorted(limbo.items(), key=lambda kv: rules.show(kv[0])):
        home = _home(rules, item)
        if n > 0 and home is not None and home not in listed:
            state.add(home, item, n)        # (else it leaves the game: its place lists what it holds)
    rebase_created(state)
    for color, n in (pos.get("points") or {}).items():
        try:
            p = _player(rules, color, src, ("position", "points", color))
        except NordError as e:
            problems.append(e)
            continue
        state.counters[("points", p)] = n
        state.counters[("points", p, "before")] = n
    lits = rules.names.literals
    counters = lits.get(("counter", 0), set()) | lits.get(("add", 0), set())
    for name, n in (pos.get("counters") or {}).items():
        if name not in counters and None not in counters:     # (a counter named by an expression: any name)
            problems.append(_err(src, ("position", "counters", name), f"the rules use no counter {name!r}",
                                 key=True, expected=", ".join(sorted(counters - {None})) or "none",
                                 hint=did_you_mean(str(name), counters)))
            continue
        state.counters[("counter", name)] = n
    try:
        state.player = _player(rules, pos["player"], src, ("position", "player"), key=False) if "player" in pos else 0
    except NordError as e:
        problems.append(e)
    if problems:
        problems = sorted(unique(problems), key=lambda e: (e.pos.line or 0, e.pos.col or 0) if e.pos else (0, 0))
        raise problems[0] if len(problems) == 1 else ErrorList(problems)
    state.turn = pos.get("turn", 1) - 1
    state.fresh()
    _check_position(rules, state, listed, src)
    state.events.clear()
    state.history.clear()
    state.frames = []
    set_stops(rules, m, data, src)
    if data.get("stop_before_first_turn"):
        return game         # (a stop before the first turn: the script's first move or next_turn begins it)
    m.begin_turn(state, first=True)
    try:
        m.run(state)
    except ChanceMismatch as e:
        raise e.error from None
    except DeadEnd as e:
        raise SchemaError(f"in this position the rules demand a choice {e.step.name!r} that has no option",
                          src.pos(("position",))) from None
    return game


def _listing(rules, state, at, src, problems) -> tuple[dict, dict]:
    """The places a position lists: place -> its location's text, and place
    -> (what it holds as written, the path of that). A whole grid listed as
    a mapping lists each of its cells: those it names hold what they name,
    every other cell that holds items is emptied. A location that is wrong
    goes to `problems`, and the others are still read."""
    listed, specs, emptied = {}, {}, []

    def put(key, loc, spec, path):
        if key in listed:
            problems.append(_err(src, path, f"{rules.show(key)} is listed twice (also under {listed[key]})",
                                 key=True, hint="list each cell once: by itself or in its grid's mapping"))
            return
        listed[key], specs[key] = loc, (spec, path)
    for loc, spec in at.items():
        path = ("position", "at", loc)
        try:
            key = _location(rules, loc, src, path)
            cells = grid_cells(rules, key, loc, spec, src, path) if is_grid(rules, key) else None
        except NordError as e:
            problems.append(e)
            continue
        if cells is not None:
            for cell, (cell_spec, cell_path) in cells.items():
                put(cell, loc, cell_spec, cell_path)
            emptied.extend((cell, loc, path) for cell in sorted(state.cells.get(key, ())) if cell not in cells)
        else:
            put(key, loc, spec, path)
    for cell, loc, path in emptied:
        if cell not in listed:
            listed[cell], specs[cell] = loc, ([], path)
    return listed, specs


def _check_position(rules, state, listed, src) -> None:
    """The rulebook's position_checks on the position as set up: what breaks
    one is named, at its listing (else at 'position')."""
    from ..rules.build import position_message, position_problem
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


def _zone_order(rules, state) -> list:
    """The zones a listed piece without a home may come from, in the order the rulebook
    declares them (a player's zone in turn order; a grid zone's cells row by
    row): never a space or a structure of the board, whose pieces stay
    unless the position lists them."""
    out = []
    for name, z in rules.zones.items():
        for owner in (range(rules.num_players) if z.get("per_player") else (None,)):
            key = (name, owner)
            out.extend(sorted(state.cells.get(key, ())) if name in rules.grid_zones else [key])
    return out


def _take(rules, state, item, limbo, listed, made, src, path):
    """A listed piece: one a listed place held, else one from its home (a
    piece without a home: from a zone the position leaves unlisted), else
    one made for the scenario."""
    if limbo.get(item, 0) > 0:
        limbo[item] -= 1
        return
    home = _home(rules, item)
    for key in [home] if home is not None else _zone_order(rules, state):
        if key not in listed and state.amount(key, item) > 0:
            state.remove(key, item)
            return
    kind, tag = item
    if rules.pieces[kind].get("owned") and isinstance(tag, int) and tag >= rules.num_players and item not in made:
        raise _err(src, path, f"{rules.show(item)} is {rules.colors[tag]}'s, who does not play in a game of "
                   f"{rules.num_players}, and the setup made none", expected="a piece of a player's colour: "
                   + ", ".join(rules.colors[:rules.num_players]),
                   hint="a piece of a colour no player has exists only if the rulebook's setup makes it")
