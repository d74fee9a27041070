#!/usr/bin/env bash
# Old core against new, one-node collectives, alternating builds per case; two rounds.
# usage: node-ab.sh OLD_ROOT NEW_ROOT OUT_DIR [placements] [collectives]
set -u
old=$1 new=$2 out=$3
placements=${4:-"1x2 1x4 1x16"}
colls=${5:-"barrier broadcast gather allgather"}
mkdir -p "$out"
for round in ${ROUNDS:-1 2}; do
  for c in $colls; do
    for p in $placements; do
      sizes=${SIZES:-1,1024,65536,1048576}; [ "$c" = barrier ] && sizes=0
      for b in old new; do
        [ $(( round % 2 )) = 0 ] && { [ $b = old ] && b=new || b=old; }
        root=$old; [ $b = new ] && root=$new
        f="$out/$c-$p-$b-r$round.txt"
        echo "$(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) $c $p $b r$round" | tee -a "$out/log"
        timeout 600 "$root/bin/railcoll" bench --collective=$c --placement=$p --algorithms=auto \
          --sizes=$sizes --samples=5 --jit-warmup-ms=2000 > "$f" 2>&1 || echo "rc=$? $f" | tee -a "$out/log"
      done
    done
  done
done
