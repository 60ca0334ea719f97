"""Distributions of simulation records as charts drawn with matplotlib.

`nord simulate --plot DIR` writes each chart as SVG and PNG: final points
(one panel per seat, on shared bins), points by source (one panel each),
game length and winning margin. Every title says the configuration. The
files are the same byte for byte for the same records: the SVG's ids are
salted with a constant, and neither format carries a date.

matplotlib is an optional extra (`pip install 'nordlang[plot]'`); without
it, --plot is a clear error before any game is played.
"""

from __future__ import annotations

import io
import math
import os

from ..errors import UsageError

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
MAX_BINS = 30
FORMATS = ("svg", "png")
PNG_DPI = 100
_RC = {"svg.hashsalt": "nordlang", "svg.fonttype": "path", "font.size": 10, "axes.titlesize": 10,
       "axes.spines.top": False, "axes.spines.right": False}
_METADATA = {"svg": {"Date": None, "Creator": None}, "png": {"Software": None}}


def require_matplotlib():
    """matplotlib's Figure, or a UsageError that says how to get it."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise UsageError("--plot draws its charts with matplotlib, which is not installed",
                         hint="pip install 'nordlang[plot]' (or leave out --plot)") from None
    return Figure


# ---------------- bins ----------------
def _nice(x: float) -> float:
    """The least of 1, 2, 5, 10, 20, 50... that is at least x."""
    if x <= 1:
        return 1
    power = 10 ** math.floor(math.log10(x))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= x)


def bin_edges(values) -> list:
    """Shared bins for whole numbers: one per value, or per 2, 5, 10... values, each
    centred so that a round number starts it; else up to MAX_BINS equal bins."""
    lo, hi = min(values), max(values)
    if all(float(v).is_integer() for v in values):
        step = _nice((hi - lo + 1) / MAX_BINS)
        start = math.floor(lo / step) * step
        count = math.floor((hi - start) / step) + 1
        return [start - 0.5 + k * step for k in range(count + 1)]
    if hi == lo:
        return [lo - 0.5, lo + 0.5]
    return [lo + (hi - lo) * k / MAX_BINS for k in range(MAX_BINS + 1)]


def _heights(counts: dict, edges: list) -> list:
    out = [0] * (len(edges) - 1)
    span = edges[-1] - edges[0]
    for v, k in counts.items():
        i = int((float(v) - edges[0]) / span * (len(edges) - 1))
        out[min(max(i, 0), len(out) - 1)] += k
    return out


# ---------------- panels ----------------
def _mean_sd(counts: dict) -> tuple:
    n = sum(counts.values())
    mean = sum(float(v) * k for v, k in counts.items()) / n
    var = sum(k * (float(v) - mean) ** 2 for v, k in counts.items()) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var)


def _panel(ax, counts, edges, color, name, xlabel, ylabel) -> None:
    """One distribution: a bar per bin (apart, so each reads alone), its mean as a dashed line, its
    figures in the title."""
    from matplotlib.ticker import MaxNLocator
    if not counts:
        ax.set_title(f"{name}: no data (too many distinct values to chart)", loc="left")
        ax.set_yticks([])
        return
    width = edges[1] - edges[0]
    centres = [a + width / 2 for a in edges[:-1]]
    ax.bar(centres, _heights(counts, edges), width=width * 0.88, color=color, alpha=0.6, edgecolor=color,
           linewidth=1)
    mean, sd = _mean_sd(counts)
    ax.axvline(mean, color="#222222", linestyle="--", linewidth=1)
    ax.set_title(f"{name}: mean {mean:.1f}, sd {sd:.1f}, {sum(counts.values())} values", loc="left")
    ax.set_xlim(edges[0], edges[-1])
    ax.xaxis.set_major_locator(MaxNLocator(nbins=10, integer=True, steps=[1, 2, 5, 10]))
    ax.yaxis.set_major_locator(MaxNLocator(nbins=5, integer=True, steps=[1, 2, 5, 10], min_n_ticks=3))
    ax.grid(axis="y", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.set_ylabel(ylabel)
    ax.set_xlabel(xlabel)


def chart(Figure, panels: list, heading: str, config: str, xlabel: str, shared: bool = True, ylabel="games",
          colors=None):
    """A figure of one panel per (name, {value: count} or None), stacked, on shared bins when `shared`
    (`colors`: each panel's, else the palette's)."""
    rows = max(1, len(panels))
    fig = Figure(figsize=(8, 1.2 + 2.0 * rows), layout="constrained")
    fig.suptitle(f"{heading}\n{config}", fontsize=11)
    axes = fig.subplots(rows, 1, sharex=shared, squeeze=False)[:, 0]
    known = [v for _name, c in panels if c for v in c]
    edges = bin_edges(known) if known else [0, 1]
    for i, (ax, (name, counts)) in enumerate(zip(axes, panels)):
        _panel(ax, counts or {}, edges if shared else bin_edges(list(counts)) if counts else [0, 1],
               colors[i] if colors and i < len(colors) else PALETTE[i % len(PALETTE)], name, xlabel, ylabel)
        if shared and i < rows - 1:
            ax.set_xlabel("")
            ax.tick_params(labelbottom=True)
    if not panels:
        axes[0].set_axis_off()
        axes[0].text(0.5, 0.5, "no data", ha="center", va="center", transform=axes[0].transAxes)
    return fig


def figure_bytes(fig, fmt: str) -> bytes:
    """The figure as SVG or PNG bytes, the same for the same figure (no date, a fixed id salt)."""
    import matplotlib
    buf = io.BytesIO()
    with matplotlib.rc_context(_RC):
        fig.savefig(buf, format=fmt, dpi=PNG_DPI, metadata=_METADATA[fmt])
    return buf.getvalue()


def _counts(m):
    return None if m.counts is None else {v: k for v, k in m.counts.items()}


def charts(summary, config: str, players=None) -> dict:
    """{file stem: figure} of a streaming Summary; `players`: each seat's (colour name, colour drawn in),
    so a seat's panel is named and drawn as the game draws that player."""
    Figure = require_matplotlib()
    import matplotlib
    n = summary.n
    with matplotlib.rc_context(_RC):
        seats = [(f"seat {p + 1}" + (f" ({players[p][0]})" if players and p < len(players) else ""), _counts(m))
                 for p, m in enumerate(summary.seat_points)]
        sources = [(str(s), _counts(m)) for s, m in (summary.sources or {}).items()]
        return {
            "points": chart(Figure, seats, f"Final points by seat ({n} games)", config, "points",
                            colors=[value for _name, value in players] if players else None),
            "sources": chart(Figure, sources, f"Points by source, per player and game ({n} games)", config,
                             "points", shared=False, ylabel="player-games"),
            "length": chart(Figure, [("turns", _counts(summary.turns))], f"Game length ({n} games)", config,
                            "turns"),
            "margin": chart(Figure, [("margin", _counts(summary.margin))] if summary.players > 1 else [],
                            f"Winning margin ({n} games)", config, "points ahead of the second"),
        }


def write_plots(summary, folder, title="", players=None) -> list:
    """points, sources, length and margin charts, each as .svg and .png, from a
    streaming Summary (or a list of records); each file written atomically;
    returns the paths written."""
    from ..engine.record import write_atomic
    from .summary import Summary
    require_matplotlib()
    if not isinstance(summary, Summary):
        records, summary = summary, Summary()
        for r in records:
            summary.add(r)
    os.makedirs(folder, exist_ok=True)
    paths = []
    for stem, fig in charts(summary, title, players).items():
        for fmt in FORMATS:
            path = os.path.join(folder, f"{stem}.{fmt}")
            write_atomic(path, data=figure_bytes(fig, fmt))
            paths.append(path)
    return paths
