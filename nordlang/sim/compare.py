"""Two configurations on the same seeds, side by side.

Game i of side A and game i of side B share their seed (and, with the same
agents, their seating), so each per-game number is compared as a paired
difference B - A: its mean, 95% interval and the two-sided p-value of a
paired t-test on the per-seed differences. Rates (a seat's wins, how often
a trigger sets off a scoring) are compared with a pooled two-proportion
z-test. A verdict per metric says which side is higher at the 5% level, or
that no difference was found. With many metrics some will pass 5% by
chance: read the p-values, not only the verdicts.
"""

from __future__ import annotations

from fractions import Fraction

from . import stats as S
from .summary import MAX_ERROR_KINDS, Moments, Summary, outcome, win_share

ALPHA = 0.05


def _verdict(diff, p, rate=False):
    if p is None or p != p:      # None or NaN
        return "not enough games to tell"
    if p < ALPHA:
        size = f"{100 * abs(diff):.1f} percentage points" if rate else f"{abs(diff):.3g}"
        return f"B {'higher' if diff > 0 else 'lower'} by {size} (significant, p={p:.3g})"
    return f"no significant difference (p={p:.3g})"


class Comparison:
    """Running comparison of two sides, fed game by game (memory flat in the games).

    Each metric keeps the moments of A, of B and of the difference B - A
    over the games that ended on both sides; rates keep their counts.
    """

    def __init__(self):
        self.n = 0
        self.failed = {"a": 0, "b": 0}
        self.errors = {"a": set(), "b": set()}
        self.summaries = {"a": Summary(), "b": Summary()}
        self.metrics: dict = {}         # name -> (A, B, B - A) moments, in order of first appearance
        self.players = 0
        self.seat_wins: list = []       # [wins of A, wins of B] per seat
        self.seat_losses: list = []     # [losses of A, losses of B] per seat
        self.draws = [0, 0]             # games with no winner, of A and of B
        self.agents: dict = {}          # agent -> [seats A, seats B, wins A, wins B]
        self.triggers: dict = {}        # trigger -> [count A, count B]
        self.trigger_totals = [0, 0]

    def add(self, ra: dict | None, rb: dict | None) -> None:
        """Game i of A and of B (None: not played on that side)."""
        for side, r in (("a", ra), ("b", rb)):
            if r is None:
                continue
            if "error" in r:
                self.failed[side] += 1
                if len(self.errors[side]) < MAX_ERROR_KINDS:
                    self.errors[side].add(r["error"])
            else:
                self.summaries[side].add(r)
        if ra is None or rb is None or "error" in ra or "error" in rb:
            return
        self.n += 1
        ma, mb = S.per_game_metrics(ra), S.per_game_metrics(rb)
        for k in list(ma) + list(mb):
            if k not in self.metrics:
                self.metrics[k] = (Moments(), Moments(), Moments())
        for k, (xa, xb, d) in self.metrics.items():
            if k in ma or k in mb:
                for m in (xa, xb, d):
                    m.pad(self.n - 1)
                x, y = ma.get(k, 0), mb.get(k, 0)
                xa.add(x)
                xb.add(y)
                d.add(y - x)
        self.players = max(self.players, len(ra["points"]))
        while len(self.seat_wins) < self.players:
            self.seat_wins.append([Fraction(0), Fraction(0)])
            self.seat_losses.append([0, 0])
        for side, r in enumerate((ra, rb)):
            self.draws[side] += not r.get("winners")
            for p in range(self.players):
                self.seat_wins[p][side] += win_share(r, p)
                self.seat_losses[p][side] += outcome(r, p) == 2
            for p, ag in enumerate(r["agents"]):
                slot = self.agents.setdefault(ag, [0, 0, Fraction(0), Fraction(0)])
                slot[side] += 1
                slot[2 + side] += win_share(r, p)
            for t in r["triggers"]:
                self.triggers.setdefault(t, [0, 0])[side] += 1
                self.trigger_totals[side] += 1

    def result(self) -> dict:
        """The rows of `format_comparison`: each metric, its test and verdict."""
        rows = []
        n = self.n
        for k, (xa, xb, d) in self.metrics.items():
            for m in (xa, xb, d):
                m.pad(n)
            t = S.paired_t_of(d.n, d.mean, d.sd)
            rows.append({"metric": k, "kind": "mean", "a": xa.mean, "b": xb.mean, "diff": t["mean"],
                         "lo": t["lo"], "hi": t["hi"], "p": t["p"], "test": t.get("test", "paired t"),
                         "verdict": _verdict(t["mean"], t["p"])})

        def rate(name, ka, na, kb, nb):
            z = S.two_proportion(float(ka), na, float(kb), nb)
            rows.append({"metric": name, "kind": "rate", "a": z["p1"], "b": z["p2"], "diff": z["diff"],
                         "lo": None, "hi": None, "p": z["p"], "test": "two-proportion z",
                         "verdict": _verdict(z["diff"], z["p"], True)})
        for p, (ka, kb) in enumerate(self.seat_wins):
            rate(f"seat {p} win rate", ka, n, kb, n)
        if any(self.draws):         # (without draws, a loss is what is not a win)
            rate("draw rate", self.draws[0], n, self.draws[1], n)
            for p, (ka, kb) in enumerate(self.seat_losses):
                rate(f"seat {p} loss rate", ka, n, kb, n)
        if len(self.agents) > 1:
            for ag, (na, nb, ka, kb) in sorted(self.agents.items()):
                rate(f"{ag} win rate", ka, na, kb, nb)
        ta, tb = self.trigger_totals
        for t, (ka, kb) in sorted(self.triggers.items()):
            rate(f"share of triggers: {t}", ka, ta, kb, tb)
        return {"games": n, "failed_a": self.failed["a"], "failed_b": self.failed["b"], "rows": rows,
                "summary_a": self.summaries["a"].result(), "summary_b": self.summaries["b"].result(),
                "errors_a": sorted(self.errors["a"]), "errors_b": sorted(self.errors["b"])}


