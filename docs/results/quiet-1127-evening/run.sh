#!/usr/bin/env bash
# One quiet sitting (nothing else running on this 2-core host), three questions left open on 2026-11-27:
#  A. Is a one-node node-step program slow because of the program or of wip/nodefast's engine? The same programs on
#     main's engine (barrier.shm-flags, broadcast.shm-pipeline) against the node collectives (barrier.shm,
#     broadcast.shm), in one run each, on an old main tree (b7000ec) that still has the flag programs.
#  B. allgather.smp-direct-shm (stand-in) against allgather.smp-direct-steps (its program, decision 0156) on loopback
#     2x4 and 2x2, in one run each (same JVMs), on MAIN.
#  C. wip/nodefast against main: one round of docs/results/node-steps-fast/run.sh from that branch.
# Usage: run.sh OLD_MAIN_TREE MAIN_TREE NODEFAST_TREE OUT
set -u
old=${1:?}; main=${2:?}; fast=${3:?}; out=${4:?}
mkdir -p "$out"
log="$out/run.log"
b() { local d=$1 f=$2; shift 2
  echo "== $f $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg): $*" | tee -a "$log"
  (cd "$d" && timeout 300 bin/railcoll bench "$@" --samples=5 --jit-warmup-ms=2000 --no-report > "$out/$f.txt" 2>&1)
  echo "rc=$?" | tee -a "$log"; grep -A7 "median latency" "$out/$f.txt" | tee -a "$log"; }
for r in 1 2; do
  for p in 1x2 1x4; do
    b "$old" "A-$r-barrier-$p" --collective=barrier --placement=$p --algorithms=barrier.shm,barrier.shm-flags
    b "$old" "A-$r-broadcast-$p" --collective=broadcast --placement=$p --algorithms=broadcast.shm,broadcast.shm-pipeline \
        --sizes=1,1k,64k
  done
done
for r in 1 2; do
  for p in 2x4 2x2; do
    b "$main" "B-$r-$p" --collective=allgather --placement=$p --rails=2 \
        --algorithms=allgather.smp-direct-shm,allgather.smp-direct-steps --sizes=1,1k,64k,1m
  done
done
bash "$fast/docs/results/node-steps-fast/run.sh" "$old" "$fast" "$out/C" 1 >> "$log" 2>&1
python3 "$fast/docs/results/node-steps-fast/summarize.py" "$out/C" > "$out/C-table.md" 2>&1
echo "== end $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$log"
