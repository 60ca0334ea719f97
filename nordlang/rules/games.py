"""Games by name: the bundled games and where a rulebook's parts are.

A bundled game is a folder rulebook/<name>/ whose main file is <name>.yaml;
its variants are variants/<name>/*.yaml and its scenarios
variants/<name>/scenarios/. A text that is a bare name (no folder
separator, no .yaml) names a game; anything else, and any Path, is a path.
"""

from __future__ import annotations

import re
from os import PathLike
from pathlib import Path

from ..errors import LoadError, Pos, did_you_mean

DEFAULT_GAME = "nord"         # what every command plays when no game is named


def bundled_games() -> dict[str, Path]:
    """{name: main file} of the bundled games, by name."""
    from .. import bundled
    folder = bundled("rulebook")
    if not folder.is_dir():
        return {}
    return {d.name: d / f"{d.name}.yaml" for d in sorted(folder.iterdir()) if (d / f"{d.name}.yaml").is_file()}


_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


def is_name(text) -> bool:
    """A bare name (a game or a bundled variant), not a path: letters,
    digits, '-' and '_' only (no folder separator, no dot, no .yaml)."""
    return isinstance(text, str) and _NAME.fullmatch(text) is not None


def unknown_game(name: str, pos: Pos | None = None, source_line=None) -> LoadError:
    """One line: the name, a did-you-mean and the bundled games."""
    games = sorted(bundled_games())
    guess = did_you_mean(name, games)
    return LoadError(f"unknown game {name!r}" + (f": {guess} " if guess else " ")
                     + f"(bundled games: {', '.join(games) or 'none'})", pos, source_line=source_line)


def game_file(name: str) -> Path:
    """The main file of the bundled game `name`."""
    found = bundled_games().get(name)
    if found is None:
        raise unknown_game(name)
    return found


def rulebook_file(rulebook=None) -> Path:
    """A rulebook argument as its main file: None (the default game), a game
    name, or a path to a rulebook file or folder."""
    if rulebook is None:
        return game_file(DEFAULT_GAME)
    if not isinstance(rulebook, PathLike) and is_name(rulebook):
        return game_file(rulebook)
    path = Path(rulebook)
    if path.is_dir():
        path = folder_main(path)
    if not path.exists():
        raise LoadError(f"no such rulebook: {path}", Pos(str(path)))
    return path


def folder_main(path: Path) -> Path:
    """The main file of a rulebook folder: <folder>/<folder>.yaml, else the
    one rulebook among its files that no other includes (variants and
    scenarios beside it are not candidates)."""
    own = path / f"{path.name}.yaml"
    if own.is_file():
        return own
    files = sorted(f for f in path.glob("*.yaml") if f.is_file())
    kinds = {f: _kind(f) for f in files}
    mains = [f for f in files if kinds[f] == "rulebook"]
    included = {name for f in mains for name in _includes(f)}
    mains = [f for f in mains if f.name not in included]
    if len(mains) == 1:
        return mains[0]
    if len(mains) > 1:
        raise LoadError(f"several rulebooks in folder {path}: {', '.join(f.name for f in mains)}", Pos(str(path)),
                       hint=f"give the file, or name the main one {path.name}.yaml after its folder")
    unreadable = [f for f in files if kinds[f] == "unreadable"]
    if unreadable:
        return unreadable[0]            # (reading it reports what is wrong with it)
    raise LoadError(f"no rulebook (.yaml) in folder {path}", Pos(str(path)))


def _kind(path: Path) -> str:
    from .loader import kind_of_file
    try:
        return kind_of_file(path)
    except LoadError:
        return "unreadable"


def _includes(path: Path) -> list:
    from .yamlpos import load_yaml
    data = load_yaml(path)[0]
    inc = data.get("include") if isinstance(data, dict) else None
    return [str(x) for x in inc] if isinstance(inc, list) else []


def game_name(rulebook_path: Path) -> str | None:
    """The bundled name of a rulebook's main file (None when it is not a bundled game)."""
    here = Path(rulebook_path).resolve()
    for name, path in bundled_games().items():
        if path.resolve() == here:
            return name
    return None


def variants_folder(rulebook_path: Path) -> Path | None:
    """Where a game's variants are, by the layout: rulebook/<g>/<g>.yaml has
    variants/<g>/ (for the bundled games, and a project laid out the same)."""
    main = Path(rulebook_path).resolve()
    folder = main.parent
    if main.stem != folder.name or folder.parent.name != "rulebook":
        return None
    found = folder.parent.parent / "variants" / folder.name
    return found if found.is_dir() else None


def scenario_rulebook(path: Path, data: dict, src, given=None) -> Path:
    """The main file of the game a scenario is played on: its `game: NAME`
    or `rulebook: PATH` (relative to the file), or `given` (--game or
    --rulebook). A scenario naming none, with none given, is an error:
    it is never silently played on the default game."""
    if "game" in data and "rulebook" in data:
        raise _at(src, ("rulebook",), "a scenario names its game once: 'game: NAME' or 'rulebook: PATH', not both",
                  key=True)
    named = None
    try:
        if "game" in data:
            named = rulebook_file(data["game"]) if is_name(data["game"]) else None
            if named is None:
                raise _at(src, ("game",), f"'game: {data['game']}' is not a game's name",
                          hint="a bundled game's name (see nord games); a rulebook file is 'rulebook: PATH'")
        elif "rulebook" in data:
            rb = path.parent / data["rulebook"]
            if not rb.exists():
                raise _at(src, ("rulebook",), f"no rulebook at {data['rulebook']!r} (relative to this file)")
            named = rulebook_file(rb)
    except LoadError as e:
        if e.pos is not None and e.pos.line is not None:
            raise
        key = "game" if "game" in data else "rulebook"
        raise _at(src, (key,), e.message, hint=e.hint) from None
    if given is None:
        if named is None:
            raise LoadError("this scenario names no game", Pos(str(path), 1, 1),
                            hint="add 'game: NAME' (a bundled game, see nord games) or 'rulebook: PATH' (relative "
                                 "to this file), or give --game or --rulebook")
        return named
    chosen = rulebook_file(given)
    if named is not None and named.resolve() != chosen.resolve():
        key = "game" if "game" in data else "rulebook"
        raise _at(src, (key,), f"this scenario is of {describe(named)}, not of {describe(chosen)} (given with "
                               f"--game or --rulebook)", hint="leave out --game/--rulebook: a scenario names its game")
    return chosen


def _at(src, path, msg, key=False, **kw) -> LoadError:
    p = src.pos(path, key=key)
    return LoadError(msg, p, source_line=src.line(p.line), **kw)


def describe(rulebook_path: Path) -> str:
    """A rulebook as a user would name it: its game name, or its path."""
    return game_name(rulebook_path) or str(rulebook_path)


__all__ = ["DEFAULT_GAME", "bundled_games", "is_name", "unknown_game", "game_file", "rulebook_file",
           "folder_main", "game_name", "variants_folder", "describe", "scenario_rulebook"]
