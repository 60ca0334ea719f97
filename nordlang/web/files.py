"""The folders the server was given, and the files in them it may open.

A file is named by its folder's number and a path relative to it; a path
that leads outside the folder (.., an absolute path, a link pointing out)
is refused. Listing finds replays (*.jsonl) and scenario files (YAML files
that are neither rulebooks nor variants), skipping hidden folders and a
project's test fixtures (a folder named `tests` below a served folder).
It reads no YAML: a file's kind is told from its top-level keys, read
from the text, so that the page is ready at once; opening a file checks it
whole.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import UsageError

MAX_LISTED = 2000
SKIPPED = ("node_modules", "__pycache__", "tests")      # (tests: fixtures, broken on purpose; served alone, listed)
_TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*)$", re.MULTILINE)


class Outside(PermissionError):
    """A path outside the served folders."""


class Folders:
    def __init__(self, folders):
        self.roots = []
        for f in folders:
            p = Path(f).expanduser().resolve()
            if not p.is_dir():
                raise UsageError(f"no such folder: {f}", hint="--folder names a folder whose files the page may open")
            self.roots.append(p)

    def resolve(self, folder, path) -> Path:
        """The file `path` of folder number `folder`; Outside when it is not within it."""
        if type(folder) is not int or not 0 <= folder < len(self.roots):
            raise Outside(f"no served folder number {folder!r} (there are {len(self.roots)})")
        if not isinstance(path, str) or not path or "\0" in path:
            raise Outside("a file is named by a path relative to its folder")
        root = self.roots[folder]
        full = (root / path).resolve()
        if Path(path).is_absolute() or not full.is_relative_to(root):
            raise Outside(f"{path!r} is outside the served folder {folder}")
        if not full.is_file():
            raise FileNotFoundError(f"no such file in served folder {folder}: {path}")
        return full

    def listing(self) -> dict:
        """{folders: [...], replays: [...], scenarios: [...]}, each file {folder, path}."""
        replays, scenarios = [], []
        for i, root in enumerate(self.roots):
            for p in _walk(root):
                entry = {"folder": i, "path": p.relative_to(root).as_posix()}
                if p.suffix == ".jsonl":
                    replays.append(entry)
                elif p.suffix in (".yaml", ".yml") and kind_by_keys(p) == "scenario":
                    scenarios.append(entry)
        key = lambda e: (e["folder"], e["path"])  # noqa: E731
        return {"folders": [str(r) for r in self.roots], "replays": sorted(replays, key=key),
                "scenarios": sorted(scenarios, key=key)}


def kind_by_keys(path: Path) -> str:
    """file_kind (rulebook, variant, scenario, unknown) from the file's
    top-level keys as written (a mapping's keys at column 0), without
    parsing it: a `game:` with a value on its line is a name (a
    scenario's), one with none a mapping (a rulebook's)."""
    from ..rules.loader import file_kind
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "unknown"
    data = {}
    for m in _TOP_KEY.finditer(text):
        value = m.group(2).split(" #")[0].strip()
        data.setdefault(m.group(1), value if value and value[0] not in "{|>&" else {})
    return file_kind(data) if data else "unknown"


def _walk(root: Path):
    """Files under root, sorted, hidden folders skipped, at most MAX_LISTED."""
    n = 0
    stack = [root]
    while stack:
        d = stack.pop()
        try:
            entries = sorted(d.iterdir())
        except OSError:
            continue
        for p in entries:
            if p.name.startswith(".") or p.name in SKIPPED:
                continue
            if p.is_dir() and not p.is_symlink():
                stack.append(p)
            elif p.is_file() and p.suffix in (".jsonl", ".yaml", ".yml"):
                yield p
                n += 1
                if n >= MAX_LISTED:
                    return
