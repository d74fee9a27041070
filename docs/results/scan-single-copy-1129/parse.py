#!/usr/bin/env python3
"""Medians per point from the bench logs' results.csv (railcoll) and the Open MPI column of the log's table."""
import csv, glob, os, re, sys
root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__)
for build in sorted(glob.glob(os.path.join(root, '*build*'))):
    print('##', os.path.basename(build))
    for d in sorted(glob.glob(os.path.join(build, '*-1x*-*/'))):
        name = os.path.basename(d.rstrip('/'))
        rows = list(csv.DictReader(open(os.path.join(d, 'results.csv'))))
        ompi = {}
        log = open(os.path.join(build, name + '.log')).read()
        m = re.search(r'median latency \(us\)\n(.*?)\n\*', log, re.S)
        if m:
            lines = m.group(1).split('\n')
            head = lines[0].split()
            if 'openmpi' in head:
                k = head.index('openmpi')
                for l in lines[1:]:
                    f = l.split()
                    ompi[f[0]] = f[k].rstrip('~*')
        print(name)
        sizes = sorted({int(r['size_bytes']) for r in rows})
        algs = list(dict.fromkeys(r['algorithm'] for r in rows))
        for s in sizes:
            lab = f'{s // 1024}K' if s < 1 << 20 else f'{s >> 20}M'
            cells = []
            for a in algs:
                r = [x for x in rows if x['algorithm'] == a and int(x['size_bytes']) == s]
                if r:
                    cells.append(f"{a} {float(r[0]['latency_us_median']):.1f} [{float(r[0]['latency_us_min']):.1f}-{float(r[0]['latency_us_max']):.1f}]")
            print(f'  {lab:>5}: ' + '; '.join(cells) + f"; openmpi {ompi.get(lab, '-')}")
