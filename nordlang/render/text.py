"""Readable text for logs: each decision, the rulebook's notes, scorings
with their per-player, per-place breakdown, and the final table."""

from __future__ import annotations

from ..engine.record import describe


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
            out.append(f"    {rules.color(p):<8} +{total:<3} {source}" + (f"  ({detail})" if detail else ""))
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
    if len(rules.rank) > 1 and res is not None:
        head += f"{'tie-break':>11}"
    lines = [head]
    for p in rules.player_range:
        row = f"  {rules.color(p):<8}" + "".join(f"{st.counters.get(('points', p, s), 0):>11}" for s in sources)
        row += f"{st.counters.get(('points', p), 0):>8}"
        if len(rules.rank) > 1 and res is not None:
            row += f"{rules.show(res.ranking[p][1]):>11}"
        lines.append(row)
    if res is not None and res.draw:
        lines.append("draw: no winner")
    elif res is not None:
        names = " and ".join(rules.color(w) for w in res.winners)
        lines.append(f"winner: {names}" if len(res.winners) == 1 else f"winners (shared): {names}")
    return lines
