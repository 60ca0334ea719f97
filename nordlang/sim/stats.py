"""Statistics over simulation records (standard library only).

Win rates count a shared first place as a fraction (1/k to each of k
tied winners); their 95% intervals are Wilson score intervals. Seat
balance: first-seat advantage (seat 0's win rate minus 1/P), the spread
(highest minus lowest seat win rate) and a chi-square goodness-of-fit
test of the seats' wins against an even split. Everything rule-specific
(point sources, note kinds, triggers) is read from the records, which
take it from the rulebook.
"""

from __future__ import annotations

import math
import statistics

Z95 = 1.959963984540054


# ---------------- small distributions ----------------
def wilson(k: float, n: int, z: float = Z95) -> tuple:
    """Wilson score interval of a proportion k/n (k may be fractional)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    den = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / den
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n))) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def _betacf(a, b, x):
    # continued fraction of the regularized incomplete beta (Lentz)
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(c) > tiny else 1 + aa / tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(c) > tiny else 1 + aa / tiny
        de = d * c
        h *= de
        if abs(de - 1) < 1e-14:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1 - math.exp(lbt) * _betacf(b, a, 1 - x) / b


def t_two_sided(t: float, df: float) -> float:
    """Two-sided p-value of Student's t with df degrees of freedom."""
    if df <= 0 or math.isnan(t):
        return float("nan")
    if math.isinf(t):
        return 0.0
    return betainc(df / 2, 0.5, df / (df + t * t))


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for a chi-square variable with df degrees of freedom."""
    if x <= 0:
        return 1.0
    a, y = df / 2, x / 2
    if y < a + 1:       # series for P, then 1 - P
        term = total = 1 / a
        k = a
        for _ in range(1000):
            k += 1
            term *= y / k
            total += term
            if term < total * 1e-15:
                break
        return max(0.0, 1 - total * math.exp(-y + a * math.log(y) - math.lgamma(a)))
    # continued fraction for Q
    tiny = 1e-300
    b = y + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > tiny else tiny)
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        de = d * c
        h *= de
        if abs(de - 1) < 1e-15:
            break
    return min(1.0, math.exp(-y + a * math.log(y) - math.lgamma(a)) * h)


# ---------------- tests ----------------
def paired_t(diffs) -> dict:
    """Paired t-test of per-seed differences (B - A): mean, its 95% interval, t, p."""
    from .summary import Moments
    m = Moments()
    for x in diffs:
        m.add(float(x))
    return paired_t_of(m.n, m.mean, m.sd)


def paired_t_of(n: int, mean: float, sd: float) -> dict:
    """The paired t-test from the count, mean and standard deviation of the differences."""
    out = {"n": n, "mean": mean, "lo": None, "hi": None, "t": None, "p": None}
    if n < 2:
        return out
    se = sd / math.sqrt(n)
    m = out["mean"]
    if se == 0:
        # every difference the same: no spread for a t-test; an exact sign test says how
        # likely n differences of one sign are by chance (2 games: p = 0.5, not 0)
        out.update(t=0.0 if m == 0 else math.copysign(math.inf, m), p=1.0 if m == 0 else min(1.0, 2 * 0.5 ** n),
                   lo=m, hi=m, test="sign test (all differences equal)")
        return out
    t = m / se
    tc = _t_crit(n - 1)
    out.update(t=t, p=t_two_sided(t, n - 1), lo=m - tc * se, hi=m + tc * se)
    return out


def welch_t(a, b) -> dict:
    """Welch's t-test of two independent samples (mean of b minus mean of a)."""
    a, b = [float(x) for x in a], [float(x) for x in b]
    out = {"mean": (statistics.fmean(b) if b else 0) - (statistics.fmean(a) if a else 0), "t": None, "p": None}
    if len(a) < 2 or len(b) < 2:
        return out
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    se = math.sqrt(va + vb)
    if se == 0:
        out.update(t=0.0, p=1.0 if out["mean"] == 0 else 0.0)
        return out
    df = (va + vb) ** 2 / ((va * va / (len(a) - 1) if va else 0) + (vb * vb / (len(b) - 1) if vb else 0) or 1e-300)
    t = out["mean"] / se
    out.update(t=t, p=t_two_sided(t, df))
    return out


