"""Mutation check of scenario files: does every expectation bind?

For each scenario, every number and every piece named under an `expect`
(the final one and those between moves) is changed, one at a time: a
number +1 (points, points_from, a piece's count `*N`, a value, a cell's
row or column), a piece replaced by another of its kind (the next tag) or
removed; a legal move becomes illegal and the other way round, an option
or a winner is left out, a condition is negated, a flag flipped. Each
changed scenario must then fail. A change that passes is a *survivor*: an
expectation the scenario states but does not check.

Expectations never change the game, so each scenario's moves are played
once and every mutant of an expectation is checked against the position
where the expectation stands (exactly what a rerun of the changed file
would see); `--reload` writes each mutant to a file and runs it from
scratch instead, the slow and literal way.

    python tests/mutate_scenarios.py variants/vikings/scenarios [--reload] [-v]
"""

from __future__ import annotations

import copy
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from nordlang.errors import NordError  # noqa: E402
from nordlang.scenario import Report, load_scenario  # noqa: E402

_NUMBER = re.compile(r"\d+")


# ---------------------------------------------------------------- the mutants of one expectation

def _bump_numbers(text: str) -> list[str]:
    """The text with each of its numbers +1, one at a time."""
    return [text[:m.start()] + str(int(m.group()) + 1) + text[m.end():] for m in _NUMBER.finditer(text)]


def _piece_variants(rules, text: str) -> list[str]:
    """A piece's text changed: its count +1, or its tag replaced by the next of its kind."""
    name, star, count = str(text).partition("*")
    out = [f"{name}*{int(count) + 1}"] if star else []
    kind, colon, tag = name.partition(":")
    tags = [str(t) for t in (rules.pieces.get(kind, {}).get("tags") or [])]
    if colon and tag in tags and len(tags) > 1:
        other = tags[(tags.index(tag) + 1) % len(tags)]
        out.append(f"{kind}:{other}" + (f"*{count}" if star else ""))
    return out


def _items_variants(rules, spec) -> list:
    """A location's pieces (a text or a list) with one piece removed or changed."""
    parts = [spec] if isinstance(spec, str) else list(spec or [])
    out = []
    for i, text in enumerate(parts):
        if str(text).strip() in ("", "-"):
            continue
        out.append(parts[:i] + parts[i + 1:])
        out.extend(parts[:i] + [v] + parts[i + 1:] for v in _piece_variants(rules, text))
    return out


def _value_variants(value) -> list:
    """A value of 'values' changed: a number +1, a flag flipped, a list's element left out or changed."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, (int, float)):
        return [value + 1]
    if isinstance(value, str):
        return _bump_numbers(value)
    if isinstance(value, list):
        out = [value[:i] + value[i + 1:] for i in range(len(value))]
        out += [value[:i] + [v] + value[i + 1:] for i, x in enumerate(value) for v in _value_variants(x)]
        return out
    return []


def _grid_variants(rules, spec: dict) -> list:
    """A whole grid's cells: a cell moved one row or column on, or its pieces changed."""
    out = []
    for cell, items in spec.items():
        for moved in _bump_numbers(cell):
            if moved not in spec:
                out.append({(moved if k == cell else k): v for k, v in spec.items()})
        out.extend({**spec, cell: v} for v in _items_variants(rules, items))
    return out


def expect_mutants(rules, exp: dict) -> list[tuple[str, dict]]:
    """(what changed, the changed expectation) for each mutation of `exp`."""
    out = []

    def put(label, key, value):
        m = copy.deepcopy(exp)
        m[key] = value
        out.append((label, m))
    colors = list(rules.colors[:rules.num_players])
    for c, n in (exp.get("points") or {}).items():
        put(f"points {c} {n}+1", "points", {**exp["points"], c: n + 1})
    for c, by in (exp.get("points_from") or {}).items():
        for src, n in by.items():
            put(f"points_from {c} {src} {n}+1", "points_from", {**exp["points_from"], c: {**by, src: n + 1}})
    at = exp.get("at") or {}
    for loc, spec in at.items():
        for moved in _bump_numbers(loc):
            if moved not in at:
                put(f"at {loc} -> {moved}", "at", {(moved if k == loc else k): v for k, v in at.items()})
        variants = _grid_variants(rules, spec) if isinstance(spec, dict) else _items_variants(rules, spec)
        for v in variants:
            put(f"at {loc}: {v}", "at", {**at, loc: v})
    for kind, other in (("legal", "illegal"), ("illegal", "legal")):
        for i, move in enumerate(exp.get(kind) or []):
            m = copy.deepcopy(exp)
            m[kind] = m[kind][:i] + m[kind][i + 1:]
            m[other] = list(m.get(other) or []) + [move]
            out.append((f"{move!r} {kind} -> {other}", m))
    for name, opts in (exp.get("options") or {}).items():
        for i, o in enumerate(opts):
            put(f"options {name} without {o}", "options", {**exp["options"], name: opts[:i] + opts[i + 1:]})
    if "choice" in exp:
        put(f"choice {exp['choice']} -> changed", "choice", None if exp["choice"] is not None else "buy")
    if "player" in exp:
        p = exp["player"]
        put(f"player {p} -> next", "player", colors[(colors.index(p) + 1) % len(colors)] if p in colors else colors[0])
    for flag in ("over", "draw"):
        if flag in exp:
            put(f"{flag} flipped", flag, not exp[flag])
    if "winner" in exp:
        won = exp["winner"]
        for i, w in enumerate(won):
            put(f"winner without {w}", "winner", won[:i] + won[i + 1:])
        for c in colors:
            if c not in won:
                put(f"winner with {c}", "winner", won + [c])
    for i, h in enumerate(exp.get("holds") or []):
        put(f"holds {h!r} negated", "holds", exp["holds"][:i] + [f"not ({h})"] + exp["holds"][i + 1:])
    for text, want in (exp.get("values") or {}).items():
        for v in _value_variants(want):
            put(f"values {text} = {v!r}", "values", {**exp["values"], text: v})
    return out


