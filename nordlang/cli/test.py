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


def scenario_files(paths) -> tuple[list[Path], int]:
    """The scenario files named or found in folders, and how many files of
    a folder were skipped as variants or rulebooks (a folder like variants/
    holds both; a file named on its own is always run)."""
    out, skipped = [], 0
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            for x in sorted(x for x in p.rglob("*.yaml") if x.is_file()):
                if _kind(x) in ("variant", "rulebook"):
                    skipped += 1
                else:
                    out.append(x)
        elif p.exists():
            out.append(p)
        else:
            raise LoadError(f"no such file or folder: {raw}", Pos(raw))
    return out, skipped


def _kind(path) -> str:
    from ..rules.loader import kind_of_file
    try:
        return kind_of_file(path)
    except NordError:
        return "unknown"            # (reported when it is run)


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
    if skipped:
        summary += f" ({skipped} variant or rulebook file(s) in the folders skipped)"
    if not files:
        summary += ": no scenario found"
    print(summary)
    sys.stdout.flush()
    if broken:
        return 2
    return 1 if failed or not files else 0       # (a run that finds no scenario is no success)


def _indent(text):
    return "\n".join("    " + line for line in text.splitlines())
