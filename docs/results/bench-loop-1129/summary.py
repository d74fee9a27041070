#!/usr/bin/env python3
"""Per (collective, placement, size): railcoll's (auto) and Open MPI's OSU medians and figures added to a barrier
loop, with their ratios, one line per run, from run*/<collective>-<placement>/results.csv. Usage: summary.py DIR"""
import csv, glob, os, re, sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__)
rows = {}
for path in sorted(glob.glob(os.path.join(root, 'run*', '*', 'results.csv'))):
    run = re.search(r'run(\d+)', path).group(1)
    for r in csv.DictReader(open(path)):
        who = 'openmpi' if r['algorithm'] == 'openmpi' else 'railcoll'
        key = (r['collective'], f"{r['nodes']}x{r['ranks_per_node']}", int(r['size_bytes']))
        rows.setdefault(key, {}).setdefault(run, {})[who] = (r['algorithm'], float(r['latency_us_median']),
                                                               r.get('added_to_barrier_us_median', ''))


def ratio(a, b):
    return f'{a / b:.2f}x' if b > 0 and a > 0 else '-'


print('| collective | placement | size | run | railcoll algorithm | OSU railcoll | OSU Open MPI | OSU ratio '
      '| added railcoll | added Open MPI | added ratio |')
print('|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|')
for key in sorted(rows):
    for run in sorted(rows[key]):
        got = rows[key][run]
        if 'railcoll' not in got or 'openmpi' not in got:
            print(f'| {key[0]} | {key[1]} | {key[2]} | {run} | missing: {sorted(got)} |')
            continue
        alg, osu, added = got['railcoll']
        _, posu, padded = got['openmpi']
        a = float(added) if added else None
        p = float(padded) if padded else None
        print(f'| {key[0]} | {key[1]} | {key[2]} | {run} | {alg} | {osu:.3f} | {posu:.3f} | {ratio(osu, posu)} '
              f'| {a if a is not None else "-"} | {p if p is not None else "-"} '
              f'| {ratio(a, p) if a is not None and p is not None else "-"} |')

# Medians over the runs of each figure and of each run's ratio.
import statistics
print()
print('| collective | placement | size | runs | OSU railcoll | OSU Open MPI | OSU ratio (runs) | added railcoll '
      '| added Open MPI | added ratio (runs) |')
print('|---|---|---:|---:|---:|---:|---|---:|---:|---|')
for key in sorted(rows):
    runs = [g for g in rows[key].values() if 'railcoll' in g and 'openmpi' in g]
    if not runs:
        continue
    osu = [g['railcoll'][1] for g in runs]
    posu = [g['openmpi'][1] for g in runs]
    added = [float(g['railcoll'][2]) for g in runs if g['railcoll'][2]]
    padded = [float(g['openmpi'][2]) for g in runs if g['openmpi'][2]]
    ratios = [ratio(g['railcoll'][1], g['openmpi'][1]) for g in runs]
    aratios = [ratio(float(g['railcoll'][2]), float(g['openmpi'][2])) if g['railcoll'][2] and g['openmpi'][2] else '-'
               for g in runs]
    med = lambda v: f'{statistics.median_low(v):.3f}' if v else '-'
    print(f'| {key[0]} | {key[1]} | {key[2]} | {len(runs)} | {med(osu)} | {med(posu)} | {", ".join(ratios)} '
          f'| {med(added)} | {med(padded)} | {", ".join(aratios)} |')
