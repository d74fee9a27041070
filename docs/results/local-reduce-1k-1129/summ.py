#!/usr/bin/env python3
"""Tabulates rounds: python3 summ.py FOLDER VARIANT... (reads FOLDER/out-R-VARIANT/local-reduce.csv, or FOLDER/R-VARIANT.csv as copied here).
Per (type, bytes) and variant: the CPU ratio of each round, their median, and the median copy / reduce CPU ns per call,
for the Vector API path and the staged path (a JVM without the module)."""
import csv, glob, statistics, sys
folder, variants = sys.argv[1], sys.argv[2:]
data = {}
for v in variants:
    for path in sorted(glob.glob(f"{folder}/out-*-{v}/local-reduce.csv") + glob.glob(f"{folder}/[0-9]*-{v}.csv")):
        for row in csv.DictReader(open(path)):
            data.setdefault((row['type'], int(row['bytes'])), {}).setdefault(v, []).append(row)
def med(xs):
    return statistics.median(xs)
for mode, pre in (("Vector API", ""), ("staged (no module)", "staged_")):
    print(f"\n{mode}: CPU ratio per round, median; median copy / reduce CPU ns per call\n")
    print("| type | bytes | " + " | ".join(f"{v}: per round | {v} median | {v} copy/reduce ns" for v in variants) + " |")
    print("|---|---:|" + "---|---:|---|" * len(variants))
    for (t, b), per in data.items():
        cells = []
        for v in variants:
            rows = per.get(v, [])
            r = [float(x[pre + 'cpu_ratio']) for x in rows]
            c = [float(x[pre + 'copy_cpu_ns']) for x in rows]
            d = [float(x[pre + 'reduce_cpu_ns']) for x in rows]
            cells.append(" / ".join(f"{x:.2f}" for x in r))
            cells.append(f"**{med(r):.2f}**" if r else "")
            cells.append(f"{med(c):.1f} / {med(d):.1f}" if r else "")
        print(f"| {t} | {b} | " + " | ".join(cells) + " |")
