#!/bin/bash
# New build only: the bench's added column against the probe's, same case, alternating which goes first.
cd /work/wt/added-oan
out=/tmp/oan-agree
for rep in 1 2; do
  for p in $PLACEMENTS; do
    for c in broadcast gather allgather allreduce; do
      sizes=1,1024; [ $c = allreduce ] && sizes=8,1024
      order="bench probe"; [ $rep = 2 ] && order="probe bench"
      for w in $order; do
        echo "$(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) rep $rep $p $c $w" >> $out/log
        if [ $w = bench ]; then
          timeout 600 bin/railcoll bench --collective=$c --placement=$p --algorithms=auto --sizes=$sizes --samples=5 \
              --jit-warmup-ms=2000 --no-report > $out/$c-$p-bench-r$rep.txt 2>&1
        else
          timeout 600 bin/railcoll run --placement=$p --network=auto --rail-rate=2gbit --classpath /tmp/oan-s1/probe/new \
              AddedToBarrier $c $sizes 5 1000 2000 > $out/$c-$p-probe-r$rep.txt 2>&1
        fi
      done
    done
  done
done
