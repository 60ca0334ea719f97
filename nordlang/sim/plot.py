"""Distributions of simulation records as small hand-written SVG charts."""

from __future__ import annotations

import math
import os
from html import escape

PALETTE = ["#c0392b", "#2e6fd8", "#d4a017", "#2e8b57", "#7d3c98", "#555555"]


def histogram_svg(series: dict, title: str, xlabel: str, bins: int = 20, width: int = 640,
                  height: int = 360) -> str:
    """Overlaid histograms (as step outlines) of {label: values} on shared bins.

    The values of a label are a list, or a {value: count} dict (what the
    streaming summary keeps).
    """
    series = {label: vs if isinstance(vs, dict) else _counts(vs) for label, vs in series.items()}
    allv = [v for vs in series.values() for v in vs]
    left, right, top, bottom = 56, 16, 40, 48
    pw, ph = width - left - right, height - top - bottom
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="14">{escape(title)}</text>']
    if not allv:
        out.append(f'<text x="{width / 2}" y="{height / 2}" text-anchor="middle">no data</text></svg>')
        return "\n".join(out)
    lo, hi = min(allv), max(allv)
    if hi == lo:
        hi = lo + 1
    span = hi - lo
    if all(float(v).is_integer() for v in allv) and span + 1 <= bins:
        bins = int(span) + 1
        edges = [lo - 0.5 + k for k in range(bins + 1)]
    else:
        edges = [lo + span * k / bins for k in range(bins + 1)]
    counts = {}
    for label, vs in series.items():
        c = [0] * bins
        for v, times in vs.items():
            k = int((v - edges[0]) / (edges[-1] - edges[0]) * bins)
            c[min(max(k, 0), bins - 1)] += times
        counts[label] = c
    ymax = max(max(c) for c in counts.values()) or 1

    def x(v):
        return left + (v - edges[0]) / (edges[-1] - edges[0]) * pw

    def y(c):
        return top + ph - c / ymax * ph
    # axes and ticks
    out.append(f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="black"/>')
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="black"/>')
    for k in range(6):
        v = edges[0] + (edges[-1] - edges[0]) * k / 5
        out.append(f'<text x="{x(v):.1f}" y="{top + ph + 16}" text-anchor="middle">{_num(v)}</text>')
    step = max(1, math.ceil(ymax / 5))
    for c in range(0, ymax + 1, step):
        out.append(f'<text x="{left - 6}" y="{y(c) + 4:.1f}" text-anchor="end">{c}</text>')
        out.append(f'<line x1="{left}" y1="{y(c):.1f}" x2="{left + pw}" y2="{y(c):.1f}" stroke="#eee"/>')
    out.append(f'<text x="{left + pw / 2}" y="{height - 8}" text-anchor="middle">{escape(xlabel)}</text>')
    out.append(f'<text x="14" y="{top + ph / 2}" text-anchor="middle" '
               f'transform="rotate(-90 14 {top + ph / 2})">games</text>')
    for n, (label, c) in enumerate(counts.items()):
        color = PALETTE[n % len(PALETTE)]
        pts = [f"{x(edges[0]):.1f},{y(0):.1f}"]
        for k in range(bins):
            pts.append(f"{x(edges[k]):.1f},{y(c[k]):.1f}")
            pts.append(f"{x(edges[k + 1]):.1f},{y(c[k]):.1f}")
        pts.append(f"{x(edges[-1]):.1f},{y(0):.1f}")
        fill = color if len(counts) == 1 else "none"
        out.append(f'<polyline points="{" ".join(pts)}" fill="{fill}" fill-opacity="0.35" stroke="{color}" '
                   f'stroke-width="1.5"/>')
        if len(counts) > 1:
            ly = top + 4 + 16 * n
            out.append(f'<rect x="{left + pw - 110}" y="{ly}" width="10" height="10" fill="{color}"/>')
            out.append(f'<text x="{left + pw - 95}" y="{ly + 9}">{escape(str(label))}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _num(v):
    return str(int(round(v))) if abs(v - round(v)) < 1e-9 or abs(v) >= 10 else f"{v:.1f}"


def _counts(values) -> dict:
    out: dict = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out


def write_plots(summary, folder, title="") -> list:
    """points.svg (final points per seat), sources.svg (points by source),
    length.svg (turns) and margin.svg, from a streaming Summary (or a list
    of records); each written atomically; returns the paths written. A
    distribution with too many distinct values to keep shows "no data"."""
    from ..engine.record import write_atomic
    from .summary import Summary
    if not isinstance(summary, Summary):
        records, summary = summary, Summary()
        for r in records:
            summary.add(r)

    def counts(m):
        return {float(v): k for v, k in (m.counts or {}).items()}
    os.makedirs(folder, exist_ok=True)
    charts = {
        "points.svg": histogram_svg({f"seat {p}": counts(m) for p, m in enumerate(summary.seat_points)},
                                    f"final points by seat: {title}", "points"),
        "sources.svg": histogram_svg({s: counts(m) for s, m in (summary.sources or {}).items()},
                                     f"points by source (per player and game): {title}", "points"),
        "length.svg": histogram_svg({"turns": counts(summary.turns)}, f"game length: {title}", "turns"),
        "margin.svg": histogram_svg({"margin": counts(summary.margin)} if summary.players > 1 else {},
                                    f"winning margin: {title}", "points ahead of the second"),
    }
    paths = []
    for name, svg in charts.items():
        path = os.path.join(folder, name)
        write_atomic(path, data=(svg + "\n").encode("utf-8"))
        paths.append(path)
    return paths
