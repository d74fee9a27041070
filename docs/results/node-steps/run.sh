#!/usr/bin/env bash
# Old against new in the same run: one bench invocation per (collective, placement) with both algorithms, 3 repetitions.
set -u
out=${OUT:-bench-out/node-steps}
mkdir -p $out
for rep in 1 2 3; do
  for placement in 1x2 1x4; do
    for coll in barrier broadcast; do
      if [ $coll = barrier ]; then algs=barrier.shm,barrier.shm-flags; sizes=0; else algs=broadcast.shm,broadcast.shm-pipeline; sizes=1,1024,65536,1048576; fi
      dir=$out/$coll-$placement-$rep
      timeout 900 bin/railcoll bench --collective=$coll --placement=$placement --algorithms=$algs \
        --sizes=$sizes --samples=5 --jit-warmup-ms=4000 --out=$dir > $dir.log 2>&1
      echo "$(date -u +%T) $coll $placement $rep rc=$?" >> $out/progress
    done
  done
done
echo finished >> $out/progress
