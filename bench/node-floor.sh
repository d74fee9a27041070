#!/usr/bin/env bash
# Issue 3's small-message targets against what this host allows: for each node size, in one run, the floor of a
# process-per-rank design (bench/node-floor.c: mailboxes and sched_yield, nothing else), railcoll's node collectives
# and Open MPI's (bench --peer openmpi, which runs it right after railcoll), at 1 B, 64 B and 4 KiB.
# Usage: [RANKS="4 8 16"] [SAMPLES=n] [ROUNDS=n] bench/node-floor.sh OUT_DIR
# Then: bench/node-floor-table.py OUT_DIR
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: bench/node-floor.sh OUT_DIR}"
mkdir -p "$out"
cc -O2 -Wall -o "$out/node-floor" "$root/bench/node-floor.c"
"$root/bench/install-peers.sh" >/dev/null
for round in $(seq 1 "${ROUNDS:-1}"); do
  for r in ${RANKS:-2 4 8 16}; do
    "$out/node-floor" "$r" "${SAMPLES:-7}" 2000 > "$out/floor-$r-round$round.csv"
    for c in allgather gather broadcast barrier; do
      "$root/bin/railcoll" bench --network loopback --nodes 1 --ranks-per-node "$r" --rails 1 --collective "$c" \
        --algorithms shm --sizes 1,64,4096 --samples "${SAMPLES:-7}" --peer openmpi \
        --out "$out/bench-$c-$r-round$round" >/dev/null
    done
  done
done
echo "node-floor.sh: results in $out; tables: bench/node-floor-table.py $out"