def two_proportion(k1: float, n1: int, k2: float, n2: int) -> dict:
    """Two-proportion z-test (pooled) of k2/n2 against k1/n1."""
    out = {"p1": k1 / n1 if n1 else 0.0, "p2": k2 / n2 if n2 else 0.0, "z": None, "p": None}
    out["diff"] = out["p2"] - out["p1"]
    if not n1 or not n2:
        return out
    pool = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pool * (1 - pool) * (1 / n1 + 1 / n2))
    if se == 0:
        out.update(z=0.0, p=1.0)
        return out
    z = out["diff"] / se
    out.update(z=z, p=2 * normal_sf(abs(z)))
    return out


def _t_crit(df: int, alpha: float = 0.05) -> float:
    """The two-sided critical value of t (bisection on the p-value)."""
    lo, hi = 0.0, 1000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_two_sided(mid, df) > alpha:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


# ---------------- summaries ----------------
def win_share(rec, seat) -> float:
    w = rec.get("winners") or []
    return 1.0 / len(w) if seat in w else 0.0


def margin(rec) -> float:
    pts = sorted(rec["points"], reverse=True)
    return pts[0] - pts[1] if len(pts) > 1 else 0.0


def per_game_metrics(rec) -> dict:
    """The numbers of one game that two configurations are compared on."""
    out = {"turns": rec["turns"], "decisions": rec["decisions"], "branching": rec["branching"],
           "lead changes": rec["lead_changes"], "points (mean per player)": statistics.fmean(rec["points"]),
           "winning margin": margin(rec)}
    for s, v in rec["sources"].items():
        out[f"points from {s}"] = statistics.fmean(v)
    for k, v in rec["notes"].items():
        out[f"notes {k}"] = v
    for k, v in rec.get("held", {}).items():      # (records of older files hold none)
        out[f"held {k} (mean per player)"] = statistics.fmean(v)
    return out


def summarize(records) -> dict:
    """Everything `format_summary` prints, as plain data (computed as a stream: see summary.py)."""
    from .summary import summarize as streamed
    return streamed(records)


def _f(x, nd=2):
    return f"{x:.{nd}f}"


def _pct(x):
    return f"{100 * x:5.1f}%"


def branching_bands(by_turn: dict, bands: int = 8) -> list:
    """(first turn, last turn, mean options per decision) over about `bands`
    equal spans of turns; the setup's decisions (turn 0), if any, first and
    on their own."""
    if not by_turn:
        return []
    last = max(by_turn)
    step = max(1, math.ceil(last / bands))
    out = []
    if by_turn.get(0, (0, 0))[1]:
        out.append((0, 0, by_turn[0][0]))
    for a in range(1, last + 1, step):
        b = min(last, a + step - 1)
        d = sum(by_turn[t][1] for t in range(a, b + 1) if t in by_turn)
        o = sum(by_turn[t][0] * by_turn[t][1] for t in range(a, b + 1) if t in by_turn)
        if d:
            out.append((a, b, o / d))
    return out


def _wdl(x: dict) -> str:
    """'W/D/L' counts of a seat or agent (a shared win counts as a win)."""
    return f"{x['won']}/{x['drawn']}/{x['lost']}"


