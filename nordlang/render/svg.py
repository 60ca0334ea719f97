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

import colorsys
import math
import re
from xml.sax.saxutils import escape, quoteattr

from ..board.grid import DIRS, space_name
from .text import to_move, turn_label

CELL = 64                 # side of one space, in px
EDGE = 28                 # room for the coordinates around the board
TITLE_H = 40
PANEL_W = 340
GAP = 30
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
BG = "#f4efe2"
INK = "#2b2118"
MUTED = "#6b6256"
TINT_BAND = 9             # width of a component's band of tint, in px

# light, clearly different tints for components; more are made by turning the hue
TINTS = ("#ff8fd0", "#6fe4ff", "#ffb347", "#b99cff", "#9dff6e", "#ff7f7f",
         "#5dffc9", "#ffe45c", "#7fa8ff", "#e0ff5c", "#ff5cff", "#ffffff")
# shapes given to kinds that do not link, in rulebook order; a kind may name its own with `shape:`
SHAPES = ("hull", "crown", "token", "diamond", "triangle", "hexagon")
KNOWN_SHAPES = frozenset(SHAPES) | {"disc"}
NEUTRAL_FILLS = ("#c98b4a", "#f3ead2", "#c4c4c4", "#e2e2e2", "#b7d3e8", "#e6b8c8")

# common CSS colour names, to pick a readable text colour on them
_NAMED = {
    "black": (0, 0, 0), "white": (255, 255, 255), "red": (255, 0, 0), "green": (0, 128, 0),
    "blue": (0, 0, 255), "yellow": (255, 255, 0), "orange": (255, 165, 0), "purple": (128, 0, 128),
    "brown": (165, 42, 42), "pink": (255, 192, 203), "gray": (128, 128, 128), "grey": (128, 128, 128),
    "cyan": (0, 255, 255), "magenta": (255, 0, 255), "teal": (0, 128, 128), "navy": (0, 0, 128),
    "lime": (0, 255, 0), "maroon": (128, 0, 0), "olive": (128, 128, 0), "silver": (192, 192, 192),
    "gold": (255, 215, 0), "violet": (238, 130, 238), "indigo": (75, 0, 130), "beige": (245, 245, 220),
}


def render_svg(rules, state, title=None) -> str:
    """The position `state` of a game of `rules` as an SVG document (text)."""
    return _Picture(rules, state, title).draw()


# ---------------------------------------------------------------- helpers

def _a(**attrs) -> str:
    """Attributes as text; a trailing '_' is dropped, '_' becomes '-', None values are left out."""
    out = []
    for k, v in attrs.items():
        if v is None:
            continue
        k = k.rstrip("_").replace("_", "-")
        out.append(f" {k}={quoteattr(_num(v) if isinstance(v, float) else str(v))}")
    return "".join(out)


def _el(tag: str, **attrs) -> str:
    return f"<{tag}{_a(**attrs)}/>"


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _text(x, y, s, size=12, fill=INK, anchor="start", weight=None, cls=None, **kw) -> str:
    attrs = _a(class_=cls, x=float(x), y=float(y), font_size=size, fill=fill, text_anchor=anchor,
               font_weight=weight, **kw)
    return f"<text{attrs}>{escape(str(s))}</text>"


def _rgb(color: str):
    c = color.strip().lower()
    if c in _NAMED:
        return _NAMED[c]
    m = re.fullmatch(r"#([0-9a-f]{3}|[0-9a-f]{6})", c)
    if m:
        h = m.group(1)
        if len(h) == 3:
            h = "".join(ch * 2 for ch in h)
        return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))
    return None


def _hex(rgb) -> str:
    return "#" + "".join(f"{max(0, min(255, int(v))):02x}" for v in rgb)


def _ink_on(color: str) -> str:
    """Dark or white text, whichever reads better on `color`."""
    rgb = _rgb(color)
    if rgb is None:
        return INK
    r, g, b = rgb
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _darker(color: str, f: float = 0.55) -> str:
    rgb = _rgb(color)
    return INK if rgb is None else _hex(v * f for v in rgb)


