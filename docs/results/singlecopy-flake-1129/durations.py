import re,sys
it=None; d={}
rows=[]
for line in open('/tmp/sc/timed.log'):
    if line.startswith('ITER'):
        if it and d: rows.append((it,d))
        it=line.strip(); d={}
        continue
    m=re.search(r'T (\d+) r(\d) (.*)$',line)
    if m: d[(int(m.group(2)),m.group(3))]=int(m.group(1))
if it and d: rows.append((it,d))
for it,d in rows:
    try:
        late=d[(0,'buffers ready')]-d[(1,'buffers ready')]
        c1=d.get((1,'gather 1 done'),None)
        dur=(c1-d[(1,'buffers ready')]) if c1 else None
        print(f"{it[:40]:40s} root ready {late/1000:5.1f} s after rank 1; rank 1's call 1 {'%.1f s'%(dur/1000) if dur else 'never returned'}")
    except KeyError as e:
        print(it[:40], 'missing', e)
