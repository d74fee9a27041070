#!/bin/bash
cd /tmp/nf
for round in 1 2; do
 for p in 1x2 1x3; do
  echo "### round=$round $p load=$(cat /proc/loadavg) $(date -u +%H:%M:%S)"
  timeout 300 /work/wt/nodeflags/bin/railcoll bench --collective=broadcast --placement=$p --algorithms=broadcast.shm,broadcast.shm-single-copy --sizes=65536,1048576 --samples=5 --jit-warmup-ms=2000 2>&1 | sed -n '/median latency/,/^\*/p'
 done
done
echo DONE
