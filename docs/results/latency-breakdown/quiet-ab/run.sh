cd /work/main
for rep in 3 4 5; do
for mode in old new; do
  if [ $mode = old ]; then opts="--jvm-option=-Drailcoll.rail.carryAck=false --jvm-option=-Drailcoll.rail.ackDelayUs=500"; else opts=""; fi
  echo "== rep $rep $mode $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  timeout 300 bin/railcoll run --placement 2x2 --rails 2 --jvm-option=-Drailcoll.counters=true $opts \
    io.railcoll.bench.LatencyBreakdownApp algorithm=auto calls=2000 warmup=3000 traced=300 > /tmp/ab-ack-$rep-$mode.txt 2>&1
  echo "rc=$?"
done
done
echo "== end $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
