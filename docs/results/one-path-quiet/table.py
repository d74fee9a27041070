import re,glob,statistics,collections,sys
d=sys.argv[1]
rows=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(d+'/*.txt')):
    m=re.match(r'.*/(\w+)-(1x\d+)-(old|new)-r(\d)\.txt',f)
    c,p,b,r=m.groups()
    for line in open(f):
        mm=re.match(r'^(0B|1B|1K|64K|1M)\s+(.*)$',line)
        if mm:
            vals=[x for x in mm.group(2).split() if x!='-']
            v=float(vals[0].rstrip('*~'))
            rows[(c,p,mm.group(1))][b].append(v)
print("| collective | placement | size | old per round (us) | new per round (us) | new/old (medians) |")
print("|---|---|---|---|---|---|")
order={'0B':0,'1B':1,'1K':2,'64K':3,'1M':4}
for k in sorted(rows,key=lambda k:(k[0],int(k[1][2:]),order[k[2]])):
    o=rows[k]['old']; n=rows[k]['new']
    print(f"| {k[0]} | {k[1]} | {k[2]} | {', '.join('%.3g'%x for x in o)} | {', '.join('%.3g'%x for x in n)} | {statistics.median(n)/statistics.median(o):.2f} |")
