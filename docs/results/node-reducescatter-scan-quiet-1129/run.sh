#!/bin/bash
# Quiet-host measurements of session 16 (run when nothing else runs): decision 0222's one-node reduce-scatter, scan and
# exscan against the old selection and Open MPI in the same run, 1x2 and 1x4, rounds R (default 2).
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
out=${OUT:-/tmp/quiet3}; mkdir -p $out
cd /work/main
sz=${SIZES:-8,1k,64k,1m}; n=${SAMPLES:-5}
run() { # name args...
  local name=$1; shift
  echo "$(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) start $name" | tee -a $out/log
  timeout 600 bin/railcoll bench "$@" --sizes $sz --peer openmpi --samples $n --out $out/$name > $out/$name.log 2>&1
  echo "$(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) end $name rc=$?" | tee -a $out/log
}
for r in $(seq 1 ${R:-2}); do
  for p in 1x2 1x4; do
    run rs-$p-$r --collective reduce-scatter --placement $p --algorithms auto,reduce-scatter.shm,reduce-scatter.ring
    run scan-$p-$r --collective scan --placement $p --algorithms auto,scan.shm,scan.recursive-doubling
    run exscan-$p-$r --collective exscan --placement $p --algorithms auto,exscan.shm,exscan.recursive-doubling
  done
done
echo "$(date -u +%T) all done" | tee -a $out/log
