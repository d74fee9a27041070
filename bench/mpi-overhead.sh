#!/usr/bin/env bash
# railcoll-mpi's overhead over railcoll's own API, with Open MPI's C library beside them (issue 23):
# the mpi program bench/mpi/MpiBench.java (all-reduce of doubles, all-gather of bytes, direct buffers) under
# `railcoll run`, then `railcoll bench --algorithms auto --peer openmpi` for the same collectives, sizes and placement,
# timed the same way (docs/benchmarking.md); prints one table per collective: railcoll API, railcoll-mpi, Open MPI,
# and mpi / API. Usage: bench/mpi-overhead.sh [ranks-per-node] [samples] [sizes]
set -euo pipefail
cd "$(dirname "$0")/.."
ranks=${1:-2}
samples=${2:-5}
sizes=${3:-8,64,1k,16k,128k,1m}
out=${OUT:-bench-out/mpi-overhead-1x$ranks}
mkdir -p "$out/classes"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
mpijar=$(ls railcoll-mpi/target/railcoll-mpi-*.jar | head -1)
"$JAVA_HOME/bin/javac" -d "$out/classes" -cp "$mpijar" bench/mpi/MpiBench.java
bin/railcoll run --placement "$ranks" --classpath "$out/classes" MpiBench "$samples" ${sizes//,/ } | tee "$out/mpi.txt"
for c in allreduce allgather; do
  bin/railcoll bench --collective "$c" --placement "1x$ranks" --algorithms auto --peer openmpi --sizes "$sizes" \
      --samples "$samples" --out "$out/$c" --csv "$out/$c.csv" | tee "$out/$c.txt"
done
python3 - "$out" <<'PY'
import csv, sys, os
out = sys.argv[1]
mpi = {}
for line in open(os.path.join(out, "mpi.txt")):
    p = line.split()
    if p and p[0].startswith("[r"):
        p = p[1:]   # railcoll run's rank prefix
    if len(p) == 7 and p[0] == "mpi":
        mpi[(p[1], int(p[2]))] = float(p[3])
for c in ("allreduce", "allgather"):
    rows = {}
    for r in csv.DictReader(open(os.path.join(out, c + ".csv"))):
        rows.setdefault(int(r["size_bytes"]), {})[r["algorithm"]] = float(r["latency_us_median"])
    print()
    print(c)
    print("| size | railcoll API (auto) | railcoll-mpi | Open MPI | mpi / API |")
    print("|---:|---:|---:|---:|---:|")
    for size in sorted(rows):
        api = next(v for k, v in rows[size].items() if "openmpi" not in k)
        peer = next((v for k, v in rows[size].items() if "openmpi" in k), float("nan"))
        m = mpi[(c, size)]
        print("| %d | %.2f | %.2f | %.2f | %.2fx |" % (size, api, m, peer, m / api))
PY
