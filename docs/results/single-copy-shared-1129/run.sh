#!/usr/bin/env bash
# Single copy against the node buffer where ranks outnumber processors (decision 0197's open question), quiet host.
cd /work/main
out=${OUT:-/tmp/scq}; mkdir -p $out
for round in 1 2 3; do
  for p in 1x3 1x4; do
    for c in gather allreduce; do
      echo "$(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) round $round $c $p" | tee -a $out/log
      timeout 300 bin/railcoll bench --collective=$c --placement=$p --algorithms=shm,shm-single-copy --sizes=256k,1m,4m \
        --samples=5 --jit-warmup-ms=2000 --no-report > $out/$c-$p-r$round.txt 2>&1 || echo "rc=$? $c $p $round" | tee -a $out/log
      sed -n '/median latency/,/fastest/p' $out/$c-$p-r$round.txt | tee -a $out/log
    done
  done
done