def _hue(color: str):
    """(hue in degrees, saturation) of a colour, or None."""
    rgb = _rgb(color)
    if rgb is None:
        return None
    h, _, s = colorsys.rgb_to_hls(*(v / 255 for v in rgb))
    return h * 360, s


def _tints(avoid, n: int) -> list[str]:
    """n light tints, leaving out hues close to the colours in `avoid` (the terrains)."""
    hues = [hs[0] for hs in map(_hue, avoid) if hs is not None and hs[1] > 0.3]

    def far(color):
        h = _hue(color)[0]
        return all(min(abs(h - a), 360 - abs(h - a)) > 15 for a in hues)
    out = [t for t in TINTS if far(t)]
    k = 0
    while len(out) < n:
        r, g, b = colorsys.hls_to_rgb((k * 0.618034) % 1.0, 0.72, 0.95)
        t = _hex((r * 255, g * 255, b * 255))
        k += 1
        if far(t) or k > 10 * n:
            out.append(t)
    return out


def _token_half(tag: str) -> float:
    """Half the width (over 1.1) of a token that shows its tag as text."""
    return min(max(8.0, len(tag) * 2.9 + 3), CELL * 0.4)


def _col_name(c: int) -> str:
    return re.sub(r"\d+$", "", space_name((0, c)))


def _poly(points) -> str:
    return " ".join(f"{_num(float(x))},{_num(float(y))}" for x, y in points)


def _shape(shape, cx, cy, s, fill, stroke, attrs: str, tip: str | None = None, width=1.4) -> str:
    """One shape of half-size s centred on (cx, cy); `attrs` (text) go on the element itself."""
    style = _a(fill=fill, stroke=stroke, stroke_width=width, stroke_linejoin="round")
    inner = f"<title>{escape(tip)}</title>" if tip else ""
    if shape == "disc":
        return f"<circle{attrs}{_a(cx=float(cx), cy=float(cy), r=float(s))}{style}>{inner}</circle>"
    if shape == "token":
        w, h = s * 1.1, min(s * 0.8, 10.0)
        box = _a(x=float(cx - w), y=float(cy - h), width=float(2 * w), height=float(2 * h), rx=3)
        return f"<rect{attrs}{box}{style}>{inner}</rect>"
    if shape == "hull":
        pts = [(cx - s * 1.25, cy - s * 0.45), (cx + s * 1.25, cy - s * 0.45), (cx + s * 0.8, cy + s * 0.5),
               (cx - s * 0.8, cy + s * 0.5)]
    elif shape == "crown":
        y0, y1 = cy + s * 0.75, cy - s * 0.8
        pts = [(cx - s, y0), (cx - s, y1), (cx - s * 0.5, cy - s * 0.1), (cx, y1), (cx + s * 0.5, cy - s * 0.1),
               (cx + s, y1), (cx + s, y0)]
    elif shape == "diamond":
        pts = [(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)]
    elif shape == "triangle":
        pts = [(cx, cy - s), (cx + s, cy + s * 0.8), (cx - s, cy + s * 0.8)]
    else:  # hexagon
        pts = [(cx + s * math.cos(a), cy + s * math.sin(a)) for a in (math.pi / 3 * k for k in range(6))]
    return f"<polygon{attrs}{_a(points=_poly(pts))}{style}>{inner}</polygon>"


def _is_space(n) -> bool:
    return isinstance(n, tuple) and len(n) == 2 and isinstance(n[0], int) and isinstance(n[1], int)


# ---------------------------------------------------------------- the picture


