"""Display colours: what a player's colour may be drawn with.

A rulebook names each player's colour (`players.colors`), as a plain CSS
colour name (red), or as a name with a colour value ({name: x, value:
"#c0392b"}). Only a colour ever reaches a picture: a name that is no
colour (x, o) is drawn in a colour of the palette below, by seat.
"""

from __future__ import annotations

import re

# the CSS colour names (CSS Color Module Level 4)
CSS_NAMES = frozenset("""
    aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown
    burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan
    darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid
    darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet
    deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro
    ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki
    lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow
    lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray
    lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue
    mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred
    midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid
    palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple
    rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver
    skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet
    wheat white whitesmoke yellow yellowgreen
""".split())

# seats whose colour is a name only: clearly different, readable fills
PALETTE = ("#c0392b", "#2e6fbf", "#2e9e5b", "#e0a21b", "#8e44ad", "#1abc9c", "#d35400", "#7f8c8d")

_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def is_color(text) -> bool:
    """A colour SVG understands: #rgb, #rrggbb or a CSS colour name."""
    return isinstance(text, str) and (text.lower() in CSS_NAMES or _HEX.fullmatch(text) is not None)


def display_color(name: str, value: str | None, seat: int) -> str:
    """A seat's colour to draw with: its value, else its name if that is a
    colour, else the palette's colour for the seat."""
    if value is not None:
        return value
    return name if is_color(name) else PALETTE[seat % len(PALETTE)]
