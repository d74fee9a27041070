#!/bin/bash
# One round: per point, the base tree (mpi in place vs API from a separate buffer), the new tree the same, and the
# new tree's mpi in place vs the API's in-place form; the order of base/new alternating from point to point.
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
NEW=/work/wt/mpi-perf; BASE=/tmp/mpi-base-0220
round=$1; flip=$2
run() { # tree dir label collective bytes seconds barrier placement
  local tree=$1 dir=$2 label=$3 coll=$4 bytes=$5 secs=$6 bar=$7 pl=$8
  local load=$(cut -d' ' -f1 /proc/loadavg)
  local out=$(cd $tree && timeout 120 bin/railcoll run --placement $pl --classpath $dir MpiBlocks $coll $bytes $secs $bar 2>&1 | grep "^\[r0\] $coll ")
  echo "$(date -u +%H:%M:%S) round=$round placement=$pl tree=$label load=$load $out"
}
i=$flip
for pl in ${PLACEMENTS:-1 2}; do
  if [ $pl = 1 ]; then secs=3; bar=0; else secs=${SECS2:-5}; bar=1; fi
  for bytes in 8 1024; do
    if [ $((i % 2)) = 0 ]; then
      run $BASE /tmp/blocks-0220-base base allgather-inplace $bytes $secs $bar $pl
      run $NEW /tmp/blocks-0220-new new allgather-inplace-separate $bytes $secs $bar $pl
    else
      run $NEW /tmp/blocks-0220-new new allgather-inplace-separate $bytes $secs $bar $pl
      run $BASE /tmp/blocks-0220-base base allgather-inplace $bytes $secs $bar $pl
    fi
    run $NEW /tmp/blocks-0220-new new allgather-inplace $bytes $secs $bar $pl
    i=$((i + 1))
  done
done
