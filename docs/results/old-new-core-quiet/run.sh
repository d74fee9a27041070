#!/usr/bin/env bash
# Old core against new, alternating in one sitting: the 1x<ranks> all-gather bench in the old tree (git archive e76e042
# into /tmp/railcoll-old) and in this one, old then new in each round. Usage: run.sh RANKS_PER_NODE ROUND...
# (the logs here came from `run.sh 4 1 2 3`, `run.sh 4 4 5` and `run.sh 2 1 2 3 4 5`).
set -u
rpn=$1; shift
new=$(cd "$(dirname "$0")/../../.." && pwd)
cmd="bin/railcoll bench --collective allgather --nodes 1 --ranks-per-node $rpn --algorithms auto,allgather.standard-exchange --sizes 1,1k,64k,1m --no-report --jit-warmup-ms 15000"
for r in "$@"; do
  for t in old new; do
    if [ $t = old ]; then d=/tmp/railcoll-old; else d=$new; fi
    echo "== round $r $t $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
    (cd "$d" && timeout 400 $cmd > "/tmp/oldnew-$rpn-$r-$t.txt" 2>&1; echo "rc=$?"; grep -A6 "median latency" "/tmp/oldnew-$rpn-$r-$t.txt")
  done
done
echo "== end $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
