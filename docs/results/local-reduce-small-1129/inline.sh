#!/usr/bin/env bash
# Which calls C2 inlined into the timed reduce loop, and which compiled methods it threw away, per type order.
# usage: inline.sh CLASSPATH TYPES OUTFILE
set -u
cp="$1"; types="$2"; out="$3"
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
$J --add-modules=jdk.incubator.vector -XX:+UnlockDiagnosticVMOptions -XX:+PrintCompilation -XX:+PrintInlining \
  -cp "$cp" io.railcoll.bench.LocalReduceBench types=$types sizes=1024,8192 samples=3 sample-ms=20 warmup-ms=1000 \
  > "$out" 2>&1
