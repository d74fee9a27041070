#!/usr/bin/env bash
# Issue 21's host comparison: an earlier railcoll (a git revision) against this checkout, in one run, per one-node
# collective and size, alternating the two builds case by case and swapping which goes first every other round, so
# both see the same load. Prints a table of the medians (the slowest rank's mean per call, OSU style) and new/old.
#
#   bench/old-against-new.sh REV [placements] [collectives]      e.g. bench/old-against-new.sh eecb4a6 "1x2 1x4"
#
# REV is built once into /tmp/railcoll-old-REV (a detached git worktree; left there for the next run). Environment:
# ROUNDS (default 4), SIZES (default 1,1024,65536,1048576; the all-reduce's smallest becomes 8), OUT (default
# bench-out/old-against-new-REV), JVM_OPTION (one --jvm-option for the new build's ranks only, e.g.
# --add-modules=jdk.incubator.vector). One figure on this 2-processor host moves 2x between JVM runs of one build
# (docs/results/per-call-host-1128.md), so read the medians of several rounds, never one round.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: bench/old-against-new.sh REV [placements] [collectives]}
placements=${2:-"1x2 1x4"}
colls=${3:-"barrier broadcast gather allgather allreduce"}
rounds=${ROUNDS:-4}
sizes_default=${SIZES:-1,1024,65536,1048576}
short=$(git rev-parse --short "$rev")
old=/tmp/railcoll-old-$short
out=${OUT:-bench-out/old-against-new-$short}
if [ ! -x "$old/railcoll-cli/target/railcoll-cli.jar" ] && [ ! -f "$old/railcoll-cli/target/railcoll-cli.jar" ]; then
  echo "building $short into $old" >&2
  rm -rf "$old"; git worktree prune
  git worktree add -f --detach "$old" "$short" >/dev/null
  JAVA_HOME="$(bin/find-jdk)"; export JAVA_HOME
  (cd "$old" && MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" mvn -q -B -DskipTests -Dmaven.test.skip=true \
      package -pl railcoll-cli -am) >&2
  touch "$old/railcoll-cli/target/.built"
fi
bin/railcoll --version >/dev/null 2>&1 || true # builds this checkout first if its sources changed
mkdir -p "$out"
# TABLE_ONLY=1: print the table of an earlier run's $OUT again, running nothing.
[ -n "${TABLE_ONLY:-}" ] && rounds=0
for round in $(seq 1 "$rounds"); do
  for c in $colls; do
    sizes=$sizes_default
    [ "$c" = barrier ] && sizes=0
    [ "$c" = allreduce ] && sizes=$(echo "$sizes" | sed -E 's/(^|,)1(,|$)/\18\2/')
    for p in $placements; do
      order="old new"; [ $((round % 2)) = 0 ] && order="new old"
      for b in $order; do
        root=$PWD; opt=()
        if [ "$b" = old ]; then root=$old; elif [ -n "${JVM_OPTION:-}" ]; then opt=(--jvm-option="$JVM_OPTION"); fi
        echo "$(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) round $round $c $p $b" | tee -a "$out/log" >&2
        timeout 600 "$root/bin/railcoll" bench --collective="$c" --placement="$p" --algorithms=auto --sizes="$sizes" \
            --samples=5 --jit-warmup-ms=2000 --no-report "${opt[@]}" > "$out/$c-$p-$b-r$round.txt" 2>&1 \
            || echo "rc=$? $c $p $b round $round" | tee -a "$out/log" >&2
      done
    done
  done
done
python3 - "$out" <<'PY'
import collections, glob, re, statistics, sys
rows = collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(sys.argv[1] + '/*.txt')):
    c, p, b, r = re.match(r'.*/([a-z]+)-(\d+x\d+)-(old|new)-r(\d+)\.txt', f).groups()
    for line in open(f):
        m = re.match(r'^(\d+[BKM])\s+(.*)$', line)
        if m:
            # auto's column per algorithm it chose: the size's figure is the one that is not '-'
            values = [v for v in m.group(2).split() if v != '-']
            rows[(c, p, m.group(1))][b].append(float(values[0].rstrip('*~')))
unit = {'B': 1, 'K': 1024, 'M': 1 << 20}
print("| collective | placement | size | old per round (us) | new per round (us) | new/old (medians) |")
print("|---|---|---|---|---|---|")
for k in sorted(rows, key=lambda k: (k[0], int(k[1].split('x')[1]), int(k[2][:-1]) * unit[k[2][-1]])):
    o, n = rows[k]['old'], rows[k]['new']
    ratio = f"{statistics.median(n) / statistics.median(o):.2f}" if o and n else "-"
    print(f"| {k[0]} | {k[1]} | {k[2]} | {', '.join('%.3g' % x for x in o)} | {', '.join('%.3g' % x for x in n)} | {ratio} |")
PY
