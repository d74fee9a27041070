#!/bin/bash
# Decision 0229: the pipelined one-node reduce-scatter (reduce-scatter.shm) against the ring and Open MPI in the same
# run, 1x2, 1x3 and 1x4, rounds R (default 2) alternating the placements. OUT=<dir> R=<rounds> PLACEMENTS="1x2 1x3 1x4".
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
out=${OUT:-/tmp/rs-pipe}; mkdir -p $out
cd "$(dirname "$0")/../../.."
sz=${SIZES:-1k,8k,16k,64k,256k,1m}; n=${SAMPLES:-5}
for r in $(seq 1 ${R:-2}); do
  for p in ${PLACEMENTS:-1x2 1x3 1x4}; do
    echo "$(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) start rs-$p-$r" | tee -a $out/log
    timeout 900 bin/railcoll bench --collective=reduce-scatter --placement=$p \
      --algorithms=reduce-scatter.shm,reduce-scatter.ring --sizes=$sz --peer=openmpi --samples=$n \
      --jit-warmup-ms=2000 --no-report --out=$out/rs-$p-$r > $out/rs-$p-$r.log 2>&1
    echo "$(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) end rs-$p-$r rc=$?" | tee -a $out/log
  done
done
echo "$(date -u +%T) all done" | tee -a $out/log
