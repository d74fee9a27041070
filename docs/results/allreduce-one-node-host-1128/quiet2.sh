#!/bin/bash
# Quiet-host measurements of session 15 (run when nothing else runs): issue 22's one-node targets against Open MPI
# in the same run (all-reduce 1x2 and 1x4, 8 B..16 MiB; reduce-scatter and scan 1x2), railcoll auto and every
# algorithm. OUT=dir SIZES=... SAMPLES=n to override.
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
out=${OUT:-/tmp/quiet2}; mkdir -p $out
cd /work/main
sz=${SIZES:-8,1k,64k,1m,16m}; small=${SMALL:-8,1k,64k,1m}; n=${SAMPLES:-5}
run() { # name args...
  local name=$1; shift
  echo "$(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) start $name" | tee -a $out/log
  timeout 900 bin/railcoll bench "$@" --algorithms ${ALGS:-auto} --peer openmpi --samples $n --out $out/$name > $out/$name.log 2>&1
  echo "$(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) end $name rc=$?" | tee -a $out/log
}
run allreduce-1x2 --collective allreduce --placement 1x2 --sizes $sz
run allreduce-1x4 --collective allreduce --placement 1x4 --sizes $sz
run reduce-scatter-1x2 --collective reduce-scatter --placement 1x2 --sizes $small
run scan-1x2 --collective scan --placement 1x2 --sizes $small
echo "$(date -u +%T) all done" | tee -a $out/log
