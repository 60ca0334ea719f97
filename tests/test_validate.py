"""Errors worth trusting: each file in tests/broken/ holds one kind of
mistake (tests/broken/multi/ holds six, one per file of a rulebook copy),
and the real CLI must answer every one with exit status 2 and an error at
the exact file:line:column of the mistake, saying what is wrong in plain
words, with a did-you-mean hint where a name is close.

The expectations are one table, EXPECTED. Tests marked
xfail(strict=True, reason="defect: ...") document defects of the package
that these tests found: they fail today, and must lose their mark when
the defect is fixed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import nordlang
from nordlang.cli import main

TESTS = Path(__file__).resolve().parent
BROKEN = TESTS / "broken"
ROOT = TESTS.parent
CLASSICS = ("tictactoe", "connect-four", "hex")   # games beside Nord, in folders of their own

# ---------------------------------------------------------------------------
# The table: broken file (relative to tests/broken) -> the errors it must
# give, each (line, col, phrase, hint) in that file, or (file, line, col,
# phrase, hint) for the folder "multi". `phrase` is a text the message must
# contain (or a compiled regex it must match); `hint` a text the hint must
# contain (None: no hint required).
# ---------------------------------------------------------------------------
EXPECTED: dict[str, list[tuple]] = {
    # ---- nordlang text in a variant's definitions, procedures, flows ----
    "variants/unknown-name.yaml": [(7, 29, "unknown name 'num_player'", "did you mean 'num_players'")],
    "variants/missing-parenthesis.yaml": [(5, 25, "missing closing ')': this '(' is never closed", None)],
    "variants/unclosed-expression-bracket.yaml": [(5, 25, "this '[' is never closed",
                                                   "the ')' at line 5, column 33 comes first: close the '[' with ']'")],
    "variants/operator-without-operand.yaml": [(5, 31, "operator without operand", None)],
    "variants/operator-without-operand-mid.yaml": [(5, 29, "operator '*' without operand", None)],
    "variants/single-equals.yaml": [(5, 41, "unexpected '='", "compare with '==', not '='")],
    "variants/unknown-function.yaml": [(5, 25, "unknown function 'cout'", "did you mean 'count'")],
    "variants/wrong-arity.yaml": [(6, 24, "terrain() takes 1 argument(s), got 0", "terrain(s)")],
    "variants/table-out-of-range.yaml": [(5, 45, "index 7 is out of range: same_symbol has 7 entries", None)],
    "variants/unknown-table-field.yaml": [(5, 34, "limits has no field 'nnone'", "did you mean 'none'")],
    "variants/terrain-literal.yaml": [(5, 74, "'montain' is not a terrain", "did you mean 'mountain'")],
    "variants/structure-kind.yaml": [(5, 30, "'setlement' is not a structure kind", "did you mean 'settlement'")],
    "variants/recursive-definition.yaml": [(6, 5, "call each other in a circle", None)],
    "variants/unknown-effect.yaml": [(5, 28, "unknown function 'suply'", "did you mean 'supply'"),
                                     (8, 14, "unknown effect 'sendhome'", "did you mean 'send_home'")],
    "variants/unknown-flow.yaml": [(7, 16, "unknown flow 'resource_scorin'", "did you mean 'resource_scoring'")],
    "variants/flow-arity.yaml": [(7, 16, "flow 'resource_scoring' takes 0 argument(s), got 1", None)],
    "variants/bad-escape.yaml": [(6, 17, "unknown escape '\\\\x'", None)],
    "variants/folded-first-line.yaml": [(8, 15, "unknown name 'nn'", "did you mean 'n'")],
    "variants/folded-later-line.yaml": [(11, 63, "unknown function 'conected'", "did you mean 'connected'")],
    "variants/literal-nested-line.yaml": [(11, 17, "unknown name 'longbot'", "did you mean 'longboat'")],
    "variants/flow-recursion.yaml": [(7, 5, re.compile(r"circle|itself|recurs"), None)],
    "variants/turn-without-choice.yaml": [(7, 5, re.compile(r"choice|choose|never ends"), None)],
    # ---- the schema, the rulebook's own names ----
    "variants/unknown-key.yaml": [(5, 5, "unknown key 'colours' in players", "did you mean 'colors'")],
    "variants/wrong-type.yaml": [(5, 10, "players/min: expected a whole number, got text 'two'", None)],
    "variants/missing-key.yaml": [(5, 16, "missing key 'type' in zones/graveyard", None)],
    "variants/bad-enum.yaml": [(5, 23, "text 'poll' is not allowed", "did you mean 'pool'")],
    "variants/unknown-step-kind.yaml": [(7, 9, "a step must be one of", "did you mean 'call'")],
    "variants/unknown-variant-key.yaml": [(3, 1, "unknown key 'pacth' in a variant", "did you mean 'patch'")],
    "variants/feature-unknown-terrain.yaml": [(5, 38, "'karstt'", "did you mean 'karst'")],
    "variants/home-unknown-zone.yaml": [(5, 18, "'flet'", "did you mean 'fleet'")],
    "variants/stands-on-unknown-terrain.yaml": [(5, 25, "'seaa'", "did you mean 'sea'")],
    # ---- YAML itself ----
    "variants/bad-indentation.yaml": [(6, 4, "malformed YAML", None)],
    "variants/unclosed-quote.yaml": [(6, 15, "malformed YAML", None)],
    "variants/unclosed-quote-eof.yaml": [(5, 24, "quot", None)],
    "variants/tab-indent.yaml": [(5, 1, "'\\t'", None)],
    "variants/duplicate-key.yaml": [(6, 5, "duplicate key 'scoring_order'", None)],
    "variants/python-tag.yaml": [(5, 14, "python/object/apply:os.system' is not allowed", "plain YAML only")],
    "variants/control-character.yaml": [(5, 24, "unacceptable character", None)],
    "variants/unclosed-yaml-bracket.yaml": [(5, 18, "malformed YAML: this '[' is never closed",
                                             "close it with ']' (the text reads on to line 6, column 9")],
    "variants/alias-loop.yaml": [(5, 26, "alias", None)],
    "variants/alias-bomb.yaml": [(8, 14, "alias", None)],     # where: see test_alias_bomb_is_refused_quickly
    # ---- patching ----
    "variants/missing-list-id.yaml": [(6, 17, "no item with id 'stormm'", "did you mean 'storm'")],
    "variants/extends-outside.yaml": [(2, 10, "leaves the variant's folder", None)],
    "variants/definition-other-parameters.yaml": [(5, 5, "'warriors(p)' defines 'warriors' again: "
                                                         "'warriors(p, s)' already does", "patch the same key")],
    "variants/step-not-a-mapping.yaml": [(7, 15, "expected a step, a mapping with one of do, let", "for example")],
    "variants/removed-twice.yaml": [(6, 15, "no item with id 'starting_settlements' in setup",
                                     "this patch removed it already, at line 5")],
    # ---- the island ----
    "variants/island-replaced-too-close.yaml": [
        (10, 7, "the board for 2 players breaks a setup rule: settlements stand at least 2 spaces", None)],
    "variants/island-too-close.yaml": [
        (10, 7, "the board for 2 players breaks a setup rule: settlements stand at least 2 spaces", None)],
    "variants/board-check-two-tests.yaml": [
        (6, 7, "board_checks/check 1: takes 'check' or 'offenders', not both", None)],
    "variants/board-check-offenders-not-a-list.yaml": [(7, 18, "'offenders' gives true, not a collection",
                                                         "or write 'check' instead")],
    "variants/board-check-no-test.yaml": [(7, 7, "board_checks/check 1: needs 'check' or 'offenders'", None)],
    "variants/space-superscript.yaml": [(9, 31, "'f²' is not a space name", None)],
    # ---- data_checks: the tables' words ----
    "variants/table-word-typo.yaml": [(5, 20, "tables.scoring_order breaks a rule of this rulebook: scoring_order "
                                              "names scorings that scoring() does not know", None)],
    "variants/table-without-the-end.yaml": [(5, 20, "scoring_order ends with the treasure scoring", None)],
    "variants/table-of-the-wrong-kind.yaml": [(5, 20, "tables.attack_ladder cannot be checked: wrong kind of "
                                                      "value: a number is not a collection", None)],
    "variants/award-unknown-source.yaml": [(5, 78, "'golld' is not a source of points (result.sources)", None)],
    # ---- literals of the wrong kind of value (the primitives' declared argument and value kinds) ----
    "variants/item-as-text.yaml": [(5, 32, "'man' is not an item (argument 2 of amount())",
                                    "an item is made by its kind: man() (without a tag) or man(p)")],
    "variants/connected-structure-kind.yaml": [(5, 68, "'dragon' is not a structure of this board "
                                                       "(argument 2 of connected())",
                                                "'dragon' is a kind of structure, not a structure")],
    "variants/colour-compared-with-player.yaml": [(5, 74, "'red' is not a player, so this comparison is never true",
                                                   "a player is a number in turn order; red is 0")],
    "variants/escaped-quotes-column.yaml": [(5, 51, "operator '+' without operand", None)],
    "variants/keywords-as-names.yaml": [
        (5, 5, "'none' is not a valid name or signature", "'none' is a word of the language, not a name"),
        (6, 5, "'f(for)' is not a valid name or signature", "'for' is a word of the language, not a name"),
        (7, 29, "unexpected 'for'", "'for' is a word of the language, not a name: choose another name")],
    "variants/data-check-about-nothing.yaml": [(6, 14, "the rulebook has no data 'tables.scoring_ordr'",
                                                "did you mean 'scoring_order'")],
    # ---- players, extends, nesting ----
    "variants/players-max-above-colours.yaml": [(5, 10, "players.max is 5, but 4 colour(s) are named",
                                                 "name 1 more colour(s)")],
    "variants/players-min-above-max.yaml": [(6, 10, "players.max (2) is below players.min (3)", None)],
    "variants/players-default-outside.yaml": [(5, 14, "players.default (7) is not between players.min (2)", None)],
    "variants/players-colour-twice.yaml": [(5, 25, "the colour 'red' is named twice", None)],
    "variants/players-huge-max.yaml": [(5, 10, "players.max is 99999999999999999999999999999", None)],
    "variants/no-patch.yaml": [(1, 1, "this variant changes nothing: it has no patch", "add 'patch:'")],
    "variants/extends-list.yaml": [(2, 10, "'extends' names one game or variant", None)],
    "variants/extends-unknown.yaml": [(2, 10, "unknown game or variant 'no-stormm'", "did you mean 'no-storm'")],
    "variants/nested-too-deep.yaml": [(1, 1, "the YAML nests too deeply to read", "hundreds of levels")],
    # ---- scenarios ----
    "scenarios/map-character.yaml": [(6, 10, "map character 'x' (row 3, column 5) is not in the legend", None)],
    "scenarios/structure-not-named.yaml": [(5, 13, "map character 'X' (row 2, column 8) is not in the legend",
                                            "a structure is a letter named under 'structures', like {X: settlement}")],
    "scenarios/ragged-rows.yaml": [(6, 5, "map row 3 has 8 characters, the first row has 9", None)],
    "scenarios/two-pieces.yaml": [(13, 19, "c2 already holds a piece", None)],
    "scenarios/colour-of-no-player.yaml": [(13, 19, "man:yellow is yellow's, who does not play in a game of 2, "
                                                    "and the setup made none",
                                            "a piece of a colour no player has exists only if the rulebook's setup")],
    "scenarios/seats-empty.yaml": [(9, 1, "'seats: []' names no seat", "leave 'seats' out (the position, or the "
                                                                         "rulebook's own setup, then decides")],
    "scenarios/track-values-not-a-track.yaml": [(12, 5, "'longbaot' is not a track of this game",
                                                 "did you mean 'longboat'")],
    "scenarios/map-without-small-dragon-boat.yaml": [
        (4, 1, "this scenario's map lacks what a rule of the rulebook needs: challenge (game turn B) needs the small "
               "dragon boat: the board has one structure of kind dragon", "the check is at ")],
    "scenarios/unknown-points-source.yaml": [(11, 23, "the rules award no points from 'jarl'", "did you mean 'jarls'")],
    "scenarios/position-dragon-boat-holds-men.yaml": [
        (12, 5, "this position breaks a rule: the small dragon boat holds no pieces: X", "the rule is at ")],
    "scenarios/position-boat-on-land.yaml": [
        (12, 5, "this position breaks a rule: a fishing boat lies only on a sea space, under a worker: d2", None)],
    "scenarios/position-sea-worker-without-boat.yaml": [
        (12, 5, "this position breaks a rule: a worker on the sea stands in one fishing boat: a1", None)],
    "scenarios/unknown-location.yaml": [(13, 5, "unknown location 'suppply(red)'", "did you mean 'supply'")],
    "scenarios/outside-board.yaml": [(13, 5, "c9 is outside the board", None)],
    "scenarios/unknown-piece.yaml": [(13, 10, "unknown piece 'men:red'", "did you mean 'man:red'")],
    "scenarios/unknown-colour.yaml": [(11, 11, "'yellow' is not a player of this game", None)],
    "scenarios/unknown-scenario-key.yaml": [(10, 1, "unknown key 'posiiton'", "did you mean 'position'")],
    "scenarios/superscript-space.yaml": [(15, 5, "'c²'", None)],
    "scenarios/superscript-count.yaml": [(15, 19, "bad count", None)],
    "scenarios/bad-move-notation.yaml": [(14, 5, "bad move notation 'place:c2'", None)],
    "scenarios/bad-legal-notation.yaml": [(15, 27, "bad move notation 'placec2,d2'", None)],
    "scenarios/unknown-expect-name.yaml": [(13, 16, "unknown function 'conected'", "did you mean 'connected'")],
    "scenarios/seat-twice.yaml": [(9, 12, "seat 'A' is named twice", None)],
    "scenarios/seat-of-another-kind.yaml": [(9, 12, "seat 'X' is a dragon, the seats before it are settlements",
                                             None)],
    "scenarios/seat-unknown-then-another-kind.yaml": [
        (9, 9, "seat 'Q' is not a structure of this board", None),
        (9, 15, "seat 'X' is a dragon, the seats before it are settlements", None)],
    "scenarios/too-many-players.yaml": [(2, 10, "this rulebook is for 2 to 4 players, not 9", None)],
    "scenarios/players-huge.yaml": [(2, 10, "this rulebook is for 2 to 4 players, not 99999999999999999999", None)],
    "scenarios/unknown-variant.yaml": [(2, 12, "unknown variant 'nostorm'", "did you mean 'no-storm'")],
    "scenarios/unknown-counter.yaml": [(11, 14, "the rules use no counter 'scorngs'", "did you mean 'scorings'")],
    "scenarios/expect-indented-too-little.yaml": [
        (15, 5, "unknown key 'at' in moves/move 3", "'at' is a key of 'expect': indent it under 'expect'"),
        (14, 12, "moves/move 3/expect: expected a mapping (key: value), got nothing", None)],
    "scenarios/colour-in-expression.yaml": [(11, 27, "unknown name 'red'", "a number in turn order (red is 0)")],
    "scenarios/values-key-misspelt.yaml": [(12, 17, "unknown name 'longbot'", "did you mean 'longboat'")],
    "scenarios/move-of-nothing.yaml": [(11, 5, "moves/move 1: expected a move in text ('place c2,d2') or a mapping "
                                               "with 'expect' or a mapping with 'run' or a mapping with 'next_turn' or "
                                               "a mapping with 'end_game' or a mapping with 'chance', got nothing",
                                               None)],
    "scenarios/value-text-a-number.yaml": [(12, 5, "expected nordlang text, got the number 5", "in quotes")],
    "scenarios/expect-unknown-player.yaml": [(11, 11, "'pink' is not a player of this game", None)],
    # ---- a rulebook copy with a mistake in each of its six files ----
    "multi": [
        ("multi/nord.yaml", 29, 12, "players/default: expected a whole number, got text 'three'", None),
        ("multi/components.yaml", 18, 54, "unknown key 'descripton' in pieces/man", "did you mean 'description'"),
        ("multi/tiles.yaml", 19, 44, "tiles/A/description: expected text, got the number 5", None),
        ("multi/turn.yaml", 6, 16, "unknown function 'frist'", "did you mean 'first'"),
        ("multi/scoring.yaml", 34, 17, "unexpected '='", "compare with '==', not '='"),
        ("multi/islands.yaml", 114, 17, "unknown name 'tile_id'", "did you mean 'tile_ids'"),
    ],
}

# Scenario files whose mistake is in the script (moves, expectations):
# `nord test` meets them when it runs the script.
SCRIPTED = {"scenarios/bad-move-notation.yaml", "scenarios/bad-legal-notation.yaml",
            "scenarios/unknown-expect-name.yaml"}

# Files that can make the CLI run away: checked in a subprocess with a time limit.
RUNAWAY = {"variants/alias-bomb.yaml"}

# ---------------------------------------------------------------------------
# Known defects (found by these tests). Each reason says what happens now.
# ---------------------------------------------------------------------------
FOLDED = ("defect: positions inside a folded (>) block scalar are wrong: the text is mapped as if it started at "
          "the '>' indicator and as if all its lines were joined, so columns are 2 too small on the first line "
          "and later lines land on the wrong line")
NESTED = ("defect: positions on an extra-indented line of a literal (|) block scalar count the extra indentation "
          "twice (column 2 too large inside every braced block of the bundled rulebook's procedures)")
ESCAPE = ("defect: a string literal with a bad escape (\\x, \\u12, \\N) crashes the parser: "
          "lark VisitError (UnicodeDecodeError from 'unicode_escape') instead of a LangError")
SUPERSCRIPT = ("defect: text like 'f²' / '*²' passes str.isdigit() and then int() raises ValueError "
               "(board/grid.py parse_space, scenario/names.py _items): a traceback")
ALIAS_LOOP = "defect: a YAML alias inside its own anchor makes the loader recurse forever: RecursionError traceback"
ALIAS_BOMB = ("defect: YAML aliases are expanded without limit: a 1 KB file of nested aliases "
              "(10**9 values) makes `nord validate` run for minutes and eat memory")
CONTROL = ("defect: a control character in a YAML file is reported without line and column "
           "(yaml ReaderError has only a character offset) and with pyyaml's '<unicode string>' jargon")
QUOTE_EOF = ("defect: a quote left open at the end of a file is reported at the line after the last one "
             "(no source line, no caret), not at the quote that was never closed")
FLOW_CALL = ("defect: an error in a flow step 'call:' points at the opening quote of the text, "
             "not at the flow name inside it as every other name error does")
FLOW_CYCLE = ("defect: a flow that calls itself (directly or through others) is not reported; "
              "`nord validate` exits 0 and a game that reaches it never ends")
NO_CHOICE = ("defect: a turn that asks no player anything is not reported; `nord validate` exits 0 "
             "and `nord play` loops forever")
UNCHECKED_NAMES = ("defect: names the rulebook refers to in its data (a feature's terrain, a piece's home zone, "
                   "a structure kind's stands_on terrain) are not checked; `nord validate` exits 0")
PATCHED_ISLAND = ("defect: when a variant patches part of an island so that it breaks a board check, the error "
                  "points at the bundled rulebook's island (rulebook/nord/islands.yaml:11:5), not at the variant")
ITEM_POS = ("defect: the error points at the whole list of a location ('[' of the list), not at the item "
            "that does not fit")
COLOUR_POS = "defect: an unknown colour in 'position: player:' is reported at the key 'player', not at the colour"
SCRIPT_UNCHECKED = ("defect: `nord validate` does not check a scenario's script (move notation, expectations, "
                    "names in 'holds'); it exits 0, and only `nord test` finds the mistake")

VALIDATE_DEFECTS: dict = {}

CASCADE = ("defect: `nord validate` runs the rulebook's board_checks on rules that did not compile, so one "
           "mistake in a definition also gives 'the board for N players breaks a setup rule' errors (or "
           "runtime errors) in rulebook/nord/islands.yaml, a file the user did not touch")
# files that give more errors than their mistakes (besides the defects above)
EXTRA_DEFECTS: dict = {}

NORD_TEST_DEFECTS: dict = {}
CARET_DEFECTS: dict = {}
JARGON = ("defect: malformed YAML is explained in pyyaml's parser jargon ('expected <block end>, but found "
          "<block mapping start>'), not in plain words (e.g. 'this line is indented less than the ones above')")
YAML_JARGON_FILES = ["variants/bad-indentation.yaml", "variants/unclosed-quote.yaml"]


# ---------------------------------------------------------------------------
# running the CLI and reading its messages
# ---------------------------------------------------------------------------
_RUNS: dict = {}

_HEAD = re.compile(r"^(?P<indent>\s*)(?P<file>\S.*?)(?::(?P<line>\d+)(?::(?P<col>\d+))?)?: "
                   r"(?P<kind>error|warning): (?P<msg>.*)$")


def run(capsys, *argv):
    """`nord ARGV...` in this process: (exit status, stdout, stderr); each command runs once per session."""
    if argv not in _RUNS:
        capsys.readouterr()
        rc = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        _RUNS[argv] = (rc, out, err)
    return _RUNS[argv]


def messages(text: str) -> list[dict]:
    """The errors and warnings printed in `text`, each with its indented lines."""
    out: list[dict] = []
    for raw in text.splitlines():
        m = _HEAD.match(raw)
        if m and (not out or len(m["indent"]) <= out[-1]["indent"]):
            out.append({"indent": len(m["indent"]), "file": m["file"],
                        "line": int(m["line"]) if m["line"] else None,
                        "col": int(m["col"]) if m["col"] else None,
                        "kind": m["kind"], "msg": m["msg"], "body": []})
        elif out and raw.startswith(" " * (out[-1]["indent"] + 1)):
            out[-1]["body"].append(raw)
    return out


def hint_of(msg: dict) -> str | None:
    for line in msg["body"]:
        if line.strip().startswith("hint: "):
            return line.strip()[len("hint: "):]
    return None


def expected(name: str) -> list[tuple]:
    """(file Path, line, col, phrase, hint) for each error of a table entry."""
    out = []
    for e in EXPECTED[name]:
        if len(e) == 4:
            out.append((BROKEN / name, *e))
        else:
            out.append((BROKEN / e[0], *e[1:]))
    return out


def target(name: str) -> Path:
    return BROKEN / name


def _same_file(printed: str, path: Path) -> bool:
    p = Path(printed)
    if not p.is_absolute():
        p = Path.cwd() / p
    return p.resolve() == path.resolve()


def _says(msg: str, phrase) -> bool:
    return bool(phrase.search(msg)) if isinstance(phrase, re.Pattern) else phrase in msg


def find(msgs: list[dict], path: Path, line: int, col: int, phrase, hint) -> dict | None:
    for m in msgs:
        if m["kind"] == "error" and m["line"] == line and m["col"] == col and _same_file(m["file"], path) \
                and _says(m["msg"], phrase) and (hint is None or hint in (hint_of(m) or "")):
            return m
    return None


def check_all(name: str, text: str) -> None:
    msgs = messages(text)
    missing = []
    for path, line, col, phrase, hint in expected(name):
        if find(msgs, path, line, col, phrase, hint) is None:
            missing.append(f"{path.relative_to(BROKEN)}:{line}:{col}: {phrase}" + (f" (hint: {hint})" if hint else ""))
    assert not missing, "not reported:\n  " + "\n  ".join(missing) + "\n--- output ---\n" + text


def _marked(names, defects: dict):
    return [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=defects[n])) if n in defects else n
            for n in names]


IN_PROCESS = sorted(n for n in EXPECTED if n not in RUNAWAY)
SCENARIOS = sorted(n for n in EXPECTED if n.startswith("scenarios/"))


# ---------------------------------------------------------------------------
# the tests
# ---------------------------------------------------------------------------
def test_every_broken_file_is_in_the_table():
    files = {str(p.relative_to(BROKEN)) for p in BROKEN.rglob("*.yaml") if p.parent.name != "multi"}
    assert files == set(EXPECTED) - {"multi"}
    assert len(EXPECTED) >= 20
    assert len({e[0] for e in EXPECTED["multi"]}) >= 4, "the multi-error rulebook has mistakes in 4+ files"


@pytest.mark.parametrize("name", _marked(IN_PROCESS, VALIDATE_DEFECTS))
def test_validate_reports_each_mistake_at_its_place(name, capsys):
    rc, out, err = run(capsys, "validate", target(name))
    assert "Traceback" not in err
    check_all(name, err)
    assert rc == 2, err


@pytest.mark.parametrize("name", _marked(IN_PROCESS, {**VALIDATE_DEFECTS, **EXTRA_DEFECTS}))
def test_validate_reports_nothing_but_the_mistakes(name, capsys):
    rc, out, err = run(capsys, "validate", target(name))
    errors = [m for m in messages(err) if m["kind"] == "error"]
    found = [find(errors, *e) for e in expected(name)]
    extra = [m for m in errors if m not in found]
    assert not extra, "errors beyond the mistakes:\n" + err
    assert f": {len(EXPECTED[name])} error(s)" in out
    assert rc == 2


@pytest.mark.parametrize("name", [n for n in IN_PROCESS if n not in VALIDATE_DEFECTS])
def test_errors_show_the_source_line_with_a_caret_under_the_mistake(name, capsys):
    rc, out, err = run(capsys, "validate", target(name))
    _check_carets(name, err)


def _check_carets(name, text):
    msgs = messages(text)
    for path, line, col, phrase, hint in expected(name):
        m = find(msgs, path, line, col, phrase, hint)
        assert m is not None, text
        src = path.read_text(encoding="utf-8").splitlines()[line - 1].rstrip()
        body = m["body"]
        shown = [i for i, b in enumerate(body[:-1]) if b.rstrip().endswith(src) and set(body[i + 1].strip()) == {"^"}]
        assert shown, f"no source line with a caret for {path.name}:{line}:{col}\n{text}"
        i = shown[0]
        margin = len(body[i].rstrip()) - len(src)
        assert body[i + 1].index("^") - margin == col - 1, f"the caret is not under column {col}\n{text}"


def test_multi_error_rulebook_reports_every_mistake_in_one_run(capsys):
    rc, out, err = run(capsys, "validate", BROKEN / "multi")
    check_all("multi", err)
    files = {Path(m["file"]).name for m in messages(err) if m["kind"] == "error"}
    assert files == {"nord.yaml", "components.yaml", "tiles.yaml", "turn.yaml", "scoring.yaml", "islands.yaml"}
    assert rc == 2


@pytest.mark.parametrize("name", _marked(SCENARIOS, NORD_TEST_DEFECTS))
def test_nord_test_reports_a_broken_scenario_as_an_error(name, capsys):
    rc, out, err = run(capsys, "test", target(name))
    assert "Traceback" not in err
    assert out.startswith(f"ERROR {target(name)}"), out
    check_all(name, out)
    assert rc == 2, out


@pytest.mark.parametrize("name", _marked(sorted(SCRIPTED), CARET_DEFECTS))
def test_nord_test_shows_the_source_line_of_a_script_mistake(name, capsys):
    rc, out, err = run(capsys, "test", target(name))
    _check_carets(name, out)


@pytest.mark.parametrize("name", YAML_JARGON_FILES)
def test_malformed_yaml_is_explained_in_plain_words(name, capsys):
    rc, out, err = run(capsys, "validate", target(name))
    assert rc == 2
    assert not re.search(r"<(block|flow|scalar|document|stream)[^>]*>", err), err


def test_alias_bomb_is_refused_quickly():
    name = "variants/alias-bomb.yaml"
    try:
        proc = subprocess.run([sys.executable, "-m", "nordlang", "validate", str(target(name))], cwd=ROOT,
                              capture_output=True, text=True, timeout=10)
    except subprocess.TimeoutExpired:
        pytest.fail("`nord validate` ran for more than 10 s on a 1 KB file")
    assert "Traceback" not in proc.stderr
    # which alias a limit trips on is the loader's choice: any error of this file that names an alias will do
    assert any(m["kind"] == "error" and _same_file(m["file"], target(name)) and "alias" in m["msg"]
               for m in messages(proc.stderr)), proc.stderr
    assert proc.returncode == 2


def test_bundled_rulebook_variants_and_scenarios_validate_cleanly(capsys):
    variants = sorted((ROOT / "variants" / "nord").glob("*.yaml"))
    scenarios = ROOT / "variants" / "nord" / "scenarios"
    assert variants and scenarios.is_dir()
    rc, out, err = run(capsys, "validate", ROOT / "rulebook" / "nord", *variants, scenarios)
    assert " 0 error(s), 0 warning(s)" in out, err
    assert rc == 0, err


def test_a_settlement_cutting_off_a_land_space_is_a_warning_naming_the_spaces(tmp_path, capsys):
    """Setup 3: "each land space should be adjacent to at least one identical
    space". The settlements of the 2-player island as they stood before the
    islands were searched again cut off five spaces; a "should" warns (and
    the island plays), `--strict` refuses it."""
    v = tmp_path / "old-settlements.yaml"
    v.write_text("description: the 2-player settlements of the first reconstruction\nextends: nord\npatch:\n"
                 "  boards:\n    \"2\":\n      structures:\n"
                 + "".join(f"        {k}: {{kind: settlement, at: {s}}}\n"
                           for k, s in zip("ABCDEF", ["c3", "g3", "h7", "d6", "j4", "f10"])))
    rc, out, err = run(capsys, "validate", v)
    assert rc == 0 and "0 error(s), 1 warning(s)" in out, err
    [m] = messages(err)
    assert (m["kind"], m["line"], m["col"]) == ("warning", 6, 7)       # the patched structures
    assert m["msg"] == ("the board for 2 players breaks a setup rule: a settlement cuts these land spaces off "
                        "from every space of their terrain beside them: d3, d5, d7, g7, f9")
    assert hint_of(m).startswith("the check is at ") and "islands.yaml" in hint_of(m)
    rc, out, err = run(capsys, "validate", "--strict", v)
    assert rc == 2
    game = nordlang.load(players=2, variants=[v])       # a warning: the island still plays
    assert game.state.pending is not None


def test_a_long_and_narrow_island_is_a_warning(tmp_path, capsys):
    """Setup 2: "The island should not be long and narrow": six tiles in
    one row (24 columns, 2 rows) are warned of."""
    v = tmp_path / "long.yaml"
    v.write_text("description: a long island\nextends: nord\npatch:\n  boards:\n    \"2\":\n      $replace: true\n"
                 "      description: six tiles in a row\n      open: sea\n      size: [6, 26]\n      tiles:\n"
                 + "".join(f"        - {{tile: \"{t}\", at: {c}3, turn: 0}}\n" for t, c in zip("123456", "bfjnrv"))
                 + "      structures:\n"
                 + "".join(f"        {k}: {{kind: settlement, at: {c}3}}\n" for k, c in zip("ABCDEF", "cgkosw"))
                 + "        X: {kind: dragon, at: m2}\n")
    rc, out, err = run(capsys, "validate", v)
    warnings = [(m["file"].endswith("long.yaml"), m["line"], m["col"], m["msg"])
                for m in messages(err) if m["kind"] == "warning"]
    assert (True, 6, 7, "the board for 2 players breaks a setup rule: the island is long and narrow: its land "
            "spans more than twice as many rows as columns, or columns as rows") in warnings, err   # the island's patch


def test_a_long_list_of_offenders_is_cut_short(tmp_path, capsys):
    """The first 4-player island (tile 8 turned, other settlements) cut off
    nine spaces: the message names eight and counts the rest."""
    tiles = [("1", "c4", 0), ("2", "g4", 90), ("3", "e8", 0), ("4", "c6", 90), ("5", "i4", 90), ("6", "c10", 0),
             ("7", "i8", 90), ("8", "d2", 180)]
    places = ["c4", "h4", "g9", "d7", "j7", "e11", "i11", "f2"]
    v = tmp_path / "old-island.yaml"
    v.write_text("description: the first 4-player island\nextends: nord\npatch:\n  boards:\n    \"4\":\n"
                 "      tiles:\n" + "".join(f"        - {{tile: \"{t}\", at: {a}, turn: {d}}}\n" for t, a, d in tiles)
                 + "      structures:\n"
                 + "".join(f"        {k}: {{kind: settlement, at: {s}}}\n" for k, s in zip("ABCDEFGH", places)))
    rc, out, err = run(capsys, "validate", "--players", "4", v)
    [m] = messages(err)
    assert m["msg"].endswith("beside them: g2, d4, h5, d6, d8, f9, h9, i10 and 1 more"), err


def test_a_folder_of_variants_and_scenarios_is_checked_file_by_file(capsys, tmp_path):
    """variants/ holds no rulebook: each variant and scenario in it (and in
    its scenarios/ folder) is checked as what it is."""
    # every game's variants and scenarios, each checked against the game it names (the classics' too)
    shutil.copytree(ROOT / "variants", tmp_path / "variants")
    files = sorted((tmp_path / "variants").rglob("*.yaml"))
    assert {f.relative_to(tmp_path / "variants").parts[0] for f in files} >= {"nord", *CLASSICS}
    rc, out, err = run(capsys, "validate", tmp_path / "variants")
    assert rc == 0, err
    assert f"{len(files)} file(s) checked: 0 error(s)" in out


def test_a_broken_variant_in_a_folder_is_named(tmp_path, capsys):
    (tmp_path / "good.yaml").write_text("description: more boats\nextends: nord\npatch:\n  constants:\n"
                                        "    extra_fleet: 6\n")
    (tmp_path / "bad.yaml").write_text("description: a typo\nextends: nord\npatch:\n  define:\n"
                                       "    men_left(p): 'amount(suply(p), man(p))'\n")
    rc, out, err = run(capsys, "validate", tmp_path)
    assert rc == 2 and "2 file(s) checked: 1 error(s)" in out
    assert [(m["file"].endswith("bad.yaml"), m["line"], m["msg"]) for m in messages(err)] == \
        [(True, 5, "unknown function 'suply'")], err


def test_a_constant_nothing_uses_is_a_warning_with_a_guess(tmp_path, capsys):
    """A variant that sets `extra_flet` adds a constant nothing reads: most
    likely a typo of one that exists."""
    v = tmp_path / "typo.yaml"
    v.write_text("description: more boats\nextends: nord\npatch:\n  constants:\n    extra_flet: 6\n")
    rc, out, err = run(capsys, "validate", v)
    assert rc == 0 and "1 file(s) checked: 0 error(s), 1 warning(s)" in out
    [m] = messages(err)
    assert (m["kind"], m["line"], m["col"], m["msg"]) == ("warning", 5, 5, "constant 'extra_flet' is never used")
    assert hint_of(m) == "did you mean 'extra_fleet'?"
    rc, out, err = run(capsys, "validate", "--strict", v)
    assert rc == 2


def test_validate_lists_a_files_errors_in_line_order(capsys):
    """The checks find mistakes in their own order; the report lists them as
    they stand in the file."""
    rc, out, err = run(capsys, "validate", target("scenarios/expect-indented-too-little.yaml"))
    assert rc == 2
    assert [(m["line"], m["col"]) for m in messages(err) if m["kind"] == "error"] == [(14, 12), (15, 5)]


def test_a_scenarios_moves_are_counted_from_one_in_every_message(tmp_path, capsys):
    """A scenario's schema errors, the run of `nord test` and the script run by
    `nord explain` all name its third entry of 'moves' 'move 3' (the schema
    said moves/2, the run 'move 3')."""
    import yaml
    data = yaml.safe_load((ROOT / "variants" / "nord" / "scenarios" / "simple-attack.yaml").read_text())
    data.pop("expect", None)
    path = tmp_path / "s.yaml"
    data["moves"] = ["play none", {"expect": {"legal": ["place c2,d2"]}}, 5, {"expect": {"holds": [True]}}]
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    rc, out, err = run(capsys, "validate", path)
    assert rc == 2
    msgs = [m["msg"] for m in messages(err)]
    assert msgs == ["moves/move 3: expected a move in text ('place c2,d2') or a mapping with 'expect' or a "
                    "mapping with 'run' or a mapping with 'next_turn' or a mapping with 'end_game' or a mapping with "
                    "'chance', got the number 5",
                    "moves/move 4/expect/holds/condition 1: expected text, got true"]
    data["moves"] = ["play none", {"expect": {"legal": ["place c2,d2"]}}, "place e2"]
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    rc, out, err = run(capsys, "test", path)
    assert rc == 1 and "move 3 'place e2' cannot be played" in out
    rc, out, err = run(capsys, "explain", path, "place c2")
    assert rc == 2 and "move 3 'place e2' cannot be played" in out


def test_paths_in_words_count_list_entries_from_one():
    """Each list's entries are named by the title the schema gives its items, else 'item'."""
    from nordlang.errors import describe_path
    from nordlang.rules.schema import _where, schema
    assert describe_path(("moves", 0), {1: "move"}) == "moves/move 1"
    assert describe_path((0, 4)) == "item 1/item 5"
    assert describe_path(("players", "min")) == "players/min"
    assert describe_path(()) == "the top level"
    scenario, rulebook = schema("scenario"), schema("rulebook")
    assert _where(("moves", 2, "expect", "legal", 0), scenario) == "moves/move 3/expect/legal/move 1"
    assert _where(("position", "at", "A", 1), scenario) == "position/at/A/piece 2"
    assert _where(("map", 2), scenario) == "map/row 3"
    assert _where(("flows", "f()", 2, "then", 0), rulebook) == "flows/f()/step 3/then/step 1"
    assert _where(("board_checks", 0, "check"), rulebook) == "board_checks/check 1/check"


def test_a_rulebook_folder_with_a_folder_of_no_yaml_in_it_is_checked_whole(tmp_path, capsys):
    """`nord validate .` in a game's folder that also holds pictures or an
    empty folder checks the rulebook, and reads no rulebook into those."""
    game = tmp_path / "game"
    shutil.copytree(ROOT / "rulebook" / "tictactoe", game)
    (game / "pictures").mkdir()
    (game / "pictures" / "board.svg").write_text("<svg/>")
    (game / "empty").mkdir()
    rc, out, err = run(capsys, "validate", game)
    assert rc == 0, err
    assert "1 file(s) checked: 0 error(s)" in out
    rc, out, err = run(capsys, "validate", game / "empty")       # named itself, it is still said to be empty
    assert rc == 2 and "no rulebook (.yaml) in folder" in err
