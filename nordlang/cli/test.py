"""`nord test PATH...`: run scenario files like a test runner."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import LoadError, NordError, Pos


def add(sub):
    p = sub.add_parser("test", help="run scenario files (their scripted moves and expectations)")
    p.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders of them")
    p.add_argument("-v", "--verbose", action="store_true", help="also print each scenario's description")
    p.set_defaults(func=run)


def scenario_files(paths) -> list[Path]:
    out = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out.extend(sorted(x for x in p.rglob("*.yaml") if x.is_file()))
        elif p.exists():
            out.append(p)
        else:
            raise LoadError(f"no such file or folder: {raw}", Pos(raw))
    return out


def run(args):
    from ..scenario import load_scenario
    files = scenario_files(args.paths)
    passed = failed = broken = 0
    for f in files:
        try:
            sc = load_scenario(f)
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
    print(summary)
    sys.stdout.flush()
    if broken:
        return 2
    return 1 if failed else 0


def _indent(text):
    return "\n".join("    " + line for line in text.splitlines())
