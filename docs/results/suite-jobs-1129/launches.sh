#!/usr/bin/env bash
# usage: launches.sh <rounds>
# What a class cache saves per `railcoll run` launch of an MPI program, measured apart from Maven: the programs
# compiled and jarred as MpiProgramsSystemTest does, one training launch (Collectives on 2,1) writing the launcher's
# and the ranks' caches with -XX:AOTCacheOutput, then Hello and Collectives on 2,1 and 3,2, without and with the
# caches alternately, each under bash's time (user+sys of the launcher and every rank).
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; root="$here/../../.."
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
w=$(mktemp -d /tmp/sj-launch.XXXX); cd "$root"
cp="$PWD/railcoll-cli/target/railcoll-cli.jar:$PWD/railcoll-cli/target/lib/*"
mpi=$PWD/railcoll-mpi/target/railcoll-mpi-0.1.0-SNAPSHOT.jar
mkdir -p $w/classes $w/caches
javac -d $w/classes -cp $mpi railcoll-system-tests/src/test/resources/mpi-programs/*.java
(cd $w/classes && jar cf $w/programs.jar .)
Q=-Xlog:aot*=off,cds*=off
run() { # placement program launcher-options rank-options...
  local pl=$1 pr=$2 lo=$3; shift 3
  java --enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1 -XX:+UseSerialGC $lo -cp "$cp:$mpi" io.railcoll.cli.RailcollCli run \
    --jvm-option=-XX:TieredStopAtLevel=1 --jvm-option=-XX:+UseSerialGC "$@" --placement $pl --classpath $w/programs.jar $pr
}
TIMEFORMAT="training wall %R user %U sys %S"; time run 2,1 Collectives "-XX:AOTCacheOutput=$w/caches/launcher.aot $Q" \
  --jvm-option=-XX:AOTCacheOutput=$w/caches/rank%p.aot --jvm-option=$Q > $w/train.out 2>&1 || { cat $w/train.out; exit 1; }
rank=$(ls -S $w/caches/rank*.aot | head -1); ls -la $w/caches
for i in $(seq 1 $1); do
  for pl in 2,1 3,2; do for pr in Hello Collectives; do
    for mode in without with; do
      if [ $mode = with ]; then
        TIMEFORMAT="$mode $pl $pr wall %R user %U sys %S"; time run $pl $pr "-XX:AOTCache=$w/caches/launcher.aot $Q" --jvm-option=-XX:AOTCache=$rank --jvm-option=$Q > $w/o 2>&1
      else
        TIMEFORMAT="$mode $pl $pr wall %R user %U sys %S"; time run $pl $pr "" > $w/o 2>&1
      fi
      echo "  lines ok: $(grep -c ' ok$\| from rank' $w/o)"
    done
  done; done
done 2>&1
echo "load $(cat /proc/loadavg)"
rm -rf $w
