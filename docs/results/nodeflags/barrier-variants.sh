#!/bin/bash
# Decision 0187: one-node barrier.shm master-first (barrier.shm) vs all-at-once (barrier.shm-all-at-once, temporary),
# alone and as the barrier between timed broadcasts (the bench puts one before every call).
B=/work/wt/nodeflags/bin/railcoll
cd /tmp/nf
for round in 1 2; do
for p in 1x2 1x4 1x16; do
  echo "### round=$round $p barrier load=$(cat /proc/loadavg) $(date -u +%H:%M:%S)"
  timeout 600 $B bench --collective=barrier --placement=$p --algorithms=barrier.shm,barrier.shm-all-at-once --sizes=0 --samples=5 --jit-warmup-ms=2000 2>&1 | sed -n '/median latency/,/^\*/p'
  for v in barrier.shm barrier.shm-all-at-once; do
    echo "### round=$round $p broadcast with $v between load=$(cat /proc/loadavg) $(date -u +%H:%M:%S)"
    timeout 600 $B bench --collective=broadcast --placement=$p --algorithms=broadcast.shm --sizes=1,1024,65536 --samples=5 --jit-warmup-ms=2000 --set RAILCOLL_ALGORITHM_BARRIER=$v 2>&1 | sed -n '/median latency/,/^\*/p'
  done
done
done
echo DONE
