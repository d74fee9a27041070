#!/usr/bin/env bash
# Issue 21's host comparison: an earlier railcoll (a git revision) against this checkout, in one run, per one-node
# collective and size, alternating the two builds case by case and swapping which goes first every other round, so
# both see the same load. Prints a table of the medians and new/old, two figures per point:
#   - the bench's OSU figure (each call timed alone after a barrier; the slowest rank's mean per call), from each
#     build's own `railcoll bench`;
#   - below ADDED_BELOW, what one call adds to a loop of barriers (a loop of barrier + call less a loop of barriers
#     alone, per call; the slowest rank's; decision 0232), from bench/AddedToBarrier.java compiled against each build
#     and started by each build's `railcoll run`, so both builds are measured by the same code (decision 0235; the
#     old bench has no such figure; broadcast, gather, allgather and allreduce only). Sub-microsecond calls read
#     after a barrier measure which rank that barrier lets out first, and the two builds' barriers differ: there,
#     read the added ratio (docs/results/barrier-skew-1129.md).
#     The table also shows the new bench's own added column, which the probe's new figure should be near.
#
#   bench/old-against-new.sh REV [placements] [collectives]      e.g. bench/old-against-new.sh eecb4a6 "1x2 1x4"
#
# REV is built once into /tmp/railcoll-old-REV (a detached git worktree; left there for the next run). Environment:
# ROUNDS (default 4), SIZES (default 1,1024,65536,1048576; the all-reduce's smallest becomes 8), OUT (default
# bench-out/old-against-new-REV), JVM_OPTION (one --jvm-option for the new build's ranks only, e.g.
# --add-modules=jdk.incubator.vector), ADDED (default 1; 0: no probe runs, the OSU figure alone, as before decision
# 0235), ADDED_BELOW (default 8192, the bench's --added-to-barrier-below: the probe measures the sizes below it),
# ADDED_SAMPLES (default 5, as the bench's --samples here), TABLE_ONLY=1 (print the table of an earlier run's $OUT
# again, running and building nothing). The probe runs right after its build's bench, on the bench's network (auto,
# 2gbit rails) and JVM options. One figure on this 2-processor host moves 2x between JVM runs of one build
# (docs/results/per-call-host-1128.md), so read the medians of several rounds, never one round.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: bench/old-against-new.sh REV [placements] [collectives]"
rev=${1:?$usage}
placements=${2:-"1x2 1x4"}
colls=${3:-"barrier broadcast gather allgather allreduce"}
rounds=${ROUNDS:-4}
sizes_default=${SIZES:-1,1024,65536,1048576}
added=${ADDED:-1}
added_below=${ADDED_BELOW:-8192}
added_samples=${ADDED_SAMPLES:-5}
fail() { echo "old-against-new: $*" >&2; exit 2; }
git rev-parse -q --verify "$rev^{commit}" >/dev/null || fail "'$rev' is not a revision of this repository; $usage"
for p in $placements; do [[ $p =~ ^[0-9]+x[0-9]+$ ]] || fail "placement '$p' is not NODESxRANKS (e.g. 1x4)"; done
for c in $colls; do [[ $c =~ ^[a-z]+$ ]] || fail "collective '$c' is not a bench collective id (e.g. allgather)"; done
whole() { [[ $2 =~ ^[0-9]+$ ]] || fail "$1 must be a whole number, got '$2'"; }
whole ROUNDS "$rounds"; whole ADDED_BELOW "$added_below"; whole ADDED_SAMPLES "$added_samples"
[ "$added_samples" -ge 1 ] || fail "ADDED_SAMPLES must be 1 or more"
[[ $added =~ ^[01]$ ]] || fail "ADDED must be 0 or 1, got '$added'"
for s in ${sizes_default//,/ }; do
  numfmt --from=iec "${s^^}" >/dev/null 2>&1 || fail "SIZES: '$s' is not a size (bytes, or with K or M, e.g. 1,1k,64k)"
done
short=$(git rev-parse --short "$rev")
old=/tmp/railcoll-old-$short
out=${OUT:-bench-out/old-against-new-$short}
if [ -z "${TABLE_ONLY:-}" ]; then
  if [ ! -f "$old/railcoll-cli/target/railcoll-cli.jar" ]; then
    echo "building $short into $old" >&2
    rm -rf "$old"; git worktree prune
    git worktree add -f --detach "$old" "$short" >/dev/null
    JAVA_HOME="$(bin/find-jdk)"; export JAVA_HOME
    (cd "$old" && MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" mvn -q -B -DskipTests -Dmaven.test.skip=true \
        package -pl railcoll-cli -am) >&2 || fail "building $short into $old failed (Maven's output above)"
    touch "$old/railcoll-cli/target/.built"
  fi
  bin/railcoll --version >/dev/null 2>&1 || true # builds this checkout first if its sources changed
  for root in "$old" "$PWD"; do
    [ -x "$root/bin/railcoll" ] && compgen -G "$root/railcoll-cli/target/lib/railcoll-core-*.jar" >/dev/null \
        || fail "no railcoll build at $root (bin/railcoll and railcoll-cli/target/lib/railcoll-core-*.jar);" \
                "remove $root to rebuild it"
  done
fi
mkdir -p "$out"
# TABLE_ONLY=1: print the table of an earlier run's $OUT again, running nothing.
[ -n "${TABLE_ONLY:-}" ] && rounds=0
probe=$(cd "$out" && pwd)/probe
if [ "$rounds" -gt 0 ] && [ "$added" = 1 ]; then
  # The probe compiled against each build's own API: both builds run the same source, each its own classes.
  javac="$(bin/find-jdk)/bin/javac"
  for b in old new; do
    root=$PWD; [ "$b" = old ] && root=$old
    rm -rf "${probe:?}/$b"; mkdir -p "$probe/$b" "$out/added"
    "$javac" -d "$probe/$b" -cp "$root/railcoll-cli/target/lib/*" bench/AddedToBarrier.java \
        || fail "bench/AddedToBarrier.java does not compile against the $b build at $root"
  done
fi
# The sizes of a collective's points, and those of them the probe measures: below ADDED_BELOW, for the collectives
# the probe knows (none for the barrier: a barrier added to a loop of barriers is that loop again).
sizes_of() {
  case $1 in
    barrier) echo 0 ;;
    allreduce) echo "$sizes_default" | sed -E 's/(^|,)1(,|$)/\18\2/' ;;
    *) echo "$sizes_default" ;;
  esac
}
added_sizes_of() {
  case $1 in broadcast|gather|allgather|allreduce) ;; *) return 0 ;; esac
  local s; local picked=()
  for s in $(sizes_of "$1" | tr ',' ' '); do
    [ "$(numfmt --from=iec "${s^^}")" -lt "$added_below" ] && picked+=("$s")
  done
  (IFS=,; echo "${picked[*]}")
}
for round in $(seq 1 "$rounds"); do
  for c in $colls; do
    sizes=$(sizes_of "$c")
    asizes=""; [ "$added" = 1 ] && asizes=$(added_sizes_of "$c")
    for p in $placements; do
      order="old new"; [ $((round % 2)) = 0 ] && order="new old"
      for b in $order; do
        root=$PWD; opt=()
        if [ "$b" = old ]; then root=$old; elif [ -n "${JVM_OPTION:-}" ]; then opt=(--jvm-option="$JVM_OPTION"); fi
        echo "$(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) round $round $c $p $b" | tee -a "$out/log" >&2
        timeout 600 "$root/bin/railcoll" bench --collective="$c" --placement="$p" --algorithms=auto --sizes="$sizes" \
            --samples=5 --jit-warmup-ms=2000 --no-report "${opt[@]}" > "$out/$c-$p-$b-r$round.txt" 2>&1 \
            || echo "rc=$? $c $p $b round $round" | tee -a "$out/log" >&2
        if [ -n "$asizes" ]; then
          echo "$(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) round $round $c $p $b added $asizes" \
              | tee -a "$out/log" >&2
          asizes_bytes=$(echo "$asizes" | tr ',' '\n' | while read -r s; do numfmt --from=iec "${s^^}"; done \
              | paste -sd,)
          timeout 600 "$root/bin/railcoll" run --placement="$p" --network=auto --rail-rate=2gbit "${opt[@]}" \
              --classpath "$probe/$b" AddedToBarrier "$c" "$asizes_bytes" "$added_samples" 1000 2000 \
              > "$out/added/$c-$p-$b-r$round.txt" 2>&1 \
              || echo "rc=$? added $c $p $b round $round" | tee -a "$out/log" >&2
        fi
      done
    done
  done
