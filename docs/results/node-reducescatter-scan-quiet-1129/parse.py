import re,glob,collections,statistics
rows=collections.defaultdict(lambda: collections.defaultdict(list))
for d,tag in (('docs/results/node-reducescatter-scan-quiet-1129/run-ab','a'),('docs/results/node-reducescatter-scan-quiet-1129/run-cd','b')):
    for f in sorted(glob.glob(d+'/*.log')):
        name=f.split('/')[-1][:-4]
        job,rnd=name.rsplit('-',1)
        lines=open(f).read().split('\n')
        try: i=[k for k,l in enumerate(lines) if 'median latency (us)' in l][0]
        except IndexError: continue
        hdr=lines[i+1].split()
        for l in lines[i+2:i+6]:
            p=l.split()
            if not p: continue
            size=p[0]; vals=p[1:]
            # columns: auto columns (1 or 2), algorithm columns..., openmpi, best/flat, best/openmpi
            cols=hdr[1:]
            v=dict(zip(cols,vals))
            auto=[x for c,x in v.items() if c.startswith('auto:') and x!='-']
            auto=float(auto[0].rstrip('~*')) if auto else None
            om=float(v['openmpi'].rstrip('~*'))
            algs={c:float(x.rstrip('~*')) for c,x in v.items() if not c.startswith('auto:') and c not in('openmpi','best/flat','best/openmpi') and x!='-'}
            rows[job][size].append((auto,om,algs))
for job in sorted(rows):
    print('==',job)
    for size in ('8B','1K','64K','1M'):
        rs=rows[job][size]
        ratios=[a/o for a,o,_ in rs]
        autos=[a for a,_,_ in rs]; oms=[o for _,o,_ in rs]
        algs=collections.defaultdict(list)
        for _,_,al in rs:
            for k,x in al.items(): algs[k].append(x)
        print(f"{size:4} auto {','.join(f'{x:g}' for x in autos):28} ompi {','.join(f'{x:g}' for x in oms):28} auto/ompi {','.join(f'{x:.2f}' for x in ratios):22} median {statistics.median(ratios):.2f}  "+'  '.join(f"{k} {statistics.median(x):g}" for k,x in algs.items()))
