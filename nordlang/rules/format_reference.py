"""The rulebook format reference (`nord doc rulebook`), generated from the
rulebook schema (every key, its description, type and limits), quoted
examples from the bundled games, and the prose below for what a schema
cannot say (how the steps run, how variants patch)."""

from __future__ import annotations

from . import examples as ex
from . import schemadoc as sd

# What a key's description cannot hold: how it behaves (by the key's path in the reference).
PROSE = {
    "include": "An included file holds top-level sections as the main file does. A section split over "
               "files (`define` in two of them) merges its entries, each defined once; a section defined "
               "twice, or an entry defined in two files, is an error naming both files. Includes stay in the "
               "rulebook's own folder.",
    "extends": "Only a variant file (see [Variants](#variants-overlays)) names what it extends; in a rulebook "
               "the key has no use.",
    "define": "A key is a name (`open_cells`) or a signature (`score(p, s)`); the value is one nordlang "
              "expression (see [the language reference](nordlang.md)). Definitions may call each other, but "
              "not in a circle: nordlang has no recursion, so every rule terminates.",
    "procedures": "A key is a signature (`lift(s, dest)`); the value is effects text, run where it is called "
                  "(`lift(a, discard)` in any effects).",
    "flows": "A key is a signature (`scoring(trigger)`, `end_round()`); the value is a list of "
             "[steps](#steps). A flow may ask players to choose; flows may call each other, never in a circle.",
    "setup": "The steps run once, before the first turn: create and deal pieces, and ask any starting choices "
             "(each player in turn: `for p in players` around a `choose` with `by: p`).",
    "turn": "After the setup, turn after turn: the steps of `turn` run for the player to move until they end, "
            "then `next_player` (or the next in turn order) moves. The game ends when an effect calls "
            "`end_game()`. The turn must reach at least one `choose` (in it or in a flow it calls): a turn that "
            "asks nobody anything would never end, and is an error when the rulebook loads.",
    "result": "When the game is over, the players are ranked by `rank`: the first expression, then the next "
              "for ties, and so on; the players ranked first win (several when still tied), unless `draw` holds.",
    "board_checks": "Each check is a `check` (a condition) or `offenders` (an expression giving what breaks the "
                    "rule: none may be left, and the message names them), with a `message`; `warning: true` "
                    "makes it advice. They are checked on the board a game plays on when the rulebook loads "
                    "(not on a scenario's drawn board, which shows only what its example needs).",
    "position_checks": "The same form as `board_checks` (without warnings): a scenario whose position breaks "
                       "one is an error at its listing, and `nord validate --simulate` checks them in every "
                       "position its games reach.",
    "data_checks": "The same form as `board_checks`, plus `about`: an error points at that data, where a "
                   "variant changed it if one did.",
    "notation.path": "It joins every tuple whose parts are all spaces: a path (`a1-b2-c3`), and so also a pair "
                     "of spaces, such as an option `(s, t)` that moves from s to t (`a1-b2`, not `a1>b2`). Any other "
                     "tuple is joined by `tuple`; a part that is itself joined is put in brackets. A list or tuple "
                     "written out among a note's arguments (`note(\"pair\", [9, 12])`) is shown as numbers, "
                     "`(9, 12)`, never as spaces.",
    "boards": "Without `boards` a game has no shared board: its places are zones. A mapping whose every key is "
              "a player count (`2:` or `\"2\":`) gives one [board](#board) per count, and a count with no board "
              "is an error naming those that have one; any other mapping is one [board](#board).",
}

STEPS = """\
## Steps

`setup`, `turn`, each flow, and the bodies inside steps (`then`, `else`, `do`, an option's `do`,
`otherwise`) are lists of steps. A step is a mapping whose kind is the key it is written with
(`do`, `let`, `if`, `while`, `for`, `call`, `choose`); wherever a list of steps is expected, a
text is effects, as a `do` step's. Every kind also takes `id` (a name variants use to address the
step: see [list operations](#list-operations)) and `note` (a comment kept with the step).
The steps are compiled once, when the rulebook loads: every name, arity and expression is
checked then.

"""

