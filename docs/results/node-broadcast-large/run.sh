#!/bin/bash
# One-node broadcast, every candidate and Open MPI in one bench invocation per placement (issue 21).
# Usage: run.sh TAG [placements...]   (logs to docs/results/node-broadcast-large/TAG-1xN.log)
set -u
cd "$(dirname "$0")/../../.."
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
tag=$1; shift
algs=${ALGS:-auto,broadcast.shm,broadcast.shm-pipeline,broadcast.shm-single-copy}
for n in "${@:-2 4 8}"; do
  log=docs/results/node-broadcast-large/$tag-1x$n.log
  { echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD) loadavg before: $(cat /proc/loadavg)"
    bin/railcoll bench --network loopback --nodes 1 --ranks-per-node $n --samples 7 --jit-warmup-ms 2000 \
      --collective broadcast --algorithms $algs --sizes ${SIZES:-1,1k,64k,1m} --peer openmpi --no-report 2>&1 \
      | grep -v -E '^\s*$|\[=*>? *\]|%\s*$'
    echo "# $(date -u +%FT%TZ) loadavg after: $(cat /proc/loadavg)"; } > "$log" 2>&1
done
