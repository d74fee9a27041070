#!/usr/bin/env bash
# One-node reduce-scatter and scan in node steps (decision 0222) against the old selection and Open MPI, this host.
# OUT=/tmp/x docs/results/node-reducescatter-scan-1128/run.sh
set -euo pipefail
out="${OUT:-/tmp/node-rs}"
mkdir -p "$out"
job() {
  local name="$1"; shift
  echo "== $name load before: $(cat /proc/loadavg)" | tee -a "$out/load.txt"
  bin/railcoll bench "$@" --peer openmpi --samples 5 --out "$out/$name" > "$out/$name.log" 2>&1
  echo "== $name load after: $(cat /proc/loadavg)" | tee -a "$out/load.txt"
}
job rs-1x2 --collective reduce-scatter --placement 1x2 --sizes 8,1k,64k,1m \
  --algorithms auto,reduce-scatter.shm,reduce-scatter.ring
job scan-1x2 --collective scan --placement 1x2 --sizes 8,1k,64k,1m \
  --algorithms auto,scan.shm,scan.recursive-doubling
job scan-1x4 --collective scan --placement 1x4 --sizes 8,1k,64k,1m \
  --algorithms auto,scan.shm,scan.recursive-doubling
