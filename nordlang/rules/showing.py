"""The one text form of every value of the rules: moves, logs and messages
all write values through `Rules.show`."""

from __future__ import annotations

import math
import re

from ..board.geometry import grid_name
from ..board.grid import Port
from ..lang.written import Written
from ..limits import MAX_DIGITS


class Showing:
    """How Rules writes values as text. (a part of Rules)"""

    # ---------------- showing values ----------------
    def show(self, v) -> str:
        """The one text form of a value: move notation, logs and messages use it."""
        if v is True or v is False:     # (equal to 1 and 0 as keys of the cache: never in it)
            return "true" if v else "false"
        if v.__class__ is Written:      # (equal to the pair it holds, which may be a space: not cached)
            return "(" + ", ".join(self.show(x) for x in v) + ")"
        try:
            return self._shown[v]
        except KeyError:
            pass
        except TypeError:
            return self._show(v)
        text = self._show(v)
        if len(self._shown) > 100_000:
            self._shown.clear()
        self._shown[v] = text
        return text

    def _show(self, v) -> str:
        if v is None:
            return "none"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return str(v)
        if isinstance(v, str):
            return v
        if isinstance(v, frozenset):
            return ",".join(sorted((self.show(x) for x in v), key=_natural))
        if isinstance(v, Port):
            return f"{v.structure}.{v.side}"
        if isinstance(v, tuple):
            if len(v) == 2 and isinstance(v[0], int) and isinstance(v[1], int) and not isinstance(v[0], bool):
                grid = getattr(self, "grid", None)       # (an error may be shown before the board is built)
                return grid.name(v) if grid is not None else grid_name(v)
            if len(v) == 2 and isinstance(v[0], str) and v[0] in self.pieces:
                return self.show_item(v)
            if len(v) == 2 and isinstance(v[0], str) and v[0] in self.zones:
                return v[0] if v[1] is None else f"{v[0]}({self.color(v[1])})"
            if len(v) == 4 and isinstance(v[0], str) and v[0] in self.grid_zones:
                return f"{self.show(v[:2])}[{v[2]},{v[3]}]"           # a cell: tableau(red)[1,3]
            if v and all(isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], int) and x.__class__ is not Written
                         for x in v):
                return self._joined(v, self.path_sep)       # a path of spaces
            if all(type(x) is int for x in v):
                return "(" + ", ".join(map(str, v)) + ")"      # numbers, not a chain of things: (2, 2, 40, 40)
            return self._joined(v, self.tuple_sep)
        if isinstance(v, dict):
            return "{" + ", ".join(f"{k}: {self.show(x)}" for k, x in v.items()) + "}"
        return str(v)

    def _joined(self, v: tuple, sep: str | None) -> str:
        """A tuple's parts joined by the rulebook's separator (notation), or
        '(a, b)' when it declares none; a part that is itself a chain is put
        in brackets, so a list of pairs reads '(a1>0)>(b1>2)', not 'a1>0>b1>2'."""
        parts = [self.show(x) for x in v]
        if sep is None:
            return "(" + ", ".join(parts) + ")"
        return sep.join(f"({t})" if isinstance(x, tuple) and not t.startswith("(") and self._is_chain(x) else t
                        for x, t in zip(v, parts))

    def _is_chain(self, x: tuple) -> bool:
        """A tuple shown as parts joined by a separator (not a space, item or zone)."""
        if len(x) == 2 and isinstance(x[0], int) and isinstance(x[1], int):
            return False
        if len(x) == 4 and isinstance(x[0], str) and x[0] in self.grid_zones:
            return False
        return not (len(x) == 2 and isinstance(x[0], str) and (x[0] in self.pieces or x[0] in self.zones))

    def show_item(self, item) -> str:
        kind, tag = item
        how = self.pieces.get(kind, {}).get("show", "both")
        if tag is None:
            return kind
        if tag == "?" and kind in self.pieces:       # seen face down (in a player's view): its kind, whatever `show`
            return f"{kind}:?"
        tag_text = self.color(tag) if isinstance(tag, int) and self.pieces.get(kind, {}).get("owned") else str(tag)
        if how == "tag":
            return tag_text
        if how == "kind":
            return kind
        return f"{kind}:{tag_text}"

    def color(self, p) -> str:
        if isinstance(p, int) and 0 <= p < len(self.colors):
            return self.colors[p]
        return str(p)


def _natural(text: str) -> tuple:
    """Sort key that reads numbers as numbers: b3 < c2 < c9 < c10."""
    # (a number past the limits of input sorts after all others, unread: Python reads no int of 4,300 digits)
    return tuple((int(t) if len(t) <= MAX_DIGITS else math.inf) if t.isdecimal() else t
                 for t in re.split(r"(\d+)", text))
