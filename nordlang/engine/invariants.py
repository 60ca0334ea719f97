"""Properties every position of every game must have, whatever the rules."""

from __future__ import annotations


def created_items(state) -> dict:
    """How many of each item the game brought in (by `create`)."""
    return {k[1]: v for k, v in state.counters.items() if k[0] == "created"}


def table_counts(state) -> dict:
    """How many of each item stand anywhere: pools (cells too), decks, tracks."""
    counts: dict = {}
    for pool in state.pools.values():
        for item, k in pool.items():
            counts[item] = counts.get(item, 0) + k
    for deck in state.decks.values():
        for item in deck:
            counts[item] = counts.get(item, 0) + 1
    for track in state.tracks.values():
        for item in track:
            if item is not None:
                counts[item] = counts.get(item, 0) + 1
    return counts


def rebase_created(state) -> None:
    """Take the table as it stands as what the game brought in: a scenario's
    position (pieces made for it, or left out of it) is the baseline that
    pieces are conserved from."""
    for key in [k for k in state.counters if k[0] == "created"]:
        del state.counters[key]
    for item, k in table_counts(state).items():
        state.counters[("created", item)] = k


def invariant_problem(state, created: dict | None = None) -> str | None:
    """None when the position is sound; else what is wrong.

    - every item the game created is in exactly one place, in its number
      (nothing appears, nothing vanishes);
    - at most one occupying piece stands on a space;
    - no track holds more than its slots.
    """
    if created is None:
        created = created_items(state)
    counts: dict = {}
    rules = state.rules
    space_set = rules.grid.space_set
    for key, pool in state.pools.items():
        linking = 0
        for item, k in pool.items():
            counts[item] = counts.get(item, 0) + k
            if item[0] in rules.occupying:
                linking += k
        if linking > 1 and key in space_set:
            return f"{rules.show(key)} holds {linking} occupying pieces"
    for deck in state.decks.values():
        for item in deck:
            counts[item] = counts.get(item, 0) + 1
    for key, track in state.tracks.items():
        if len(track) != len(rules.track_values.get(key[0], track)):
            return f"{rules.show(key)} has {len(track)} slots"
        for item in track:
            if item is not None:
                counts[item] = counts.get(item, 0) + 1
    for item, k in created.items():
        if counts.get(item, 0) != k:
            return f"{rules.show(item)}: {counts.get(item, 0)} on the table, {k} in the game"
    for item, k in counts.items():
        if item not in created:
            return f"{rules.show(item)}: {k} on the table that the game never created"
    return None
