#!/usr/bin/env bash
# Quiet-host A/B: old node collectives (6a28564) against the node-step programs of wip/nodecoll (barrier, broadcast,
# gather) and wip/nodeallgather (allgather), alternating per case, two rounds.
set -u
old=/tmp/railcoll-old-nodecoll
cases=(
  "nodecoll barrier 1x2 0" "nodecoll barrier 1x4 0"
  "nodecoll broadcast 1x2 1,1k,64k,1m" "nodecoll broadcast 1x4 1,1k,64k,1m"
  "nodecoll gather 1x2 1,1k,64k,1m" "nodecoll gather 1x4 1,1k,64k,1m"
  "nodeallgather allgather 1x2 1,1k,64k,1m" "nodeallgather allgather 1x4 1,1k,64k,1m"
)
for r in 1 2; do
  for c in "${cases[@]}"; do
    set -- $c
    for t in old new; do
      if [ $t = old ]; then d=$old; else d=/work/wt/$1; fi
      f="/tmp/quiet-ns-$r-$t-$2-$3.txt"
      echo "== round $r $t $2 $3 $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
      (cd "$d" && timeout 200 bin/railcoll bench --collective="$2" --placement="$3" --algorithms="$2.shm" \
          --sizes="$4" --samples=5 --jit-warmup-ms=2000 --no-report > "$f" 2>&1; echo "rc=$?"; grep -A6 "median latency" "$f")
    done
  done
done
echo "== end $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
