#!/bin/bash
# The OSU-style figure against the barrier-independent cost, old (eecb4a6) and new builds alternating.
# OUT=dir R=reps N=calls bash skew.sh
set -u
OUT=${OUT:-/tmp/skew}; R=${R:-3}; N=${N:-100000}
mkdir -p $OUT
old=/tmp/railcoll-old-eecb4a6; new=/work/main
for rep in $(seq 1 $R); do
  for p in 1x2 1x4; do
    for c in gather broadcast allgather barrier; do
      order="old new"; [ $((rep % 2)) = 0 ] && order="new old"
      for b in $order; do
        root=$new; [ $b = old ] && root=$old
        cp=/tmp/lat2/$b; 
        line=$(timeout 300 $root/bin/railcoll run --placement=$p --classpath $cp Skew $c $N 5 2>&1 | grep SKEW)
        echo "$(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) rep $rep $p $c $b $line" | tee -a $OUT/log
      done
    done
  done
done
