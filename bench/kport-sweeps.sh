#!/usr/bin/env bash
# Issue 4's figures: every collective, every algorithm of the catalog, 1 B..1 MiB, on the default emulated
# cluster (4 nodes x 4 ranks), with 2 rails and again with 1 rail so the multi-port gain shows.
# Usage: bench/kport-sweeps.sh [OUT_DIR] [extra bench options...]   (default OUT_DIR docs/results/kport)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/docs/results/kport}"
shift || true
for rails in 2 1; do
  for c in allgather gather broadcast alltoall barrier; do
    sizes=1,16,256,4096,65536,1048576
    [ "$c" = barrier ] && sizes=0
    "$root/bin/railcoll" bench --network loopback --nodes 4 --ranks-per-node 4 --rails "$rails" \
      --collective "$c" --algorithms all,auto --sizes "$sizes" --samples 3 --out "$out/${c}-${rails}rail" "$@"
  done
done
