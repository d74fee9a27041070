#!/usr/bin/env python3
"""Summarises bench/smp-direct-shm-old-new.sh's CSVs: per network, placement and size, old and new medians (each run's
median, then the median over runs) and minima (the least over runs), and new/old for both."""
import csv, glob, os, re, statistics, sys
from collections import defaultdict

out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/smp-direct-shm-bench"
runs = defaultdict(lambda: defaultdict(list))
for path in sorted(glob.glob(os.path.join(out, "*.csv"))):
    m = re.match(r"(\w+)-(\S+)-(old|new)-(\d+)\.csv", os.path.basename(path))
    if not m:
        continue
    network, placement, side, _ = m.groups()
    with open(path) as f:
        for row in csv.DictReader(f):
            key = (network, placement, int(row["size_bytes"]))
            runs[key][side].append((float(row["latency_us_median"]), float(row["latency_us_min"])))
print("| network | placement | size | old median (us) | new median (us) | new/old median | old min | new min | new/old min | runs |")
print("|---|---|---|---|---|---|---|---|---|---|")
for key in sorted(runs):
    old, new = runs[key]["old"], runs[key]["new"]
    if not old or not new:
        continue
    om, nm = statistics.median(x[0] for x in old), statistics.median(x[0] for x in new)
    on, nn = min(x[1] for x in old), min(x[1] for x in new)
    print(f"| {key[0]} | {key[1]} | {key[2]} | {om:.0f} | {nm:.0f} | {nm / om:.2f} | {on:.0f} | {nn:.0f} | {nn / on:.2f} | {len(old)}+{len(new)} |")
