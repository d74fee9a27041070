#!/usr/bin/env bash
# Throw-away probes for docs/results/local-reduce-1129.md (the classes are in the results' raw directory).
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
W=/work/wt/local-reduce
CP=$W/railcoll-core/target/classes
cd /tmp/lr
javac -d cls LoopShapes.java Hello.java && javac --add-modules jdk.incubator.vector -cp $CP -d cls KernelShapes.java ColdStart.java 2>&1 | grep -v "^warning\|incubat" 
stamp() { echo "# $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) :: $*"; }
what=${1:-all}
if [ "$what" = all ] || [ "$what" = shapes ]; then
  for round in 1 2; do
    stamp "LoopShapes round $round (SuperWord on)"; java -XX:+UseSerialGC -cp cls LoopShapes 8192,131072
    stamp "LoopShapes round $round -XX:-UseSuperWord"; java -XX:+UseSerialGC -XX:-UseSuperWord -cp cls LoopShapes 8192,131072
  done
fi
if [ "$what" = all ] || [ "$what" = kernels ]; then
  for round in 1 2 3; do
    stamp "KernelShapes round $round"; java -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -cp cls:$CP KernelShapes 1024,8192,131072 2>&1 | grep -v incubator
  done
fi
if [ "$what" = all ] || [ "$what" = cold ]; then
  for round in 1 2 3; do
    for b in 8192 65536 1048576; do
      for m in "" "--add-modules=jdk.incubator.vector"; do
        stamp "ColdStart $b $m"; java -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED $m -cp cls:$CP ColdStart $b DOUBLE 2>&1 | grep -v "WARNING: Using incubator"
      done
    done
  done
fi
if [ "$what" = all ] || [ "$what" = startup ]; then
  for round in 1 2 3 4 5; do
    for m in "" "--add-modules=jdk.incubator.vector"; do
      s=$(date +%s%N); java -XX:+UseSerialGC $m -cp cls Hello >/dev/null 2>&1; e=$(date +%s%N)
      echo "STARTUP module=${m:+yes}${m:-no} ms=$(( (e - s) / 1000000 ))"
    done
  done
fi
