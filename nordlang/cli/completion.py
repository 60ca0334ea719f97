"""`nord completion SHELL`: shell completion for bash, zsh and fish, by argcomplete.

The script this prints runs `nord` again at each Tab with _ARGCOMPLETE set;
`main` then calls `complete` before anything else: it builds the whole parser
(every command) and lets argcomplete answer. So the normal path stays as
light as it was: without _ARGCOMPLETE nothing here is imported. Options
complete from the parser; --game from the bundled games, --variant from the
variants of the game named before it on the line (nord's by default).
"""

from __future__ import annotations

SHELLS = ("bash", "zsh", "fish")
EXTRA = "pip install 'nordlang[completion]'"

INSTALL = """\
install (then open a new shell):
  bash: nord completion bash > ~/.local/share/bash-completion/completions/nord
  zsh:  nord completion zsh > ~/.zfunc/_nord   (with fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc)
  fish: nord completion fish > ~/.config/fish/completions/nord.fish
or for this shell only: eval "$(nord completion bash)" (zsh: the same with zsh)
"""


def add(sub):
    import argparse
    p = sub.add_parser("completion", help="print the shell completion script for bash, zsh or fish",
                       description="Print the script that completes nord's commands, options, bundled games "
                                   "and their variants in SHELL (needs the 'completion' extra: " + EXTRA + ").",
                       epilog=INSTALL, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    p.set_defaults(func=run)


def run(args):
    argcomplete = _argcomplete()
    print(argcomplete.shellcode(["nord"], shell=args.shell), end="")
    return 0


def _argcomplete():
    try:
        import argcomplete
    except ModuleNotFoundError:
        from ..errors import UsageError
        raise UsageError("shell completion needs the argcomplete package", hint=f"install it: {EXTRA}") from None
    return argcomplete


def complete(output_stream=None, exit_method=None) -> None:
    """Answer the shell's completion request (in the environment) and exit
    (`exit_method`, by default os._exit); without argcomplete, answer nothing."""
    import os
    try:
        import argcomplete
    except ModuleNotFoundError:
        (exit_method or os._exit)(1)
        return
    from . import build_parser
    kwargs = {"exit_method": exit_method} if exit_method is not None else {}
    argcomplete.autocomplete(build_parser(), output_stream=output_stream, **kwargs)


def games(**_) -> list:
    """The names --game takes: the bundled games."""
    from ..rules.games import bundled_games
    return list(bundled_games())


def variants(prefix="", parsed_args=None, **_) -> list:
    """The bundled variants of the game named on the line (--game or --rulebook; nord's when none);
    a path being typed (with a / or a leading .) completes as a path to a variant file."""
    if "/" in prefix or prefix.startswith("."):
        from argcomplete.completers import FilesCompleter
        return list(FilesCompleter(allowednames=("yaml", "yml"))(prefix))
    from ..errors import NordError
    from ..rules.games import rulebook_file, variants_folder
    try:
        folder = variants_folder(rulebook_file(getattr(parsed_args, "rulebook", None)))
    except (NordError, OSError):
        return []
    return sorted(f.stem for f in folder.glob("*.yaml")) if folder is not None else []
