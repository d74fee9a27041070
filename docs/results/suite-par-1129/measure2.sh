#!/usr/bin/env bash
# usage: measure.sh <label> <TestClass> [extra mvn args]
set -u
cd /tmp/sp/wt2
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
label=$1; cls=$2; shift 2
bin/test -o -q -pl railcoll-system-tests -am -Dtest="$cls" -Dsurefire.failIfNoSpecifiedTests=false "$@" > /tmp/sp/$label.mvn.log 2>&1 &
pid=$!
python3 /tmp/sp/treecpu.py $pid /tmp/sp/$label.cpu &
wait $pid; rc=$?
sleep 1
r=railcoll-system-tests/target/surefire-reports
mkdir -p /tmp/sp/rep-$label; cp $r/*.xml $r/*.txt /tmp/sp/rep-$label/ 2>/dev/null
echo "$label rc=$rc $(tail -1 /tmp/sp/$label.cpu) $(grep -h -o 'Tests run:.*' $r/*.txt | head -3 | tr '\n' ' ')" | tee -a /tmp/sp/summary.txt
