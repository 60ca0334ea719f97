"""nordlang: board games as data.

    import nordlang
    game = nordlang.load("nord", players=3, seed=7)
    while not game.over:
        game.play(game.legal_moves()[0])
    print(game.result)
"""

from __future__ import annotations

import operator
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import NordError

if TYPE_CHECKING:
    from .engine.game import Game, Move, Result, parse  # noqa: F401

__all__ = ["load", "load_rules", "Game", "Move", "Result", "parse", "NordError", "bundled", "__version__"]
__version__ = "0.1.0"

_ENGINE = ("Game", "Move", "Result", "parse")     # from engine.game, imported when first asked for


def __getattr__(name):
    """The engine's names are imported on first use, so that `import nordlang`
    (and `nord --help`) does not load the compiler, lark and jsonschema."""
    if name in _ENGINE:
        from .engine import game
        value = getattr(game, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'nordlang' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_ENGINE))


def bundled(name: str = "rulebook") -> Path:
    """The folder of a bundled resource: 'rulebook' (a folder per game,
    rulebook/<game>/<game>.yaml) or 'variants' (variants/<game>/).

    In a wheel they ship inside the package (nordlang/_bundled); in a source
    checkout they are the top-level folders.
    """
    here = Path(__file__).resolve().parent
    inside = here / "_bundled" / name
    if inside.is_dir():
        return inside
    return here.parent / name


def load_rules(rulebook=None, players: int | None = None, variants=(), params=None):
    """Load, validate and compile a rulebook (default: the bundled Nord).

    `rulebook` is a bundled game's name ("nord"; see `nord games`), a path
    (a file or a folder: a Path, or text with a '/' or a '.yaml'), or None:
    the game the variants extend, else Nord. `players` a whole number within
    the rulebook's range, or None for its default; `variants` names of the
    game's bundled variants or paths, in the order they apply (one alone
    will do); `params` the game's parameters: each sets one of its constants
    ({"cards": 13}).
    """
    from .rules.build import compile_rules
    if rulebook is not None and not isinstance(rulebook, (str, PathLike)):
        raise TypeError(f"a rulebook is a path (text or a Path) or None, not {type(rulebook).__name__}")
    if params is not None and not isinstance(params, dict):
        raise TypeError(f"params must be a mapping of constant names to values, not {type(params).__name__}")
    return compile_rules(rulebook, _players(players), _variants(variants), params)


def load(rulebook=None, players: int | None = None, seed: int = 0, variants=(), params=None) -> Game:
    """A new game of the rulebook (a game's name or a path, as load_rules takes it) for `players`
    players, with a seed (a whole number, 0 or more)."""
    from .engine.game import Game, check_seed
    seed = check_seed(seed)          # before the rules are compiled: a bad seed costs nothing
    return Game(load_rules(rulebook, players, variants, params), seed)


def _players(players):
    if players is None or type(players) is int:
        return players
    if isinstance(players, bool) or not hasattr(players, "__index__"):
        raise TypeError(f"players must be a whole number or None, not {type(players).__name__} ({players!r})")
    return operator.index(players)


def _variants(variants) -> list:
    """A list of variant names or paths: one alone (text or a Path) is a list of one; None is none."""
    if variants is None:
        return []
    if isinstance(variants, (str, PathLike)):
        return [variants]
    if not isinstance(variants, (list, tuple)):
        raise TypeError(f"variants must be a list of bundled names or paths, not {type(variants).__name__}")
    bad = [v for v in variants if not isinstance(v, (str, PathLike))]
    if bad:
        raise TypeError(f"a variant is a bundled name or a path, not {type(bad[0]).__name__} ({bad[0]!r})")
    return list(variants)
