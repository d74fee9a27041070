#!/usr/bin/env bash
# Every 16-processor figure that issues 21, 22 and 23 judge, in one run that fits one 10-minute device call.
#
# Why one script: a session that is lent the 16-processor machine gets about 15 minutes of it, each start costing a
# minute or two, and that machine has no JDK, Maven or Open MPI (../shared/tools/bundle/README.md). So everything it
# runs is prepared and tried here first.
#
#   bench/device/run-16.sh prepare   here: builds .bundle/ (make-bundle.sh) and compiles bench/mpi/MpiBench.java into
#                                    .bundle/mpibench with the bundle's CLI jars on the class path; with
#                                    BASE_RAILCOLL=DIR (an earlier bundle's railcoll/ directory) also .bundle/base, which
#                                    the A/B steps run beside this build
#   bench/device/run-16.sh smoke     here: every step with 2 ranks per node and two sizes, through the bundle, so the
#                                    one run there does not fail on a typo (about 3 minutes on this 2-core host)
#   bench/device/run-16.sh run       there (device `run`, carry [".bundle"]): the measurements below; results go to
#                                    $OUT/device-16.tar.gz (or bench-out/device-16 without $OUT), one file because the
#                                    device returns at most 8
#
# Steps, each under its own deadline (STEP_S seconds) and all under one (TOTAL_S, from the script's start: the device
# call's limit is 600 s), so one that hangs leaves time for the rest and a step that no longer fits is skipped with a
# line saying so:
#   one node, 16 ranks, Open MPI as the peer in the same run:
#     barrier (auto, barrier.shm, barrier.dissemination)           issue 21: at most 1.0x Open MPI
#     broadcast 1 B, 1 KiB, 64 KiB, 1 MiB (auto)                   issue 21: at most 1.0x at 64 KiB and 1 MiB
#     allgather and gather 1 B .. 1 MiB (auto)                     issue 21: nothing slower than before
#     allreduce of doubles 8 B .. 16 MiB (auto)                    issue 22: at most 1.0x at every size
#     (ranks with the Vector API's module, bench's default since decision 0233), then auto's again with the staged
#     loops (--vector-api off); the local reduction against a copy
#     the floor (bench/node-floor.c) at 1 B, 1 KiB and 4 KiB (its largest block)
#     the mpi program (bench/mpi/MpiBench.java), allreduce and allgather 8 B .. 1 MiB: railcoll-mpi over railcoll's
#     own API, alternating sample by sample                        issue 23: at most 1.1x
#   4x4 namespace testbed, 2 rails at 2 Gbit/s (skipped, with a line saying so, where namespaces cannot be made):
#     point-to-point latency, 2 nodes x 1 rank, 1 B               issue 21's 26 us
#     allgather 1 B, 1 KiB, 64 KiB, 1 MiB (auto), Open MPI peer   issue 21: 1 B at most 100 us and 1.0x Open MPI
#     allreduce 1 MiB and 4 MiB (auto and four multi-leader forms), Open MPI peer; again with the threaded engine;
#     the per-op breakdown of multi-leader-rabenseifner           issue 22: 80% of the rails' limit, 1.0x Open MPI
#     the mpi program on the testbed                               issue 23: at most 1.1x
#   with .bundle/base (prepare with BASE_RAILCOLL=...): barrier and 1 B / 1 KiB all-gather on 1x16 on the base build and
#   on this one, alternating, the same barrier.shm between timed calls on both (ab-*-base-N, ab-*-new-N)
set -uo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-}
root=$(pwd)

