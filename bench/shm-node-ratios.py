#!/usr/bin/env python3
"""Issue 3's ratio tables from a bench/shm-node.sh output directory: per collective and rank count, the node-buffer
algorithm (<collective>.shm) against Open MPI measured in the same run, and the best railcoll algorithm where another
one was faster by more than 5%. Usage: bench/shm-node-ratios.py OUT_DIR"""
import csv
import os
import sys

root = sys.argv[1]
sizes = [1, 64, 4096, 65536, 1048576]
label = {0: '-', 1: '1 B', 64: '64 B', 4096: '4 KiB', 65536: '64 KiB', 1048576: '1 MiB'}
for coll in ['allgather', 'gather', 'broadcast', 'barrier']:
    points = [0] if coll == 'barrier' else sizes
    print(f"\n**{coll}**: `{coll}.shm` / Open MPI (times in us), and the best railcoll algorithm where faster\n")
    print("| ranks | " + " | ".join(label[s] for s in points) + " |")
    print("|---:|" + "---:|" * len(points))
    for r in [2, 4, 8, 16]:
        f = os.path.join(root, f"{coll}-{r}", "results.csv")
        if not os.path.exists(f):
            continue
        rows = list(csv.DictReader(open(f)))
        cells = []
        for s in points:
            pts = [x for x in rows if int(x['size_bytes']) == s]
            omp = [float(x['latency_us_median']) for x in pts if x['algorithm'] == 'openmpi']
            shm = [float(x['latency_us_median']) for x in pts if x['algorithm'] == f'{coll}.shm']
            rc = [(float(x['latency_us_median']), x['algorithm']) for x in pts if x['algorithm'] != 'openmpi']
            if not omp or not rc:
                cells.append('-')
                continue
            o = omp[0]
            best = min(rc)
            cell = f"{shm[0] / o:.2f}x ({shm[0]:.3g} vs {o:.3g})" if shm else "-"
            name = best[1].replace('auto:', '')
            if shm and best[0] < shm[0] * 0.95 and name != f'{coll}.shm':
                cell += f"; {name.split('.', 1)[1]} {best[0] / o:.2f}x"
            cells.append(cell)
        print(f"| {r} | " + " | ".join(cells) + " |")
