#!/usr/bin/env bash
# Prints the cpu file's last line whenever a new "job ..." line appears in the mvn log.
log=$1; cpu=$2; n=0
while true; do
  m=$(grep -c '^job ' $log 2>/dev/null); m=${m:-0}
  if [ "$m" -gt "$n" ]; then echo "$(tail -1 $cpu) :: $(grep '^job ' $log | tail -1)"; n=$m; fi
  grep -q 'FINAL' $cpu && break
  sleep 1
done
