#!/usr/bin/env python3
"""Tables from a bench/node-floor.sh output directory: for every node size, collective and size, Open MPI's median,
railcoll's (<collective>.shm) and the floor of bench/node-floor.c, as times and as ratios to Open MPI measured in the
same round. For gather and broadcast the floor is given for both orders of leaving the barrier (root-first is what
railcoll's node barrier does, decision 0015). Usage: bench/node-floor-table.py OUT_DIR"""
import csv
import glob
import os
import re
import sys

root = sys.argv[1]
label = {0: '-', 1: '1 B', 64: '64 B', 4096: '4 KiB'}
floor_name = {'allgather': 'allgather', 'gather': 'gather', 'broadcast': 'bcast', 'barrier': 'barrier'}


def floors(path):
    """(collective, order, size) -> median us of one node-floor run."""
    out = {}
    for row in csv.reader(open(path)):
        if row and row[0] == 'node-floor':
            out[(row[1], row[2], int(row[4]))] = float(row[5])
    return out


def medians(path):
    """(algorithm, size) -> median us of one bench run."""
    return {(r['algorithm'], int(r['size_bytes'])): float(r['latency_us_median']) for r in csv.DictReader(open(path))}


rounds = sorted({int(m.group(1)) for f in glob.glob(os.path.join(root, 'floor-*-round*.csv'))
                 for m in [re.search(r'round(\d+)\.csv$', f)] if m})
ranks = sorted({int(re.search(r'floor-(\d+)-', f).group(1)) for f in glob.glob(os.path.join(root, 'floor-*.csv'))})
for coll in ['allgather', 'gather', 'broadcast', 'barrier']:
    rooted = coll in ('gather', 'broadcast')
    print(f"\n**{coll}**: times in us, ratio to Open MPI of the same round"
          + (" (floor: root leaves the barrier first / last)" if rooted else "") + "\n")
    print("| ranks | size | round | Open MPI | railcoll | floor |")
    print("|---:|---:|---:|---:|---|---|")
    for n in ranks:
        for rd in rounds:
            fpath = os.path.join(root, f'floor-{n}-round{rd}.csv')
            bpath = os.path.join(root, f'bench-{coll}-{n}-round{rd}', 'results.csv')
            if not (os.path.exists(fpath) and os.path.exists(bpath)):
                continue
            fl, bm = floors(fpath), medians(bpath)
            for size in ([0] if coll == 'barrier' else [1, 64, 4096]):
                omp = bm.get(('openmpi', size))
                rc = bm.get((f'{coll}.shm', size))
                if omp is None or rc is None:
                    continue
                if rooted:
                    a = fl[(floor_name[coll], 'root-first', size)]
                    b = fl[(floor_name[coll], 'root-last', size)]
                    floor_cell = f"{a:.3g} ({a / omp:.2f}x) / {b:.3g} ({b / omp:.2f}x)"
                else:
                    a = fl[(floor_name[coll], '-', size)]
                    floor_cell = f"{a:.3g} ({a / omp:.2f}x)"
                print(f"| {n} | {label[size]} | {rd} | {omp:.3g} | {rc:.3g} ({rc / omp:.2f}x) | {floor_cell} |")
