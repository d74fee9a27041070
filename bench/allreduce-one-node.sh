#!/usr/bin/env bash
# One-node all-reduce before and after decisions 0170/0171 (issue 22), with Open MPI in the same run:
#   after  = auto (allreduce.shm, from 256 KiB allreduce.shm-single-copy where cross-memory attach is agreed)
#   before = the message schedules main's auto picked on one node (this host: recursive-doubling, rabenseifner,
#            multi-leader; the 16-processor machine: smp, kport, ring), forced in the same run.
# Usage: bench/allreduce-one-node.sh OUTDIR [PLACEMENT...]   (default placements 1x2 1x4)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: $0 OUTDIR [PLACEMENT...]}
shift
placements=("${@:-1x2 1x4}")
[ $# -eq 0 ] && placements=(1x2 1x4)
mkdir -p "$out"
for p in "${placements[@]}"; do
  echo "load before $p: $(cat /proc/loadavg)" | tee -a "$out/load.txt"
  bin/railcoll bench --network loopback --placement "$p" --samples 7 --jit-warmup-ms 2000 --collective allreduce \
    --algorithms auto,allreduce.shm,allreduce.shm-single-copy,allreduce.smp,allreduce.recursive-doubling,allreduce.rabenseifner,allreduce.kport,allreduce.ring,allreduce.multi-leader \
    --sizes 8,128,1k,8k,128k,1m,8m,16m --peer openmpi --out "$out/$p" 2>&1 | grep -v '^allreduce \[' > "$out/$p.txt"
  echo "load after $p: $(cat /proc/loadavg)" | tee -a "$out/load.txt"
done