done
python3 - "$out" <<'PY'
import collections, glob, re, statistics, sys
unit = {'B': 1, 'K': 1024, 'M': 1 << 20}
def label(size):  # the bench's size labels: 1B, 1K, 64K, 1M
    for u in 'MK':
        if size >= unit[u] and size % unit[u] == 0:
            return f"{size // unit[u]}{u}"
    return f"{size}B"
osu = collections.defaultdict(lambda: collections.defaultdict(list))    # (c, p, size) -> build -> per round
added = collections.defaultdict(lambda: collections.defaultdict(list))  # the probe's, the same keys
bench_added = collections.defaultdict(list)                              # the new bench's own added column
NAME = re.compile(r'([a-z]+)-(\d+x\d+)-(old|new)-r(\d+)\.txt')
def runs(folder):
    # This script's own files only; a run's folder may hold others (a second run kept as b-*.txt, notes), which
    # are named on stderr and left out rather than read as this run's.
    for f in sorted(glob.glob(folder + '/*.txt')):
        m = NAME.fullmatch(f.rsplit('/', 1)[1])
        if m:
            yield f, m.groups()
        else:
            print(f"old-against-new: left out {f}: not a name this script writes", file=sys.stderr)
for f, (c, p, b, r) in runs(sys.argv[1]):
    header = None
    for line in open(f):
        if line.startswith('size  '):
            header = re.split(r'\s{2,}', line.strip())
        m = re.match(r'^(\d+[BKM])\s+(.*)$', line)
        if m:
            # auto's column per algorithm it chose: the size's figure is the one that is not '-'
            values = [v for v in m.group(2).split() if v != '-']
            osu[(c, p, m.group(1))][b].append(float(values[0].rstrip('*~')))
            cells = line.split()
            if header and len(cells) == len(header):
                picked = [v for h, v in zip(header, cells)
                          if h.startswith('auto:') and h.endswith(' added') and v != '-']
                if picked:
                    bench_added[(c, p, m.group(1))].append(float(picked[0]))
