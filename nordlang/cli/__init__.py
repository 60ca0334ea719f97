"""The `nord` command: argument parsing and printing only.

Each subcommand lives in its own module with `add(subparsers)`; every
NordError becomes one clear message and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import NordError, UsageError

COMMANDS = ["play", "replay", "validate", "test", "explain", "render", "simulate", "compare", "info"]
# each is a module of this package with add(subparsers); a missing one is skipped


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors: one line, exit 2
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="nord", description="Play, test, simulate and draw board games written as data.")
    from .. import __version__
    parser.add_argument("--version", action="version", version=f"nordlang {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    import importlib
    for name in COMMANDS:
        try:
            mod = importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as e:  # pragma: no cover - a command not built yet
            if e.name and e.name.endswith(f"cli.{name}"):
                continue
            raise
        mod.add(sub)
    return parser


def add_rules_options(p, players=True):
    """The options every command that takes a rulebook has."""
    p.add_argument("--rulebook", metavar="PATH", help="a rulebook file or folder (default: the bundled Nord)")
    p.add_argument("--variant", metavar="V", action="append", default=[],
                   help="a variant overlay (bundled name or file); repeat to stack, applied in order")
    if players:
        p.add_argument("--players", type=int, metavar="N", help="number of players (default: the rulebook's)")


def positive_int(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"{text} must not be negative")
    return v


def at_least_one(text):
    """A count that must be 1 or more (0 would silently mean 'the default' or 'all')."""
    v = positive_int(text)
    if v < 1:
        raise argparse.ArgumentTypeError(f"{text} must be at least 1")
    return v


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args) or 0
    except NordError as e:
        print(e.format(), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # pragma: no cover - e.g. `nord play | head`
        return 0


__all__ = ["main", "add_rules_options", "positive_int", "at_least_one", "UsageError"]
