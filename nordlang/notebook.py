"""Positions as pictures in a notebook (Jupyter, or anything that reads `_repr_svg_`).

A `Game`, a loaded `Scenario` and a `Position` (game.look(player)) show as
the picture nordlang/render draws of them; a replay is a game too:

    game                                       # the position, as the referee sees it
    game.look(1)                               # as the second player sees it: what he may not see face down
    nordlang.notebook.replay("game.jsonl", turn=12)
    nordlang.notebook.scenario("placement.yaml", moves="all")

`picture(obj, player)` gives a `Picture` of any of them (its `svg`, and
`save(path)` as .svg or .png).
"""

from __future__ import annotations

from pathlib import Path

from .engine.record import write_atomic
from .errors import UsageError
from .render.svg import render_svg
from .render.text import to_move, turn_label


class Picture:
    """An SVG picture that a notebook shows as itself."""

    def __init__(self, svg: str, title: str):
        self.svg, self.title = svg, title

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"<Picture: {self.title}>"

    def save(self, path) -> None:
        """Write the picture to `path`: .svg, or .png (needs cairosvg)."""
        path = Path(path)
        fmt = path.suffix.lower()
        if fmt == ".svg":
            write_atomic(path, data=self.svg.encode("utf-8"))
        elif fmt == ".png":
            from .render.png import fit_scale, render_png
            write_atomic(path, data=render_png(self.svg, fit_scale(self.svg)))
        else:
            raise UsageError(f"cannot tell the picture format of {str(path)!r}: the file name must end in .svg or .png")


def picture(obj, player: int | None = None, title: str | None = None) -> Picture:
    """The picture of a Game, a Scenario or a Position; `player` (a Game's or a
    Scenario's) draws it as he sees it."""
    # (imported here: each of them imports this module when asked for its picture)
    from .engine.game import Game
    from .engine.look import Position
    from .scenario.check import Scenario
    if isinstance(obj, Position):
        if player is not None:
            raise ValueError("a Position is already one player's sight: draw game.look(player) instead")
        rules, state, player = obj.rules, obj.state, obj.player
        default = _default_title(rules, state)
    elif isinstance(obj, Scenario):
        rules, state = obj.rules, obj.game.state
        first = str(obj.data.get("description", "")).strip().split("\n")[0].split(". ")[0]
        default = f"{rules.name}: {Path(obj.path).name}" + (f", {first}" if first else "")
    elif isinstance(obj, Game):
        rules, state = obj.rules, obj.state
        default = _default_title(rules, state)
    else:
        raise TypeError(f"a picture is drawn of a Game, a Scenario or a Position, not {type(obj).__name__}")
    if player is not None and not isinstance(obj, Position):
        seat = obj.game if isinstance(obj, Scenario) else obj
        state = seat.view(player)
    if player is not None:
        default += f", as {rules.color(player)} sees it"
    title = default if title is None else title
    return Picture(render_svg(rules, state, title=title), title)


def _default_title(rules, state) -> str:
    """The renderer's own title of a position."""
    if state.over:
        return f"{rules.name}: final position after {state.turn} turns"
    return f"{rules.name}: {turn_label(state.turn)}, {rules.color(to_move(state))} to move"


def svg(obj) -> str:
    """The SVG text of an object's picture (what `_repr_svg_` gives a notebook)."""
    return picture(obj).svg


def replay(path, turn: int | None = None, player: int | None = None, rulebook=None, variants=None) -> Picture:
    """A replay's position at the start of `turn` (default: its end), checked as `nord replay` checks it."""
    from .cli.render import position_from_replay
    game, title = position_from_replay(path, turn, rulebook, variants)
    return picture(game, player, title + (f", as {game.rules.color(player)} sees it" if player is not None else ""))


def scenario(path, moves=None, player: int | None = None, rulebook=None) -> Picture:
    """A scenario's position, or after its scripted moves (`moves`: 'all' or a number of entries)."""
    from .cli.render import position_from_scenario
    game, title, _played = position_from_scenario(path, rulebook, None if moves is None else str(moves))
    return picture(game, player, title + (f", as {game.rules.color(player)} sees it" if player is not None else ""))
