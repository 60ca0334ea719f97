"""Inputs for fuzzing, shared by the CI's fast subset (tests/test_fuzz.py)
and the harness at scale (fuzz/): the valid texts the mutations start from
(the bundled rulebook's files, its nordlang texts, the scenarios, a replay)
and the hypothesis strategies that mutate them or make command lines.

A mutation deletes, duplicates, replaces or inserts characters and lines,
so most inputs stay close to valid text and reach deep into each loader.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = ROOT / "rulebook" / "nord"
VARIANTS = ROOT / "variants" / "nord"
SCENARIOS = VARIANTS / "scenarios"
REPLAYS = ROOT / "tests" / "replays"

# What a mutation may insert: YAML and nordlang punctuation, letters, digits,
# whitespace (tab, no-break space, line separator), non-ASCII letters and
# digits, a control character, a backslash, and a few words of the language.
ALPHABET = list("()[]{}:,'\"-=<>!*+/%.#;|&@?$^ \t\n~_abcdefmnsxyzAZ0129\\") + [
    "é", "ß", "\u00a0", "\u2028", "\x07", "²", "³", "not ", " in ", "==", "for ", "- ", "&a ", "*a", "\\x", "\\u12"]


@st.composite
def mutated(draw, texts: list[str], max_edits: int = 4) -> str:
    """One of `texts` with 1..max_edits character or line edits."""
    text = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(1, max_edits))):
        op = draw(st.sampled_from(["delete", "duplicate", "replace", "insert", "delete line", "duplicate line",
                                   "swap lines"]))
        if op.endswith("line") or op == "swap lines":
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            if op == "delete line":
                del lines[i]
            elif op == "duplicate line":
                lines.insert(i, lines[i])
            else:
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
            continue
        if not text:
            text = draw(st.sampled_from(ALPHABET))
            continue
        i = draw(st.integers(0, len(text) - 1))
        if op == "delete":
            text = text[:i] + text[i + 1:]
        elif op == "duplicate":
            n = draw(st.integers(1, 8))
            text = text[:i] + text[i:i + n] + text[i:]
        elif op == "replace":
            text = text[:i] + draw(st.sampled_from(ALPHABET)) + text[i + 1:]
        else:
            text = text[:i] + draw(st.sampled_from(ALPHABET)) + text[i:]
    return text


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


RULEBOOK_FILES = sorted(RULEBOOK.glob("*.yaml"))
RULEBOOK_TEXTS = {p.name: _read(p) for p in RULEBOOK_FILES}
VARIANT_TEXTS = {p.name: _read(p) for p in sorted(VARIANTS.glob("*.yaml"))}
SCENARIO_FILES = sorted(SCENARIOS.rglob("*.yaml"))
SCENARIO_TEXTS = [_read(p) for p in SCENARIO_FILES]
REPLAY_TEXTS = [_read(p) for p in sorted(REPLAYS.glob("*.jsonl"))]

# Every bundled game's files (the harness at scale fuzzes each game's rulebook, variants and scenarios).
GAMES = sorted(d.name for d in (ROOT / "rulebook").iterdir() if (d / f"{d.name}.yaml").is_file())
GAME_RULEBOOK_TEXTS = {(g, p.name): _read(p) for g in GAMES for p in sorted((ROOT / "rulebook" / g).glob("*.yaml"))}
GAME_VARIANT_TEXTS = [(g, _read(p)) for g in GAMES for p in sorted((ROOT / "variants" / g).glob("*.yaml"))]
GAME_SCENARIO_TEXTS = [_read(p) for g in GAMES for p in sorted((ROOT / "variants" / g).rglob("*.yaml"))
                       if "scenarios" in p.parts]


def nordlang_texts():
    """(text, mode, names in scope) of every nordlang text of the bundled rulebook: definitions,
    procedures, flow steps, setup, turn, result and board checks."""
    out = []

    def params(key):
        inner = key[key.find("(") + 1:key.rfind(")")] if "(" in key else ""
        return tuple(p.strip() for p in inner.split(",") if p.strip())

    def steps(items, scope):
        if isinstance(items, str):
            out.append((items, "effects", scope))
            return
        for step in items or []:
            if not isinstance(step, dict):
                continue
            for name, text in (step.get("let") or {}).items():
                out.append((text, "expr", scope))
                scope = scope + (name,)
            for key in ("if", "while", "from"):
                if isinstance(step.get(key), str):
                    out.append((step[key], "expr", scope))
            inner = scope
            if isinstance(step.get("for"), str):
                target, _, it = step["for"].partition(" in ")
                out.append((it, "expr", scope))
                inner = scope + tuple(t.strip() for t in target.strip("() ").split(","))
            if "choose" in step:
                inner = scope + (step["choose"],)
            for opt in (step.get("options") or {}).values():
                if "when" in opt:
                    out.append((opt["when"], "expr", scope))
                steps(opt.get("do", []), inner)
            if "do" in step:
                steps(step["do"], inner)
            for key in ("then", "else", "otherwise"):
                if key in step:
                    steps(step[key], scope)
            if "choose" in step:
                scope = inner

    for text in RULEBOOK_TEXTS.values():
        data = yaml.safe_load(text) or {}
        for section, mode in (("define", "expr"), ("procedures", "effects")):
            for key, body in (data.get(section) or {}).items():
                out.append((body, mode, params(key)))
        for key, body in (data.get("flows") or {}).items():
            steps(body, params(key))
        for part in ("setup", "turn"):
            if part in data:
                steps(data[part], ())
        for chk in data.get("board_checks") or []:
            out.append((chk.get("check") or chk["offenders"], "expr", ()))
        for rank in (data.get("result") or {}).get("rank", []):
            out.append((rank, "expr", ("p",)))
    return out


NORDLANG = nordlang_texts()


@st.composite
def mutated_nordlang(draw):
    """(mutated text, mode, names in scope) of one of the rulebook's nordlang texts."""
    text, mode, params = draw(st.sampled_from(NORDLANG))
    return draw(mutated([text])), draw(st.sampled_from([mode, "expr", "effects"])), params


