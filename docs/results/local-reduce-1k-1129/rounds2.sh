#!/usr/bin/env bash
# Before against final (this branch's last commit), alternating: bin/railcoll bench --collective local-reduce
# --samples 7 --sample-ms 40 --sizes 64,1k,8k,64k. Each build's exec line is bin/railcoll's.
set -u
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
res=/tmp/r1k/rounds2; mkdir -p $res
for round in 1 2 3; do
  for v in final before; do
    d=/tmp/r1k/$v
    f=$res/round-$round-$v.txt
    echo "# $v round $round start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" > $f
    $J --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -cp "$d/railcoll-cli.jar:$d/lib/*" io.railcoll.cli.RailcollCli \
      bench --collective local-reduce --samples 7 --sample-ms 40 --sizes 64,1k,8k,64k --out $res/out-$round-$v >> $f 2>&1
    echo "# $v round $round end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $f
  done
done
