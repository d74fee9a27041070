#!/usr/bin/env bash
# railcoll-mpi's overhead over railcoll's own API (issue 23: at most 1.1x), measured in one run: the mpi program
# bench/mpi/MpiBench.java times all-reduce of doubles and all-gather of bytes on direct buffers through MPI.COMM_WORLD
# and, alternating sample by sample, through the railcoll communicator under it (mpi.RailcollInterop), so both see the
# same load; it also counts the bytes each path allocates and the CPU time it uses per call. Then, unless PEER=none,
# `railcoll bench --algorithms auto --peer openmpi` for the same collectives, sizes and placement gives Open MPI's
# figure (a separate run).
# Prints one table per collective. Usage: bench/mpi-overhead.sh [ranks-per-node] [samples] [sizes]
set -euo pipefail
cd "$(dirname "$0")/.."
ranks=${1:-2}
samples=${2:-9}
sizes=${3:-8,64,1k,16k,128k,1m}
peer=${PEER:-openmpi}
out=${OUT:-bench-out/mpi-overhead-1x$ranks}
mkdir -p "$out/classes"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
mpijar=$(ls railcoll-mpi/target/railcoll-mpi-*.jar | grep -v -e sources -e javadoc -e tests | head -1)
corejar=$(ls railcoll-core/target/railcoll-core-*.jar | grep -v -e sources -e javadoc -e tests | head -1)
"$JAVA_HOME/bin/javac" -d "$out/classes" -cp "$mpijar:$corejar" bench/mpi/MpiBench.java
bin/railcoll run --placement "$ranks" --classpath "$out/classes" MpiBench "$samples" ${sizes//,/ } | tee "$out/mpi.txt"
if [ "$peer" != none ]; then
  for c in allreduce allgather; do
    bin/railcoll bench --collective "$c" --placement "1x$ranks" --algorithms auto --peer "$peer" --sizes "$sizes" \
        --samples "$samples" --out "$out/$c" --csv "$out/$c.csv" | tee "$out/$c.txt"
  done
fi
python3 - "$out" <<'PY'
import csv, sys, os
out = sys.argv[1]
lines = {}
for line in open(os.path.join(out, "mpi.txt")):
    p = line.split()
    if p and p[0].startswith("[r"):
        p = p[1:]   # railcoll run's rank prefix
    if len(p) >= 7 and p[0] in ("api", "mpi", "ratio"):
        lines[(p[0], p[1], int(p[2]))] = p[3:]
for c in ("allreduce", "allgather"):
    peer = {}
    path = os.path.join(out, c + ".csv")
    if os.path.exists(path):
        for r in csv.DictReader(open(path)):
            if "openmpi" in r["algorithm"]:
                peer[int(r["size_bytes"])] = float(r["latency_us_median"])
    print()
    print(c)
    print("| size | railcoll API us | railcoll-mpi us | mpi / API, median of pairs [range] | API B/call | mpi B/call | API CPU ns/call | mpi CPU ns/call | Open MPI us (own run) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (kind, coll, size) in sorted(k for k in lines if k[0] == "ratio" and k[1] == c):
        api, mpi, ratio = lines[("api", c, size)], lines[("mpi", c, size)], lines[("ratio", c, size)]
        cpu = ratio[5:7] if len(ratio) >= 7 else ["-", "-"]
        print("| %d | %s | %s | %sx [%s-%s] | %s | %s | %s | %s | %s |" % (size, api[0], mpi[0], ratio[0], ratio[1],
              ratio[2], ratio[3], ratio[4], cpu[0], cpu[1], "%.2f" % peer[size] if size in peer else "-"))
PY
