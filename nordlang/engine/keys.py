"""What the state knows of a zone key and an item, for any game: the parts
of the position a change to a zone changes (lang/reads.py, kept per key:
a game's zones are few), and the key items sort by (State.items)."""

from __future__ import annotations

_ZONE_PARTS: dict = {}      # zone key -> (its name's part, its name and owner's part or None): see _zone_parts
_ZONE_PARTS_LIMIT = 100_000


def _zone_parts(key) -> tuple:
    """The parts of the position a change to zone `key` changes besides
    every zone's (lang/reads.py): its name's and its name and owner's (a
    pair is its own); a key that names no zone by name (a space, a
    structure), the part None's alone. Kept per key (a game's zones are
    few: cleared past _ZONE_PARTS_LIMIT, for a process that plays many)."""
    if len(_ZONE_PARTS) > _ZONE_PARTS_LIMIT:
        _ZONE_PARTS.clear()
    if key.__class__ is tuple and key and key[0].__class__ is str:
        return key[0], key if len(key) == 2 else key[:2]
    return None, None


def _item_key(item):
    kind, tag = item
    return (kind, -1 if tag is None else 0, tag if isinstance(tag, int) else 0, str(tag))

