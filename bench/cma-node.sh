#!/usr/bin/env bash
# Single-copy puts (docs/shared-memory.md) before/after on one node of 2, 4, 8, 16 ranks against Open MPI in the
# same run: for each collective and rank count, one run with RAILCOLL_CMA=off (every put through the rings, as
# before the single-copy path) and one with it on, back to back, each with its own Open MPI sweep, repeated REPS
# times (interleaved off/on/off/on...). Usage: bench/cma-node.sh OUT_DIR REPS SIZES ALGORITHMS collectives...
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$1"; reps="$2"; sizes="$3"; algorithms="$4"
shift 4
for c in "$@"; do
  for r in 2 4 8 16; do
    for rep in $(seq 1 "$reps"); do
      for cma in off on; do
        "$root/bin/railcoll" bench --network loopback --nodes 1 --ranks-per-node "$r" --rails 1 --collective "$c" \
          --algorithms "$algorithms" --sizes "$sizes" --samples 3 --peer openmpi --set RAILCOLL_CMA=$cma \
          --out "$out/$c-$r-cma-$cma-$rep"
      done
    done
  done
done
