"""Readable text for logs: each decision, the rulebook's notes, scorings
with their per-player, per-place breakdown, and the final table."""

from __future__ import annotations

from ..engine.record import describe
from ..engine.views import HIDDEN


def turn_label(turn: int) -> str:
    """'turn N', or 'setup' for the decisions before the first turn."""
    return f"turn {turn}" if turn else "setup"


def to_move(st) -> int:
    """Who decides now: the pending choice's player (a choice may name
    another than the player whose turn it is), else the player to move."""
    return st.pending.player if st.pending is not None else st.player


def event_lines(rules, events, turn_heads: dict | None = None) -> list[str]:
    """Lines for a run of events; awards of one source are grouped per player.

    With `turn_heads` (a dict kept between calls), each turn's first
    decision is preceded by a 'turn N' line (decisions before the first
    turn, by a 'setup' line).
    """
    out = []
    pending_awards: dict = {}

    def flush():
        for (p, source), parts in pending_awards.items():
            total = sum(n for n, _ in parts)
            detail = ", ".join(f"{rules.show(d)} {n}" for n, d in parts if d is not None and n)
            out.append(f"    {rules.color(p):<8} {total:<+4} {source}" + (f"  ({detail})" if detail else ""))
        pending_awards.clear()

    for ev in events:
        kind = ev[0]
        if kind == "award":
            _, p, n, source, detail = ev
            pending_awards.setdefault((p, source), []).append((n, detail))
            continue
        if kind == "move":
            continue
        flush()
        if kind == "choice":
            _, player, name, text, forced = ev[:5]
            turn = ev[5] if len(ev) > 5 else None
            if turn_heads is not None and turn is not None and turn_heads.get("turn") != turn:
                turn_heads["turn"] = turn
                head = turn_label(turn)
                out.append(f"{head}, {rules.color(player)}:" if turn else f"{head}:")
            out.append(f"  {rules.color(player):<8} {name} {text}" + ("   (forced)" if forced else ""))
        elif kind == "note" and ev[1] == rules.trigger_note:      # (a heading: what the summary counts)
            out.append("== " + describe(rules, ev))
        else:
            line = describe(rules, ev)
            if line:
                out.append(("    " if not line.startswith(" ") else "  ") + line)
    flush()
    return out


def final_table(rules, game) -> list[str]:
    st = game.state
    sources = list(rules.sources) or sorted({k[2] for k in st.counters if k[0] == "points" and len(k) == 3})
    res = game.result
    head = f"  {'player':<8}" + "".join(f"{s:>11}" for s in sources) + f"{'total':>8}"
    # A rulebook that ranks by something other than points: its rank keys, each headed by its text
    # (the winner is who leads them; a column of points alone would say nothing of why).
    by_rank = res is not None and rules.rank_texts[0] != "points(p)"
    keys = list(range(len(rules.rank))) if by_rank else [1] if len(rules.rank) > 1 and res is not None else []
    widths = {k: max(11, len(rules.rank_texts[k]) + 2) if by_rank else 11 for k in keys}
    for k in keys:
        head += f"{rules.rank_texts[k] if by_rank else 'tie-break':>{widths[k]}}"
    lines = [head]
    for p in rules.player_range:
        row = f"  {rules.color(p):<8}" + "".join(f"{st.counters.get(('points', p, s), 0):>11}" for s in sources)
        row += f"{st.counters.get(('points', p), 0):>8}"
        for k in keys:
            row += f"{rules.show(res.ranking[p][k]):>{widths[k]}}"
        lines.append(row)
    if res is not None and res.draw:
        lines.append("draw: no winner")
    elif res is not None:
        names = " and ".join(rules.color(w) for w in res.winners)
        lines.append(f"winner: {names}" if len(res.winners) == 1 else f"winners (shared): {names}")
    return lines


# ---------------- the position as text (the human seat's view) ----------------
def piece_symbols(rules) -> dict:
    """One character per (kind, owner) the rulebook's pieces can be, fixed by
    its declarations alone (never by what is on the board: a letter means the
    same thing all game). A player's pieces of the first owned kind take his
    colour's initial, of the second its capital; an unowned kind, or an owned
    kind with no owner, takes its initial; clashes with each other and with
    the map's characters (terrains, features, structures) fall back to their
    other letters, then digits."""
    taken = {".", "?"} | set(rules.legend.chars) | {str(s.get("char")) for s in _structure_kinds(rules).values()
                                                    if s.get("char")}
    wanted = []
    owned = [k for k, spec in rules.pieces.items() if (spec or {}).get("owned")]
    for rank, kind in enumerate(owned):
        for p in rules.player_range:
            color = rules.color(p)
            first = [color[0] if rank == 0 else color[0].upper()] if rank < 2 else []
            wanted.append(((kind, p), first + _letters(f"{color}{kind}")))
    for kind in rules.pieces:
        wanted.append(((kind, None), _letters(kind)))
    out = {}
    for item, tries in wanted:
        ch = next((c for c in tries + list("0123456789") if c not in taken), "?")
        taken.add(ch)
        out[item] = ch
    return out


