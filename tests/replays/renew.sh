#!/usr/bin/env bash
# Renew the recorded games after an intended rule change (see test_replays.py).
# Run from anywhere; uses python3 unless PYTHON names another interpreter.
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHON="${PYTHON:-python3}"
for p in 2 3 4; do
  "$PYTHON" -m nordlang play --players "$p" --seed "$((p * 1000 + 7))" --agents random,greedy --quiet \
    --log "tests/replays/nord-${p}p.jsonl" > /dev/null
  "$PYTHON" -m nordlang play --game vikings --players "$p" --seed "$((p * 1000 + 7))" --agents random,greedy --quiet \
    --log "tests/replays/vikings-${p}p.jsonl" > /dev/null
done
echo "renewed: $(ls tests/replays/*.jsonl | tr '\n' ' ')"