for f, (c, p, b, r) in runs(sys.argv[1] + '/added'):
    for line in open(f):
        m = re.search(r'\badded ([a-z]+) (\d+) osu_us=\S+ added_us=(-?[0-9.]+)', line)
        if m:
            added[(c, p, label(int(m.group(2))))][b].append(float(m.group(3)))
def ratio(o, n, positive=False):
    if not o or not n:
        return "-"
    mo, mn = statistics.median(o), statistics.median(n)
    if positive and (mo <= 0 or mn <= 0):
        return "-"  # a ratio of a difference at or below 0 says nothing (decision 0232)
    return f"{mn / mo:.2f}"
def listed(xs):
    return ', '.join('%.3g' % x for x in xs) if xs else '-'
with_added = bool(added)
head = "| collective | placement | size | old per round (us) | new per round (us) | new/old (medians) |"
if with_added:
    head += (" old added per round (us) | new added per round (us) | added new/old (medians) |"
             " new bench's added (us) |")
print(head)
print("|---" * (head.count('|') - 1) + "|")
order = lambda k: (k[0], int(k[1].split('x')[1]), int(k[2][:-1]) * unit[k[2][-1]])
for k in sorted(osu.keys() | added.keys(), key=order):
    o, n = osu[k]['old'], osu[k]['new']
    row = f"| {k[0]} | {k[1]} | {k[2]} | {listed(o)} | {listed(n)} | {ratio(o, n)} |"
    if with_added:
        ao, an = added[k]['old'], added[k]['new']
        row += f" {listed(ao)} | {listed(an)} | {ratio(ao, an, True)} | {listed(bench_added[k])} |"
    print(row)
PY