case "$mode" in
  prepare)
    set -e
    ../shared/tools/bundle/make-bundle.sh
    jdk=$(bin/find-jdk)
    # The reductions' Vector API combiners (decision 0210) need jdk.incubator.vector, which the shared bundle's
    # runtime leaves out: the same runtime again with it added (about 1 MB).
    rt=$(mktemp -d)
    tar -C "$rt" -xJf .bundle/jre.tar.xz
    mods=$("$rt/jre/bin/java" --list-modules | sed 's/@.*//' | paste -sd, -)
    rm -rf "$rt/jre"
    "$jdk/bin/jlink" --add-modules "$mods,jdk.incubator.vector" --strip-debug --no-man-pages --no-header-files \
        --compress zip-0 --output "$rt/jre"
    tar -C "$rt" -cJf .bundle/jre.tar.xz jre && rm -rf "$rt"
    rm -rf .bundle/mpibench && mkdir -p .bundle/mpibench
    "$jdk/bin/javac" --release 25 -d .bundle/mpibench -cp ".bundle/railcoll/lib/*" bench/mpi/MpiBench.java
    cp bench/device/run-16.sh .bundle/run-16.sh
    # BASE_RAILCOLL=DIR: a base build's .bundle/railcoll (cli jar and lib/), for the A/B steps below.
    if [ -n "${BASE_RAILCOLL:-}" ]; then rm -rf .bundle/base && cp -a "$BASE_RAILCOLL" .bundle/base; fi
    du -sh .bundle
    exit 0 ;;
  smoke) rpn=2; mpi_sizes="8 1024"; sizes_small=1,64k; sizes_copy=1,64k; sizes_reduce=8,8k,512k; samples=3; warm=500; STEP_S=${STEP_S:-240}
         TOTAL_S=${TOTAL_S:-900} ;;
  run) rpn=16; sizes_small=1,1k,64k,1m; sizes_copy=1,1k,64k,256k,1m; sizes_reduce=${SIZES_REDUCE:-8,128,1k,8k,16k,128k,512k,1m,8m}; samples=7; warm=2000
       STEP_S=${STEP_S:-120} TOTAL_S=${TOTAL_S:-520} ;;
  *) echo "usage: bench/device/run-16.sh prepare|smoke|run" >&2; exit 2 ;;
esac

[ -f .bundle/env.sh ] || { echo "run-16: no .bundle/ here; run 'bench/device/run-16.sh prepare' first" >&2; exit 2; }
# shellcheck disable=SC1091
. .bundle/env.sh
# env.sh unpacks the bundle into /opt/rcb only once: a machine (or this host) that ran an earlier bundle would run its
# railcoll jars, so this bundle's replace them.
rm -rf /opt/rcb/railcoll && cp -a .bundle/railcoll /opt/rcb/railcoll
if [ "$mode" = smoke ]; then out=bench-out/device-16-smoke; else out=${OUT:+$OUT/device-16}; out=${out:-bench-out/device-16}; fi
rm -rf "$out"; mkdir -p "$out"
log="$out/run.log"
say() { echo "$*" | tee -a "$log"; }
started=$(date +%s)
# ONLY="name ...": run just these steps (a second, shorter device call after fixes); empty runs every step.
# SIZES_REDUCE and BCAST_ALGS narrow the one-node all-reduce's sizes and the broadcast's algorithms likewise.
wanted() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }
# Seconds a step may take now: STEP_S, or what is left of TOTAL_S less 15 s to pack the results.
budget() { local left=$(( TOTAL_S - ($(date +%s) - started) - 15 )); echo $(( left < STEP_S ? left : STEP_S )); }

# What the machine is, so the figures name it.
{ echo "== machine $(date -u +%FT%TZ)"; uname -a; nproc; grep -m1 "model name" /proc/cpuinfo; free -g | head -2
  echo "load: $(cat /proc/loadavg)"; command -v cc gcc || echo "no C compiler"
  for c in hostname unshare nsenter; do command -v "$c" || echo "no $c"; done
  echo "the peer's fake hosts resolve to (none expected): $(getent hosts rcnode1 rcnode2 rcnode3 | tr '\n' ' ')"; } >> "$log" 2>&1

peer=openmpi
if ! command -v cc >/dev/null 2>&1 && ! command -v gcc >/dev/null 2>&1; then
  peer=none; say "run-16: no C compiler, so Open MPI's peer_bench cannot be built: figures without the peer"
fi
# The bench knows no peer "none": without a C compiler the steps run without --peer.
peer_args=(--peer "$peer"); [ "$peer" = none ] && peer_args=()
testbed=yes
if ! ip netns add rc16-probe >/dev/null 2>&1; then
  testbed=no; say "run-16: network namespaces cannot be made here: the 4x4 testbed steps are skipped"
elif ! { ip link add rc16-a type veth peer name rc16-b && tc qdisc add dev rc16-a root tbf rate 2gbit burst 256k \
         latency 50ms; } >> "$log" 2>&1; then
  testbed=no; say "run-16: veth pairs or tc's tbf cannot be made here: the 4x4 testbed steps are skipped"
fi
ip link del rc16-a >/dev/null 2>&1; ip netns del rc16-probe >/dev/null 2>&1

