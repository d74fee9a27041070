#!/usr/bin/env bash
# Old (allgather.smp-direct-shm as the NodePhased stand-in: a checkout before decision 0157) against new (the
# node-step program, decisions 0156 and 0157), alternating per case, on the emulated cluster (loopback rails) and optionally the namespace testbed. Prints one line per run with
# the load average; results CSVs land in $OUT. Usage: bench/smp-direct-shm-old-new.sh OLD_CHECKOUT [REPEATS] [NETWORKS]
set -euo pipefail
new="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
old="${1:?old checkout (git clone of main, built with bin/railcoll --help)}"
repeats="${2:-2}"
networks="${3:-loopback}"
OUT="${OUT:-/tmp/smp-direct-shm-bench}"
mkdir -p "$OUT"
for network in $networks; do
  for placement in ${PLACEMENTS:-2x2 4x1 2x4}; do
    extra=(--rails=2)
    [ "$network" = netns ] && extra=(--rails=2 --rail-rate=2gbit)
    for rep in $(seq 1 "$repeats"); do
      for side in old new; do
        dir="$old"; id=allgather.smp-direct-shm
        # The program is allgather.smp-direct-shm (decision 0157); between decisions 0156 and 0157 it was
        # allgather.smp-direct-steps (NEW_ID=allgather.smp-direct-steps for a checkout of that time).
        [ "$side" = new ] && { dir="$new"; id="${NEW_ID:-allgather.smp-direct-shm}"; }
        csv="$OUT/$network-$placement-$side-$rep.csv"
        echo "== $network $placement $side rep $rep load $(cut -d' ' -f1-3 /proc/loadavg)"
        (cd "$dir" && bin/railcoll bench --collective=allgather --network="$network" --placement="$placement" \
            --algorithms="$id" --sizes=1,1k,64k,1m --samples=5 \
            --jit-warmup-ms=2000 --no-report --csv="$csv" "${extra[@]}") | grep -E '^ *[0-9]|allgather' || true
      done
    done
  done
done
