"""Original and renamed rulebooks side by side: no fast path keyed on names (figures only, never CI).

    python bench/renamed.py                     # Hex and Nord (2, 3, 4 players), about 6 s a row
    python bench/renamed.py --seconds 1         # a rough figure
    python bench/renamed.py --games hex --paths api

Each bundled game is renamed by tests/renaming.py (every name its author
chose: definitions, zones, pieces, choices, tables...; the copy plays the
same games, as tests/test_renamed_games.py checks), and random games per
second of the original and the renamed rulebook are measured in
alternating rounds of a fixed time, so the drift of a shared machine's
speed hits both alike. Two paths: `api` (`len(game.legal_moves())`,
`game.play_index(rng.randrange(n))`, seeded) and `simulate` (as `nord
simulate --jobs 1` plays: random agents). The ratio renamed / original
should be 1 within noise.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
sys.path.insert(0, HERE)

from renaming import rename_rulebook  # noqa: E402
from speed import Timed, api_path, calibration, interleave, load, simulate_path  # noqa: E402

import nordlang  # noqa: E402

ROWS = [("hex", 2), ("nord", 2), ("nord", 3), ("nord", 4)]


def measure(game, players, renamed_main, seconds, rounds, paths=("api", "simulate")):
    """{path: (original timer, renamed timer)} for one game at one player count."""
    original_main = str(Path(nordlang.bundled("rulebook")) / game / f"{game}.yaml")
    out = {}
    for path in paths:
        if path == "api":
            pair = (Timed("original", api_path(nordlang.load_rules(original_main, players))),
                    Timed("renamed", api_path(nordlang.load_rules(str(renamed_main), players))))
        else:
            pair = (Timed("original", simulate_path(original_main, players)),
                    Timed("renamed", simulate_path(str(renamed_main), players)))
        for t in pair:
            t.play_one(10_000)             # warm up once, untimed
        out[path] = pair
    interleave([t for pair in out.values() for t in pair], seconds * len(out), rounds)
    return out


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default="hex,nord", help="bundled games, comma-separated (default hex,nord)")
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per rulebook and path (default 3)")
    ap.add_argument("--rounds", type=int, default=10, help="alternating rounds (default 10)")
    ap.add_argument("--paths", default="api,simulate", help="api, simulate or both (default)")
    args = ap.parse_args(argv)
    games = args.games.split(",")
    paths = tuple(args.paths.split(","))
    print(f"nordlang {nordlang.__version__}, Python {sys.version.split()[0]}, load {load()}", flush=True)
    cal = calibration()
    print(f"{'game':<8}{'players':>8}{'path':>10}{'original g/s':>14}{'renamed g/s':>13}{'renamed / original':>20}"
          f"{'games timed':>13}")
    with tempfile.TemporaryDirectory() as tmp:
        for game in games:
            main_file = Path(nordlang.bundled("rulebook")) / game / f"{game}.yaml"
            renamed = rename_rulebook(main_file, Path(tmp) / game)
            for g, players in [r for r in ROWS if r[0] == game] or [(game, None)]:
                for path, (a, b) in measure(g, players, renamed.main, args.seconds, args.rounds, paths).items():
                    print(f"{g:<8}{players or '':>8}{path:>10}{a.rate:14.1f}{b.rate:13.1f}{b.rate / a.rate:20.3f}"
                          f"{f'{a.games}+{b.games}':>13}", flush=True)
    print(f"calibration {min(cal, calibration()):.0f} ms; load {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