class _Picture:
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
        self.px = self.ox + self.board_w + EDGE + GAP
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
        return self.kind_fill.get(item[0], "#dddddd")

    def labelled(self, item) -> bool:
        """A token that shows its tag as text."""
        return self.shape_of(item[0]) == "token" and self.owner(item) is None and item[1] is not None

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

    def draw_item(self, item, cx, cy, s, attrs, tip, count=None, inside=True):
        """A piece: its shape (a stack when count > 1), with the count (or a token's tag) written on it."""
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
        elif self.labelled(item):
            label = str(item[1])
            size = max(6.0, min(9.5, 2.2 * s * 0.88 / (0.72 * len(label))))
        if label:
            parts.append(_text(cx, cy + size * 0.36, label, size=round(size, 1), fill=_ink_on(fill),
                               anchor="middle", weight="bold", cls="label"))
        self.out.extend(parts)

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

    # ---- drawing ----
    def draw(self) -> str:
        self.board()
        panel_bottom = self.panel()
        width = self.px + PANEL_W + EDGE
        height = max(self.oy + self.board_h + EDGE + 12, panel_bottom + 20)
        head = (f'<svg xmlns="http://www.w3.org/2000/svg"{_a(width=width, height=height)} '
                f'viewBox="0 0 {width} {height}"{_a(font_family=FONT, data_turn=self.state.turn)}>')
        body = [head, f"<title>{escape(self.title)}</title>",
                _el("rect", x=0, y=0, width=width, height=height, fill=BG),
                _text(self.ox, 27, self.title, size=19, weight="bold", cls="title")]
        return "\n".join(body + self.out + ["</svg>"]) + "\n"

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
        self.tints()
        self.features()
        self.coordinates()
        self.structures()
        self.space_pieces()

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
        self.features()
        out.append('<g class="coordinates">')
        for s in g.spaces:
            cx, cy = self.centre(s)
            out.append(_text(cx, cy - CELL * 0.3, g.name(s), size=10, fill=MUTED, anchor="middle"))
        out.append("</g>")
        self.structures()
        self.space_pieces()

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
        linking = self.rules.linking
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
            lift = CELL * 0.06 if under else 0
            for k, item in enumerate(main):
                self.draw_item(item, cx + k * 5, cy - lift - k * 5, CELL * 0.25, self.piece_attrs(item, at),
                               self.tip(item, at))
        out.append("</g>")

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
        shared = [name for name, z in rules.zones.items() if not z.get("per_player") and z.get("type") != "track"]
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
            detail = ", ".join(f"{s} {st.counters.get(('points', p, s), 0)}" for s in rules.sources)
            out.append(_text(x0 + 26, yy + 4, detail, size=10, fill=MUTED))
            yy += 14
        for name, z in rules.zones.items():
            if z.get("per_player") and z.get("type") != "track":
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
            need = 2 * half + 22 + 7 * len(str(n))
            if cx > left and cx + need > right:
                cx, line = left, line + 1
            cy = y + 11 + 22 * line
            self.draw_item(item, cx + half, cy, s, self.piece_attrs(item, at, data_count=n), self.tip(item, at, n),
                           count=n, inside=False)
            out.append(_text(cx + 2 * half + 5, cy + 4, f"\u00d7{n}", size=11, weight="bold", cls="label"))
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
        w, h = 31, 40
        per_row = max(1, (PANEL_W - 6) // (w + 2))
        for i, occupant in enumerate(slots):
            r, c = divmod(i, per_row)
            sx, sy = x0 + c * (w + 2), y + r * (h + 4)
            value = values[i] if i < len(values) else None
            out.append(_el("rect", class_="slot", data_zone=at, data_slot=i, data_value=value, x=sx, y=sy, width=w,
                           height=h, rx=4, fill="#d8c29a", stroke=INK, stroke_width=1.2))
            if value is not None:
                out.append(_text(sx + w / 2, sy + 12, value, size=10, anchor="middle", weight="bold"))
            if occupant is not None:
                self.draw_item(occupant, sx + w / 2, sy + 27, 8.5,
                               self.piece_attrs(occupant, at, data_slot=i, data_count=1), self.tip(occupant, at, 1))
        rows = max(1, math.ceil(len(slots) / per_row))
        return y + rows * (h + 4) + 10

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
        out.append("</g>")
        return y
