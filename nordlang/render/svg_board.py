"""The board of an SVG picture: spaces by terrain, features, structures with
their ports, the tints of connected groups and the pieces on spaces."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from ..board.grid import DIRS
from .svg_parts import (
    CELL,
    INK,
    MUTED,
    TINT_BAND,
    _a,
    _col_name,
    _el,
    _ink_on,
    _is_space,
    _poly,
    _text,
    _tints,
    _token_half,
)


class _Board:
    """The board's layers, drawn into `self.out` (mixed into the picture)."""

    # ---- components of the connection graph ----
    def _components(self):
        unique = {}
        for comp in self.state.links.comp.values():
            unique.setdefault(id(comp), comp)
        chosen = []
        for comp in unique.values():
            spaces = sorted(n for n in comp if _is_space(n))
            if spaces and any(not _is_space(n) for n in comp):
                chosen.append((spaces[0], comp))
        chosen.sort(key=lambda x: x[0])
        self.comp_index = {}
        for i, (_, comp) in enumerate(chosen):
            for n in comp:
                self.comp_index[n] = i
        self.n_comps = len(chosen)
        terrain_colors = [str((t or {}).get("color", "")) for t in self.rules.terrains.values()]
        self.tint_colors = _tints(terrain_colors, self.n_comps + 1)

    def tint(self, i: int) -> str:
        return self.tint_colors[i]

    # ---- geometry ----
    def xy(self, s):
        """The top left corner of the square of side CELL that s is drawn in
        (on other boards, the square around its middle)."""
        if not self.squares:
            cx, cy = self.centre(s)
            return cx - CELL / 2, cy - CELL / 2
        r, c = s
        return self.ox + c * CELL, self.oy + r * CELL

    def centre(self, s):
        x, y = self.geo.center(s)
        return self.ox + (x - self.min_x) * CELL, self.oy + (y - self.min_y) * CELL

    def outline(self, s):
        return [(self.ox + (x - self.min_x) * CELL, self.oy + (y - self.min_y) * CELL) for x, y in self.geo.polygon(s)]

    def board(self):
        g, out = self.grid, self.out
        terr = self.rules.terrains
        out.append(_el("rect", x=self.ox - 3, y=self.oy - 3, width=self.board_w + 6, height=self.board_h + 6,
                       fill=INK, rx=3))
        if not self.squares:
            self.shapes()
            return
        out.append('<g class="spaces">')
        for s in g.spaces:
            x, y = self.xy(s)
            t = g.terrain[s]
            color = (terr.get(t) or {}).get("color", "#cccccc")
            out.append(_el("rect", class_="space", data_at=self.grid.name(s), data_terrain=t, x=x, y=y, width=CELL,
                           height=CELL, fill=color, stroke="#00000040", stroke_width=0.8))
        out.append("</g>")
        self.draw_sides()
        self.tints()
        self.features()
        self.coordinates()
        self.structures()
        self.space_pieces()
        self.draw_winning_chain()

    def shapes(self):
        """A board of hexagons, or a graph's nodes and edges, with the same layers as squares."""
        g, out = self.grid, self.out
        terr = self.rules.terrains
        if self.geo.kind == "graph":
            out.append('<g class="edges">')
            for s in g.spaces:
                for n in g.orth[s]:
                    if s < n:
                        (x1, y1), (x2, y2) = self.centre(s), self.centre(n)
                        out.append(_el("line", class_="edge", data_from=g.name(s), data_to=g.name(n), x1=x1, y1=y1,
                                       x2=x2, y2=y2, stroke=INK, stroke_width=3.0))
            out.append("</g>")
        out.append('<g class="spaces">')
        for s in g.spaces:
            t = g.terrain[s]
            color = (terr.get(t) or {}).get("color", "#cccccc")
            out.append(_el("polygon", class_="space", data_at=g.name(s), data_terrain=t,
                           points=_poly(self.outline(s)), fill=color, stroke="#00000060", stroke_width=1.0))
        out.append("</g>")
        if self.n_comps:
            out.append('<g class="tints">')
            for s in g.spaces:
                i = self.comp_index.get(s)
                if i is not None:
                    out.append(_el("polygon", class_="tint", data_component=i, data_at=g.name(s),
                                   points=_poly(self.outline(s)), fill="none", stroke=self.tint(i),
                                   stroke_width=float(TINT_BAND)))
            out.append("</g>")
        self.draw_sides()
        self.features()
        out.append('<g class="coordinates">')
        for s in g.spaces:
            cx, cy = self.centre(s)
            out.append(_text(cx, cy - CELL * 0.3, g.name(s), size=10, fill=MUTED, anchor="middle"))
        out.append("</g>")
        self.structures()
        self.space_pieces()
        self.draw_winning_chain()

    def tints(self):
        """Each component as a band of its tint inside its outline, so the
        middle of every space keeps its terrain colour (a shade over whole
        spaces hid what a worker stands on)."""
        out = self.out
        if not self.n_comps:
            return
        out.append('<g class="tints">')
        for s in self.grid.spaces:
            i = self.comp_index.get(s)
            if i is None:
                continue
            out.append(f"<g{_a(class_='tint', data_component=i, data_at=self.grid.name(s), fill=self.tint(i))}>")
            out.extend(_el("rect", x=float(x), y=float(y), width=float(w), height=float(h))
                       for x, y, w, h in self._band(s, i))
            out.append("</g>")
        out.append("</g>")

    def _band(self, s, i):
        """(x, y, width, height) of the pieces of component i's band on space s:
        along each side whose neighbour is not in it, and in each inner corner."""
        x, y = self.xy(s)
        b = TINT_BAND

        def inside(dr, dc):
            return self.comp_index.get((s[0] + dr, s[1] + dc)) == i
        sides = {"N": (x, y, CELL, b), "S": (x, y + CELL - b, CELL, b), "W": (x, y, b, CELL),
                 "E": (x + CELL - b, y, b, CELL)}
        out = [sides[d] for d, (dr, dc) in DIRS.items() if not inside(dr, dc)]
        for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            if inside(dr, 0) and inside(0, dc) and not inside(dr, dc):
                out.append((x if dc < 0 else x + CELL - b, y if dr < 0 else y + CELL - b, b, b))
        return out

    def _mark(self, cx, cy, r, color):
        """A small pile of three dots: the mark of a feature."""
        return [_el("circle", cx=float(cx + dx * r), cy=float(cy + dy * r), r=float(r), fill=color,
                    stroke="#1f1a14", stroke_width=0.9)
                for dx, dy in ((-1.07, 0.48), (1.07, 0.48), (0, -1.07))]

    def features(self):
        fdefs = self.rules.data.get("features") or {}
        out = self.out
        out.append('<g class="features">')
        for s in self.grid.spaces:
            x, y = self.xy(s)
            for j, f in enumerate(sorted(self.grid.features.get(s, ()))):
                color = (fdefs.get(f) or {}).get("color", "#555555")
                out.append(f"<g{_a(class_='feature', data_feature=f, data_at=self.grid.name(s))}>"
                           f"<title>{escape(f)}</title>")
                out.extend(self._mark(x + 11 + j * 16, y + CELL - 11, 4.2, color))
                out.append("</g>")
        out.append("</g>")

    def coordinates(self):
        out = self.out
        out.append('<g class="coordinates">')
        top, bottom = self.oy - 9, self.oy + self.board_h + 19
        style = dict(size=13, fill=MUTED, weight="bold")
        for c in range(self.cols):
            x = self.ox + c * CELL + CELL / 2
            name = _col_name(c)
            out.append(_text(x, top, name, anchor="middle", **style))
            out.append(_text(x, bottom, name, anchor="middle", **style))
        for r in range(self.rows):
            y = self.oy + r * CELL + CELL / 2 + 5
            out.append(_text(self.ox - 10, y, r + 1, anchor="end", **style))
            out.append(_text(self.ox + self.board_w + 10, y, r + 1, anchor="start", **style))
        out.append("</g>")

    def structures(self):
        g, out = self.grid, self.out
        kinds = self.rules.data.get("structures") or {}
        for sid in sorted(g.structures):
            st = g.structures[sid]
            x, y = self.xy(st.space)
            color = (kinds.get(st.kind) or {}).get("color", "#7a6a5a")
            out.append(f"<g{_a(class_='structure', data_id=sid, data_kind=st.kind, data_at=self.grid.name(st.space))}>"
                       f"<title>{escape(f'{sid}: {st.kind}')}</title>")
            out.append(_el("rect", x=x + 4, y=y + 4, width=CELL - 8, height=CELL - 8, rx=6, fill=color, stroke=INK,
                           stroke_width=1.5))
            out.append(_text(x + CELL / 2, y + 19, sid, size=13, fill=_ink_on(color), anchor="middle", weight="bold",
                             cls="structure-id"))
            out.append("</g>")
            self.ports(sid, x, y)
            self.holdings(sid, x, y)

    def ports(self, sid, x, y):
        if not self.squares:
            self.side_ports(sid)
            return
        long, thick = CELL * 0.36, 8
        mid = {"N": (x + CELL / 2, y), "S": (x + CELL / 2, y + CELL), "W": (x, y + CELL / 2),
               "E": (x + CELL, y + CELL / 2)}
        for port in self.grid.ports[sid]:
            d = port.side
            cx, cy = mid[d]
            w, h = (long, thick) if d in ("N", "S") else (thick, long)
            i = self.comp_index.get(port)
            faces = self.grid.port_faces.get(port)
            if i is not None:
                fill, stroke, sw, dash = self.tint(i), INK, 2.0, None
            elif faces is None:       # faces nothing a piece can stand on
                fill, stroke, sw, dash = "#b9b2a4", "#5b544a", 1.0, "2,2"
            else:
                fill, stroke, sw, dash = "#f6f0e0", INK, 1.4, None
            self.out.append(_el("rect", class_="port", data_port=f"{sid}.{d}", data_component=i,
                                data_faces=self.grid.name(faces) if faces else None, x=cx - w / 2, y=cy - h / 2,
                                width=w, height=h, rx=2, fill=fill, stroke=stroke, stroke_width=sw,
                                stroke_dasharray=dash))

    def side_ports(self, sid):
        """A structure's ports off the square board: a small block on the way to the space each faces."""
        g = self.grid
        st = g.structures[sid]
        cx, cy = self.centre(st.space)
        toward = dict(self.geo.port_faces(st.space))
        for port in g.ports[sid]:
            fx, fy = self.geo.center(toward[port.side])
            fx, fy = self.ox + (fx - self.min_x) * CELL, self.oy + (fy - self.min_y) * CELL
            d = math.hypot(fx - cx, fy - cy) or 1.0
            px, py = cx + (fx - cx) / d * CELL * 0.42, cy + (fy - cy) / d * CELL * 0.42
            i = self.comp_index.get(port)
            faces = g.port_faces.get(port)
            fill = self.tint(i) if i is not None else "#b9b2a4" if faces is None else "#f6f0e0"
            self.out.append(_el("rect", class_="port", data_port=f"{sid}.{port.side}", data_component=i,
                                data_faces=g.name(faces) if faces else None, x=px - 5, y=py - 5, width=10.0,
                                height=10.0, rx=2, fill=fill, stroke=INK, stroke_width=1.2))

    def holdings(self, sid, x, y):
        """What a structure holds: one small stack per item kind, with its count."""
        pool = self.state.pools.get(sid) or {}
        items = [(it, n) for it, n in sorted(pool.items(), key=lambda kv: self.order(kv[0])) if n > 0]
        if not items:
            return
        n = len(items)
        cols = 1 if n == 1 else 2 if n <= 4 else 3
        rows = math.ceil(n / cols)
        top, bottom = y + 22, y + CELL - 6
        row_h = (bottom - top) / rows
        span = CELL - 14
        s = min(10.5 if rows == 1 else 9.0 if rows == 2 else 6.0, span / max(cols, 2) / 2 - 0.5)
        for k, (item, count) in enumerate(items):
            r, c = divmod(k, cols)
            in_row = min(cols, n - r * cols)
            cx = x + CELL / 2 + (c - (in_row - 1) / 2) * span / max(cols, 2)
            cy = top + row_h * (r + 0.5)
            self.draw_item(item, cx - 1, cy + 1, s, self.piece_attrs(item, sid, data_count=count),
                           self.tip(item, sid, count), count=count)

    def space_pieces(self):
        """One element per piece on each space: linking pieces in the middle, a hull beneath, others aside."""
        out = self.out
        out.append('<g class="pieces">')
        linking = self.rules.occupying
        for s in self.grid.spaces:
            pool = self.state.pools.get(s) or {}
            if not pool:
                continue
            at = self.grid.name(s)
            x, y = self.xy(s)
            cx, cy = x + CELL / 2, y + CELL / 2
            units = [item for item in sorted(pool, key=self.order) for _ in range(max(0, pool[item]))]
            main = [u for u in units if u[0] in linking]
            under = [u for u in units if u[0] not in linking and self.shape_of(u[0]) == "hull"]
            rest = [u for u in units if u[0] not in linking and self.shape_of(u[0]) != "hull"]
            crowded = bool(main or under)
            for k, item in enumerate(under):
                self.draw_item(item, cx, cy + CELL * 0.25 - k * 3, CELL * 0.2, self.piece_attrs(item, at),
                               self.tip(item, at))
            corners = [(cx + CELL * 0.3, cy - CELL * 0.3), (cx - CELL * 0.3, cy - CELL * 0.3),
                       (cx + CELL * 0.3, cy + CELL * 0.05), (cx - CELL * 0.3, cy + CELL * 0.05)]
            for k, item in enumerate(rest):
                if crowded:
                    (px, py), size = corners[k % 4], CELL * 0.12
                elif len(rest) > 1:
                    px, py, size = cx + (k - (len(rest) - 1) / 2) * CELL * 0.4, cy, CELL * 0.16
                else:
                    px, py, size = cx, cy, CELL * 0.24
                    if self.labelled(item):
                        size = max(size, _token_half(str(item[1])))
                self.draw_item(item, px, py, size, self.piece_attrs(item, at), self.tip(item, at))
                if self.tag_beside(item):       # (its tag beneath it: the shape cannot hold it)
                    out.append(_text(px, py + size + 11, self.cell_label(item), size=10, anchor="middle",
                                     weight="bold", cls="label"))
            lift = CELL * 0.06 if under else 0
            for k, item in enumerate(main):
                self.draw_item(item, cx + k * 5, cy - lift - k * 5, CELL * 0.25, self.piece_attrs(item, at),
                               self.tip(item, at))
        out.append("</g>")