@st.composite
def mutated_rulebook_file(draw):
    """(file name, mutated text) of one file of the bundled rulebook."""
    name = draw(st.sampled_from(sorted(RULEBOOK_TEXTS)))
    return name, draw(mutated([RULEBOOK_TEXTS[name]]))


# Numbers of every size and shape a command line may hold.
NUMBERS = st.one_of(st.integers(-3, 5), st.integers(-2**70, 2**70), st.sampled_from(
    ["99999999999999999999", "-0", "1e3", "1.5", "0x10", "", " 2", "٣", "²", "nan", "inf", "2_000", "+4"]))
SMALL = st.one_of(st.integers(-2, 3), st.sampled_from(["x", "", "1.0", "-0", "²"]))
HUGE = "99999999999999999999"


def number_text(n) -> str:
    return str(n)


@st.composite
def command_line(draw, files: list[str]):
    """An argv for `nord`: a subcommand, its options with numbers of all
    sizes, and paths among `files` (generated files, folders, paths that do
    not exist). Counts that set the amount of work (games to play) stay
    small: a huge one is a long run asked for, not a defect."""
    path = st.sampled_from(files)
    num = NUMBERS.map(number_text)
    small = SMALL.map(number_text)
    cmd = draw(st.sampled_from(["play", "replay", "validate", "test", "explain", "render", "simulate", "compare",
                                "variants", "schema", "doc", "--version", "help", ""]))
    argv = [cmd] if cmd else []
    options = {
        "play": [("--players", num), ("--seed", num), ("--agents", st.sampled_from(["random", "greedy", "x", "",
                                                                                   "random,random,random"])),
                 ("--variant", path), ("--rulebook", path), ("--quiet", None), ("--log", path)],
        "replay": [("FILE", path), ("--rulebook", path)],
        "validate": [("PATH", path), ("PATH", path), ("--players", num), ("--strict", None),
                     ("--simulate", small), ("--turn-cap", num)],
        "test": [("PATH", path), ("PATH", path), ("-v", None)],
        "explain": [("SCENARIO", path), ("MOVE", st.text(max_size=12))],
        "render": [("FILE", path), ("-o", st.sampled_from(["out.svg", "out.png", "out.txt", "nodir/out.svg", ".",
                                                          "out"])), ("--turn", num), ("--moves", num),
                   ("--rulebook", path)],
        "simulate": [("-n", small), ("--players", num), ("--seed", num), ("--variant", path),
                     ("--max-decisions", num), ("--out", path), ("--fixed-seats", None), ("--no-progress", None),
                     ("--trigger-note", st.sampled_from(["scoring", "", "x"]))],
        # (compare's huge -n, which crashed once, streams now: a long run asked for, pinned in test_sim_streaming)
        "compare": [("-n", small), ("--players", num), ("--variant-b", path),
                    ("--players-a", num),
                    ("--a", st.sampled_from(["short-game", "", ",", "x"]))],
        "schema": [("WHICH", st.sampled_from(["rulebook", "scenario", "x"]))],
    }.get(cmd, [])
    for name, value in draw(st.lists(st.sampled_from(options), max_size=5)) if options else []:
        if value is None:
            argv.append(name)
        elif name.isupper():
            argv.append(draw(value))
        else:
            argv += [name, draw(value)]
    if cmd in ("simulate", "compare"):
        argv += ["--jobs", "1"]             # one process: no cluster is started by the fuzzing
        if "-n" not in argv:
            argv += ["-n", "2"]             # (their default is a long run: 100 or 200 games)
    if draw(st.integers(0, 9)) == 0:
        argv.append(draw(st.sampled_from(["--bogus", "-", "--", "-h"])))
    return argv


def game_positions():
    """Games at a few positions of one random 3-player game of Nord, with
    their legal moves as text (the last: the game over, or its own moves)."""
    import random

    import nordlang
    game = nordlang.load(players=3, seed=5)
    rng = random.Random(5)
    out = []
    while not game.over and len(out) < 12:
        moves = game.legal_moves()
        if rng.random() < 0.3 or not out:
            out.append((game.clone(), [str(m) for m in moves]))
        game.play(rng.choice(moves))
    out.append((game.clone(), ["play none"] if game.over else [str(m) for m in game.legal_moves()]))
    return out
