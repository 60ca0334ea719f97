"""The `nord` command: argument parsing and printing only.

Each subcommand lives in its own module with `add(subparsers)`; every
NordError becomes one clear message and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..errors import NordError, UsageError

COMMANDS = ["play", "replay", "validate", "test", "explain", "render", "simulate", "compare", "info", "serve",
            "completion"]
# each is a module of this package with add(subparsers); a missing one is skipped
MODULE_OF = {**{name: name for name in COMMANDS if name != "info"},
             **dict.fromkeys(["games", "variants", "schema", "doc"], "info")}
# each command word, and the module that adds it (tests/test_cli.py checks the two agree)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors: one line, exit 2
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)

    def _print_message(self, message, file=None):  # argparse drops a failed write (--help > /dev/full)
        if message:
            (file or sys.stderr).write(message)


def build_parser(argv=None) -> argparse.ArgumentParser:
    """The whole parser; given a command line that names a command, only
    that command's (argparse reads no other then): each command's module
    and its imports are loaded only when it runs."""
    parser = _Parser(prog="nord", description="Play, test, simulate and draw board games written as data.")
    from .. import __version__
    parser.add_argument("--version", action="version", version=f"nordlang {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    import importlib
    wanted = _command_named(argv)
    for name in COMMANDS:
        if wanted is not None and name != wanted:
            continue
        try:
            mod = importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as e:  # pragma: no cover - a command not built yet
            if e.name and e.name.endswith(f"cli.{name}"):
                continue
            raise
        mod.add(sub)
    return parser


def _command_named(argv) -> str | None:
    """The module of the command a command line names (its first word, when it is one), or None."""
    if argv is None:
        return None
    first = next((a for a in argv if not a.startswith("-")), None)
    if first is None or argv.index(first) > 0:
        return None
    return MODULE_OF.get(first)


def add_rules_options(p, players=True, variants=True, variant_default=(), variant_help=None, params=False):
    """--game NAME or --rulebook PATH (one of them; both land in args.rulebook:
    a name as text, a path as a Path, as nordlang.load_rules takes them),
    --variant V (repeatable), --players N and (`params`) --param NAME=VALUE:
    the same for every command."""
    which = p.add_mutually_exclusive_group()
    which.add_argument("--game", dest="rulebook", metavar="NAME", type=_game_name,
                       help="a bundled game by name (see nord games; default: nord)").completer = complete_games
    which.add_argument("--rulebook", dest="rulebook", metavar="PATH", type=Path,
                       help="a rulebook file or folder (instead of --game)")
    if variants:
        p.add_argument("--variant", metavar="V", action="append",
                       default=list(variant_default) if variant_default is not None else None,
                       help=variant_help or "a variant of the game: its bundled name or a file; repeat to stack, "
                                            "applied in order").completer = complete_variants
    if players:
        p.add_argument("--players", type=int, metavar="N", help="number of players (default: the rulebook's)")
    if params:
        p.add_argument("--param", dest="params", metavar="NAME=VALUE", action="append", type=_param, default=[],
                       help="a parameter of the game: one of its constants set (cards=4); repeatable")


def add_json_option(p, lines: bool = False) -> None:
    """--json (json_output.py prints the documents; it is imported only when one is printed)."""
    p.add_argument("--json", action="store_true",
                   help="print JSON lines instead of text (see docs/json-output.md)" if lines else
                   "print one JSON document instead of text (see docs/json-output.md)")


def complete_games(**kwargs):
    """argcomplete's completer of --game (completion.py, imported only when the shell asks)."""
    from .completion import games
    return games(**kwargs)


def complete_variants(**kwargs):
    """argcomplete's completer of --variant: the variants of the game named before it."""
    from .completion import variants
    return variants(**kwargs)


def _param(text):
    name, eq, value = text.partition("=")
    if not eq or not name.strip() or not value.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: a parameter is NAME=VALUE, like cards=4")
    return name.strip(), _param_value(value.strip())


def _param_value(text):
    """A parameter's value as the rulebook would write it: a whole number, a number, true/false, or text."""
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def params_of(args) -> dict:
    """--param's pairs as the mapping load_rules takes (a name given twice: the last value)."""
    return dict(getattr(args, "params", None) or [])


def _game_name(text):
    from ..rules.games import is_name
    if not is_name(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a game's name (a rulebook file is --rulebook PATH)")
    return text


def rulebook_text(rulebook):
    """args.rulebook as text that load_rules reads the same way: a game's
    name as it is, a path as a path (a bare folder name gets './', so it is
    not taken for a game's name)."""
    if not isinstance(rulebook, Path):
        return rulebook
    from ..rules.games import is_name
    return os.path.join(".", str(rulebook)) if is_name(str(rulebook)) else str(rulebook)


def rulebook_path_text(rulebook):
    """What a replay's header records as the rulebook's path: the path given
    with --rulebook, or None (a game by name is recorded as its name)."""
    return str(rulebook) if isinstance(rulebook, Path) else None


def seat_number(rules, text: str, option: str) -> int:
    """A player named on the command line, by colour (red) or by seat number
    counted from 1, as a player's number (0 for the first); a clear error
    naming the seats otherwise."""
    word = text.strip()
    colors = [rules.color(p) for p in rules.player_range]
    lowered = [c.lower() for c in colors]
    if word.lower() in lowered:
        return lowered.index(word.lower())
    if word.isascii() and word.isdigit() and 1 <= int(word) <= rules.num_players:
        return int(word) - 1
    seats = ", ".join(f"{c} ({i})" for i, c in enumerate(colors, 1))
    from difflib import get_close_matches
    near = get_close_matches(word.lower(), lowered, 1)
    raise UsageError(f"{option} {text!r}: no such seat; the seats of {rules.name} with {rules.num_players} players "
                     f"are {seats}, by colour or by number from 1"
                     + (f"; did you mean {colors[lowered.index(near[0])]}?" if near else ""))


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
    if argv is None and "_ARGCOMPLETE" in os.environ:      # the shell asks for completions (nord completion)
        from .completion import complete
        complete()
    args = None
    try:
        if argv is None:
            argv = sys.argv[1:]
        parser = build_parser(argv)
        try:
            args = parser.parse_args(argv)
        except SystemExit:                 # --help, --version (written) or a usage error (exit 2)
            sys.stdout.flush()
            raise
        status = args.func(args) or 0
        sys.stdout.flush()                 # now, not at exit, where a failure could only be a traceback
        return status
    except NordError as e:
        if getattr(args, "json", False):        # (--json: the error as a document, on standard output)
            from .json_output import emit_failure
            emit_failure(args.command, e)
        else:
            print(e.format(), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `nord play | head`: the reader has all it wants
        _drop_stdout()
        return 0
    except OSError as e:     # the output cannot be written (a full disk, /dev/full, an I/O error), or a file read
        _drop_stdout()
        what = f"{e.filename}: {e.strerror or e}" if e.filename else \
            f"cannot write to standard output: {e.strerror or e}"
        try:
            print(f"nord: error: {what}", file=sys.stderr)
        except OSError:
            pass
        return 2


def _drop_stdout() -> None:
    """Point standard output at /dev/null, so that what is still in its buffer
    is thrown away at exit instead of failing a second time there."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (a test's capture): nothing is flushed at exit
        pass


__all__ = ["main", "add_rules_options", "rulebook_text", "rulebook_path_text", "positive_int", "at_least_one",
           "UsageError"]