# How each kind of step runs (what its keys' descriptions cannot say alone).
STEP_PROSE = {
    "do": "Runs effects: nordlang statements (`move`, `award`, `note`, `end_game`, the rulebook's "
          "procedures...).",
    "let": "Binds names for the steps after it in the same list, and inside them. Each expression is "
           "evaluated once, when the step runs; a later name may use an earlier one.",
    "if": "Runs `then` when the condition holds, else `else`; either may be left out.",
    "while": "Runs its body while the condition holds, checked before each pass. A loop that passes `limit` "
             "times (1000 by default) stops the game with an error at the step, so nothing runs away.",
    "for": "Runs its body once per item of a finite collection, evaluated once before the first pass, the "
           "item bound to the name (a tuple item may be taken apart: `a, b in pairs`).",
    "call": "Runs a named flow with its arguments, then goes on after the call. The flow must exist and take "
            "as many arguments: both are checked when the rulebook loads.",
    "choose": "Asks a player to decide. The options come from `from` (an expression giving a collection; "
              "duplicates are dropped, the order kept) or from `options` (named alternatives, each offered "
              "while its `when` holds, each running its own `do`). A move answers it as `<name> <option>` "
              "(`place c3,c4`, `action challenge`); afterwards the choice's name is bound to the value chosen "
              "(with `options`, to the label).\n\n"
              "- A choice with exactly one option is taken at once: nobody is asked, and the log records it "
              "as forced.\n"
              "- `optional: none` offers a 'nothing' option beside the others, written `<name> none`; it binds "
              "`none`.\n"
              "- `lookahead: true` keeps only the options after which the turn can go on: the engine tries each "
              "option ahead and drops those that lead to a choice with no option. That is how 'a card "
              "may be played only when a move follows it' is written as data.\n"
              "- With no option left, `otherwise` runs; without `otherwise`, a choice with no option is an "
              "error (the rules demand a choice that has none).\n"
              "- `by` names the player who decides (default: the player to move); whose turn it is does not "
              "change.\n"
              "- `exists` is a cheaper expression that is true exactly when `from` gives an option: the "
              "lookahead of other choices asks it instead of computing every option, and `nord validate "
              "--simulate` checks that it agrees with `from`.\n"
              "- `simultaneous: 'p in players'` makes it a secret choice of several players at once: each listed "
              "player is asked in turn order (the chooser is `p` in `from`), none sees the others' answers, and "
              "the choice's name is then bound to a table player -> option (`offer[p]`). With `reveal: all` (the "
              "default) every answer is shown to all once the last player has chosen; with `reveal: none` each "
              "stays its chooser's, and the rules' effects say what becomes known.",
    "roll": "A chance event (a die, a coin, a shuffle's draw): its outcomes come from `from` (an expression; each "
            "listed outcome equally likely, a value listed twice twice as likely) or from `outcomes` (outcome -> "
            "probability, a number or a fraction such as `1/6`, adding up to exactly 1). The outcome is bound to "
            "the step's name for the steps after it, and the log records it. In a real game the game's seed "
            "decides it; a search agent's sample of the future decides it afresh; a scenario may fix it; "
            "OpenSpiel sees it as a chance node with these outcomes and probabilities. (`shuffle(deck)` is a chance "
            "event too: each of its draws is one.)",
}


def reference(schema: dict | None = None) -> str:
    """The rulebook format as Markdown (`schema`: the rulebook schema, by default the package's)."""
    from .overlay_reference import overlays
    from .schema import schema as load
    schema = schema if schema is not None else load("rulebook")
    keys = sd.keys(schema)
    top = [k for k in keys if k.section in (schema.get("properties") or {}) and k.pointer[0] != "$defs"]
    defs = [k for k in keys if k.pointer[0] == "$defs"]
    reach = reached_from(schema)
    out = [_intro(schema, top)]
    out.append("## Top-level keys\n")
    for k in top:
        out.append(entry(k, schema, 3 if len(k.path) == 1 else 4, ex.first("rulebook", k.pattern)))
    out.append(STEPS)
    out.append(steps_section(schema, defs, reach))
    for name, node in (schema.get("$defs") or {}).items():
        if name in ("step", "steps", "body"):
            continue
        out.append(def_section(name, node, schema, [k for k in defs if k.section == name], reach, "rulebook"))
    out.append(overlays())
    out.append(limits_section())
    return "\n".join(x.rstrip("\n") + "\n" for x in out).rstrip("\n")


def limits_section() -> str:
    """The limits of input (nordlang/limits.py), as the reference states them."""
    from .. import limits as L
    rows = [
        ("a whole number written anywhere (rulebook, variant, scenario, replay, expression)",
         f"{L.MAX_DIGITS} digits"),
        ("items of one kind put into one zone at once (a scenario's `piece*N`)", f"{L.MAX_COUNT:,}"),
        ("rows or columns of a board (`boards.size`)", f"{L.MAX_BOARD_SIDE}"),
        ("rows or columns of a grid zone", f"{L.MAX_GRID_SIDE:,}"),
        ("levels of nested lists and mappings in a JSON document (a replay line, a request to the page)",
         f"{L.MAX_NESTING}"),
        ("characters of one move, or of one line typed at the human seat", f"{L.MAX_LINE:,}"),
        ("bytes of one request to the page (`nord serve`; a replay uploaded there: half of it)", f"{L.MAX_BODY:,}"),
    ]
    out = ["## Limits of input\n",
           "Everything a user writes or produces is read within these bounds, far beyond any real game; past "
           "one, the reader says which limit, where (file, line and column; a 400 with a message on the page; a "
           "new prompt at the terminal), and reads on no further. Text must be valid Unicode: a lone surrogate "
           "(`\\ud800` escaped in a YAML or JSON string) is refused where it is read.\n",
           "| input | at most |", "|---|---|"]
    out += [f"| {what} | {most} |" for what, most in rows]
    return "\n".join(out) + "\n"


