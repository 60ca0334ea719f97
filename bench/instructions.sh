#!/usr/bin/env bash
# Machine instructions per complete random game, counted by valgrind's
# callgrind: unlike seconds, the count is the same on every run, however
# busy the machine is (with a fixed PYTHONHASHSEED), so it shows what a
# change to the engine is worth.
#
#   bench/instructions.sh [PLAYERS] [GAMES] [AGENT]
#
# The game is Nord, or the bundled game BENCH_GAME names (BENCH_GAME=vikings);
# BENCH_WARM=30 plays 30 games first in both runs (the steady state of a long run).
# Default: 4 players, 1 game, random choices (about 2 minutes); AGENT names
# an agent as on the command line (`greedy`: a 2-player game takes about
# 2 minutes, a 4-player one about 5).
#
# It counts a run that loads the rules and plays GAMES games (seeds 100...)
# and a run that only loads them, and prints the difference per game.
set -euo pipefail
players="${1:-4}"
games="${2:-1}"
agent=("${@:3}")
py="$(python3 -c 'import sys; print(sys.executable)')"   # the interpreter itself, not a shim
here="$(cd "$(dirname "$0")" && pwd)"
count() {
  PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$py" "$here/games.py" "$players" "$1" "${agent[@]}" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
with="$(count "$games")"
without="$(count 0)"
echo "$(awk -v d="$((with - without))" -v n="$games" 'BEGIN { printf "%.1f", d / n / 1e6 }') million instructions per ${3:-random} ${players}-player game" \
     "(mean of $games, seeds from 100)"
