"""nordlang: board games as data.

    import nordlang
    game = nordlang.load(players=3, seed=7)
    while not game.over:
        game.play(game.legal_moves()[0])
    print(game.result)
"""

from __future__ import annotations

from pathlib import Path

from .engine.game import Game, Move, Result, parse
from .errors import NordError

__all__ = ["load", "load_rules", "Game", "Move", "Result", "parse", "NordError", "bundled", "__version__"]
__version__ = "0.1.0"


def bundled(name: str = "rulebook") -> Path:
    """The folder of a bundled resource ('rulebook' or 'variants').

    In a wheel they ship inside the package (nordlang/_bundled); in a source
    checkout they are the top-level folders.
    """
    here = Path(__file__).resolve().parent
    inside = here / "_bundled" / name
    if inside.is_dir():
        return inside
    return here.parent / name


def load_rules(rulebook=None, players: int | None = None, variants=()):
    """Load, validate and compile a rulebook (default: the bundled Nord)."""
    from .rules.build import compile_rules
    return compile_rules(rulebook, players, variants)


def load(rulebook=None, players: int | None = None, seed: int = 0, variants=()) -> Game:
    """A new game of the rulebook for `players` players, with a seed."""
    return Game(load_rules(rulebook, players, variants), seed)