def format_summary(s: dict, title: str = "") -> list:
    """The summary as lines of text."""
    lines = []
    if title:
        lines.append(title)
    lines.append(f"games: {s['games']}" + (f"  (failed: {s['failed']})" if s["failed"] else ""))
    for e in s.get("errors", []):
        lines.append(f"  error: {e}")
    more = s.get("error_kinds", 0) - len(s.get("errors", []))
    if more > 0:
        lines.append(f"  ... and {'more than ' if s.get('more_error_kinds') else ''}{more} other error(s): "
                     "every failed game's error is in the --out records")
    if not s["games"]:
        return lines
    n = s["games"]
    lines.append("")
    lines.append("win rate by seat (95% Wilson interval)      points mean (sd)   wins/draws/losses")
    for x in s["seats"]:
        lines.append(f"  seat {x['seat']}  {_pct(x['rate'])}  [{_pct(x['lo'])}, {_pct(x['hi'])}]"
                     f"          {_f(x['points']['mean'], 1):>6} ({_f(x['points']['sd'], 1)})"
                     f"   {_wdl(x)}")
    lines.append("win rate by agent (95% Wilson interval)")
    for a, x in s["agents"].items():
        lines.append(f"  {a:<28} {_pct(x['rate'])}  [{_pct(x['lo'])}, {_pct(x['hi'])}]  over {x['games']} seats,"
                     f" points {_f(x['points']['mean'], 1)}, {_wdl(x)}")
    lines.append(f"draws: {s['draws']} ({_pct(s['draws'] / n).strip()})" if s["draws"] else
                 "draws: none")
    lines.append("")
    lines.append("points by source, per player and game:  mean    sd   min median  max")
    for src, m in list(s["sources"].items()) + [("total", s["total_points"]), ("winning margin", s["margin"])]:
        median = "-" if m["median"] is None else f"{m['median']:.1f}"
        lines.append(f"  {src:<36} {_f(m['mean'], 1):>6} {_f(m['sd'], 1):>5} {m['min']:>4.0f} {median:>6}"
                     f" {m['max']:>4.0f}")
    if any(m["median"] is None for m in list(s["sources"].values()) + [s["total_points"], s["margin"]]):
        lines.append("  (-: too many distinct values to keep them all; the median is left out)")
    lines.append("")
    t, d = s["turns"], s["decisions"]
    lines.append(f"length: {_f(t['mean'], 1)} turns (sd {_f(t['sd'], 1)}, {t['min']:.0f}-{t['max']:.0f}), "
                 f"{_f(d['mean'], 1)} decisions (sd {_f(d['sd'], 1)}); {_f(s['elapsed']['mean'], 2)} s per game")
    if s["triggers"]:
        total = sum(s["triggers"].values())
        lines.append("triggers: " + ", ".join(f"{k} {v} ({_pct(v / total).strip()})" for k, v in s["triggers"].items()))
        for k, v in s["triggers_by_order"].items():
            m = sum(v.values())
            lines.append(f"  #{k}: " + ", ".join(f"{t} {_pct(c / m).strip()}" for t, c in v.items()))
    if s["notes"]:
        lines.append("notes per game, mean (sd):")
        row = " "
        for k, m in s["notes"].items():
            item = f" {k} {_f(m['mean'], 1)} ({_f(m['sd'], 1)})"
            if len(row) + len(item) > 100:
                lines.append(row)
                row = " "
            row += item
        lines.append(row)
    if s.get("held"):
        lines.append("held at the end, per player and game:  mean    sd   min  max")
        for k, m in s["held"].items():
            lines.append(f"  {k:<36} {_f(m['mean'], 1):>6} {_f(m['sd'], 1):>5} {m['min']:>4.0f} {m['max']:>4.0f}")
    b = s["balance"]
    lines.append("")
    lines.append(f"balance: first-seat advantage {100 * b['first_seat_advantage']:+.1f} points of win rate "
                 f"[{100 * b['first_seat_ci'][0]:+.1f}, {100 * b['first_seat_ci'][1]:+.1f}]; seat spread "
                 f"{100 * b['seat_spread']:.1f} (sd {100 * b['seat_sd']:.1f}); even seats chi2 {_f(b['chi2'])}, "
                 f"p={b['chi2_p']:.3g}")
    lines.append(f"branching: {_f(s['branching']['mean'])} options per decision (sd {_f(s['branching']['sd'])}); "
                 "by turn: " + ", ".join(f"{f'{a}-{c}' if c else 'setup'} {_f(o, 1)}"
                                         for a, c, o in branching_bands(s["branching_by_turn"])))
    lines.append(f"lead changes per game: {_f(s['lead_changes']['mean'])} (sd {_f(s['lead_changes']['sd'])}, "
                 f"max {s['lead_changes']['max']:.0f})")
    if n < 30:
        lines.append(f"(only {n} games: intervals are wide)")
    return lines
