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

from . import stats as S

ALPHA = 0.05


def _verdict(diff, p, rate=False):
    if p is None or p != p:      # None or NaN
        return "not enough games to tell"
    if p < ALPHA:
        size = f"{100 * abs(diff):.1f} percentage points" if rate else f"{abs(diff):.3g}"
        return f"B {'higher' if diff > 0 else 'lower'} by {size} (significant, p={p:.3g})"
    return f"no significant difference (p={p:.3g})"


def compare_records(a: list, b: list) -> dict:
    """Metrics of both sides and their tests; games missing or failed on either side are left out of pairs."""
    ga = {r["game"]: r for r in a if "error" not in r}
    gb = {r["game"]: r for r in b if "error" not in r}
    common = sorted(set(ga) & set(gb))
    rows = []
    ma = {i: S.per_game_metrics(ga[i]) for i in common}
    mb = {i: S.per_game_metrics(gb[i]) for i in common}
    names = []
    for i in common:
        for k in list(ma[i]) + list(mb[i]):
            if k not in names:
                names.append(k)
    for k in names:
        xa = [ma[i].get(k, 0) for i in common]
        xb = [mb[i].get(k, 0) for i in common]
        t = S.paired_t([y - x for x, y in zip(xa, xb)])
        rows.append({"metric": k, "kind": "mean", "a": _mean(xa), "b": _mean(xb), "diff": t["mean"],
                     "lo": t["lo"], "hi": t["hi"], "p": t["p"], "test": t.get("test", "paired t"),
                     "verdict": _verdict(t["mean"], t["p"])})
    n = len(common)
    players = max((len(ga[i]["points"]) for i in common), default=0)
    for p in range(players):
        ka = sum(S.win_share(ga[i], p) for i in common)
        kb = sum(S.win_share(gb[i], p) for i in common)
        z = S.two_proportion(ka, n, kb, n)
        rows.append({"metric": f"seat {p} win rate", "kind": "rate", "a": z["p1"], "b": z["p2"], "diff": z["diff"],
                     "lo": None, "hi": None, "p": z["p"], "test": "two-proportion z",
                     "verdict": _verdict(z["diff"], z["p"], True)})
    agents = sorted({x for i in common for x in ga[i]["agents"]} | {x for i in common for x in gb[i]["agents"]})
    if len(agents) > 1:
        for ag in agents:
            na = sum(ga[i]["agents"].count(ag) for i in common)
            nb = sum(gb[i]["agents"].count(ag) for i in common)
            ka = sum(S.win_share(ga[i], p) for i in common for p, x in enumerate(ga[i]["agents"]) if x == ag)
            kb = sum(S.win_share(gb[i], p) for i in common for p, x in enumerate(gb[i]["agents"]) if x == ag)
            z = S.two_proportion(ka, na, kb, nb)
            rows.append({"metric": f"{ag} win rate", "kind": "rate", "a": z["p1"], "b": z["p2"], "diff": z["diff"],
                         "lo": None, "hi": None, "p": z["p"], "test": "two-proportion z",
                         "verdict": _verdict(z["diff"], z["p"], True)})
    trig = sorted({t for i in common for t in ga[i]["triggers"]} | {t for i in common for t in gb[i]["triggers"]})
    ta = sum(len(ga[i]["triggers"]) for i in common)
    tb = sum(len(gb[i]["triggers"]) for i in common)
    for t in trig:
        ka = sum(ga[i]["triggers"].count(t) for i in common)
        kb = sum(gb[i]["triggers"].count(t) for i in common)
        z = S.two_proportion(ka, ta, kb, tb)
        rows.append({"metric": f"share of triggers: {t}", "kind": "rate", "a": z["p1"], "b": z["p2"],
                     "diff": z["diff"], "lo": None, "hi": None, "p": z["p"], "test": "two-proportion z",
                     "verdict": _verdict(z["diff"], z["p"], True)})
    sa, sb = S.summarize(list(ga.values())), S.summarize(list(gb.values()))
    return {"games": n, "failed_a": len(a) - len(ga), "failed_b": len(b) - len(gb), "rows": rows,
            "summary_a": sa, "summary_b": sb,
            "errors_a": sorted({r["error"] for r in a if "error" in r}),
            "errors_b": sorted({r["error"] for r in b if "error" in r})}


def _mean(xs):
    return sum(xs) / len(xs) if xs else 0.0


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
