#!/usr/bin/env bash
# Does railcoll bench's 100-call sample (against the peer's 1000) bias the ratio? Same run order ABAB.
cd /work/snap
for rep in 1 2; do
  for coll in gather allgather; do
    for it in 100 1000; do
      ms=100; [[ $it == 1000 ]] && ms=1000
      out=/tmp/iters/$coll-it$it-rep$rep
      echo "== $(date -u +%T) $coll iterations=$it rep=$rep"
      bin/railcoll bench --network loopback --nodes 1 --ranks-per-node 16 --rails 1 --collective $coll \
        --algorithms shm --sizes 1,64,4096 --samples 7 --peer openmpi --iterations $it --sample-ms $ms \
        --out $out > $out.log 2>&1
      echo "   rc=$? $(date -u +%T)"
    done
  done
done
