#!/usr/bin/env bash
# Every 16-processor figure that issues 21, 22 and 23 judge, in one run that fits one 10-minute device call.
#
# Why one script: a session that is lent the 16-processor machine gets about 15 minutes of it, each start costing a
# minute or two, and that machine has no JDK, Maven or Open MPI (../shared/tools/bundle/README.md). So everything it
# runs is prepared and tried here first.
#
#   bench/device/run-16.sh prepare   here: builds .bundle/ (make-bundle.sh) and compiles bench/mpi/MpiBench.java into
#                                    .bundle/mpibench with the bundle's CLI jars on the class path
#   bench/device/run-16.sh smoke     here: every step with 2 ranks per node and two sizes, through the bundle, so the
#                                    one run there does not fail on a typo (about 3 minutes on this 2-core host)
#   bench/device/run-16.sh run       there (device `run`, carry [".bundle"]): the measurements below; results go to
#                                    $OUT/device-16.tar.gz (or bench-out/device-16 without $OUT), one file because the
#                                    device returns at most 8
#
# Steps, each under its own deadline so one that hangs leaves time for the rest (seconds in STEP_S):
#   one node, 16 ranks, Open MPI as the peer in the same run:
#     barrier (auto, barrier.shm, barrier.dissemination)           issue 21: at most 1.0x Open MPI
#     broadcast 1 B, 1 KiB, 64 KiB, 1 MiB (auto)                   issue 21: at most 1.0x at 64 KiB and 1 MiB
#     allgather and gather 1 B .. 1 MiB (auto)                     issue 21: nothing slower than before
#     allreduce of doubles 8 B .. 16 MiB (auto)                    issue 22: at most 1.0x at every size
#     the mpi program (bench/mpi/MpiBench.java), allreduce and allgather 8 B .. 1 MiB: railcoll-mpi over railcoll's
#     own API, alternating sample by sample                        issue 23: at most 1.1x
#   4x4 namespace testbed, 2 rails at 2 Gbit/s (skipped, with a line saying so, where namespaces cannot be made):
#     point-to-point latency, 2 nodes x 1 rank, 1 B               issue 21's 26 us
#     allgather 1 B, 1 KiB, 64 KiB, 1 MiB (auto), Open MPI peer   issue 21: 1 B at most 100 us and 1.0x Open MPI
#     allreduce 1 MiB and 4 MiB (auto), Open MPI peer              issue 22: 80% of the rails' limit, 1.0x Open MPI
#     the mpi program on the testbed                               issue 23: at most 1.1x
set -uo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-}
root=$(pwd)

case "$mode" in
  prepare)
    set -e
    ../shared/tools/bundle/make-bundle.sh
    jdk=$(bin/find-jdk)
    rm -rf .bundle/mpibench && mkdir -p .bundle/mpibench
    "$jdk/bin/javac" --release 25 -d .bundle/mpibench -cp ".bundle/railcoll/lib/*" bench/mpi/MpiBench.java
    cp bench/device/run-16.sh .bundle/run-16.sh
    du -sh .bundle
    exit 0 ;;
  smoke) rpn=2; mpi_sizes="8 1024"; sizes_small=1,64k; sizes_reduce=8,8k; samples=3; warm=500; STEP_S=${STEP_S:-240} ;;
  run) rpn=16; sizes_small=1,1k,64k,1m; sizes_reduce=8,128,1k,8k,128k,1m,8m,16m; samples=7; warm=2000
       STEP_S=${STEP_S:-150} ;;
  *) echo "usage: bench/device/run-16.sh prepare|smoke|run" >&2; exit 2 ;;
esac

[ -f .bundle/env.sh ] || { echo "run-16: no .bundle/ here; run 'bench/device/run-16.sh prepare' first" >&2; exit 2; }
# shellcheck disable=SC1091
. .bundle/env.sh
if [ "$mode" = smoke ]; then out=bench-out/device-16-smoke; else out=${OUT:+$OUT/device-16}; out=${out:-bench-out/device-16}; fi
rm -rf "$out"; mkdir -p "$out"
log="$out/run.log"
say() { echo "$*" | tee -a "$log"; }

