#!/usr/bin/env bash
# Where do the testbed peer's Open MPI ranks run? About 10-20 s; everything goes to stdout.
#
# Two network namespaces joined by one veth pair (rail0, 198.18.0.1 and .2), mpirun started in the first as the bench
# starts it (OpenMpiOverRails: --host localhost:2,rcnode1:2, an rsh agent that enters the second namespace, tcp btl on
# rail0), and a small MPI program whose every rank prints its host name, its network namespace (readlink
# /proc/self/ns/net), the rail0 bytes its namespace's counters saw around 10 all-gathers of 256 KiB, and the BTL
# Open MPI chose. The agent logs each call, so "agent:" lines say whether mpirun used it at all.
# Twice: with the environment as it is, and as the bench runs the peer (decision 0198: without the environment's
# OMPI_MCA_*/PMIX_MCA_* variables, --mca plm rsh). Each ends with a VERDICT line:
#   PASS: the two nodes' ranks print different netns inodes, and every rank's rail0 counters grew
#   FAIL: one netns for all ranks (mpirun never started the remote daemon in the second namespace) or 0 bytes on rail0
# Usage, in the project root with .bundle/ (bench/device/run-16.sh prepare): bench/device/peer-diag.sh
# (RCB_ENV=file sources another env.sh, to try it here without touching /opt/rcb.)
set -u
cd "$(dirname "$0")/../.."
echo "== peer-diag $(date -u +%FT%TZ) on $(uname -n), $(nproc) processors, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "-- environment that Open MPI reads (OMPI_/OPAL_/PMIX_/ORTE_/SLURM_/PBS_/LSB_ variables; an OMPI_MCA_plm other than rsh sends every rank to node 0):"
env | grep -E '^(OMPI_|OPAL_|PMIX_|ORTE_|SLURM_|PBS_|LSB_|HYDRA_|TMPDIR=)' || echo "   (none)"
echo "-- mounts of /tmp and /dev/shm:"; grep -E ' (/tmp|/dev/shm|/run) ' /proc/mounts || echo "   (not separate mounts)"
# shellcheck disable=SC1090
. "${RCB_ENV:-.bundle/env.sh}"
echo "-- OPAL_PREFIX=$OPAL_PREFIX; mpirun: $(command -v mpirun.openmpi); mpicc: $(command -v mpicc.openmpi); ip: $(command -v ip)"
echo "-- Open MPI components that load (plm, ras, ess, btl, oob, pml):"
ompi_info 2>&1 | grep -E 'MCA (plm|ras|ess|btl|oob|pml):' | sed 's/^ */   /'
d=$(mktemp -d /tmp/rc-peer-diag.XXXXXX); t=rcpd$$; n0=$t-n0; n1=$t-n1
cleanup() { ip netns del "$n0" 2>/dev/null; ip netns del "$n1" 2>/dev/null; rm -rf "$d"; }
trap cleanup EXIT
cat > "$d/diag.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static long long rail0_bytes(void) {
    FILE *f = fopen("/proc/self/net/dev", "r"); char line[512]; long long rx = -1, tx = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        char *c = strchr(line, ':'); if (!c) continue; *c = 0; char *n = line; while (*n == ' ') n++;
        if (strcmp(n, "rail0") == 0) { long long v[9]; sscanf(c + 1, "%lld %lld %lld %lld %lld %lld %lld %lld %lld",
            &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]); rx = v[0]; tx = v[8]; }
    }
    fclose(f); return rx < 0 ? -1 : rx + tx;
}
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
    char host[256] = "", ns[128] = "", proc[MPI_MAX_PROCESSOR_NAME] = ""; int len;
    gethostname(host, sizeof host); MPI_Get_processor_name(proc, &len);
    ssize_t k = readlink("/proc/self/ns/net", ns, sizeof ns - 1); if (k > 0) ns[k] = 0;
    int block = 256 * 1024; char *in = malloc(block), *out = malloc((size_t) block * size); memset(in, rank, block);
    MPI_Barrier(MPI_COMM_WORLD);
    long long before = rail0_bytes();
    for (int i = 0; i < 10; i++) MPI_Allgather(in, block, MPI_BYTE, out, block, MPI_BYTE, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    long long after = rail0_bytes();
    int ok = 1; for (int r = 0; r < size; r++) ok &= out[(size_t) r * block] == (char) r;
    printf("diag rank %d/%d host %s processor %s netns %s pid %d rail0 bytes in its namespace during 10 allgathers: %lld%s\n",
           rank, size, host, proc, ns, (int) getpid(), before < 0 ? -1 : after - before, ok ? "" : " WRONG DATA");
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
EOF
mpicc.openmpi -O1 -o "$d/diag" "$d/diag.c" || { echo "peer-diag: mpicc failed"; exit 1; }
ip netns add "$n0" && ip netns add "$n1" && ip link add rcpd0a$$ type veth peer name rcpd0b$$ \
  && ip link set rcpd0a$$ netns "$n0" && ip link set rcpd0b$$ netns "$n1" \
  && ip -n "$n0" link set rcpd0a$$ name rail0 && ip -n "$n1" link set rcpd0b$$ name rail0 \
  && ip -n "$n0" addr add 198.18.0.1/24 dev rail0 && ip -n "$n1" addr add 198.18.0.2/24 dev rail0 \
  && for n in "$n0" "$n1"; do ip -n "$n" link set lo up && ip -n "$n" link set rail0 up; done \
  || { echo "peer-diag: cannot make the two namespaces"; exit 1; }
ipbin=$(command -v ip)
ip -V; for n in "$n0" "$n1"; do echo "-- $n:"; ip -n "$n" -br addr; done
echo "-- namespaces: $n0 $(ip netns exec "$n0" readlink /proc/self/ns/net), $n1 $(ip netns exec "$n1" readlink /proc/self/ns/net); root $(readlink /proc/self/ns/net)"
# The bench's agent (OpenMpiOverRails), plus a log line per call on stderr.
cat > "$d/agent.sh" <<EOF
#!/bin/sh
host="\$1"; shift
echo "agent: called for host \$host (its namespace: \$($ipbin netns exec $n1 readlink /proc/self/ns/net)): \$*" >&2
case "\$host" in
  rcnode1) exec $ipbin netns exec $n1 unshare --uts /bin/sh -c "echo rcnode1 > /proc/sys/kernel/hostname && test \\"\\\$(cat /proc/sys/kernel/hostname)\\" = rcnode1 || { echo 'agent: could not name host rcnode1' >&2; exit 1; }; \$*" ;;
  *) echo "agent: unknown host \$host" >&2; exit 1 ;;
