"""The grid zones of an SVG picture: each player's grid (and each shared one)
as a labelled table of cells, beneath the board or, in a game without a
board, in its place.

A grid grows as items come to it, so only the columns in use are drawn,
and one more (where it may grow next). Each cell is a rectangle whose
`data-at` is the cell as the rules show it (`tableau(red)[1,3]`); each item
in it is a small shape with its name, and its count when more than one.
The shape says the item's kind (the key names it), so an item with a tag
is named by its tag alone, and the cells are as wide as the longest such
name of the game (never narrower than GCELL_W): names are read, not cut.
"""

from __future__ import annotations

from .svg_parts import INK, MUTED, _el, _text

GCELL_W, GCELL_H = 58, 46         # a grid cell, in px (wider when the game's names need it)
LABEL_X = 19                      # where an item's name starts in its cell
CHAR_W = 7                        # the width of a character of a name, in px (bold, 11 px)
GRID_HEAD = 34                    # a grid's name, and its column numbers
GRID_LABEL = 22                   # room for the row numbers (wider for a grid's row labels)
GRID_GAP = 18                     # between two grids
SHOWN = 3                         # items written in a cell, one a line (more: "+N")


class _Grids:
    """The grid zones, laid out in `grid_layout` and drawn by `grids` (mixed into the picture)."""

    def grid_keys(self) -> list:
        """Every grid zone of the game: per player (in turn order) before shared, each in rulebook order."""
        rules = self.rules
        out = []
        for name, (_rows, _cols) in rules.grid_zones.items():
            if rules.zones[name].get("per_player"):
                out.extend((name, p) for p in rules.player_range)
            else:
                out.append((name, None))
        return out

    def cell_label(self, item) -> str:
        """An item's name in a cell: its tag when the shape already says its kind (an unowned item
        the rulebook shows as kind:tag), else its name as the rules show it."""
        kind, tag = item
        shown_as = self.rules.pieces.get(kind, {}).get("show", "both")
        if tag is not None and self.owner(item) is None and shown_as == "both":
            return str(tag)
        return self.rules.show_item(item)

    def cell_width(self) -> int:
        """Wide enough for the longest name a cell may show, of every kind and tag the game declares."""
        rules = self.rules
        longest = 0
        for kind, spec in rules.pieces.items():
            tags = list(range(rules.num_players)) if spec.get("owned") else (spec.get("tags") or [None])
            longest = max([longest] + [len(self.cell_label((kind, t))) for t in tags])
        return max(GCELL_W, LABEL_X + CHAR_W * longest + 4)

    def shown_columns(self, key) -> int:
        """The columns in use, and one more (within the grid's own), and every column a pending
        decision's options name (so that each option has a cell to click)."""
        rows, columns = self.rules.grid_zones[key[0]]
        used = [c[3] for c in self.state.cells.get(key, ()) if self.state.pools.get(c)]
        pending = self.state.pending
        named = [o[3] for o in (pending.options if pending is not None else ())
                 if isinstance(o, tuple) and len(o) == 4 and o[:2] == key and isinstance(o[3], int)]
        return min(columns, max(used + [c - 1 for c in named], default=-1) + 2)

    def row_room(self, key) -> int:
        """The room left of a grid's cells for its row numbers, or its row labels."""
        labels = self.rules.zones[key[0]].get("row_labels")
        return max(GRID_LABEL, 10 + 6 * max(map(len, labels))) if labels else GRID_LABEL

    def grid_layout(self, top) -> tuple[int, int]:
        """(width, height) of the grids drawn from `top` down; where each goes is kept."""
        self.grid_at = []
        self.gcell_w = self.cell_width()
        y, width = top, 0
        for key in self.grid_keys():
            rows, _ = self.rules.grid_zones[key[0]]
            w = max(self.row_room(key) + self.shown_columns(key) * self.gcell_w,
                    24 + 8 * len(self.rules.show(key)) + 6 * len(self.grid_note(key)))
            self.grid_at.append((key, y))
            y += GRID_HEAD + rows * GCELL_H + GRID_GAP
            width = max(width, w)
        return width, (y - top - GRID_GAP if self.grid_at else 0)

    def grid_note(self, key) -> str:
        filled = sum(1 for c in self.state.cells.get(key, ()) if self.state.pools.get(c))
        return f"{filled} cell{'s' if filled != 1 else ''} filled"

    def grids(self) -> None:
        if not self.grid_at:
            return
        self.out.append('<g class="grids">')
        for key, y in self.grid_at:
            self.one_grid(key, self.ox, y)
        self.out.append("</g>")

    def one_grid(self, key, x0, y0) -> None:
        rules, st, out = self.rules, self.state, self.out
        rows, columns = rules.grid_zones[key[0]]
        shown = self.shown_columns(key)
        at = rules.show(key)
        filled = sum(1 for c in st.cells.get(key, ()) if st.pools.get(c))
        out.append(f'<g class="grid" data-zone="{at}" data-rows="{rows}" data-columns="{columns}" '
                   f'data-filled="{filled}">')
        if key[1] is not None:
            out.append(_el("circle", cx=x0 + 6, cy=y0 + 9, r=6, fill=rules.color_values[key[1]], stroke=INK,
                           stroke_width=1.2))
        out.append(_text(x0 + (16 if key[1] is not None else 0), y0 + 14, at, size=13, weight="bold",
                         cls="grid-name"))
        more = self.grid_note(key)
        out.append(_text(x0 + 24 + 8 * len(at), y0 + 14, more, size=10, fill=MUTED))
        room = self.row_room(key)
        labels = rules.zones[key[0]].get("row_labels")
        left, top = x0 + room, y0 + GRID_HEAD
        for c in range(shown):
            out.append(_text(left + (c + 0.5) * self.gcell_w, top - 4, c, size=10, fill=MUTED, anchor="middle"))
        for r in range(rows):
            if labels:
                out.append(_text(left - 5, top + r * GCELL_H + GCELL_H / 2 + 4, labels[r], size=10, fill=MUTED,
                                 anchor="end", cls="row-label"))
            else:
                out.append(_text(x0 + GRID_LABEL / 2, top + r * GCELL_H + GCELL_H / 2 + 4, r, size=10, fill=MUTED,
                                 anchor="middle"))
            for c in range(shown):
                self.grid_cell(key + (r, c), left + c * self.gcell_w, top + r * GCELL_H)
        out.append("</g>")

    def grid_cell(self, cell, x, y) -> None:
        rules, out = self.rules, self.out
        pool = self.state.pools.get(cell) or {}
        items = [(it, n) for it, n in sorted(pool.items(), key=lambda kv: self.order(kv[0])) if n > 0]
        at = rules.show(cell)
        out.append(_el("rect", class_="cell", data_at=at, data_row=cell[2], data_column=cell[3],
                       data_count=sum(n for _, n in items), x=x, y=y, width=self.gcell_w, height=GCELL_H,
                       fill="#fbf7ec" if items else "#e9e1cf", stroke="#8a7f6c", stroke_width=1.0))
        lines = items if len(items) <= SHOWN else items[:SHOWN - 1]
        step = (GCELL_H - 6) / max(len(lines) + (len(items) > SHOWN), 1)
        for k, (item, n) in enumerate(lines):
            cy = y + 3 + step * (k + 0.5)
            name = self.cell_label(item)
            self.draw_item(item, x + 10, cy, min(6.5, step / 2 - 0.5), self.piece_attrs(item, at, data_count=n),
                           self.tip(item, at, n), inside=False, tag=name != str(item[1]))
            room = max(1, (self.gcell_w - LABEL_X - 4) // CHAR_W)
            text = name if len(name) <= room else name[:room - 1] + "\u2026"
            out.append(_text(x + LABEL_X, cy + 4, text + (f" \u00d7{n}" if n > 1 else ""), size=11, weight="bold",
                             cls="label"))
        if len(items) > SHOWN:
            rest = sum(n for _, n in items[SHOWN - 1:])
            out.append(_text(x + LABEL_X, y + 3 + step * (SHOWN - 0.5) + 4, f"+{rest} more", size=10, fill=MUTED))
