#!/usr/bin/env bash
# Issue 5's 80% target against what this machine's two processors can do (docs/results/cpu-ceiling.md).
# An all-gather of B bytes per rank on the 4x4 testbed must (a) move 12*B into and out of every node through the
# kernels' TCP stacks and the emulated switch, 48*B in all, and (b) write the node's 16*B result into each of the 16
# ranks' receive buffers. All of it runs on this host's processors. In one run this script measures:
#   tcp-floor   processor time per MB through the testbed's kind of rail (veth, bridge, tbf at 2 Gbit/s, MTU 1500):
#               iperf3 with 3 streams between two namespaces, nothing else running; the kernel's cost alone; and the
#               same without the token buckets, where the kernel spends least per byte (the more generous floor)
#   copy-floor  processor time of the copies in (b), one thread at its best (bench/CopyFloor.java)
#   CALLCOST    railcoll itself (io.railcoll.bench.CallCostApp): the inter-node exchange alone (4x1, direct, 4*B per
#               rank: the same 12*B per node on the rails) and the whole 4x4 all-gather (allgather.smp-direct-shm, its
#               node-step program since decision 0157), with the machine's processor time per call
# and bench/cpu-ceiling.py turns the floors into the shortest call the processors allow.
# Needs root (namespaces). Usage: bench/cpu-ceiling.sh OUT_DIR [SIZES, default "262144 1048576"]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: bench/cpu-ceiling.sh OUT_DIR [sizes]}"
sizes="${2:-262144 1048576}"
mkdir -p "$out"
java_home="$("$root/bin/find-jdk")"
if ! command -v iperf3 >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iperf3 >/dev/null
fi

tag="rcceil$$"
remove_namespaces() {
  for x in a b s; do ip netns del "${tag}$x" 2>/dev/null || true; done
}
trap remove_namespaces EXIT

# tcp_floor shaped|unshaped: with the testbed's token buckets (2 Gbit/s), or without (as fast as the processors go:
# the least the kernel ever spends per byte here, a more generous floor).
tcp_floor() {
  local shaping="$1" seconds=10
  ip netns add "${tag}a"; ip netns add "${tag}b"; ip netns add "${tag}s"
  ip -n "${tag}s" link add br0 type bridge
  ip -n "${tag}s" link set br0 up
  for x in a b; do
    ip link add "${tag}v$x" type veth peer name "${tag}p$x"
    ip link set "${tag}v$x" netns "${tag}$x"
    ip link set "${tag}p$x" netns "${tag}s"
    ip -n "${tag}s" link set "${tag}p$x" master br0 up
    ip -n "${tag}$x" link set "${tag}v$x" up
    ip -n "${tag}$x" link set lo up
    if [[ $shaping == shaped ]]; then
      # The testbed's shaping (docs/testbed.md): a token bucket at each end of each link.
      ip netns exec "${tag}$x" tc qdisc add dev "${tag}v$x" root tbf rate 2gbit burst 250000 latency 50ms
      ip netns exec "${tag}s" tc qdisc add dev "${tag}p$x" root tbf rate 2gbit burst 250000 latency 50ms
    fi
  done
  ip -n "${tag}a" addr add 10.201.0.1/24 dev "${tag}va"
  ip -n "${tag}b" addr add 10.201.0.2/24 dev "${tag}vb"
  ip netns exec "${tag}b" iperf3 -s -1 -D
  sleep 0.5
  local before after
  before=$(head -1 /proc/stat)
  ip netns exec "${tag}a" iperf3 -c 10.201.0.2 -t "$seconds" -P 3 -J > "$out/iperf3-$shaping.json"
  after=$(head -1 /proc/stat)
  python3 - "$out/iperf3-$shaping.json" "$before" "$after" "$shaping" <<'PY'
import json, sys
moved = json.load(open(sys.argv[1]))['end']['sum_received']['bytes']
b = [int(x) for x in sys.argv[2].split()[1:9]]
a = [int(x) for x in sys.argv[3].split()[1:9]]
busy = sum(a[i] - b[i] for i in (0, 1, 2, 5, 6, 7)) / 100.0
print(f"tcp-floor,{sys.argv[4]},{moved / 1e6:.1f},{busy:.2f},{busy * 1e3 / (moved / 1e6):.4f}")
PY
  remove_namespaces
}

callcost() {
  local placement="$1" algorithm="$2" size="$3"
  "$root/bin/railcoll" run --netns --rail-rate 2gbit --placement "$placement" --rails 2 io.railcoll.bench.CallCostApp \
    collective=allgather algorithm="$algorithm" size="$size" calls="$4" rounds=5 warmup="$5" 2>&1 | grep CALLCOST | sed 's/^\[r0\] //'
}

{
  echo "# $(date -u +%FT%TZ) $(git -C "$root" rev-parse --short HEAD) sizes: $sizes"
  tcp_floor shaped
  tcp_floor unshaped
  for b in $sizes; do
    "$java_home/bin/java" "$root/bench/CopyFloor.java" 16 $((16 * b))
    # Enough calls that each round spans seconds (the processor counters tick every 10 ms).
    # The JIT of sixteen ranks compiles for a minute or more (docs/benchmarking.md): warm up three rounds' worth.
    calls=$(( b >= 1048576 ? 40 : 150 ))
    callcost 4x1 allgather.direct $((4 * b)) "$calls" $((3 * calls))
    callcost 4x4 allgather.smp-direct-shm "$b" "$calls" $((3 * calls))
  done
} | tee "$out/ceiling.csv"
python3 "$root/bench/cpu-ceiling.py" "$out/ceiling.csv" | tee "$out/ceiling.md"
