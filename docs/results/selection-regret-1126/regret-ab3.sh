#!/usr/bin/env bash
cd /work/snap
while pgrep -f regret-ab.sh >/dev/null; do sleep 5; done
for b in 100 30; do
  w=/tmp/regret-b$b-r3
  echo "== $(date -u +%T) budget $b rep 3"
  bin/railcoll tune --regret --netns --rail-rate 2gbit --samples 5 --budget-ms $b --work $w --report $w.md > $w.log 2>&1
  echo "   rc=$? $(date -u +%T)"
done