def _letters(word: str) -> list[str]:
    return [c for c in word if c.isalnum()] + [c.upper() for c in word if c.isalpha()]


def _structure_kinds(rules) -> dict:
    return rules.data.get("structures") or {}


def _symbol(rules, symbols, item) -> str:
    kind, tag = item
    return symbols.get((kind, tag) if _owned(rules, kind, tag) else (kind, None), "?")


def _owned(rules, kind, tag) -> bool:
    return bool(rules.pieces.get(kind, {}).get("owned")) and isinstance(tag, int) and not isinstance(tag, bool)


def legend_lines(rules, shown) -> list[str]:
    """The key to the board's characters: the pieces shown (their letters
    fixed for the game), then the map's own characters (terrains, features,
    structures), when there is more than one."""
    out = []
    if shown:
        out.append("  " + ", ".join(f"{ch} {text}" for ch, text in shown.items()))
    keys = [(ch, name) for ch, (name, feats) in rules.legend.chars.items() if name and not feats]
    keys += [(ch, "+".join(sorted(feats))) for ch, (_t, feats) in rules.legend.chars.items() if feats]
    keys += [(str(s["char"]), kind) for kind, s in _structure_kinds(rules).items() if s.get("char")]
    if len(keys) > 1:           # (one kind of space needs no key)
        out.append("  map: " + ", ".join(f"{ch} {name}" for ch, name in keys))
    return out


def board_lines(rules, state) -> list[str]:
    """The board as rows of characters (a square or hex grid; a graph's
    spaces one a line), each space its top piece's symbol, else its
    structure's, feature's or terrain's character; then the key to them and
    what stands in each structure."""
    grid = rules.grid
    symbols = piece_symbols(rules)
    shown: dict = {}
    features = getattr(grid, "features", {}) or {}
    feature_char = {f: str(spec.get("char")) for f, spec in (rules.data.get("features") or {}).items()}
    structure_at = getattr(grid, "structure_at", {}) or {}
    kinds = _structure_kinds(rules)

    def mark(s):
        pool = state.pools.get(s) or {}
        items = [it for it, n in pool.items() if n > 0]
        if items:
            items.sort(key=lambda it: (it[0] not in rules.linking, it[0], str(it[1])))
            top = items[0]
            ch = _symbol(rules, symbols, top)
            face_down = top[1] == HIDDEN          # ('card:?': face down; the letter is still the kind's)
            shown[ch] = rules.show_item(top) if _owned(rules, *top) or face_down else top[0]
            return ch
        sid = structure_at.get(s)
        if sid is not None and kinds.get(grid.structures[sid].kind, {}).get("char"):
            return str(kinds[grid.structures[sid].kind]["char"])
        for f in sorted(features.get(s, ())):
            if feature_char.get(f):
                return feature_char[f]
        return str(rules.terrains.get(grid.terrain[s], {}).get("char", "."))

    out = []
    if not all(isinstance(s, tuple) and len(s) == 2 for s in grid.spaces):        # a graph: no rows to draw
        out.extend(f"  {grid.name(s):<8} {mark(s)}" for s in grid.spaces)
    else:
        rows = sorted({s[0] for s in grid.spaces})
        cols = sorted({s[1] for s in grid.spaces})
        hexes = getattr(grid.geometry, "kind", "square") == "hex"
        at = {s: 2 * (s[1] - cols[0]) + (s[0] - rows[0] if hexes else 0) for s in grid.spaces}
        label = max(len(str(r + 1)) for r in rows)
        width = max(at.values()) + 1
        head = [" "] * width
        for c in cols:          # column letters over the first row's cells
            name = grid.name((rows[0], c))
            letters = name.rstrip("0123456789")
            pos = 2 * (c - cols[0])
            if len(letters) == 1 and pos < width:
                head[pos] = letters
        out.append(" " * (label + 2) + "".join(head).rstrip())
        for r in rows:
            line = [" "] * width
            for s in (x for x in grid.spaces if x[0] == r):
                line[at[s]] = mark(s)
            out.append(f"{r + 1:>{label}}  " + "".join(line).rstrip())
    order = {ch: i for i, ch in enumerate(symbols.values())}
    out.extend(legend_lines(rules, dict(sorted(shown.items(), key=lambda kv: order.get(kv[0], len(order))))))
    out.extend(structure_lines(rules, state))
    return out


def structure_lines(rules, state) -> list[str]:
    """Each structure of the board, where it stands and what stands in it."""
    grid = rules.grid
    out = []
    for sid, st in (getattr(grid, "structures", {}) or {}).items():
        held = sorted(((it, n) for it, n in (state.pools.get(sid) or {}).items() if n > 0),
                      key=lambda kv: (kv[0][0], str(kv[0][1])))
        text = ", ".join(rules.show_item(it) + (f" x{n}" if n > 1 else "") for it, n in held) or "empty"
        where = f" ({grid.name(st.space)})" if st.space is not None else ""
        out.append(f"  {st.kind} {sid}{where}: {text}")
    return out