# One step: a name, then the rcb arguments. Its output goes to $out/NAME.txt, its CSV to $out/NAME.csv.
step() {
  local name=$1; shift
  wanted "$name" || return 0
  local limit; limit=$(budget)
  if [ "$limit" -lt 20 ]; then say "== $name SKIPPED: ${limit}s left of TOTAL_S=$TOTAL_S"; return; fi
  say "== $name $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) limit ${limit}s: rcb $*"
  local csv=(); [ "$1" = bench ] && csv=(--csv "$out/$name.csv")
  # RCB_BASE=1: the base build's jars first on the class path (the ranks inherit it).
  timeout --kill-after=5 "$limit" bash -c '. .bundle/env.sh
    if [ -n "${RCB_BASE:-}" ]; then
      "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC \
        -cp "$PWD/.bundle/base/railcoll-cli.jar:$PWD/.bundle/base/lib/*" io.railcoll.cli.RailcollCli "$@"
    else rcb "$@"; fi' rcb "$@" "${csv[@]}" > "$out/$name.txt" 2>&1
  local rc=$?
  say "   rc=$rc"
  if [ "$1" = bench ]; then grep -A12 -i "median" "$out/$name.txt" | head -24 >> "$log"; else tail -40 "$out/$name.txt" >> "$log"; fi
}
one=(--network loopback --nodes 1 --ranks-per-node "$rpn" --samples "$samples" --jit-warmup-ms "$warm" --no-report)
nets=(--netns --rail-rate 2gbit --rails 2 --samples "$samples" --jit-warmup-ms "$warm" --no-report)
[ "$mode" = smoke ] && tb=(--nodes 2 --ranks-per-node 2) || tb=(--nodes 4 --ranks-per-node 4)

# The floor of a process-per-rank design on this machine (bench/node-floor.c: mailboxes, nothing else).
floor_step() {
  [ "$peer" != none ] && wanted node-floor || return 0
  say "== node-floor $(date -u +%T): bench/node-floor.c with $rpn ranks"
  cc -O2 -o "$out/node-floor" bench/node-floor.c >> "$log" 2>&1 \
    && timeout --kill-after=5 "$(budget)" "$out/node-floor" "$rpn" "$samples" 2000 1,1024,4096 > "$out/node-floor.csv" 2>&1
  say "   rc=$?"; cat "$out/node-floor.csv" >> "$log"; rm -f "$out/node-floor"
}
# The mpi program: railcoll-mpi against railcoll's own API, alternating sample by sample (bench/mpi-overhead.sh).
mpi_step() {
  local name=$1; shift
  wanted "$name" || return 0
  local limit; limit=$(budget)
  if [ "$limit" -lt 20 ]; then say "== $name SKIPPED: ${limit}s left of TOTAL_S=$TOTAL_S"; return; fi
  say "== $name $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) limit ${limit}s: rcb run $* MpiBench"
  timeout --kill-after=5 "$limit" bash -c '. .bundle/env.sh; rcb run "$@"' rcb "$@" --classpath .bundle/mpibench \
      MpiBench "$samples" $mpi_sizes > "$out/$name.txt" 2>&1
  say "   rc=$?"
  tail -30 "$out/$name.txt" >> "$log"
}
# In the order of what the issues judge first, one-node and testbed steps interleaved, so that a run cut short by
# TOTAL_S still has some of each.
step node-barrier bench "${one[@]}" --collective barrier \
    --algorithms auto,barrier.shm,barrier.shm-dissemination,barrier.dissemination \
    "${peer_args[@]}"
floor_step
# Forced beside auto: the pipeline (auto from 512 KiB on 4+ ranks), the scatter-allgather pulls and the old single-copy
# path, so one run says which large one-node broadcast 16 processors want (docs/results/node-broadcast-large.md).
step node-broadcast bench "${one[@]}" --collective broadcast --sizes "$sizes_small" "${peer_args[@]}" \
    --algorithms "${BCAST_ALGS:-auto,broadcast.shm,broadcast.shm-scatter-allgather,broadcast.shm-single-copy}"
if [ "$testbed" = yes ]; then
  step testbed-latency bench --netns --rail-rate 2gbit --rails 2 --nodes 2 --ranks-per-node 1 --collective latency \
      --sizes 1,1k --no-report
  step testbed-allgather bench "${nets[@]}" "${tb[@]}" --collective allgather --algorithms auto \
      --sizes "$sizes_small" "${peer_args[@]}"
fi
# allreduce.shm-doubling keeps a slot per rank and round in the node buffer: on 16 ranks it runs up to 16 KiB only
# (on the smoke's 2 ranks up to 256 KiB, so its 512 KiB tries the same). The bench skips the sizes it refuses, on every
# rank alike, and its table reads n/a there with a "not run" line saying why (decision 0223).
# A named algorithm that runs none of the sizes is a bad option for the whole step, so a SIZES_REDUCE without a size of
# 16 KiB or less leaves it out.
doubling=
for s in ${sizes_reduce//,/ }; do
  s=${s,,}
  case "$s" in *k) b=$(( ${s%k} * 1024 ));; *m) b=$(( ${s%m} * 1048576 ));; *g) b=$(( ${s%g} * 1073741824 ));; *) b=$s;; esac
  [ "$b" -le 16384 ] && doubling=allreduce.shm-doubling,
done
step node-allreduce bench "${one[@]}" --collective allreduce \
    --algorithms "auto,allreduce.shm,${doubling}allreduce.shm-single-copy" \
    --sizes "$sizes_reduce" "${peer_args[@]}"
# The step above runs the combiners with the Vector API, bench's default since decision 0233 (the bundle's runtime has
# the module); auto's all-reduce again with the staged loops, as a JVM without the module runs them, and the loops
# against a copy.
step node-allreduce-staged bench "${one[@]}" --collective allreduce --algorithms auto --vector-api off \
    --sizes "$sizes_reduce"
step local-reduce bench --collective local-reduce --samples 5 --out "$out/local-reduce"
# The testbed all-reduce with the candidates that tell a cost per rail wait (rabenseifner: 4 waits at 4 nodes,
# direct: 2) from the single engine's sleeps (the threaded engine beside it): docs/results/testbed-allreduce.md.
if [ "$testbed" = yes ]; then
  tb_reduce_sizes=$([ "$mode" = smoke ] && echo 8k || echo 1m,4m)
  tb_reduce_algs=auto,allreduce.multi-leader-rabenseifner,allreduce.multi-leader-direct,allreduce.multi-leader,allreduce.multi-leader-single-copy
  step testbed-allreduce bench "${nets[@]}" "${tb[@]}" --collective allreduce --algorithms "$tb_reduce_algs" \
      --sizes "$tb_reduce_sizes" "${peer_args[@]}"
  step testbed-allreduce-threaded bench "${nets[@]}" "${tb[@]}" --engine threaded --collective allreduce \
      --algorithms "$tb_reduce_algs" --sizes "$tb_reduce_sizes"
  step testbed-allreduce-breakdown run --netns --rail-rate 2gbit --rails 2 "${tb[@]}" \
      --jvm-option=-Drailcoll.counters=true io.railcoll.bench.LatencyBreakdownApp collective=allreduce \
      algorithm=allreduce.multi-leader-rabenseifner size=1048576 calls=60 warmup=300 traced=40
fi
# Auto beside the node buffer and single copy, so that one run says where single copy wins on this many processors
# (decisions 0196, 0197).
step node-allgather bench "${one[@]}" --collective allgather --algorithms auto,allgather.shm,allgather.shm-single-copy \
    --sizes "$sizes_copy" "${peer_args[@]}"
step node-gather bench "${one[@]}" --collective gather --algorithms auto,gather.shm,gather.shm-single-copy \
    --sizes "$sizes_copy" "${peer_args[@]}"
# The same one-node calls on the bundle's base build (.bundle/base, the commit before this session's engine changes,
# when present) and on this one, alternating, with the same barrier between timed calls on both: what the engine's
# changes did, measured in one run (decision 0200).
if [ -d .bundle/base ]; then
  ab=(--set RAILCOLL_ALGORITHM_BARRIER=barrier.shm)
  for round in 1 2; do
    for build in base new; do
      RCB_BASE=$([ $build = base ] && echo 1) step "ab-barrier-$build-$round" bench "${one[@]}" "${ab[@]}" \
          --collective barrier --algorithms barrier.shm
      RCB_BASE=$([ $build = base ] && echo 1) step "ab-allgather-$build-$round" bench "${one[@]}" "${ab[@]}" \
          --collective allgather --algorithms allgather.shm --sizes 1,1k
    done
  done
fi
[ "$mode" = run ] && mpi_sizes="8 64 1024 16384 131072 1048576"
mpi_step node-mpi --nodes 1 --ranks-per-node "$rpn"
[ "$mode" = run ] && mpi_sizes="8 1024 131072"
[ "$testbed" = yes ] && mpi_step testbed-mpi --netns --rail-rate 2gbit --rails 2 "${tb[@]}"
say "== end $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "${OUT:-}" ] && [ "$mode" = run ]; then
  cp "$log" "$OUT/run.log"
  tar -C "$OUT" -czf "$OUT/device-16.tar.gz" device-16 && rm -rf "$OUT/device-16"
fi
