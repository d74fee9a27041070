#!/usr/bin/env bash
# Issue 3's comparison: node collectives on one node of 2, 4, 8, 16 ranks (shared memory between all of them)
# against Open MPI on the same machine in the same run (its shared-memory path; --oversubscribe and
# mpi_yield_when_idle when ranks outnumber cores). Usage: [RANKS="2 4"] [SAMPLES=n] bench/shm-node.sh [OUT_DIR] [collectives...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/docs/results/shm-node}"
shift || true
collectives=("${@:-allgather}")
for c in "${collectives[@]}"; do
  for r in ${RANKS:-2 4 8 16}; do
    "$root/bin/railcoll" bench --network loopback --nodes 1 --ranks-per-node "$r" --rails 1 --collective "$c" \
      --algorithms all,auto --sizes 1,64,4096,65536,1048576 --samples "${SAMPLES:-5}" --peer openmpi --out "$out/$c-$r"
  done
done
