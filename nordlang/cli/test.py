"""`nord test PATH...`: run scenario files like a test runner."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import LoadError, NordError, Pos
from . import add_json_option, add_rules_options


def add(sub):
    p = sub.add_parser("test", help="run scenario files (their scripted moves and expectations)")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="scenario files (FILE::BRANCH: one branch of a file) or folders of them")
    p.add_argument("-v", "--verbose", action="store_true", help="also print each scenario's description")
    add_rules_options(p, players=False, variants=False)
    add_json_option(p, lines=True)
    p.set_defaults(func=run)


def scenario_files(paths) -> tuple[list[Path], dict]:
    """The scenario files named or found in folders, and how many files of
    a folder were skipped, by kind: variants, and rulebook files (a
    rulebook's main file and every file it includes). A folder like
    variants/ holds both; a file named on its own is always run."""
    out, skipped = [], {"variant": 0, "rulebook": 0}
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            files = sorted(x for x in p.rglob("*.yaml") if x.is_file())
            kinds = {x: _kind(x) for x in files}
            parts = {inc for x, (kind, _) in kinds.items() if kind == "rulebook" for inc in _included(x, kinds[x][1])}
            for x in files:
                kind = kinds[x][0]
                if kind == "variant":
                    skipped["variant"] += 1
                elif kind == "rulebook" or x.resolve() in parts:
                    skipped["rulebook"] += 1
                else:
                    out.append(x)
        elif p.exists() or split_branch(p)[0].is_file():
            out.append(p)
        else:
            raise LoadError(f"no such file or folder: {raw}", Pos(raw))
    return out, skipped


def _kind(path) -> tuple[str, object]:
    """(kind, data) of a YAML file; ('unknown', None) when it cannot be read (reported when it is run)."""
    from ..rules.loader import file_kind
    from ..rules.yamlpos import load_yaml
    try:
        data = load_yaml(path)[0]
    except NordError:
        return "unknown", None
    return file_kind(data), data


def _included(rulebook: Path, data) -> set:
    """The resolved paths of the files a rulebook file includes."""
    includes = data.get("include") if isinstance(data, dict) else None
    if not isinstance(includes, list):
        return set()
    return {(rulebook.parent / inc).resolve() for inc in includes if isinstance(inc, str)}


def _skipped_words(skipped: dict) -> str:
    words = []
    if skipped["variant"]:
        words.append(f"{skipped['variant']} variant(s)")
    if skipped["rulebook"]:
        words.append(f"{skipped['rulebook']} rulebook file(s)")
    return f" ({' and '.join(words)} in the folders skipped)" if words else ""


def run(args):
    from ..scenario import load_scenario
    from .json_output import emit, problems, result_line
    files, skipped = scenario_files(args.paths)
    passed = failed = broken = 0
    for f in files:
        f, only = split_branch(f)
        try:
            sc = load_scenario(f, args.rulebook)
            runs = scenario_runs(sc, only)
        except NordError as e:
            broken += 1
            name = f"{f}" + (f"::{only}" if only else "")
            if args.json:
                emit({"scenario": name, "result": "error", "errors": problems(e)})
            else:
                print(error_text(name, e))
            continue
        for one in runs:
            try:
                rep = one.run()
            except NordError as e:
                broken += 1
                if args.json:
                    emit({"scenario": one.name, "result": "error", "errors": problems(e)})
                else:
                    print(error_text(one.name, e))
                continue
            passed += rep.passed
            failed += not rep.passed
            if args.json:
                emit(result_line(one.name, rep))
                sys.stdout.flush()          # (a line as soon as its scenario has run)
            else:
                print(result_text(one.name, rep, args.verbose))
    status = 2 if broken else 1 if failed or not files else 0   # (a run that finds no scenario is no success)
    if args.json:
        emit({"command": "test", "ok": status == 0, "passed": passed, "failed": failed + broken,
              "skipped": {"variants": skipped["variant"], "rulebook_files": skipped["rulebook"]},
              "errors": []})
        return status
    summary = f"{passed} passed, {failed + broken} failed"
    summary += _skipped_words(skipped)
    if not files:
        summary += ": no scenario found"
    print(summary)
    sys.stdout.flush()
    return status


def split_branch(path) -> tuple[Path, str | None]:
    """FILE::NAME (one branch of a file, as results name it) -> (FILE, NAME)."""
    text = str(path)
    if "::" in text and not Path(text).exists():
        file, name = text.rsplit("::", 1)
        return Path(file), name
    return Path(text), None


def scenario_runs(sc, only: str | None = None) -> list:
    """The tests of a loaded scenario file: one per branch (or the branch
    `only`), else the file's script; each on its own copy of the position."""
    if only is not None:
        return [sc.for_branch(only)]
    return [sc.for_branch(name) for name in sc.branches] or [sc]


def result_text(name: str, rep, verbose: bool = False) -> str:
    """A scenario's result as `nord test` prints it (a failure with each of its failures)."""
    if rep.passed:
        return f"PASS  {name}" + (f"  {rep.description}" if verbose else "")
    return "\n".join([f"FAIL  {name}  {rep.description}", *(_indent(fl.format()) for fl in rep.failures)])


def error_text(name: str, error: NordError) -> str:
    """A scenario that cannot run (it does not load, or a check cannot be made), as `nord test` prints it."""
    return f"ERROR {name}\n{_indent(error.format())}"


def _indent(text):
    return "\n".join("    " + line for line in text.splitlines())
