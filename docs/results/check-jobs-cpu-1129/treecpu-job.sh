#!/usr/bin/env bash
# usage: treecpu-job.sh <label> <mvn args...>: runs mvn on the one test with the sampler on the surefire fork's tree
set -u
cd ${DIR:-/work/wt/check-refs}
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
label=$1; shift
bin/test -o -q -pl railcoll-system-tests -am -Dsurefire.failIfNoSpecifiedTests=false "$@" > /tmp/cr/$label.mvn.log 2>&1 &
pid=$!
python3 /work/wt/check-refs/docs/results/suite-par-1129/treecpu.py $pid /tmp/cr/$label.cpu &
wait $pid; rc=$?
sleep 1
echo "$label rc=$rc $(tail -1 /tmp/cr/$label.cpu) wall=$(tail -2 /tmp/cr/$label.cpu | head -1 | cut -d' ' -f1) $(grep -h ZZ-ELAPSED /tmp/cr/$label.mvn.log) load=$(cut -d' ' -f1-3 /proc/loadavg)" | tee -a /tmp/cr/summary.txt
