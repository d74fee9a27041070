#!/bin/bash
cd /work/wt/latency
mkdir -p /tmp/lat/strace
for cfg in "false 500" "true 2000"; do
  set -- $cfg
  out=/tmp/lat/strace/2x2-auto-carry$1-delay$2
  bin/railcoll run --placement 2x2 --rails 2 --jvm-option=-Drailcoll.counters=true \
    --jvm-option=-Drailcoll.rail.carryAck=$1 --jvm-option=-Drailcoll.rail.ackDelayUs=$2 --jvm-option=-Drailcoll.strace.marker=1 \
    io.railcoll.bench.LatencyBreakdownApp algorithm=auto calls=100000 warmup=2000 traced=10 > $out.txt 2>&1 &
  job=$!
  pid=""
  for i in $(seq 1 40); do
    for p in $(pgrep -f "railcoll.strace.marker=1"); do
      if tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "RAILCOLL_RANK=0"; then pid=$p; fi
    done
    [ -n "$pid" ] && break
    sleep 1
  done
  sleep 20
  timeout -s INT 8 strace -c -f -p $pid -o $out.strace 2>/dev/null
  kill $job 2>/dev/null
  sleep 2
  for p in $(pgrep -f "railcoll.strace.marker=1"); do kill $p 2>/dev/null; done
  sleep 2
done
