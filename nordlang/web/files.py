"""The folders the server was given, and the files in them it may open.

A file is named by its folder's number and a path relative to it; a path
that leads outside the folder (.., an absolute path, a link pointing out)
is refused. Listing finds replays (*.jsonl) and scenario files (YAML files
that are neither rulebooks nor variants), skipping hidden folders.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import UsageError

MAX_LISTED = 2000


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
        from ..cli.test import _kind
        replays, scenarios = [], []
        for i, root in enumerate(self.roots):
            for p in _walk(root):
                entry = {"folder": i, "path": p.relative_to(root).as_posix()}
                if p.suffix == ".jsonl":
                    replays.append(entry)
                elif p.suffix in (".yaml", ".yml") and _kind(p)[0] == "scenario":
                    scenarios.append(entry)
        key = lambda e: (e["folder"], e["path"])  # noqa: E731
        return {"folders": [str(r) for r in self.roots], "replays": sorted(replays, key=key),
                "scenarios": sorted(scenarios, key=key)}


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
            if p.name.startswith(".") or p.name in ("node_modules", "__pycache__"):
                continue
            if p.is_dir() and not p.is_symlink():
                stack.append(p)
            elif p.is_file() and p.suffix in (".jsonl", ".yaml", ".yml"):
                yield p
                n += 1
                if n >= MAX_LISTED:
                    return
