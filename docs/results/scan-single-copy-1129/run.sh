#!/bin/bash
# Decision 0227's single-copy prefixes against the node-buffer ones, the selection of the time (auto) and Open MPI, in
# the same run; 1x2 at 16 KiB-1 MiB, 1x3 and 1x4 at 64 KiB-1 MiB with the fan-in shape beside the chain; rounds R.
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
out=${OUT:-/tmp/scsc/runs}; mkdir -p $out
cd ${TREE:-/work/wt/scan-sc}
n=${SAMPLES:-5}
run() { # name args...
  local name=$1; shift
  echo "$(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) start $name" | tee -a $out/log
  timeout 900 bin/railcoll bench "$@" --peer openmpi --samples $n --jit-warmup-ms=2000 --out $out/$name > $out/$name.log 2>&1
  echo "$(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) end $name rc=$?" | tee -a $out/log
}
for r in $(seq 1 ${R:-2}); do
  for c in exscan scan; do
    run $c-1x2-$r --collective $c --placement 1x2 --sizes 16k,64k,256k,1m --algorithms $c.shm,$c.shm-single-copy,auto
  done
  for p in ${BIG:-1x3 1x4}; do
    for c in exscan scan; do
      run $c-$p-$r --collective $c --placement $p --sizes 64k,256k,1m \
        --algorithms $c.shm,$c.shm-single-copy${FANIN-,$c.shm-single-copy-fanin},auto
    done
  done
done
echo "$(date -u +%T) all done" | tee -a $out/log
