"""A scenario's script checked before anything runs: every move in
notation, every player, place, piece, source and expression it names
resolves; the errors all at once (a Scenario's check_script)."""

from __future__ import annotations

from ..engine.game import Move
from ..errors import NordError, SchemaError, did_you_mean
from ..rules.loader import check_errors
from .asked import check_asked_names
from .chance import check_rolls
from .names import _err, _items, _location, _player, grid_cells, is_grid
from .steps import flow_call


def check_script(self) -> None:
    """Before anything runs (`self`: the Scenario): every move in notation, every expression resolves."""
    errors = []

    def notation(text, path):
        try:
            Move.parse(text)
        except NordError as e:
            p = self.src.pos(path)
            errors.append(SchemaError(e.message, p, source_line=self.src.line(p.line), expected=e.expected))

    def expect(exp, path):
        # the players named are players of this game
        named = ([(("player",), exp["player"], False)] if "player" in exp else []) + \
            [(("winner", i), c, False) for i, c in enumerate(exp.get("winner") or [])] + \
            [((section, c), c, True) for section in ("points", "points_from") for c in exp.get(section) or {}]
        for where, color, key in named:
            try:
                _player(self.rules, color, self.src, path + where, key=key)
            except NordError as e:
                errors.append(e)
        # the sources named are sources of points the rules award (an award whose
        # source is an expression may name any)
        awarded = self.rules.names.literals.get(("award", 2), set()) | set(self.rules.sources)
        for color, by in (exp.get("points_from") or {}).items():
            for source in (by or {}) if None not in awarded else ():
                if source not in awarded:
                    errors.append(_err(self.src, path + ("points_from", color, source),
                                       f"the rules award no points from {source!r}", key=True,
                                       expected=", ".join(sorted(awarded)) or "none",
                                       hint=did_you_mean(str(source), awarded)))
        for loc, spec in (exp.get("at") or {}).items():
            try:        # the places and pieces named exist (a grid's cells too)
                key = _location(self.rules, loc, self.src, path + ("at", loc))
                parts = grid_cells(self.rules, key, loc, spec, self.src, path + ("at", loc)).values() \
                    if is_grid(self.rules, key) else [(spec, path + ("at", loc))]
                for part, where in parts:
                    items = _items(self.rules, part, self.src, where)
                    track = self.game.state.tracks.get(key)
                    if None in items and track is None:
                        raise _err(self.src, where, "'-' (an empty slot) is only for tracks", key=False,
                                   hint="an empty place is listed as []")
                    if track is not None and len(items) > len(track):
                        raise _err(self.src, where, f"{loc} has {len(track)} slots; {len(items)} listed")
            except NordError as e:
                errors.append(e)
        for kind in ("legal", "illegal"):
            for i, text in enumerate(exp.get(kind) or []):
                notation(text, path + (kind, i))
        check_asked_names(self, exp, path, errors)
        check_rolls(self, exp, path, errors)
        for i, text in enumerate(exp.get("holds") or []):
            try:
                self._compile(text, path + ("holds", i))
            except NordError as e:
                errors.append(e)
        for text in exp.get("values") or {}:
            try:
                self._compile(text, path + ("values", text), key=True)
            except NordError as e:
                errors.append(e)
    for name in [None, *self.branches] if self.branch is None else [self.branch]:
        every = self if name is None else type(self)(self.path, self.data, self.src, self.rules, self.game, name)
        for path, step in every.script()[0 if name is None else len(self.data.get("moves") or []):]:
            if not isinstance(step, dict):
                notation(step, path)
            elif "expect" in step:
                expect(step["expect"], path + ("expect",))
            elif "run" in step:
                try:
                    flow_call(self, step["run"], path + ("run",))
                except NordError as e:
                    errors.append(e)
        final = every.final_expect()
        if final is not None:
            expect(final[1], final[0])
    check_errors(errors)
