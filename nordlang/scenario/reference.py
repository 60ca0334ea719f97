"""The scenario format reference (`nord doc scenario`), generated from the
scenario schema (every key and expectation), examples quoted from the
bundled scenarios, and the prose below for how a scenario runs."""

from __future__ import annotations

from ..rules import examples as ex
from ..rules import schemadoc as sd
from ..rules.format_reference import def_section, entry, reached_from

PROSE = {
    "game": "A scenario names its game with `game` or `rulebook`. One that names neither runs only with "
            "`--game`/`--rulebook` (never silently on Nord), and a game given on the command line must agree "
            "with the one it names.",
    "map": "Without `map` the scenario plays on the rulebook's board for its player count. With one, it draws "
           "its own board (with `legend`, `geometry`, `shape`, `size`, `tile_map`, `structures` and `seats` "
           "as a rulebook's board has them); the rulebook's `board_checks` are not checked on it, as it "
           "shows only what its example needs.",
    "position": "The rulebook's setup runs first (a setup choice must have one option here: `seats` fixes "
                "the starting structures); then the position is changed as listed, and the first turn starts "
                "for `player`.",
    "position.at": "A location is a space (`c3`), a structure (`A`), a zone (`fleet`; a player's, "
                   "`supply(red)`), a grid zone's cell (`tableau(red)[1,2]`) or a whole grid zone (a mapping of "
                   "its cells, `\"1,2\": card:ace`). Its contents are a piece or a list of pieces, each "
                   "written as the game shows it (`man:blue`, `stone`, `card:ace`); a track is listed slot by "
                   "slot, `-` for an empty slot. A location listed holds exactly that, a supply too. The pieces "
                   "come from where the game has them after the setup; a listing that needs more than the game "
                   "has, or leaves pieces with nowhere to go, is an error. The position must keep the rulebook's "
                   "`position_checks`.",
    "moves": "Each move is written as logs and replays write it, `<choice> <option>` (`place c2,d2`, "
             "`play none`), and answers the choice pending at that point. A choice with one option is never "
             "asked: it is taken at once, so the script leaves its move out (a failure names the choices taken "
             "so). A mapping `{expect: ...}` between moves checks the game at that point.",
    "chance": "The rules' chance events (a `roll` step, a `shuffle`) take the fixed outcomes in the order they "
              "come: the setup's first, then the turns'. A value is a roll's outcome (`5`; a roll with listed "
              "outcomes: `heads`), a list a shuffled deck's new order, top first (`[tile:c, tile:a, "
              "tile:b]`). A script step `- chance: [1]` fixes the outcomes of the events after it. An "
              "outcome that does not fit its event (a value the roll cannot show, an order that is not the "
              "deck's items) is an error at that value; an outcome no event takes by the end of the script is a "
              "failure there. `expect: {rolls: {NAME: 5}}` checks what the roll NAME came out as.",
    "expect": "Checked after the last move. Every expectation may also stand between moves, as "
              "`- expect: {...}`.",
    "expect.at": "A location holds exactly what it lists: a pool (a space, a structure, a supply) its pieces "
                 "in any order; a deck its pieces in order, the top first; a track its pieces slot by slot when "
                 "the listing marks empty slots with `-`, else in slot order with the gaps left out.",
    "expect.legal": "`legal`, `illegal` and `options` judge the choice pending at that point; a move of a choice "
                    "that was taken at once fails, naming it.",
    "expect.options": "Named for a player (`options: {play: {red: [axe, none], blue: [sword, none]}}`), the "
                      "options are those that player would have were this decision his now: the pending choice "
                      "is asked again, on a copy of the game, with him to move (at a stop between turns, or "
                      "before the first turn, his turn begins on the copy and its first decision must be the "
                      "choice named); the script plays on as before. So one position shows what each player "
                      "could do, as a rules tester compares them, without a file per player. A choice with one "
                      "option is listed too; a choice the rules give to a player of their own ('by') stays his.",
    "expect.never_asked": "A choice is put to a player when he must decide it: the choice pending now counts, "
                          "a choice taken at once (one option) does not, unless `stop_at_forced` asks it. The "
                          "count starts at the position, and a branch's includes the moves before it parts. "
                          "A choice name the rules never ask, or a colour that does not play, is an error "
                          "before the script runs (else a misspelt name would always hold).",
    "stop_at_turn_ends": "`stop_before_first_turn`, `stop_at_quiet_turns` and `stop_at_turn_ends` stop between "
                         "turns: there 'choice' is null, 'player' says whose turn has ended (or comes first), "
                         "'legal' and 'options' fail naming the stop (`options` named for a player still work: "
                         "his turn begins on a copy), and the next move, or a `- next_turn: true` step, begins "
                         "the next turn.",
    "expect.holds": "Expressions see the position as the rules do; a player is a number in turn order "
                    "(`supply(0)` is the first colour's supply).",
}

INTRO = """\
# The scenario format

A scenario is a YAML file that sets up a position of a game, plays a script of moves from it and
states what must follow: a worked example of the rules. `nord test` runs scenarios like tests
(`nord test variants/nord/scenarios`), `nord explain SCENARIO MOVE` says why a move is legal or not
in a scenario's position, and `nord render SCENARIO` draws it. The bundled games' scenarios are in
`variants/<game>/scenarios/`. This page is generated from the scenario schema (`nord schema
scenario`) and the bundled scenarios (`nord doc scenario > docs/scenario-format.md`; a test keeps it
up to date). Expressions are in [the language reference](nordlang.md), rulebooks in [the rulebook
format](rulebook-format.md).

A key written `<name>` is one the author chooses (a location, a colour); `[]` is an item of a list.

"""


def reference(schema: dict | None = None) -> str:
    """The scenario format as Markdown (`schema`: the scenario schema, by default the package's)."""
    from ..rules.schema import schema as load
    schema = schema if schema is not None else load("scenario")
    keys = sd.keys(schema)
    reach = reached_from(schema)
    out = [INTRO]
    whole = _example_file()
    if whole is not None:
        out += ["A whole scenario:\n", whole.markdown()]
    out.append("## Keys\n")
    for k in keys:
        if k.pointer[0] != "$defs":
            out.append(entry(k, schema, 3 if len(k.path) == 1 else 4, ex.first("scenario", k.pattern), PROSE))
    for name, node in (schema.get("$defs") or {}).items():
        def_keys = [k for k in keys if k.pointer[:2] == ("$defs", name)]
        out.append(def_section(name, node, schema, def_keys, reach, "scenario", PROSE))
    return "\n".join(x.rstrip("\n") + "\n" for x in out).rstrip("\n")


def _example_file():
    """The shortest bundled scenario that draws a board, sets a position,
    plays moves and expects, quoted whole."""
    best = None
    for name, data, src in ex.files("scenario"):
        if isinstance(data, dict) and {"map", "position", "moves", "expect"} <= set(data):
            n = len(src.text.splitlines())
            if best is None or n < best[0]:
                best = (n, name, src)
    if best is None:
        return None
    return ex.quote(best[1], best[2], (), limit=60)
