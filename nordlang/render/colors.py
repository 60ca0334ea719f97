"""Display colours: what a player's colour may be drawn with.

A rulebook names each player's colour (`players.colors`), as a plain CSS
colour name (red), or as a name with a colour value ({name: x, value:
"#c0392b"}). Only a colour ever reaches a picture: a name that is no
colour (x, o) is drawn in a colour of the palette below, by seat.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path


@cache
def css_names() -> frozenset:
    """The CSS colour names (kept as data: css_colors.txt beside this file)."""
    # (read beside the module: importlib.resources would cost start-up its zipfile import)
    text = Path(__file__).with_name("css_colors.txt").read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


# seats whose colour is a name only: clearly different, readable fills
PALETTE = ("#c0392b", "#2e6fbf", "#2e9e5b", "#e0a21b", "#8e44ad", "#1abc9c", "#d35400", "#7f8c8d")

_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def is_color(text) -> bool:
    """A colour SVG understands: #rgb, #rrggbb or a CSS colour name."""
    return isinstance(text, str) and (text.lower() in css_names() or _HEX.fullmatch(text) is not None)


def display_color(name: str, value: str | None, seat: int) -> str:
    """A seat's colour to draw with: its value, else its name if that is a
    colour, else the palette's colour for the seat."""
    if value is not None:
        return value
    return name if is_color(name) else PALETTE[seat % len(PALETTE)]
