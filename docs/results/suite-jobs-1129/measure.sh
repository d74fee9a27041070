#!/usr/bin/env bash
# usage: measure.sh <tree> <label> <TestClass> [extra mvn args]
# Runs one test class through Maven in <tree> with treecpu.py summing the processor time of the surefire fork's
# process tree (every rank JVM, every launcher); appends "<label> rc= <last sample> FINAL <cpu s> <surefire line>".
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out=${OUT:-/tmp/sj}
mkdir -p $out
tree=$1; label=$2; cls=$3; shift 3
cd "$tree"
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
l0=$(cut -d' ' -f1 /proc/loadavg); t0=$(date -u +%H:%M:%S); s0=$(date +%s)
bin/test -o -q -pl railcoll-system-tests -am -Dtest="$cls" -Dsurefire.failIfNoSpecifiedTests=false "$@" > $out/$label.mvn.log 2>&1 &
pid=$!
python3 $here/treecpu.py $pid $out/$label.cpu &
wait $pid; rc=$?
sleep 1
s1=$(date +%s); l1=$(cut -d' ' -f1 /proc/loadavg)
r=railcoll-system-tests/target/surefire-reports
mkdir -p $out/rep-$label; cp $r/*.xml $r/*.txt $out/rep-$label/ 2>/dev/null
echo "$label rc=$rc $t0 load $l0..$l1 mvn-wall $((s1-s0)) s $(tail -1 $out/$label.cpu) $(grep -h -o 'Tests run:.*' $r/*.txt | head -3 | tr '\n' ' ')" | tee -a $out/summary.txt