# What the machine is, so the figures name it.
{ echo "== machine $(date -u +%FT%TZ)"; uname -a; nproc; grep -m1 "model name" /proc/cpuinfo; free -g | head -2
  echo "load: $(cat /proc/loadavg)"; command -v cc gcc || echo "no C compiler"; } >> "$log" 2>&1

peer=openmpi
if ! command -v cc >/dev/null 2>&1 && ! command -v gcc >/dev/null 2>&1; then
  peer=none; say "run-16: no C compiler, so Open MPI's peer_bench cannot be built: figures without the peer"
fi
testbed=yes
if ! ip netns add rc16-probe >/dev/null 2>&1; then
  testbed=no; say "run-16: network namespaces cannot be made here: the 4x4 testbed steps are skipped"
else
  ip netns del rc16-probe
fi

# One step: a name, then the rcb arguments. Its output goes to $out/NAME.txt, its CSV to $out/NAME.csv.
step() {
  local name=$1; shift
  say "== $name $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg): rcb $*"
  timeout --kill-after=10 "$STEP_S" bash -c '. .bundle/env.sh; rcb "$@"' rcb "$@" --csv "$out/$name.csv" \
      > "$out/$name.txt" 2>&1
  local rc=$?
  say "   rc=$rc"
  grep -A12 -i "median" "$out/$name.txt" | head -24 >> "$log"
}
one=(--network loopback --nodes 1 --ranks-per-node "$rpn" --samples "$samples" --jit-warmup-ms "$warm" --no-report)
nets=(--netns --rail-rate 2gbit --rails 2 --samples "$samples" --jit-warmup-ms "$warm" --no-report)
[ "$mode" = smoke ] && tb=(--nodes 2 --ranks-per-node 2) || tb=(--nodes 4 --ranks-per-node 4)

step node-barrier bench "${one[@]}" --collective barrier --algorithms auto,barrier.shm,barrier.dissemination \
    --peer "$peer"
step node-broadcast bench "${one[@]}" --collective broadcast --algorithms auto --sizes "$sizes_small" --peer "$peer"
step node-allgather bench "${one[@]}" --collective allgather --algorithms auto --sizes "$sizes_small" --peer "$peer"
step node-gather bench "${one[@]}" --collective gather --algorithms auto --sizes "$sizes_small" --peer "$peer"
step node-allreduce bench "${one[@]}" --collective allreduce --algorithms auto --sizes "$sizes_reduce" --peer "$peer"
# The mpi program: railcoll-mpi against railcoll's own API, alternating sample by sample (bench/mpi-overhead.sh).
mpi_step() {
  local name=$1; shift
  say "== $name $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg): rcb run $* MpiBench"
  timeout --kill-after=10 "$STEP_S" bash -c '. .bundle/env.sh; rcb run "$@"' rcb "$@" --classpath .bundle/mpibench \
      MpiBench "$samples" $mpi_sizes > "$out/$name.txt" 2>&1
  say "   rc=$?"
  tail -30 "$out/$name.txt" >> "$log"
}
[ "$mode" = run ] && mpi_sizes="8 64 1024 16384 131072 1048576"
mpi_step node-mpi --nodes 1 --ranks-per-node "$rpn"
if [ "$testbed" = yes ]; then
  step testbed-latency bench --netns --rail-rate 2gbit --rails 2 --nodes 2 --ranks-per-node 1 --collective latency \
      --sizes 1,1k --no-report
  step testbed-allgather bench "${nets[@]}" "${tb[@]}" --collective allgather --algorithms auto \
      --sizes "$sizes_small" --peer "$peer"
  step testbed-allreduce bench "${nets[@]}" "${tb[@]}" --collective allreduce --algorithms auto \
      --sizes "$([ "$mode" = smoke ] && echo 8k || echo 1m,4m)" --peer "$peer"
  [ "$mode" = run ] && mpi_sizes="8 1024 131072 1048576"
  mpi_step testbed-mpi --netns --rail-rate 2gbit --rails 2 "${tb[@]}"
fi
say "== end $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "${OUT:-}" ] && [ "$mode" = run ]; then
  cp "$log" "$OUT/run.log"
  tar -C "$OUT" -czf "$OUT/device-16.tar.gz" device-16 && rm -rf "$OUT/device-16"
fi
