"""The side panel of an SVG picture: whose turn, each player's points and
zones, the tracks, the shared zones and a key."""

from __future__ import annotations

from .svg_parts import INK, MUTED, PANEL_W, _el, _poly, _shape, _text, _token_half, text_width, wrap_words
from .text import to_move, turn_label


class _Panel:
    """The side panel, drawn into `self.out` (mixed into the picture)."""

    # ---- the side panel ----
    def panel(self) -> int:
        rules, st, out = self.rules, self.state, self.out
        x0, y = self.px, self.oy
        out.append('<g class="panel">')
        if st.over:
            from ..engine.game import compute_result
            try:
                winners = compute_result(rules, st).winners
                names = " and ".join(rules.color(w) for w in winners)
                head = f"game over: {names} " + ("wins" if len(winners) == 1 else "share the win")
            except Exception:  # a result the rules cannot compute still leaves a picture
                head = "game over"
        else:
            head = f"{turn_label(st.turn)}: {rules.color(to_move(st))} to move"
        out.append(_text(x0, y + 4, head, size=15, weight="bold", cls="turn", data_player=rules.color(to_move(st)),
                         data_turn=st.turn))
        y += 22
        for p in rules.player_range:
            y = self.player_box(x0, y, p)
        y += 6
        for key in sorted(st.tracks, key=lambda k: rules.show(k)):
            y = self.track(x0, y, key)
        shared = [name for name, z in rules.zones.items()
                  if not z.get("per_player") and z.get("type") not in ("track", "grid")]
        if shared:
            out.append(_text(x0, y + 14, "shared", size=13, weight="bold", fill=MUTED))
            y += 24
            for name in shared:
                y += self.zone_row(x0, y, name, (name, None))
        y = self.legend(x0, y + 8)
        out.append("</g>")
        return y

    def player_box(self, x0, y, p) -> int:
        rules, st, out = self.rules, self.state, self.out
        color = rules.color(p)
        pts = st.counters.get(("points", p), 0)
        active = p == to_move(st) and not st.over
        box_at = len(out)
        if active:
            out.append(_el("polygon", class_="to-move", fill=INK,
                           points=_poly([(x0 - 16, y + 10), (x0 - 8, y + 16), (x0 - 16, y + 22)])))
        out.append(_el("circle", class_="swatch", cx=x0 + 10, cy=y + 15, r=9, fill=rules.color_values[p], stroke=INK,
                       stroke_width=1.4))
        out.append(_text(x0 + 26, y + 20, color, size=14, weight="bold"))
        out.append(_text(x0 + PANEL_W - 16, y + 21, f"{pts} pts", size=16, anchor="end", weight="bold",
                         cls="score", data_player=color, data_points=pts))
        yy = y + 30
        if rules.sources:
            parts = [f"{s} {st.counters.get(('points', p, s), 0)}" for s in rules.sources]
            for line in wrap_words(parts, PANEL_W - 40, 10):
                out.append(_text(x0 + 26, yy + 4, line, size=10, fill=MUTED, cls="sources"))
                yy += 13
            yy += 1
        for name, z in rules.zones.items():
            if z.get("per_player") and z.get("type") not in ("track", "grid"):
                yy += self.zone_row(x0 + 26, yy, name, (name, p))
        h = yy - y + 4
        out.insert(box_at, _el("rect", class_="player", data_player=color, x=x0 - 6, y=y, width=PANEL_W,
                               height=h - 6, rx=6, fill="#ffffff" if active else "#ebe4d3",
                               stroke=INK if active else "#cfc6b3", stroke_width=2 if active else 1))
        return y + h

    def zone_row(self, x, y, name, key) -> int:
        """A zone's name, then its items as small stacks with counts (or a deck's size); returns the height."""
        out, st = self.out, self.state
        at = self.rules.show(key)
        out.append(_text(x, y + 12, name, size=11, fill=MUTED))
        left = cx = x + 92
        right = self.px + PANEL_W - 12
        if key in st.decks:
            n = len(st.decks[key])
            for k in range(min(n, 3) - 1, 0, -1):
                out.append(_el("rect", x=cx + 2 * k, y=y + 1 - 2 * k, width=14, height=18, rx=2, fill="#d9c7a0",
                               stroke=INK, stroke_width=1))
            out.append(_el("rect", class_="deck", data_zone=at, data_count=n, x=cx, y=y + 1, width=14, height=18,
                           rx=2, fill="#d9c7a0" if n else "none", stroke=INK, stroke_width=1,
                           stroke_dasharray=None if n else "2,2"))
            out.append(_text(cx + 22, y + 14, n, size=11, weight="bold"))
            return 22
        pool = st.pools.get(key)
        items = [(it, n) for it, n in sorted((pool or {}).items(), key=lambda kv: self.order(kv[0])) if n > 0]
        if not items:
            out.append(_text(cx, y + 12, "none", size=11, fill=MUTED))
            return 22
        line = 0
        for item, n in items:
            wide = self.labelled(item)
            s = _token_half(str(item[1])) if wide else 8
            half = 1.1 * s if wide else s
            label = f"\u00d7{n}"
            if self.tag_beside(item):         # (a card's value, a die's face: its shape cannot hold it)
                label = f"{self.cell_label(item)} {label}"
            need = 2 * half + 13 + text_width(label, 11)
            if cx > left and cx + need > right:
                cx, line = left, line + 1
            cy = y + 11 + 22 * line
            self.draw_item(item, cx + half, cy, s, self.piece_attrs(item, at, data_count=n), self.tip(item, at, n),
                           count=n, inside=False)
            out.append(_text(cx + 2 * half + 5, cy + 4, label, size=11, weight="bold", cls="label"))
            cx += need
        return 22 * (line + 1)

    def track(self, x0, y, key) -> int:
        """A track: a row of numbered slots (wrapping), each with its occupant."""
        rules, out = self.rules, self.out
        name = key[0] if isinstance(key, tuple) else key
        at = rules.show(key)
        values = rules.track_values.get(name, ())
        slots = self.state.tracks[key]
        out.append(_text(x0, y + 14, at, size=13, weight="bold", fill=MUTED))
        desc = (rules.zones.get(name) or {}).get("description")
        if desc:
            out.append(_text(x0 + 8 + len(at) * 8, y + 14, desc, size=10, fill=MUTED))
        y += 20
        h, gap = 40, 2
        sx, row = x0, 0
        for i, occupant in enumerate(slots):
            named = occupant is not None and occupant[1] is not None and self.owner(occupant) is None \
                and not self.labelled(occupant)
            # (an item known by its tag, drawn as a shape that cannot hold it: its name beneath, whole)
            name = self.cell_label(occupant) if named else ""
            half = _token_half(str(occupant[1])) if occupant is not None and self.labelled(occupant) else 8.5
            w = max(31, round(text_width(name, 10)) + 6, round(2.2 * half) + 6)
            if sx > x0 and sx + w > x0 + PANEL_W - 6:
                sx, row = x0, row + 1
            sy = y + row * (h + 4)
            value = values[i] if i < len(values) else None
            out.append(_el("rect", class_="slot", data_zone=at, data_slot=i, data_value=value, x=sx, y=sy, width=w,
                           height=h, rx=4, fill="#d8c29a", stroke=INK, stroke_width=1.2))
            if value is not None:
                out.append(_text(sx + w / 2, sy + 12, value, size=10, anchor="middle", weight="bold"))
            if occupant is not None:
                self.draw_item(occupant, sx + w / 2, sy + (22 if named else 27), 6.5 if named else half,
                               self.piece_attrs(occupant, at, data_slot=i, data_count=1), self.tip(occupant, at, 1))
            if named:
                out.append(_text(sx + w / 2, sy + h - 4, name, size=10, anchor="middle", weight="bold", cls="label"))
            sx += w + gap
        return y + (row + 1) * (h + 4) + 10

    def legend(self, x0, y) -> int:
        """Terrains, item kinds, features, structure kinds and the tint, each with its look."""
        rules, out = self.rules, self.out
        out.append(_text(x0, y + 14, "key", size=13, weight="bold", fill=MUTED))
        out.append('<g class="legend">')
        y += 24
        entries = []
        for t, spec in rules.terrains.items():
            color = (spec or {}).get("color", "#cccccc")
            entries.append((0, t, lambda x, y, color=color: [
                _el("rect", x=x, y=y, width=14, height=14, fill=color, stroke=INK, stroke_width=0.8)]))
        for kind, spec in rules.pieces.items():
            fill = "#ffffff" if (spec or {}).get("owned") else self.kind_fill.get(kind)
            entries.append((1, kind, lambda x, y, kind=kind, fill=fill: [
                _shape(self.shape_of(kind), x + 7, y + 7, 7, fill, INK, "")]))
        for f, spec in (rules.data.get("features") or {}).items():
            color = (spec or {}).get("color", "#555555")
            entries.append((2, f, lambda x, y, color=color: self._mark(x + 7, y + 8, 3, color)))
        for kind, spec in (rules.data.get("structures") or {}).items():
            color = (spec or {}).get("color", "#7a6a5a")
            entries.append((2, kind, lambda x, y, color=color: [
                _el("rect", x=x, y=y, width=14, height=14, rx=3, fill=color, stroke=INK, stroke_width=0.8)]))
        x, group = x0, 0
        for g, label, icon in entries:
            width = 22 + len(str(label)) * 6.5
            if g != group or x + width > x0 + PANEL_W:
                x, y, group = x0, y + 22, g
            out.extend(icon(x, y))
            out.append(_text(x + 19, y + 11, label, size=10))
            x += width + 8
        y += 22
        if self.n_comps:
            out.append(_el("rect", x=x0 + 2, y=y + 2, width=12, height=12, fill="none", stroke=self.tint(0),
                           stroke_width=4))
            out.append(_text(x0 + 20, y + 11, "band of tint: a connected group holding a piece and a port", size=10))
            y += 22
        joins: dict = {}
        for p, name, _spaces in getattr(self, "sides_drawn", ()):
            joins.setdefault(p, []).append(name)
        for p, names in joins.items():
            out.append(_el("line", x1=x0 + 1, y1=y + 8, x2=x0 + 15, y2=y + 8, stroke=rules.color_values[p],
                           stroke_width=6, stroke_linecap="round"))
            out.append(_text(x0 + 20, y + 12, f"{rules.color(p)} joins " + " and ".join(names), size=11,
                             cls="side-key", data_player=rules.color(p)))
            y += 20
        out.append("</g>")
        return y
