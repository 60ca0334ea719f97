"""The sides of the board each player joins (the board's `sides`, as in
Hex), drawn along its outer edges in that player's colour; at the end of
a game, the winner's chain that joins his sides is outlined."""

from __future__ import annotations

import math

from .svg_parts import CELL, _el, _poly

CHAIN = "#ffd400"          # the outline of a winning chain (gold: no player's, no tint's)


class _Sides:
    """Players' sides and the winning chain, drawn into `self.out` (mixed into the picture)."""

    def side_spaces(self) -> list[tuple[int, str, list]]:
        """(player, the definition's name, its spaces) for each side the board's `sides` names."""
        from ..engine.look import Position
        from ..errors import NordError
        from ..rules.boards import board_for
        rules = self.rules
        spec = board_for(rules.data.get("boards"), rules.num_players)[0] or {}
        players = {rules.color(p): p for p in rules.player_range}
        out = []
        for colour, names in (spec.get("sides") or {}).items():
            if colour not in players:          # (a colour of more players than this game has)
                continue
            for name in names:
                try:
                    spaces = Position(rules, self.state, None).value(name)
                except NordError as e:
                    raise NordError(f"boards.sides.{colour}: '{name}' is no definition of a list of spaces: "
                                    f"{e}") from None
                if not isinstance(spaces, (list, tuple, set, frozenset)):
                    raise NordError(f"boards.sides.{colour}: '{name}' gives {rules.show(spaces)}, not a list of spaces")
                out.append((players[colour], name, [s for s in spaces if s in self.grid.terrain]))
        return out

    def _border_edges(self, s):
        """The edges of space s's outline with no space of the board beyond them, and their outward normals."""
        cx, cy = self.centre(s) if not self.squares else (self.xy(s)[0] + CELL / 2, self.xy(s)[1] + CELL / 2)
        pts = self.outline(s) if not self.squares else self._square(s)
        out = []
        for a, b in zip(pts, pts[1:] + pts[:1]):
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            beyond = (2 * mx - cx, 2 * my - cy)         # where a neighbour across this edge would be
            if any(math.dist(beyond, c) < CELL * 0.3 for c in self._centres):
                continue
            d = math.hypot(mx - cx, my - cy) or 1.0
            out.append((a, b, ((mx - cx) / d, (my - cy) / d)))
        return out

    def _square(self, s):
        x, y = self.xy(s)
        c = CELL
        return [(x, y), (x + c, y), (x + c, y + c), (x, y + c)]

    def draw_sides(self) -> None:
        """Each side as a thick line of its player's colour along the board's edges that face its way."""
        sides = self.side_spaces()
        self.sides_drawn = sides
        if not sides:
            return
        self._centres = [self.centre(s) if not self.squares else
                         (self.xy(s)[0] + CELL / 2, self.xy(s)[1] + CELL / 2) for s in self.grid.spaces]
        self.out.append('<g class="sides">')
        for p, name, spaces in sides:
            edges = [e for s in spaces for e in self._border_edges(s)]
            nx, ny = sum(e[2][0] for e in edges), sum(e[2][1] for e in edges)
            norm = math.hypot(nx, ny) or 1.0
            way = (nx / norm, ny / norm)                # the way the side faces
            colour = self.rules.color_values[p]
            for a, b, (ex, ey) in edges:
                if ex * way[0] + ey * way[1] > 0.5:
                    self.out.append(_el("line", class_="side", data_player=self.rules.color(p), data_side=name,
                                        x1=float(a[0]), y1=float(a[1]), x2=float(b[0]), y2=float(b[1]),
                                        stroke=colour, stroke_width=7.0, stroke_linecap="round"))
        self.out.append("</g>")

    def draw_winning_chain(self) -> None:
        """At the end, each winner's group of linked pieces that touches every side of his: outlined."""
        st, rules = self.state, self.rules
        sides = getattr(self, "sides_drawn", None)
        if not st.over or not sides:
            return
        from ..engine.game import compute_result
        try:
            winners = compute_result(rules, st).winners
        except Exception:  # noqa: BLE001 - a result the rules cannot compute: no chain to show
            return
        for w in winners:
            own = {s for s in self.grid.spaces
                   if any(k in rules.occupying and self.owner((k, t)) == rules.color(w) and n > 0
                          for (k, t), n in (st.pools.get(s) or {}).items())}
            wanted = [set(spaces) for p, _n, spaces in sides if p == w]
            seen: set = set()
            for start in sorted(own):
                if start in seen:
                    continue
                group, todo = {start}, [start]
                while todo:
                    s = todo.pop()
                    for n in self.grid.orth[s]:
                        if n in own and n not in group:
                            group.add(n)
                            todo.append(n)
                seen |= group
                if wanted and all(group & side for side in wanted):
                    self.out.append(f'<g class="chain" data-player="{rules.color(w)}">')
                    for s in sorted(group):
                        pts = self.outline(s) if not self.squares else self._square(s)
                        self.out.append(_el("polygon", class_="chain-space", data_space=self.grid.name(s),
                                            points=_poly(pts), fill="none", stroke=CHAIN, stroke_width=5.0))
                    self.out.append("</g>")
