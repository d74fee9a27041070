cmd='bin/railcoll bench --collective allgather --nodes 1 --ranks-per-node 4 --algorithms auto,allgather.standard-exchange --sizes 1,1k,64k,1m --no-report --jit-warmup-ms 15000'
for r in 1 2 3; do
  for t in old new; do
    if [ $t = old ]; then d=/tmp/railcoll-old; else d=/work/main; fi
    echo "== round $r $t $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
    (cd $d && timeout 400 $cmd 2>&1 | grep -A8 "median latency")
  done
done
echo "== end $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
