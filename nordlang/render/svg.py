"""A picture of a position as SVG, drawn from the rulebook's data alone.

The board is a grid of squares coloured by terrain; features are marks on
their spaces; each structure is a block with its four ports drawn as gates
on its sides and its id as a label. Every connected component of the
connection graph that holds both a piece and a port gets a tint of its
own: a band inside its outline and its gates (the spaces keep their
terrain colour, so what a piece stands on stays plain). Pieces are shapes in their owner's
colour (kinds get shapes in rulebook order; linking kinds are discs); what
a structure or zone holds is drawn as small stacks with counts. A side
panel shows whose turn it is, the points, every player's zones, the tracks
as rows of numbered slots, the shared zones and a key.

Every piece element carries data attributes (`data-kind`, `data-owner` or
`data-tag`, `data-at`, and `data-count` inside structures and zones) so
that tests and tools can read the picture back.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from .svg_board import _Board
from .svg_grids import _Grids
from .svg_panel import _Panel
from .svg_parts import (
    BG,
    CELL,
    EDGE,
    FONT,
    GAP,
    INK,
    KNOWN_SHAPES,
    NEUTRAL_FILLS,
    PANEL_W,
    SHAPES,
    TITLE_H,
    _a,
    _darker,
    _el,
    _ink_on,
    _num,
    _shape,
    _text,
    text_width,
)
from .svg_sides import _Sides
from .text import to_move, turn_label

TITLE_SIZE = 19.0
TITLE_MIN = 11.0          # the smallest size a long title is written in, before it is squeezed


def render_svg(rules, state, title=None) -> str:
    """The position `state` of a game of `rules` as an SVG document (text)."""
    return _Picture(rules, state, title).draw()


class _Picture(_Board, _Grids, _Panel, _Sides):
    """A picture of one position: the page, the looks of item kinds, the board, the grid zones and the panel."""

    def __init__(self, rules, state, title):
        self.rules = rules
        self.state = state
        self.grid = g = rules.grid
        self.rows = max([s[0] for s in g.spaces] + [g.height - 1, 0]) + 1
        self.cols = max([s[1] for s in g.spaces] + [g.width - 1, 0]) + 1
        self.title = title if title is not None else self._default_title()
        self.ox = EDGE + 8
        self.oy = TITLE_H + EDGE
        self.board_w = self.cols * CELL
        self.board_h = self.rows * CELL
        self.geo = g.geometry
        self.squares = self.geo.kind in ("square", "square8")      # else hexagons, or a graph's nodes
        if not self.squares:
            corners = [p for s in g.spaces for p in self.geo.polygon(s)] or [(0, 0)]
            self.min_x, self.min_y = min(x for x, _ in corners), min(y for _, y in corners)
            self.board_w = (max(x for x, _ in corners) - self.min_x) * CELL
            self.board_h = (max(y for _, y in corners) - self.min_y) * CELL
        self.has_board = bool(g.spaces)         # (a game played in zones alone draws no board)
        if not self.has_board:
            self.board_w = self.board_h = 0
        grids_top = self.oy + (self.board_h + EDGE + GAP if self.has_board else 0)
        grids_w, grids_h = self.grid_layout(grids_top)
        self.grids_bottom = grids_top + grids_h
        self.px = self.ox + max(self.board_w + EDGE if self.has_board else 0, grids_w) + GAP
        self.out: list[str] = []
        self._styles()
        self._components()

    def _default_title(self):
        st, name = self.state, self.rules.name
        if st.over:
            return f"{name}: final position after {st.turn} turns"
        return f"{name}: {turn_label(st.turn)}, {self.rules.color(to_move(st))} to move"

    # ---- looks of item kinds ----
    def _styles(self):
        self.kind_shape = {}
        self.kind_fill = {}
        self.tag_fill = {}          # (kind, tag) -> the colour the rulebook gives that tag
        self.kind_rank = {}
        free = 0
        for i, (kind, spec) in enumerate(self.rules.pieces.items()):
            spec = spec or {}
            shape = spec.get("shape")
            if shape not in KNOWN_SHAPES:
                if spec.get("links"):
                    shape = "disc"
                else:
                    shape = SHAPES[free % len(SHAPES)]
                    free += 1
            self.kind_shape[kind] = shape
            fill = spec.get("color")
            self.kind_fill[kind] = fill if isinstance(fill, str) else NEUTRAL_FILLS[i % len(NEUTRAL_FILLS)]
            self.kind_rank[kind] = i
            for tag in spec.get("tags") or ():
                colour = (spec.get("tag_colors") or {}).get(str(tag))
                if colour is not None:
                    self.tag_fill[(kind, tag)] = colour

    def shape_of(self, kind):
        return self.kind_shape.get(kind, "token")

    def owner(self, item):
        """The owner's colour name of an owned item, else None."""
        kind, tag = item
        spec = self.rules.pieces.get(kind) or {}
        if spec.get("owned") and isinstance(tag, int) and not isinstance(tag, bool):
            return self.rules.color(tag)
        return None

    def fill_of(self, item):
        own = self.owner(item)
        if own is not None:         # (only a colour: a player's name may be none, like x)
            return self.rules.color_values[item[1]]
        return self.tag_fill.get(item) or self.kind_fill.get(item[0], "#dddddd")

    def labelled(self, item) -> bool:
        """A token that shows its tag as text."""
        return self.shape_of(item[0]) == "token" and self.owner(item) is None and item[1] is not None

    def tag_beside(self, item) -> bool:
        """An item whose tag tells it apart (a card's value) but whose shape cannot hold it as text:
        its tag is written beside it."""
        return item[1] is not None and self.owner(item) is None and not self.labelled(item)

    def order(self, item):
        kind, tag = item
        return (self.kind_rank.get(kind, len(self.kind_rank)), -1 if tag is None else 0,
                tag if isinstance(tag, int) else 0, str(tag))

    def piece_attrs(self, item, at, **extra) -> str:
        kind, tag = item
        own = self.owner(item)
        return _a(class_="piece", data_kind=kind, data_owner=own,
                  data_tag=None if own is not None or tag is None else str(tag), data_at=at, **extra)

    def tip(self, item, at, n=None):
        base = self.rules.show_item(item)
        return f"{base} x{n} in {at}" if n is not None else f"{base} at {at}"

    def draw_item(self, item, cx, cy, s, attrs, tip, count=None, inside=True, tag=True):
        """A piece: its shape (a stack when count > 1), with the count (or a token's tag, unless `tag` is
        false: the name beside it says it) written on it."""
        shape = self.shape_of(item[0])
        fill = self.fill_of(item)
        stroke = _darker(fill, 0.45) if self.owner(item) is None else INK
        parts = []
        if count is not None and count > 1:
            step = max(1.5, s * 0.2)
            for k in (2, 1) if count > 2 else (1,):
                parts.append(_shape(shape, cx + step * k, cy - step * k, s, fill, stroke, "", width=1.0))
        parts.append(_shape(shape, cx, cy, s, fill, stroke, attrs, tip))
        label = size = None
        if inside and count is not None and count > 1:
            label = str(count)
            size = max(8.0, min(s * 1.2, 13.0)) if len(label) == 1 else max(7.5, min(s * 1.0, 12.0))
        elif tag and self.labelled(item):
            label = str(item[1])
            size = max(6.0, min(9.5, 2.2 * s * 0.88 / (0.72 * len(label))))
        if label:
            parts.append(_text(cx, cy + size * 0.36, label, size=round(size, 1), fill=_ink_on(fill),
                               anchor="middle", weight="bold", cls="label"))
        self.out.extend(parts)

    def title_text(self, width) -> str:
        """The title, in a smaller size when it is long; a shrunk title is also given its length
        (textLength), so that no font drawn wider than the estimate takes it past the picture's edge."""
        room = width - self.ox - EDGE / 2
        size = max(TITLE_MIN, min(TITLE_SIZE, room / max(1.0, text_width(self.title, 1.0))))
        fit = {} if size == TITLE_SIZE else {"textLength": _num(min(room, text_width(self.title, size))),
                                             "lengthAdjust": "spacingAndGlyphs"}
        return _text(self.ox, 27, self.title, size=round(size, 1), weight="bold", cls="title", **fit)

    # ---- drawing ----
    def draw(self) -> str:
        if self.has_board:
            self.board()
        self.grids()
        panel_bottom = self.panel()
        width = self.px + PANEL_W + EDGE
        height = max(self.oy + self.board_h + EDGE + 12, panel_bottom + 20,
                     self.grids_bottom + 20 if self.grid_at else 0)
        head = (f'<svg xmlns="http://www.w3.org/2000/svg"{_a(width=width, height=height)} '
                f'viewBox="0 0 {width} {height}"{_a(font_family=FONT, data_turn=self.state.turn)}>')
        body = [head, f"<title>{escape(self.title)}</title>",
                _el("rect", x=0, y=0, width=width, height=height, fill=BG),
                self.title_text(width)]
        return "\n".join(body + self.out + ["</svg>"]) + "\n"
