"""The drawing words of the SVG pictures: sizes, colours, elements and shapes."""

from __future__ import annotations

import colorsys
import math
import re
from xml.sax.saxutils import escape, quoteattr

from ..board.grid import space_name

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


def text_width(text: str, size: float, bold: bool = True) -> float:
    """About how wide `text` is drawn at `size` px in FONT (DejaVu Sans: 0.66 em a character bold, 0.6
    plain): enough to keep a text inside its room without a browser to measure it."""
    return len(str(text)) * size * (0.66 if bold else 0.6)


def wrap_words(parts, room: float, size: float) -> list[str]:
    """Parts joined by ', ' into lines no wider than `room` (a part longer than a line gets one of its own)."""
    lines: list[str] = []
    for part in parts:
        if lines and text_width(lines[-1] + ", " + part, size, bold=False) <= room:
            lines[-1] += ", " + part
        else:
            if lines:
                lines[-1] += ","
            lines.append(part)
    return lines


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