# ---------------------------------------------------------------- running

def _expectations(data) -> list[tuple[int | None, tuple, dict]]:
    """(index of the step in 'moves' or None for the final, path, expectation)."""
    out = [(i, ("moves", i, "expect"), step["expect"]) for i, step in enumerate(data.get("moves") or [])
           if isinstance(step, dict)]
    if "expect" in data:
        out.append((None, ("expect",), data["expect"]))
    return out


def _fails(sc, exp, path) -> bool:
    rep = Report(sc.path, "")
    try:
        sc.check(exp, path, rep)
    except NordError:
        return True            # (a mutant the file could not even hold, like a cell off the grid)
    return not rep.passed


def check_file(path, reload: bool = False) -> tuple[int, list[str]]:
    """(how many mutants, the survivors' descriptions) of one scenario file,
    which must pass as written."""
    sc = load_scenario(path)
    if reload:
        rep = sc.run()
        if not rep.passed:
            raise AssertionError(f"{path} fails as written:\n" + "\n".join(f.format() for f in rep.failures))
        return _check_by_reloading(path, sc)
    total, survivors = 0, []
    moves = sc.data.get("moves") or []
    played = 0
    for index, where, exp in _expectations(sc.data):
        upto = len(moves) if index is None else index
        err = _play(sc, played, upto)
        if err:
            raise AssertionError(err)
        played = upto
        rep = Report(sc.path, "")
        sc.check(exp, where, rep)
        if not rep.passed:
            raise AssertionError(f"{path} fails as written:\n" + "\n".join(f.format() for f in rep.failures))
        for label, mutant in expect_mutants(sc.rules, exp):
            total += 1
            if not _fails(sc, mutant, where):
                survivors.append(f"{path}: {'/'.join(map(str, where))}: {label}")
    return total, survivors


def _play(sc, start: int, end: int) -> str | None:
    """Play the scripted steps of entries start..end-1 of 'moves' (moves, flows run, next_turn)."""
    for i, step in enumerate((sc.data.get("moves") or [])[start:end], start):
        failure = sc.act(i, step)
        if failure is not None:
            return f"{sc.path}: {failure.what}: {failure.message}"
    return None


def _check_by_reloading(path, sc) -> tuple[int, list[str]]:
    """Each mutant written to a file beside the original and run from scratch."""
    import yaml
    total, survivors = 0, []
    path = Path(path)
    for index, where, exp in _expectations(sc.data):
        for label, mutant in expect_mutants(sc.rules, exp):
            total += 1
            data = copy.deepcopy(sc.data)
            if index is None:
                data["expect"] = mutant
            else:
                data["moves"][index] = {"expect": mutant}
            with tempfile.NamedTemporaryFile("w", suffix=".yaml", dir=path.parent, delete=False) as f:
                yaml.safe_dump(data, f, sort_keys=False, allow_unicode=True)
            tmp = Path(f.name)
            try:
                failed = not load_scenario(tmp).run().passed
            except NordError:
                failed = True
            finally:
                tmp.unlink()
            if not failed:
                survivors.append(f"{path}: {'/'.join(map(str, where))}: {label}")
    return total, survivors


def scenario_files(paths) -> list[Path]:
    out = []
    for p in map(Path, paths):
        out.extend(sorted(p.glob("*.yaml")) if p.is_dir() else [p])
    return out


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    reload = "--reload" in args
    verbose = "-v" in args
    paths = [a for a in args if not a.startswith("-")] or [str(ROOT / "variants" / "vikings" / "scenarios")]
    grand, lost = 0, []
    for f in scenario_files(paths):
        try:
            n, survivors = check_file(f, reload=reload)
        except AssertionError as e:       # (the scenario fails as written)
            print(e)
            return 2
        grand += n
        lost += survivors
        if verbose:
            print(f"{f}: {n} mutants, {len(survivors)} survived")
    for s in lost:
        print("SURVIVED", s)
    print(f"{grand} mutants, {grand - len(lost)} killed, {len(lost)} survived")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
