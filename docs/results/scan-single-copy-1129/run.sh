#!/bin/bash
# Decision 0227's single-copy prefixes against the node-buffer ones, the selection of the time (auto) and Open MPI, in
# the same run; 1x2 at 16 KiB-1 MiB, 1x3 and 1x4 at 64 KiB-1 MiB; rounds R, the algorithms' order reversed in every
# second round. FANIN=1 adds the fan-in shape beside the chain on 1x3 and 1x4 (round 1, the first build).
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
algs() { # collective [fanin]
  local a="$1.shm,$1.shm-single-copy${2:+,$1.shm-single-copy-fanin},auto"
  if [ $((r % 2)) = 0 ]; then echo "$a" | tr , '\n' | tac | paste -sd,; else echo "$a"; fi
}
for r in $(seq ${FIRST:-1} ${LAST:-2}); do
  for c in exscan scan; do
    run $c-1x2-$r --collective $c --placement 1x2 --sizes 16k,64k,256k,1m --algorithms $(algs $c)
  done
  for p in ${BIG:-1x3 1x4}; do
    for c in exscan scan; do
      run $c-$p-$r --collective $c --placement $p --sizes 64k,256k,1m --algorithms $(algs $c ${FANIN:+1})
    done
  done
done
echo "$(date -u +%T) all done" | tee -a $out/log
