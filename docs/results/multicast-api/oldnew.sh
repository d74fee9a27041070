#!/usr/bin/env bash
# Old core (6a28564, git archive into /tmp/railcoll-old-mcast, built there) against this tree, alternating in one
# sitting on the namespace testbed (root): broadcast.multicast on 4x1 and allgather.smp-gather-mcast on 2x2, 1 rail,
# 1 B / 1 KiB / 64 KiB, old then new in each round. Usage: oldnew.sh ROUND...
set -u
new=$(cd "$(dirname "$0")/../../.." && pwd)
bc="bin/railcoll bench --collective broadcast --algorithms broadcast.multicast --netns --nodes 4 --ranks-per-node 1 --rails 1 --sizes 1,1k,64k --samples 5 --no-report"
ag="bin/railcoll bench --collective allgather --algorithms allgather.smp-gather-mcast --set RAILCOLL_MCAST=auto --netns --nodes 2 --ranks-per-node 2 --rails 1 --sizes 1,1k,64k --samples 5 --no-report"
for r in "$@"; do
  for t in old new; do
    if [ $t = old ]; then d=/tmp/railcoll-old-mcast; else d=$new; fi
    for c in bc ag; do
      echo "== round $r $t $c $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
      (cd "$d" && timeout 300 ${!c} > "/tmp/mcast-oldnew-$c-$r-$t.txt" 2>&1; echo "rc=$?"; grep -A5 "median latency" "/tmp/mcast-oldnew-$c-$r-$t.txt")
    done
  done
done
echo "== end $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
