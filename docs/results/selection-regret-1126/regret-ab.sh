#!/usr/bin/env bash
# Does a longer sample (tune --budget-ms 100 against the default 30) make regret runs agree with each other?
cd /work/snap
while pgrep -f "ci5" >/dev/null || pgrep -f ".ci/run" > /dev/null; do sleep 10; done
for rep in 1 2; do
  for b in 100 30; do
    w=/tmp/regret-b$b-r$rep
    echo "== $(date -u +%T) budget $b rep $rep"
    bin/railcoll tune --regret --netns --rail-rate 2gbit --samples 5 --budget-ms $b --work $w --report $w.md > $w.log 2>&1
    echo "   rc=$? $(date -u +%T)"
  done
done