# ---------------- zones as text: grids and tracks ----------------
def cell_text(rules, state, cell) -> str:
    """What a cell holds, as a scenario lists it: '.' when empty, else its
    items joined by '+' (a count as item*N)."""
    pool = state.pools.get(cell) or {}
    items = sorted(((it, n) for it, n in pool.items() if n > 0), key=lambda kv: (kv[0][0], str(kv[0][1])))
    if not items:
        return "."
    return "+".join(rules.show_item(it) + (f"*{n}" if n > 1 else "") for it, n in items)


def grid_lines(rules, state, key) -> list[str]:
    """A grid zone as a table: a head line, the column numbers, then one line
    per row; only the columns in use are shown, and one more."""
    rows, columns = rules.grid_zones[key[0]]
    filled = [c for c in state.cells.get(key, ()) if state.pools.get(c)]
    shown = min(columns, max((c[3] for c in filled), default=-1) + 2)
    texts = {(r, c): cell_text(rules, state, key + (r, c)) for r in range(rows) for c in range(shown)}
    width = max([len(t) for t in texts.values()] + [len(str(shown - 1))])
    label = len(str(rows - 1))
    out = [f"{rules.show(key)}: {len(filled)} of {rows * columns} cells filled"
           + (f" (column {shown} empty)" if shown == columns - 1 else
              f" (columns {shown} to {columns - 1} empty)" if shown < columns else "")]
    out.append(" " * (label + 4) + "  ".join(f"{c:<{width}}" for c in range(shown)).rstrip())
    for r in range(rows):
        out.append(f"  {r:>{label}}  " + "  ".join(f"{texts[r, c]:<{width}}" for c in range(shown)).rstrip())
    return out


def grid_keys(rules) -> list:
    """Every grid zone: per player in turn order, then shared, in rulebook order."""
    out = []
    for name in rules.grid_zones:
        if rules.zones[name].get("per_player"):
            out.extend((name, p) for p in rules.player_range)
        else:
            out.append((name, None))
    return out


def track_line(rules, state, key) -> str:
    """A track's slots in order ('-' for an empty one), with its slots' values."""
    slots = state.tracks[key]
    values = rules.track_values.get(key[0], ())
    text = " | ".join("-" if x is None else rules.show_item(x) for x in slots)
    vals = f"; values {', '.join(rules.show(v) for v in values)}" if values else ""
    return f"{rules.show(key)}: {text}   (slots 0 to {len(slots) - 1}{vals})"


def position_lines(rules, state) -> list[str]:
    """The position for a person at the terminal: the board (if the game has
    one), each grid zone as a table, and the tracks where the game is played
    in zones (a board game's tracks stay in its log)."""
    out = board_lines(rules, state) if rules.grid.spaces else []
    for key in grid_keys(rules):
        out.extend(grid_lines(rules, state, key))
    if rules.grid_zones or not rules.grid.spaces:
        out.extend(track_line(rules, state, k) for k in sorted(state.tracks, key=rules.show))
    if rules.hidden_information:          # (a hand, a draw pile: what the seat holds, what it cannot see)
        out.extend(zone_lines(rules, state))
    return out


def zone_lines(rules, state) -> list[str]:
    """Each pool and deck zone that holds anything (a grid's cells and the
    board's spaces aside), a line each: its items, those face down as
    kind:? (a deck in its order, or by kind when its order is unknown)."""
    def item_text(it, n=1):
        return rules.show_item(it) + (f" x{n}" if n != 1 else "")

    lines = []
    for key, pool in state.pools.items():
        if not _is_zone(rules, key) or not any(n > 0 for n in pool.values()):
            continue
        items = sorted(((it, n) for it, n in pool.items() if n > 0), key=lambda kv: (kv[0][0], str(kv[0][1])))
        lines.append((rules.show(key), ", ".join(item_text(it, n) for it, n in items)))
    for key, deck in state.decks.items():
        if _is_zone(rules, key) and deck:
            if all(it[1] == HIDDEN for it in deck):
                kinds = {}
                for it in deck:
                    kinds[it[0]] = kinds.get(it[0], 0) + 1
                text = f"{len(deck)} face down (" + ", ".join(f"{k} x{n}" for k, n in sorted(kinds.items())) + ")"
            else:
                text = "top first: " + ", ".join(item_text(it) for it in deck)
            lines.append((rules.show(key), text))
    return [f"{name}: {text}" for name, text in sorted(lines)]


def _is_zone(rules, key) -> bool:
    """A zone's key (name, owner), not a space's or a grid cell's."""
    return type(key) is tuple and len(key) == 2 and key[0] in rules.zones and key[0] not in rules.grid_zones
