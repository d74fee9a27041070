import csv, glob, statistics, re, sys
res=sys.argv[1] if len(sys.argv) > 1 else '/tmp/sr/rounds'  # the out-R-VARIANT folders of rounds.sh
data={}
for f in sorted(glob.glob(res+'/out-*-*/local-reduce.csv')):
    m=re.search(r'out-(\d)-(\w+)/',f); rnd,var=int(m.group(1)),m.group(2)
    for row in csv.DictReader(open(f)):
        key=(row['type'],int(row['bytes']))
        data.setdefault((var,key),[]).append((rnd,row))
types=['int','long','float','double']; sizes=[1024,8192,65536,1048576]
def fmt(v): return '%.2f'%v
print('| type | bytes | before: ratio per round | median | bench only: ratio / cpu ratio per round | median ratio | median cpu | after: ratio / cpu ratio per round | median ratio | median cpu | staged cpu (after) |')
print('|---|---:|---|---:|---|---:|---:|---|---:|---:|---:|')
for t in types:
    for s in sizes:
        k=(t,s); cells=[t, {1024:'1 KiB',8192:'8 KiB',65536:'64 KiB',1048576:'1 MiB'}[s]]
        b=[float(r['ratio']) for _,r in sorted(data.get(('before',k),[]))]
        cells += [' / '.join(map(fmt,b)), '**'+fmt(statistics.median(b))+'**' if b else '']
        for var in ['bench','after']:
            rows=[r for _,r in sorted(data.get((var,k),[]))]
            w=[float(r['ratio']) for r in rows]; c=[float(r['cpu_ratio']) for r in rows]
            cells += [' / '.join(f'{fmt(a)}, {fmt(b)}' for a,b in zip(w,c)), fmt(statistics.median(w)) if w else '', '**'+fmt(statistics.median(c))+'**' if c else '']
        rows=[r for _,r in sorted(data.get(('after',k),[]))]
        sc=[float(r['staged_cpu_ratio']) for r in rows]
        cells += [fmt(statistics.median(sc)) if sc else '']
        print('| '+' | '.join(cells)+' |')
print()
print('ns per call, thread CPU time, medians over rounds (copy / reduce):')
print('| type | bytes | bench only | after |')
print('|---|---:|---|---|')
for t in types:
    for s in [1024,8192]:
        k=(t,s); cells=[t,str(s)]
        for var in ['bench','after']:
            rows=[r for _,r in sorted(data.get((var,k),[]))]
            cp=[float(r['copy_cpu_ns']) for r in rows]; rd=[float(r['reduce_cpu_ns']) for r in rows]
            cells.append(f"{statistics.median(cp):.1f} / {statistics.median(rd):.1f} (rounds {', '.join('%.1f'%x for x in rd)})" if rows else '')
        print('| '+' | '.join(cells)+' |')
