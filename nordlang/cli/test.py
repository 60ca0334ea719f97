"""`nord test PATH...`: run scenario files like a test runner."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import LoadError, NordError, Pos
from . import add_rules_options


def add(sub):
    p = sub.add_parser("test", help="run scenario files (their scripted moves and expectations)")
    p.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders of them")
    p.add_argument("-v", "--verbose", action="store_true", help="also print each scenario's description")
    add_rules_options(p, players=False, variants=False)
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
        elif p.exists():
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
    files, skipped = scenario_files(args.paths)
    passed = failed = broken = 0
    for f in files:
        try:
            sc = load_scenario(f, args.rulebook)
            rep = sc.run()
        except NordError as e:
            broken += 1
            print(f"ERROR {f}\n{_indent(e.format())}")
            continue
        if rep.passed:
            passed += 1
            print(f"PASS  {f}" + (f"  {rep.description}" if args.verbose else ""))
        else:
            failed += 1
            print(f"FAIL  {f}  {rep.description}")
            for fl in rep.failures:
                print(_indent(fl.format()))
    summary = f"{passed} passed, {failed + broken} failed"
    summary += _skipped_words(skipped)
    if not files:
        summary += ": no scenario found"
    print(summary)
    sys.stdout.flush()
    if broken:
        return 2
    return 1 if failed or not files else 0       # (a run that finds no scenario is no success)


def _indent(text):
    return "\n".join("    " + line for line in text.splitlines())
