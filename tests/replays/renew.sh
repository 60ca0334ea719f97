#!/usr/bin/env bash
# Renew the recorded games after an intended rule change (see test_replays.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
for p in 2 3 4; do
  python3 -m nordlang play --players "$p" --seed "$((p * 1000 + 7))" --agents random,greedy --quiet \
    --log "tests/replays/nord-${p}p.jsonl" > /dev/null
done
echo "renewed: $(ls tests/replays/*.jsonl | tr '\n' ' ')"
