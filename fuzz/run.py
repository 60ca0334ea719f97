"""The fuzzing harness at scale: generated inputs for every input path of
nordlang (fuzz/targets.py), each run with a time limit, every finding saved
with its input so that it can be replayed.

    python fuzz/run.py [--inputs 100000] [--targets yaml,cli] [--timeout 10]
    python fuzz/run.py --repro fuzz/out/repro/FINDING.json

The parent runs one worker process at a time (a target, or part of one);
the worker draws inputs from the target's hypothesis strategy (or, with
--engine atheris, lets atheris steer the same strategy by coverage) and
runs each under a soft time limit (SIGALRM: a hang is a finding, with its
input, and the worker goes on). A worker that stops answering (a loop in C
that no signal interrupts, a crash) is killed after --hard-timeout; its
current input is recorded as a hang and a new worker takes up the rest.
At the end: inputs run per target, time, uncaught exceptions and hangs,
each distinct one with the file that reproduces it (report.txt, report.json).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ALLOWED = ()        # exceptions besides NordError a target may raise (documented TypeError/ValueError): none yet


class Hang(BaseException):
    """An input ran past the soft time limit (BaseException: no `except Exception` swallows it)."""


def _alarm(signum, frame):
    raise Hang()


def signature(target: str, kind: str, exc: BaseException | None, tb: str) -> str:
    """What makes two findings the same: the target, the exception's type and
    the innermost line of nordlang it came from."""
    where = ""
    for line in tb.splitlines():
        if "/nordlang/" in line and line.strip().startswith("File "):
            where = line.strip().split("/nordlang/", 1)[1]
    name = type(exc).__name__ if exc is not None else kind
    return f"{target}|{kind}|{name}|{where}"


class Recorder:
    """Writes findings as they come: one line per finding in findings.jsonl,
    the first input of each distinct one in repro/."""

    def __init__(self, out: Path, target: str):
        self.out, self.target = out, target
        (out / "repro").mkdir(parents=True, exist_ok=True)
        self.current = out / f"{target}.current"
        self.count_file = out / f"{target}.count"

    def before(self, value) -> None:
        self.current.write_text(repr(value), encoding="utf-8")

    def finding(self, kind: str, value, exc, tb: str, seconds: float) -> None:
        sig = signature(self.target, kind, exc, tb)
        name = f"{self.target}-{kind}-{hashlib.sha256(sig.encode()).hexdigest()[:10]}.json"
        repro = self.out / "repro" / name
        if not repro.exists():
            repro.write_text(json.dumps({"target": self.target, "kind": kind, "signature": sig, "input": repr(value),
                                         "seconds": round(seconds, 3), "traceback": tb}, indent=1),
                             encoding="utf-8")
        with open(self.out / "findings.jsonl", "a", encoding="utf-8") as f:
            f.write(json.dumps({"target": self.target, "kind": kind, "signature": sig, "repro": name}) + "\n")


def run_one(fn, value, ctx, timeout: float):
    """(kind, exception, traceback) of one input: kind None when it was handled as promised."""
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        fn(value, ctx)
        return None, None, ""
    except Hang as e:
        return "hang", e, traceback.format_exc()
    except ALLOWED:
        return None, None, ""
    except SystemExit as e:         # a target that exits is a finding unless the CLI said 0 or 2 (checked there)
        return "exit", e, traceback.format_exc()
    except BaseException as e:      # noqa: BLE001 - anything else is what the fuzzing looks for
        if isinstance(e, KeyboardInterrupt):
            raise
        return "uncaught", e, traceback.format_exc()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


# ---------------------------------------------------------------------------
# the worker
# ---------------------------------------------------------------------------
def worker(args) -> None:
    import resource
    limit = args.memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))     # a runaway in memory is a MemoryError: a finding
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    out = Path(args.out).resolve()
    scratch = Path(tempfile.mkdtemp(prefix=f"nordfuzz-{args.worker}-"))
    os.chdir(scratch)
    if args.engine == "atheris":
        import atheris
        with atheris.instrument_imports(include=["nordlang"]):
            _import_all()
    from hypothesis import HealthCheck, Phase, given, seed, settings
    from targets import Context, strategies
    ctx = Context(scratch)
    strategy, fn = strategies(ctx)[args.worker]
    rec = Recorder(out, args.worker)
    signal.signal(signal.SIGALRM, _alarm)
    ran = [0]

    def one(value):
        rec.before(value)
        t0 = time.perf_counter()
        kind, exc, tb = run_one(fn, value, ctx, args.timeout)
        if kind is not None:
            rec.finding(kind, value, exc, tb, time.perf_counter() - t0)
        ran[0] += 1
        if ran[0] % 50 == 0 or args.engine == "atheris":      # (libFuzzer ends the process its own way)
            rec.count_file.write_text(str(ran[0]))

    @settings(max_examples=args.count, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), derandomize=False)
    @seed(args.seed)
    @given(strategy)
    def drive(value):
        one(value)

    if args.engine == "atheris":
        import atheris
        atheris.Setup([sys.argv[0], f"-runs={args.count}", f"-seed={args.seed + 1}", "-rss_limit_mb=0",
                       "-timeout=0", "-len_control=0", "-max_len=8192"], drive.hypothesis.fuzz_one_input)
        try:
            atheris.Fuzz()
        except SystemExit:
            pass
    else:
        drive()
    rec.count_file.write_text(str(ran[0]))
    rec.current.unlink(missing_ok=True)
    import shutil
    shutil.rmtree(scratch, ignore_errors=True)
    os._exit(0)         # (atheris and hypothesis have nothing left to say)


def _import_all() -> None:
    import importlib
    import pkgutil

    import nordlang
    for mod in pkgutil.walk_packages(nordlang.__path__, "nordlang."):
        if mod.name == "nordlang.__main__" or mod.name.startswith(("nordlang.sim.plot", "nordlang.render.png")):
            continue            # (optional dependencies)
        importlib.import_module(mod.name)


# ---------------------------------------------------------------------------
# the parent
# ---------------------------------------------------------------------------
def _launch(args, target, count, seed, engine):
    cmd = [sys.executable, str(HERE / "run.py"), "--worker", target, "--count", str(count), "--seed", str(seed),
           "--timeout", str(args.timeout), "--out", str(args.out), "--engine", engine,
           "--memory-mb", str(args.memory_mb)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)])}
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=open(Path(args.out) / f"{target}.log", "a"))


def run_target(args, target, count, engine) -> dict:
    """Run `count` inputs of one target in workers (a new one after a hard hang); its figures."""
    out = Path(args.out)
    rec = Recorder(out, target)
    done, seed, restarts, t0 = 0, args.seed, 0, time.time()
    while done < count:
        rec.count_file.write_text("0")
        rec.current.unlink(missing_ok=True)
        proc = _launch(args, target, count - done, seed, engine)
        last, beat = None, time.time()
        while proc.poll() is None:
            time.sleep(0.5)
            stamp = rec.current.stat().st_mtime if rec.current.exists() else None
            if stamp != last:
                last, beat = stamp, time.time()
            if time.time() - beat > args.hard_timeout:
                proc.kill()
                proc.wait()
                value = rec.current.read_text(encoding="utf-8") if rec.current.exists() else "?"
                rec.finding("hard-hang", _Literal(value), None, f"no answer for {args.hard_timeout} s",
                            args.hard_timeout)
                break
        ran = int(rec.count_file.read_text() or 0)
        if proc.returncode == 0:
            done += ran
            break               # (the worker ran its count, or the strategy ran out of distinct inputs)
        if proc.returncode != -signal.SIGKILL:        # (a kill after a hard hang is recorded above)
            value = rec.current.read_text(encoding="utf-8") if rec.current.exists() else "?"
            log = (out / f"{target}.log").read_text(encoding="utf-8", errors="replace")[-2000:]
            rec.finding("crash", _Literal(value), None, f"worker exit status {proc.returncode}\n{log}", 0)
        done += ran + 1         # the inputs counted, and the one it stopped on
        if ran == 0 and proc.returncode != -signal.SIGKILL:
            break               # a worker that cannot start: said in the report, not tried again and again
        seed += 1
        restarts += 1
    return {"target": target, "engine": engine, "inputs": done, "seconds": round(time.time() - t0, 1),
            "restarts": restarts}


class _Literal:
    """An input already in its repr form (read back from a worker's .current file)."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def report(args, figures: list[dict]) -> str:
    out = Path(args.out)
    findings: dict = {}
    path = out / "findings.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        f = json.loads(line)
        findings.setdefault(f["signature"], [f, 0])[1] += 1
    lines = [f"nordlang fuzzing: {sum(f['inputs'] for f in figures)} inputs in "
             f"{sum(f['seconds'] for f in figures):.0f} s, soft time limit {args.timeout} s per input", "",
             f"{'target':<22}{'inputs':>9}{'seconds':>9}{'inputs/s':>10}{'findings':>10}"]
    for f in figures:
        name = f["target"] + (" (atheris)" if f["engine"] == "atheris" else "")
        n = sum(c for sig, (g, c) in findings.items() if g["target"] == f["target"])
        lines.append(f"{name:<22}{f['inputs']:>9}{f['seconds']:>9.0f}{f['inputs'] / max(f['seconds'], 0.1):>10.0f}"
                     f"{n:>10}")
    kinds: dict = {}
    for g, c in findings.values():
        kinds[g["kind"]] = kinds.get(g["kind"], 0) + c
    hangs = kinds.get("hang", 0) + kinds.get("hard-hang", 0)
    other = sum(v for k, v in kinds.items() if k not in ("uncaught", "hang", "hard-hang"))
    lines += ["", f"uncaught exceptions: {kinds.get('uncaught', 0)}, hangs: {hangs}, other findings: {other}"]
    for sig, (g, c) in sorted(findings.items(), key=lambda x: -x[1][1]):
        lines.append(f"  {c:>6} x {sig}\n         reproduce: python fuzz/run.py --repro {out / 'repro' / g['repro']}")
    text = "\n".join(lines)
    (out / "report.txt").write_text(text + "\n", encoding="utf-8")
    (out / "report.json").write_text(json.dumps({"figures": figures, "findings": [
        {"signature": s, "count": c, "repro": g["repro"]} for s, (g, c) in findings.items()]}, indent=1))
    return text


def repro(path: str) -> int:
    """Run one saved finding again, in this process, and show what it does now."""
    sys.path.insert(0, str(HERE))
    from targets import Context, strategies
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    value = ast.literal_eval(data["input"])
    scratch = Path(tempfile.mkdtemp(prefix="nordfuzz-repro-"))
    os.chdir(scratch)
    ctx = Context(scratch)
    _, fn = strategies(ctx)[data["target"]]
    print(f"target {data['target']}, input {data['input'][:300]}")
    t0 = time.perf_counter()
    fn(value, ctx)          # a finding that still stands raises here, with its traceback
    print(f"handled cleanly in {time.perf_counter() - t0:.2f} s: the finding is fixed")
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--inputs", type=int, default=100_000, help="inputs in all (shared by the targets' weights)")
    p.add_argument("--targets", default="", help="comma-separated targets (default: all)")
    p.add_argument("--timeout", type=float, default=10.0, help="soft time limit per input, seconds")
    p.add_argument("--hard-timeout", type=float, default=60.0, help="kill a worker silent this long, seconds")
    p.add_argument("--memory-mb", type=int, default=3000, help="a worker's address-space limit")
    p.add_argument("--atheris", type=int, default=0,
                   help="also run this many inputs per target steered by atheris (coverage-guided)")
    p.add_argument("--atheris-targets", default="yaml,nordlang,move,replay",
                   help="the targets --atheris runs (the fast ones: atheris's instrumentation slows each input)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1, help="targets run at once, each in its own worker (one per core)")
    p.add_argument("--out", default=str(HERE / "out"), help="folder of the findings and the report")
    p.add_argument("--repro", metavar="FILE", help="run one saved finding again")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    p.add_argument("--count", type=int, help=argparse.SUPPRESS)
    p.add_argument("--engine", default="hypothesis", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.repro:
        return repro(args.repro)
    if args.worker:
        worker(args)
        return 0
    sys.path.insert(0, str(HERE))
    from targets import WEIGHTS
    names = [t for t in args.targets.split(",") if t] or list(WEIGHTS)
    unknown = set(names) - set(WEIGHTS)
    if unknown:
        p.error(f"unknown target(s) {', '.join(sorted(unknown))}; targets: {', '.join(WEIGHTS)}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "findings.jsonl").unlink(missing_ok=True)
    total = sum(WEIGHTS[t] for t in names)

    # each target's share by weight, the remainder of the division to the largest fractions: --inputs in all
    counts = {t: args.inputs * WEIGHTS[t] // total for t in names}
    by_fraction = sorted(names, key=lambda t: -(args.inputs * WEIGHTS[t] % total))
    for t in by_fraction[:args.inputs - sum(counts.values())]:
        counts[t] += 1

    def one_target(name) -> list[dict]:
        count = max(1, counts[name])
        got = [run_target(args, name, count, "hypothesis")]
        print(f"{name}: {got[-1]['inputs']} inputs in {got[-1]['seconds']} s", flush=True)
        if args.atheris and name in args.atheris_targets.split(","):
            got.append(run_target(args, name, args.atheris, "atheris"))
            print(f"{name} (atheris): {got[-1]['inputs']} inputs in {got[-1]['seconds']} s", flush=True)
        return got

    # (each target's inputs come from its own seeded worker: the same inputs whatever --jobs is)
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        figures = [f for got in pool.map(one_target, names) for f in got]
    print(report(args, figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