esac
EOF
chmod 700 "$d/agent.sh"
run() {
  local label=$1; shift
  echo "-- $label (in $n0)"
  timeout --kill-after=3 25 "$@" ip netns exec "$n0" mpirun.openmpi --allow-run-as-root --oversubscribe -np 4 \
    --host localhost:2,rcnode1:2 --map-by slot --mca plm_rsh_agent "$d/agent.sh" --do-not-resolve --display-map \
    --mca pml ob1 --mca btl tcp,vader,self --mca btl_tcp_if_include rail0 --mca oob_tcp_if_include rail0 \
    --mca mpi_yield_when_idle 1 $extra "$d/diag" > "$d/out" 2>&1
  echo "   exit $?; rail0 rx counters now: $n0 $(ip netns exec "$n0" cat /sys/class/net/rail0/statistics/rx_bytes), $n1 $(ip netns exec "$n1" cat /sys/class/net/rail0/statistics/rx_bytes)"
  grep -a -v -E '^\s*$' "$d/out" | grep -a -E 'diag rank|agent:|Data for node|ALLOCATED|flags=|rror|isolated' | cut -c1-220 | head -30
  local ns_a ns_b bytes
  ns_a=$(grep -a -E '^diag rank [01]/' "$d/out" | sed 's/.* netns \([^ ]*\).*/\1/' | sort -u | tr '\n' ' ')
  ns_b=$(grep -a -E '^diag rank [23]/' "$d/out" | sed 's/.* netns \([^ ]*\).*/\1/' | sort -u | tr '\n' ' ')
  bytes=$(grep -a -E '^diag rank' "$d/out" | sed 's/.*allgathers: \([0-9-]*\).*/\1/' | sort -n | head -1)
  if [ -n "$ns_a" ] && [ -n "$ns_b" ] && [ "$ns_a" != "$ns_b" ] && [ "${bytes:-0}" -gt 0 ]; then
    echo "   VERDICT $label: PASS - nodes 0 and 1 ran in different namespaces ($ns_a/ $ns_b), rail0 carried >= $bytes B per rank"
  else
    echo "   VERDICT $label: FAIL - node 0 ranks in [$ns_a], node 1 ranks in [$ns_b], least rail0 bytes per rank ${bytes:-none}"
  fi
}
# 1. As an unscrubbed launch got it: the environment as it is (the 16-processor image's OMPI_MCA_plm=isolated put
#    every rank in node 0's namespace, 2026-11-28).
extra=""
run "environment as is" env
# 2. As the bench runs the peer since decision 0198: without OMPI_MCA_*/PMIX_MCA_* variables, plm rsh named.
unset_args=$(env | sed -n 's/^\(OMPI_MCA_[^=]*\|PMIX_MCA_[^=]*\)=.*/-u \1/p' | tr '\n' ' ')
extra="--mca plm rsh"
# shellcheck disable=SC2086
run "as the bench runs it (env $unset_args--mca plm rsh)" env $unset_args
# 3. The one-node peer as the bench runs it: the isolated launcher named (the default, rsh, refuses to start where
#    neither ssh nor rsh exists, as on the 16-processor machine).
echo "-- one node as the bench runs it (env $unset_args--mca plm isolated), 2 ranks"
# shellcheck disable=SC2086
env $unset_args timeout --kill-after=3 20 mpirun.openmpi --allow-run-as-root --oversubscribe -np 2 --mca plm isolated \
  --mca mpi_yield_when_idle 1 "$d/diag" > "$d/out" 2>&1
rc=$?
grep -a -E 'diag rank|rror|could not' "$d/out" | cut -c1-160
[ "$rc" = 0 ] && [ "$(grep -a -c '^diag rank' "$d/out")" = 2 ] && echo "   VERDICT one node: PASS" \
  || echo "   VERDICT one node: FAIL (exit $rc)"
echo "== peer-diag end $(date -u +%T)"
