#!/bin/bash
# Decision 0232's figures: bin/railcoll bench with --peer openmpi at 1 B and 1 KiB (all-reduce: 8 B, one double, and
# 1 KiB) for broadcast, gather, all-gather and all-reduce on 1x2 and 1x4, what selection picks (--algorithms auto),
# three runs; the order of placements and collectives is reversed every other run.
# OUT=dir [REPS="4 5 6"] [PLACEMENTS=1x2] bash run.sh   (from the repository root)
set -u
OUT=${OUT:-docs/results/bench-loop-1129}
for rep in ${REPS:-1 2 3}; do
  placements=${PLACEMENTS:-"1x2 1x4"}; collectives="broadcast gather allgather allreduce"
  if [ $((rep % 2)) = 0 ]; then placements=$(echo $placements | tr ' ' '\n' | tac | tr '\n' ' ')
    collectives="allreduce allgather gather broadcast"; fi
  for p in $placements; do
    for c in $collectives; do
      sizes=1,1024; [ $c = allreduce ] && sizes=8,1024
      dir=$OUT/run$rep/$c-$p
      mkdir -p $dir
      echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) run $rep $c $p" | tee -a $OUT/runs.log
      timeout 600 bin/railcoll bench --network loopback --placement $p --collective $c --algorithms auto \
        --sizes $sizes --samples 7 --peer openmpi --no-report --csv $dir/results.csv --out $dir > $dir/console.txt 2>&1
      echo "$(date -u +%T) exit $? load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a $OUT/runs.log
    done
  done
done
