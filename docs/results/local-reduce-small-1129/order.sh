#!/usr/bin/env bash
# Type-order probe: each type alone in its own JVM against all four in one JVM (both orders), with the Vector API.
# usage: order.sh CLASSPATH OUTFILE
set -u
cp="$1"; out="$2"
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
common="sizes=1024,8192 samples=7 sample-ms=40 warmup-ms=1500"
{
for round in 1 2; do
  echo "# round $round $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "## mixed int,long,float,double"
  $J --add-modules=jdk.incubator.vector -cp "$cp" io.railcoll.bench.LocalReduceBench types=int,long,float,double $common 2>&1 | grep -v "^WARNING: Using incubator"
  for t in int long float double; do
    echo "## alone $t"
    $J --add-modules=jdk.incubator.vector -cp "$cp" io.railcoll.bench.LocalReduceBench types=$t $common 2>&1 | grep -v "^WARNING: Using incubator"
  done
  echo "## mixed double,float,long,int"
  $J --add-modules=jdk.incubator.vector -cp "$cp" io.railcoll.bench.LocalReduceBench types=double,float,long,int $common 2>&1 | grep -v "^WARNING: Using incubator"
done
echo "# end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out"