def compare_records(a: list, b: list) -> dict:
    """Metrics of both sides and their tests; games missing or failed on either side are left out of pairs."""
    ga, gb = {r["game"]: r for r in a}, {r["game"]: r for r in b}
    c = Comparison()
    for i in sorted(set(ga) | set(gb)):
        c.add(ga.get(i), gb.get(i))
    return c.result()


def comparison_json(c: dict, label_a: str = "A", label_b: str = "B") -> dict:
    """What `format_comparison` prints, as plain data (rates as fractions, not percents)."""
    return {"a": label_a, "b": label_b, "games": c["games"], "failed_a": c["failed_a"], "failed_b": c["failed_b"],
            "alpha": ALPHA, "rows": c["rows"], "errors_a": c["errors_a"], "errors_b": c["errors_b"]}


def format_comparison(c: dict, label_a: str = "A", label_b: str = "B") -> list:
    lines = [f"A: {label_a}", f"B: {label_b}",
             f"{c['games']} games on the same seeds"
             + (f" (failed: A {c['failed_a']}, B {c['failed_b']})" if c["failed_a"] or c["failed_b"] else ""),
             "means: paired t-test on per-seed differences B - A (a sign test where all are equal); "
             "rates: pooled two-proportion z-test; 5% level",
             ""]
    w = max([40] + [len(r["metric"]) for r in c["rows"]])      # (names from the rulebook are never cut)
    lines.append(f"  {'metric':<{w}} {'A':>9} {'B':>9} {'B - A':>9} {'95% CI':>19} {'p':>8}  verdict")
    for r in c["rows"]:
        pct = r["kind"] == "rate"

        def fmt(x, pct=pct):
            if x is None:
                return ""
            return f"{100 * x:.1f}%" if pct else f"{x:.2f}"
        ci = f"[{fmt(r['lo'])}, {fmt(r['hi'])}]" if r["lo"] is not None else ""
        p = "" if r["p"] is None else f"{r['p']:.3g}"
        lines.append(f"  {r['metric']:<{w}} {fmt(r['a']):>9} {fmt(r['b']):>9} {fmt(r['diff']):>9} {ci:>19} "
                     f"{p:>8}  {r['verdict']}")
    if not c["rows"]:
        lines.append("  (no game ended on both sides: nothing to compare)")
    for side in ("a", "b"):
        errors = c.get(f"errors_{side}", [])
        for e in errors[:3]:
            lines.append(f"{side.upper()}: error: {e}")
        if len(errors) > 3:
            lines.append(f"{side.upper()}: ... and {len(errors) - 3} other error(s)")
    return lines
