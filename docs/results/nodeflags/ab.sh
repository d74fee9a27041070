#!/bin/bash
# Final A/B: old (/tmp/railcoll-old, main eecb4a6) vs new (wip/nodeflags), alternating run by run, two rounds.
for round in 1 2; do
  for p in 1x2 1x4 1x16; do
    for which in old new; do
      bin=/tmp/railcoll-old/bin/railcoll; [ $which = new ] && bin=/work/wt/nodeflags/bin/railcoll
      echo "### round=$round placement=$p build=$which collective=broadcast load=$(cat /proc/loadavg) $(date -u +%H:%M:%S)"
      (cd /tmp/nf && timeout 600 $bin bench --collective=broadcast --placement=$p --algorithms=auto --sizes=1,1024,65536,1048576 --samples=5 --jit-warmup-ms=2000 2>&1 | sed -n '/median latency/,/^\*/p')
      echo "### round=$round placement=$p build=$which collective=barrier load=$(cat /proc/loadavg) $(date -u +%H:%M:%S)"
      (cd /tmp/nf && timeout 600 $bin bench --collective=barrier --placement=$p --algorithms=auto --sizes=0 --samples=5 --jit-warmup-ms=2000 2>&1 | sed -n '/median latency/,/^\*/p')
    done
  done
done
echo DONE $(date -u +%H:%M:%S)
