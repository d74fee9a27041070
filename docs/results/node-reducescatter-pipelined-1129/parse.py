#!/usr/bin/env python3
"""Tables of node-reducescatter-pipelined-1129: per placement and size, each round's median (us) of reduce-scatter.shm,
reduce-scatter.ring and Open MPI (from the bench's own table in rs-<placement>-<round>.log), the ratios within each
round and their median; then each algorithm's fastest sample of all rounds. Usage: parse.py <dir with the logs>."""
import glob, os, re, statistics, sys

d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__)
runs = {}
for log in sorted(glob.glob(os.path.join(d, 'rs-*-*.log'))):
    m = re.match(r'rs-(\dx\d)-(\d+)\.log', os.path.basename(log))
    placement, rnd = m.group(1), int(m.group(2))
    lines = open(log).read().splitlines()
    try:
        start = next(i for i, l in enumerate(lines) if 'median latency' in l)
    except StopIteration:
        continue
    header = lines[start + 1].split()
    for l in lines[start + 2:]:
        if not l or not l[0].isdigit():
            break
        cells = l.split()
        for name, cell in zip(header[1:], cells[1:]):
            if name in ('shm', 'ring', 'openmpi'):
                runs.setdefault((placement, cells[0]), {}).setdefault(name, {})[rnd] = float(cell.rstrip('~*'))
def f(x):
    return '%d' % round(x) if x >= 1000 else '%.3g' % x


sizes = ['1K', '8K', '16K', '64K', '256K', '1M']
print('| placement | size | shm per round | ring per round | Open MPI per round | shm/ring per round: median |'
      ' shm/Open MPI per round: median |')
print('|---|---|---|---|---|---|---|')
for placement in ('1x2', '1x3', '1x4'):
    for size in sizes:
        r = runs.get((placement, size))
        if not r:
            continue
        cols = [', '.join(f(r[name][k]) for k in sorted(r[name])) for name in ('shm', 'ring', 'openmpi')]
        ratios = []
        for other in ('ring', 'openmpi'):
            rs = [r['shm'][k] / r[other][k] for k in sorted(r['shm']) if k in r[other]]
            ratios.append('%s: **%.2f**' % (', '.join('%.2f' % x for x in rs), statistics.median(rs)))
        print('| %s | %s | %s | %s | %s | %s | %s |' % (placement, size, cols[0], cols[1], cols[2], ratios[0],
                                                      ratios[1]))

# The least disturbed sample: each point's fastest of its 5 samples in every round (raw-samples.csv, railcoll only),
# then the fastest of the rounds: what the algorithm costs when no other job took the processors for a whole sample.
best = {}
for csv in glob.glob(os.path.join(d, 'rs-*-*', 'raw-samples.csv')):
    placement = re.match(r'rs-(\dx\d)-\d+', os.path.basename(os.path.dirname(csv))).group(1)
    for line in open(csv):
        algorithm, size, us = line.strip().split(',')
        key = (placement, int(size), algorithm.split('.')[-1])
        best[key] = min(best.get(key, float('inf')), float(us))
print()
print('| placement | size | shm fastest sample | ring fastest sample | shm/ring |')
print('|---|---|---:|---:|---:|')
for placement in ('1x2', '1x3', '1x4'):
    for size, label in zip([1024, 8192, 16384, 65536, 262144, 1048576], sizes):
        s, r = best.get((placement, size, 'shm')), best.get((placement, size, 'ring'))
        if s is not None and r is not None:
            print('| %s | %s | %s | %s | %.2f |' % (placement, label, f(s), f(r), s / r))
