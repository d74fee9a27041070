#!/usr/bin/env bash
# Issue 5's figures on the default emulated cluster (the namespace testbed, 2 rails at 2 Gbit/s, as root):
#  - paper 000 Fig. 11: the six all-gather algorithms of the paper (Direct, Standard Exchange, Bruck and their
#    SMP-aware forms) with 4, 8 and 16 ranks evenly spread over 4 nodes, Open MPI's default all-gather standing in
#    for elan_gather(), 1 B..1 MiB;
#  - paper 002 Fig. 5: the multi-connection aware all-gathers (1-, 2-, 4-group and gather-based) on 4 nodes x 4
#    ranks, 1 B..512 KiB.
# Usage: bench/allgather-figures.sh [OUT_DIR] [extra bench options...]   (default OUT_DIR docs/results/allgather)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/docs/results/allgather}"
shift || true
fig11=allgather.direct,allgather.standard-exchange,allgather.bruck,allgather.smp-gather-bcast,allgather.smp-direct,allgather.smp-bruck
for rpn in 1 2 4; do
  "$root/bin/railcoll" bench --netns --nodes 4 --ranks-per-node "$rpn" --rails 2 --algorithms "$fig11" \
    --peer openmpi --samples 3 --out "$out/fig11-4x$rpn" "$@"
done
"$root/bin/railcoll" bench --netns --nodes 4 --ranks-per-node 4 --rails 2 --set RAILCOLL_GROUPS=4 \
  --algorithms allgather.mc-1group,allgather.mc-2group,allgather.mc-groups,allgather.mc-gather-based \
  --sizes 1,4,16,64,256,1024,4096,16384,65536,262144,524288 --peer openmpi --samples 3 --out "$out/fig5-4x4" "$@"
