cmd='bin/railcoll bench --collective allgather --nodes 1 --ranks-per-node 2 --algorithms auto,allgather.standard-exchange --sizes 1,1k,64k,1m --no-report --jit-warmup-ms 15000'
for r in 1 2 3 4 5; do
  for t in old new; do
    if [ $t = old ]; then d=/tmp/railcoll-old; else d=/work/main; fi
    echo "== round $r $t $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
    (cd $d && timeout 400 $cmd > /tmp/oldnew12-$r-$t.txt 2>&1; echo "rc=$?"; grep -A6 "median latency" /tmp/oldnew12-$r-$t.txt)
  done
done
echo "== end $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
