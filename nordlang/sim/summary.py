"""Statistics of a stream of game records, in memory that does not grow with the games.

`Moments` keeps a count, an exact sum and sum of squares (ints and
Fractions: no rounding drift over millions of games, and the same figures
as the list-based formulas), the least and greatest value and, where a
median or a chart needs them, the count of each distinct value, up to
MAX_VALUES distinct values (game results are small whole numbers; past
the cap the median is dropped and shown as "-"). `Summary` feeds every
record into such counters and gives `stats.format_summary` the same data
the list-based summary gave.
"""

from __future__ import annotations

import math
import statistics
from fractions import Fraction

MAX_VALUES = 4096
MAX_ERROR_KINDS = 1000


def _exact(x):
    """x as an int or a Fraction (exact arithmetic); a non-finite float stays a float."""
    if isinstance(x, int):
        return x
    try:
        return int(x) if float(x).is_integer() else Fraction(x)
    except (ValueError, OverflowError):
        return float(x)


class Moments:
    """Count, exact sum and sum of squares, min, max (and optionally each value's count) of numbers."""

    __slots__ = ("n", "total", "squares", "lo", "hi", "counts")

    def __init__(self, values: bool = False):
        self.n, self.total, self.squares, self.lo, self.hi = 0, 0, 0, None, None
        self.counts = {} if values else None

    def add(self, x, k: int = 1) -> None:
        """Add the number x, k times."""
        q = _exact(x)
        self.n += k
        self.total += k * q
        self.squares += k * q * q
        self.lo = q if self.lo is None or q < self.lo else self.lo
        self.hi = q if self.hi is None or q > self.hi else self.hi
        if self.counts is not None:
            self.counts[q] = self.counts.get(q, 0) + k
            if len(self.counts) > MAX_VALUES:
                self.counts = None          # too many distinct values: no median, no chart

    def pad(self, n: int) -> None:
        """Count zeros until there are n numbers (a note kind a game did not make)."""
        if n > self.n:
            self.add(0, n - self.n)

    @property
    def mean(self) -> float:
        return float(self.total / self.n) if self.n else 0.0

    @property
    def sd(self) -> float:
        if self.n < 2:
            return 0.0
        var = (self.squares - self.total * self.total / self.n) / (self.n - 1)
        return math.sqrt(max(0.0, float(var)))

    def median(self):
        """The median (the mean of the two middle values for an even count); None past the cap."""
        if self.counts is None or not self.n:
            return None if self.n else 0.0
        want = [(self.n - 1) // 2, self.n // 2]
        got, seen = [], 0
        for v in sorted(self.counts):
            seen += self.counts[v]
            while want and want[0] < seen:
                got.append(v)
                want.pop(0)
            if not want:
                break
        return float((got[0] + got[1]) / 2)

    def summary(self) -> dict:
        """What stats' `_ms` gave for a list: n, mean, sd, min, median, max."""
        if not self.n:
            return {"n": 0, "mean": 0.0, "sd": 0.0, "min": 0.0, "median": 0.0, "max": 0.0}
        return {"n": self.n, "mean": self.mean, "sd": self.sd, "min": float(self.lo), "median": self.median(),
                "max": float(self.hi)}


def win_share(rec, seat) -> Fraction:
    """A seat's share of the win: 1/k to each of k tied winners."""
    w = rec.get("winners") or []
    return Fraction(1, len(w)) if seat in w else Fraction(0)


def outcome(rec, seat) -> int:
    """0 for a win (shared or not), 1 for a draw (a record with no winners), 2 for a loss."""
    w = rec.get("winners") or []
    return 1 if not w else 0 if seat in w else 2


def margin(rec):
    pts = sorted(rec["points"], reverse=True)
    return pts[0] - pts[1] if len(pts) > 1 else 0


class Summary:
    """Running statistics of game records (fed in game order, for a stable print)."""

    def __init__(self):
        self.n = self.failed = 0
        self.errors: set = set()
        self.more_errors = False
        self.players = 0
        self.seat_wins: list = []
        self.seat_points: list = []
        self.seat_outcomes: list = []       # [wins, draws, losses] per seat
        self.draws = 0
        self.agents: dict = {}
        self.sources: dict | None = None
        self.total_points, self.margin, self.turns = Moments(True), Moments(True), Moments(True)
        self.decisions, self.branching, self.lead_changes = Moments(), Moments(), Moments()
        self.elapsed = [0, 0.0]
        self.triggers: dict = {}
        self.by_order: dict = {}
        self.notes: dict = {}
        self.held: dict = {}                # "zone: piece" -> Moments of each player's count at the end
        self.per_turn: dict = {}

    def add(self, r: dict, elapsed: float | None = None) -> None:
        """Count one game's record (and, if known, the seconds it took)."""
        if "error" in r:
            self.failed += 1
            if r["error"] not in self.errors:
                if len(self.errors) < MAX_ERROR_KINDS:
                    self.errors.add(r["error"])
                else:
                    self.more_errors = True
            return
        self.n += 1
        self.players = max(self.players, len(r["points"]))
        while len(self.seat_wins) < self.players:
            self.seat_wins.append(Fraction(0))
            self.seat_points.append(Moments(True))
            self.seat_outcomes.append([0, 0, 0])
        self.draws += not r.get("winners")
        for p, x in enumerate(r["points"]):
            self.seat_wins[p] += win_share(r, p)
            self.seat_outcomes[p][outcome(r, p)] += 1
            self.seat_points[p].add(x)
            self.total_points.add(x)
        for p, a in enumerate(r["agents"]):
            d = self.agents.get(a)
            if d is None:
                d = self.agents[a] = {"games": 0, "wins": Fraction(0), "points": Moments(), "outcomes": [0, 0, 0]}
            d["games"] += 1
            d["outcomes"][outcome(r, p)] += 1
            d["wins"] += win_share(r, p)
            d["points"].add(r["points"][p])
        if self.sources is None:
            self.sources = {src: Moments(True) for src in r["sources"]}
        for src, m in self.sources.items():
            for x in r["sources"].get(src, []):
                m.add(x)
        self.margin.add(margin(r))
        self.turns.add(r["turns"])
        self.decisions.add(r["decisions"])
        self.branching.add(r["branching"])
        self.lead_changes.add(r["lead_changes"])
        if elapsed is not None:
            self.elapsed[0] += 1
            self.elapsed[1] += elapsed
        for i, t in enumerate(r["triggers"]):
            self.triggers[t] = self.triggers.get(t, 0) + 1
            order = self.by_order.setdefault(i + 1, {})
            order[t] = order.get(t, 0) + 1
        for k, v in r["notes"].items():
            m = self.notes.get(k)
            if m is None:
                m = self.notes[k] = Moments()
            m.pad(self.n - 1)
            m.add(v)
        held = r.get("held", {})        # (records of older files hold none)
        for k in held:
            if k not in self.held:
                self.held[k] = Moments()
        for k, m in self.held.items():
            m.pad(len(r["points"]) * (self.n - 1))
            for x in held.get(k, [0] * len(r["points"])):
                m.add(x)
        for t, (d, o) in enumerate(r["options_by_turn"]):
            slot = self.per_turn.setdefault(t, [0, 0])
            slot[0] += d
            slot[1] += o

    def result(self) -> dict:
        """Everything `stats.format_summary` prints, as plain data."""
        from .stats import chi2_sf, wilson
        n, players = self.n, self.players
        kinds = sorted(self.errors)
        s: dict = {"games": n, "failed": self.failed, "players": players, "errors": kinds[:5],
                   "error_kinds": len(kinds), "more_error_kinds": self.more_errors}
        if not n:
            return s
        seats = []
        for p in range(players):
            k = float(self.seat_wins[p])
            lo, hi = wilson(k, n)
            won, drawn, lost = self.seat_outcomes[p]
            seats.append({"seat": p, "wins": k, "rate": k / n, "lo": lo, "hi": hi,
                          "points": self.seat_points[p].summary(), "won": won, "drawn": drawn, "lost": lost})
        s["seats"] = seats
        s["agents"] = {}
        for a, d in sorted(self.agents.items()):
            w = float(d["wins"])
            lo, hi = wilson(w, d["games"])
            won, drawn, lost = d["outcomes"]
            s["agents"][a] = {"games": d["games"], "wins": w, "rate": w / d["games"], "lo": lo, "hi": hi,
                              "points": d["points"].summary(), "won": won, "drawn": drawn, "lost": lost}
        s["draws"] = self.draws
        s["sources"] = {src: m.summary() for src, m in (self.sources or {}).items()}
        s["total_points"] = self.total_points.summary()
        s["margin"] = self.margin.summary()
        s["turns"] = self.turns.summary()
        s["decisions"] = self.decisions.summary()
        count, secs = self.elapsed
        s["elapsed"] = {"n": count, "mean": secs / count if count else 0.0}
        s["triggers"] = dict(sorted(self.triggers.items(), key=lambda kv: -kv[1]))
        s["triggers_by_order"] = {k: dict(sorted(v.items(), key=lambda kv: -kv[1]))
                                  for k, v in sorted(self.by_order.items())}
        for m in self.notes.values():
            m.pad(n)
        s["notes"] = {k: self.notes[k].summary() for k in sorted(self.notes)}
        for m in self.held.values():
            m.pad(n * players)
        s["held"] = {k: self.held[k].summary() for k in sorted(self.held)}
        rates = [x["rate"] for x in seats]
        # a seat's fair share of the wins: the games someone won, split evenly (draws are nobody's)
        decided = n - self.draws
        expected = decided / players
        fair = expected / n
        chi2 = (sum((x["wins"] - expected) ** 2 / expected for x in seats)
                if players > 1 and expected else 0.0)
        s["balance"] = {
            "first_seat_advantage": rates[0] - fair,
            "first_seat_ci": (seats[0]["lo"] - fair, seats[0]["hi"] - fair),
            "seat_spread": max(rates) - min(rates),
            "seat_sd": statistics.pstdev(rates),
            "chi2": chi2, "chi2_p": chi2_sf(chi2, players - 1) if players > 1 else 1.0,
        }
        s["branching"] = self.branching.summary()
        s["lead_changes"] = self.lead_changes.summary()
        s["branching_by_turn"] = {t: (o / d if d else 0.0, d) for t, (d, o) in sorted(self.per_turn.items())}
        return s


def summarize(records) -> dict:
    """The summary of a list (or any iterable) of records."""
    s = Summary()
    for r in records:
        s.add(r, r.get("elapsed"))
    return s.result()
