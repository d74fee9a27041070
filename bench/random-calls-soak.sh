#!/usr/bin/env bash
# The random calls' soak (decision 0214): many seeds on several placements, outside the test suite.
# usage: bench/random-calls-soak.sh FIRST_SEED LAST_SEED STEPS [PLACEMENT...]
# Build first: mvn -o -q -B test-compile -pl railcoll-system-tests -am. Prints one line per job; logs in $RANDOM_CALLS_LOGS (default /tmp/random-calls/).
# The environment passes to the ranks (RAILCOLL_MCAST=auto lets the multicast algorithms run). RANDOM_CALLS_NETNS=1
# (root) runs each job in a network namespace of its own whose lo carries multicast (ip route add 224.0.0.0/4 dev
# lo), so multicast runs for real rather than failing over, without touching the host's routes.
set -u
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
first=$1; last=$2; steps=$3; shift 3
placements=("$@"); [ ${#placements[@]} -eq 0 ] && placements=(1x3 1x5 3,4,2 2x2 1x1)
logs=${RANDOM_CALLS_LOGS:-/tmp/random-calls}; mkdir -p "$logs"
for seed in $(seq "$first" "$last"); do
  for p in "${placements[@]}"; do
    log=$logs/$p-$seed.txt
    ns=(); [ "${RANDOM_CALLS_NETNS:-0}" = 1 ] && ns=(unshare -n sh -c 'ip link set lo up && ip route add 224.0.0.0/4 dev lo && exec "$@"' sh)
    timeout 600 "${ns[@]}" "$root/bin/railcoll" run --placement="$p" --timeout-ms=60000 \
      -cp "$root/railcoll-system-tests/target/test-classes" 'io.railcoll.systemtest.RandomCallsApps$Run' \
      seed="$seed" steps="$steps" >"$log" 2>&1
    echo "$p seed $seed: rc $? $(grep -m1 -o 'job failed.*' "$log" | cut -c1-400)"
  done
done
