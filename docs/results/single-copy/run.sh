#!/usr/bin/env bash
# Old single copy (main 6a28564 in /tmp/railcoll-old-cma: gather.shm/broadcast.shm/allgather.shm with the node
# collectives' single copy) against the new single-copy node-step algorithms, alternating old/new per round.
set -u
new=/work/wt/cma
out=/tmp/cma-bench
mkdir -p $out
for r in "$@"; do
  for coll in allgather broadcast gather; do
    for rpn in 2 4; do
      for t in old new; do
        if [ $t = old ]; then d=/tmp/railcoll-old-cma; alg=$coll.shm; else d=$new; alg=$coll.shm-single-copy; fi
        echo "== round $r $coll 1x$rpn $t $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
        (cd "$d" && timeout 300 bin/railcoll bench --collective $coll --nodes 1 --ranks-per-node $rpn --algorithms $alg \
          --sizes 64k,256k,1m,4m --no-report --jit-warmup-ms 2000 > "$out/$r-$coll-$rpn-$t.txt" 2>&1; echo "rc=$?"; \
          grep -A6 "median latency" "$out/$r-$coll-$rpn-$t.txt")
      done
    done
  done
done
echo "== end $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
