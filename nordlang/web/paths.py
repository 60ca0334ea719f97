"""Paths as the page shows them: a file of a served folder as the folder's
name and the path within it, a bundled rulebook's or variant's file from
rulebook/ or variants/; never a path of the server's machine (another
absolute path is cut to its file's name)."""

from __future__ import annotations

import re
from pathlib import Path

_ABSOLUTE = re.compile(r"(?<![\w.~-])/(?:[^\s:'\"()\[\],/]+/)+([^\s:'\"()\[\],/]+)")


class Shown:
    """Rewrites the absolute paths in a text as the page names them."""

    def __init__(self, folders=()):
        from .. import bundled
        roots = {Path(f).resolve(): Path(f).resolve().name for f in folders}
        for name in ("rulebook", "variants"):
            folder = bundled(name)
            roots.setdefault(folder.resolve(), name)
        # (the longest first: a served folder inside the bundled ones, or the other way round)
        self.roots = sorted(((str(r) + "/", shown + "/") for r, shown in roots.items()), key=lambda p: -len(p[0]))

    def text(self, text: str) -> str:
        for root, shown in self.roots:
            text = text.replace(root, shown)
        return _ABSOLUTE.sub(lambda m: m.group(1), text)

    def lines(self, lines) -> list[str]:
        return [self.text(ln) for ln in lines]
