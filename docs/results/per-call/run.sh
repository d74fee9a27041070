#!/usr/bin/env bash
# Same-run comparisons: the node collectives against the node-step algorithms, 1x2 and 1x4, small sizes.
cd /work/wt/percall
for rep in 1 2; do
for p in 1x2 1x4; do
  echo "== rep $rep barrier $p $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  bin/railcoll bench --collective=barrier --placement=$p --algorithms=barrier.shm,barrier.shm-flags --sizes=0 --samples=5 --jit-warmup-ms=3000 --no-report 2>&1 | grep -A3 "median latency"
  echo "== rep $rep broadcast $p $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  bin/railcoll bench --collective=broadcast --placement=$p --algorithms=broadcast.shm,broadcast.shm-pipeline --sizes=1,1024 --samples=5 --jit-warmup-ms=3000 --no-report 2>&1 | grep -A4 "median latency"
done
done
echo "== end $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