def _intro(schema, top) -> str:
    rows = "\n".join(f"| [`{k.path[0]}`](#{_anchor(k.path)}) | {'yes' if k.required else ''} | "
                     f"{_first_clause(sd.description(k.node, schema))} |" for k in top if len(k.path) == 1)
    return (
        "# The rulebook format\n\n"
        "A rulebook is a YAML file (with the files it includes) that the engine checks against its JSON Schema\n"
        "(`nord schema`) when it loads. This page is generated from that schema and from the bundled games\n"
        "(`nord doc rulebook > docs/rulebook-format.md`; a test keeps it up to date): every key, with what it\n"
        "means, its type, its limits and the first place a bundled rulebook uses it. Expressions and effects,\n"
        "the texts inside the keys, are in [the language reference](nordlang.md); scenarios in\n"
        "[the scenario format](scenario-format.md); a walk through a whole game in\n"
        "[Writing a new game](writing-a-game.md).\n\n"
        "A key written `<name>` is one the author chooses (a zone's name, a piece kind's); `[]` is an item\n"
        "of a list.\n\n"
        "| key | required | what it is |\n|---|---|---|\n" + rows + "\n")


def _first_clause(text) -> str:
    text = " ".join((text or "").split())
    return text.replace("|", "\\|")


def _anchor(path) -> str:
    """GitHub's anchor of a heading `path` (backticks, dots and brackets dropped)."""
    text = sd.path_text(path).lower()
    return "".join(c for c in text if c.isalnum() or c in "-_ ").replace(" ", "-")


def entry(k: sd.Key, schema: dict, level: int, example: ex.Example | None, prose: dict = PROSE) -> str:
    """One key: heading, description, type, required, limits, more prose, an example."""
    desc = sd.description(k.node, schema) or ""
    lines = ["#" * level + f" `{sd.path_text(k.path)}`", "", _sentence(desc), ""]
    facts = [f"- type: {sd.type_text(k.node, schema)}", "- required" if k.required else "- optional"]
    limits = sd.constraints(k.node)
    if limits:
        facts.append("- " + "; ".join(limits))
    lines += facts + [""]
    more = prose.get(sd.path_text(k.path))
    if more:
        lines += [more, ""]
    if example is not None:
        lines.append(example.markdown())
    return "\n".join(lines)


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def step_kinds(schema: dict) -> list[str]:
    """The kinds of step the schema accepts (the key each alternative requires)."""
    return [alt["required"][0] for alt in schema["$defs"]["step"]["oneOf"]]


def kind_of(step: dict, schema: dict) -> str | None:
    """Which kind of step a mapping is (None: not a step)."""
    for alt in schema["$defs"]["step"]["oneOf"]:
        if set(alt["required"]) <= set(step) <= set(alt["properties"]):
            return alt["required"][0]
    return None


def steps_section(schema, defs, reach) -> str:
    out = ['<a id="step"></a><a id="body"></a>\n']
    sections = sorted(reach.get("step", ()))
    for kind in step_kinds(schema):
        out.append(f"### `{kind}`\n\n{STEP_PROSE.get(kind, '')}\n")
        found = ex.first_in("rulebook", sections, lambda m, kind=kind: () if kind_of(m, schema) == kind else None)
        shown = {found}
        if found is not None:
            out.append(found.markdown())
        for k in [k for k in defs if k.section == "step" and k.path[0] == kind]:
            rel = k.pattern

            def accept(m, kind=kind, rel=rel):
                return () if kind_of(m, schema) == kind and any(True for _ in ex.matches(m, rel)) else None
            example = ex.first_in("rulebook", sections, accept) if k.path[-1] not in ("id", "note", kind) else None
            out.append(entry(k, schema, 4, example if example not in shown else None))
            shown.add(example)
    return "\n".join(out)


def def_section(name, node, schema, keys, reach, kind, prose: dict = PROSE) -> str:
    """A $def of mapping keys (a board, a tile): its description, then each key."""
    out = [f'<a id="{name}"></a>\n\n## `{name}`\n']
    if sd.description(node, schema):       # (a $def's own description is optional: its keys have theirs)
        out.append(_sentence(sd.description(node, schema)) + "\n")
    sections = sorted(reach.get(name, ()))
    props = set(node.get("properties") or {})
    required = set(node.get("required") or ())

    def shaped(m):
        return bool(m) and required <= set(m) <= props
    for k in keys:
        def accept(m, rel=k.pattern):
            if not shaped(m):
                return None
            return next(ex.matches(m, rel), None)
        out.append(entry(k, schema, 3, ex.first_in(kind, sections, accept), prose))
    return "\n".join(out)


def reached_from(schema: dict) -> dict:
    """$def name -> the top-level keys whose values may hold it (following refs)."""
    defs = schema.get("$defs") or {}

    def refs(node, seen):
        if isinstance(node, dict):
            r = node.get("$ref")
            if r:
                name = r.rsplit("/", 1)[-1]
                if name not in seen:
                    seen.add(name)
                    refs(defs.get(name), seen)
            for v in node.values():
                refs(v, seen)
        elif isinstance(node, list):
            for v in node:
                refs(v, seen)
        return seen
    out: dict = {}
    for top, node in (schema.get("properties") or {}).items():
        for name in refs(node, set()):
            out.setdefault(name, set()).add(top)
    return out
