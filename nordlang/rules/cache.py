"""The compiled-rulebook cache: what loading a rulebook makes that is data,
kept on disk so that the next run of the same rulebook skips the work.

An entry holds the merged, validated document (data and positions, before
compiling) and the syntax tree of every text the compiler parsed. A warm
load reads no YAML, validates nothing and parses nothing, so it imports
neither jsonschema nor lark; it still compiles the trees to Python (exec of
generated code: closures, which no file can hold).

An entry is found by a digest of everything the load reads: the main
file's and each variant's path and bytes, the players and parameters asked
for, the engine's version (a digest of the package's own .py, .lark and
.json files) and Python's. The files the main file includes are known only
once it is read: an entry lists them with their digests, and they are read
and compared before it is used. So a changed file, variant, include,
parameter, player count or engine is never served from an old entry.

Only a rulebook that loaded cleanly is stored (an error is never cached:
every message comes from the same code as before). The folder is
$NORDLANG_CACHE ('off' turns the cache off), else $XDG_CACHE_HOME/nordlang,
else ~/.cache/nordlang; deleting it is always safe. An entry that cannot be
read is ignored (and replaced); a folder that cannot be written is not used.
Writes go to a temporary file renamed into place, so a reader never sees
half an entry.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from functools import lru_cache
from pathlib import Path

FORMAT = "nordlang-rules-cache/1"
MOST = 256              # entries kept; the oldest go when a new one is stored


def folder() -> Path | None:
    """Where entries are kept (None: the cache is off)."""
    given = os.environ.get("NORDLANG_CACHE", "").strip()
    if given.lower() == "off":
        return None
    if given:
        return Path(given).expanduser() / "rules"
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):         # (the XDG rule: a relative path is ignored)
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:            # no home folder
            return None
    return Path(base) / "nordlang" / "rules"


@lru_cache(maxsize=1)
def engine_digest() -> str:
    """The engine's version: a digest of the package's source files (.py,
    .lark, .json), read every process (a few milliseconds), never a stamp."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    h = hashlib.sha256()
    for here, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "_bundled"))
        for name in sorted(names):
            if name.endswith((".py", ".lark", ".json")):
                path = os.path.join(here, name)
                with open(path, "rb") as f:
                    data = f.read()
                h.update(f"{path[len(root):]}\0{len(data)}\0".encode())
                h.update(data)
    return h.hexdigest()


def file_digest(path) -> str | None:
    """A digest of a file's text as the loader reads it (None when it cannot be read)."""
    try:
        return text_digest(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return None


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class Entry:
    """What a lookup finds: the document (unpickled afresh) and the trees."""

    def __init__(self, doc, trees: dict):
        self.doc, self.trees = doc, trees


class Key:
    """An entry's name, from the files a load is asked for, before it reads them."""

    def __init__(self, path: Path, chain, players, params: dict):
        self.files = {str(f): file_digest(f) for f in [path] + [v[0] for v in chain]}
        self.text = repr((FORMAT, engine_digest(), sys.implementation.cache_tag, pickle.HIGHEST_PROTOCOL,
                          str(path), list(self.files.items()), players, sorted(params.items(), key=str)))
        self.name = hashlib.sha256(self.text.encode("utf-8", "backslashreplace")).hexdigest()


def key(path: Path, chain, players, params: dict) -> Key | None:
    """The entry's key for this load (None when the cache is off)."""
    if folder() is None:
        return None
    k = Key(path, chain, players, params)
    return k if None not in k.files.values() else None


def lookup(k: Key | None) -> Entry | None:
    """The entry stored under `k`, when every file it was made from is
    unchanged; None otherwise (no entry, an unreadable one, a changed include)."""
    where = folder()
    if k is None or where is None:
        return None
    try:
        with open(where / f"{k.name}.pickle", "rb") as f:
            stored = pickle.loads(f.read())
        if stored["format"] != FORMAT or stored["key"] != k.text:
            return None
        for name, digest in stored["files"]:
            if (k.files[name] if name in k.files else file_digest(name)) != digest:
                return None         # an include changed (its name is the same: the main file is)
        return Entry(pickle.loads(stored["doc"]), stored["trees"])
    except Exception:               # missing, unreadable or corrupt: the load goes on without it
        return None


def snapshot(doc) -> bytes | None:
    """The document pickled as it is now (before compiling may add to it)."""
    try:
        return pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:               # data no pickle holds: not cached
        return None


def store(k: Key | None, doc_bytes: bytes | None, doc, chain, trees: dict) -> None:
    """Keep an entry for a rulebook that loaded cleanly, with the digest of
    each file as it was read (main, includes, variants). Nothing is stored
    when a file changed while it loaded; a failure to write is silent."""
    where = folder()
    if k is None or where is None or doc_bytes is None:
        return
    read = {src.file: text_digest(src.text) for src in doc._sources() + [v[2] for v in chain]}
    digests = [(name, read[name] if name in read else file_digest(name)) for name in dict.fromkeys(doc.files)]
    if any(d is None or k.files.get(name, d) != d for name, d in digests):
        return                      # a file changed under the load: the entry could be stale
    try:
        data = pickle.dumps({"format": FORMAT, "key": k.text, "files": digests, "doc": doc_bytes, "trees": trees},
                            protocol=pickle.HIGHEST_PROTOCOL)
        import tempfile
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=where, prefix=".tmp-", suffix=".pickle")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, where / f"{k.name}.pickle")
        except BaseException:
            os.unlink(tmp)
            raise
        _prune(where)
    except Exception:               # a folder that cannot be written (or data no pickle holds): no cache
        return


def _prune(where: Path) -> None:
    """Keep the MOST newest entries."""
    entries = [e for e in os.scandir(where) if e.name.endswith(".pickle") and not e.name.startswith(".")]
    if len(entries) <= MOST:
        return
    entries.sort(key=lambda e: e.stat().st_mtime_ns)
    for e in entries[:len(entries) - MOST]:
        try:
            os.unlink(e.path)
        except OSError:
            pass
