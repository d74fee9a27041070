#!/usr/bin/env bash
# Fixed and per-KiB cost: each type alone, old combiners (bench only) and new, alternating, 256 B..8 KiB, thread CPU time.
set -u
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
out=$1
{
for round in 1 2; do
for t in int long float double; do
  for v in bench after; do
    case $v in bench) d=/tmp/sr/newbench;; after) d=/tmp/sr/newlib;; esac
    echo "## $v $t round $round $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
    $J --add-modules=jdk.incubator.vector -cp "$d/railcoll-cli.jar:$d/lib/*" io.railcoll.bench.LocalReduceBench types=$t \
      sizes=256,512,1024,2048,4096,8192 samples=7 sample-ms=40 warmup-ms=1500 2>&1 | grep -v "^WARNING: Using incubator"
  done
done
done
} > $out
