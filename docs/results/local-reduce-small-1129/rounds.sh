#!/usr/bin/env bash
# Before/after: bin/railcoll bench --collective local-reduce --samples 7 --sizes 1k,8k,64k,1m, alternating builds.
# before = HEAD 70585177 (one JVM per mode, all four types in it); bench = the new bench with the old library;
# after = the new bench and the per-pair combiners. Each build's exec line is bin/railcoll's.
set -u
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
res=/tmp/sr/rounds; mkdir -p $res
for round in 1 2 3; do
  for v in before bench after; do
    case $v in before) d=/tmp/sr/before/railcoll-cli/target;; bench) d=/tmp/sr/newbench;; after) d=/tmp/sr/newlib;; esac
    f=$res/round-$round-$v.txt
    echo "# $v round $round start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" > $f
    $J --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -cp "$d/railcoll-cli.jar:$d/lib/*" io.railcoll.cli.RailcollCli \
      bench --collective local-reduce --samples 7 --sizes 1k,8k,64k,1m --out $res/out-$round-$v >> $f 2>&1
    echo "# $v round $round end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $f
  done
done
