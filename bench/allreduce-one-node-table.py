import csv,sys,collections
rows=list(csv.DictReader(open(sys.argv[1])))
algs=[];sizes=[]
d={}
for r in rows:
    a=r['algorithm'];s=int(r['size_bytes'])
    if a.startswith('auto:'): a='auto'
    if a not in algs: algs.append(a)
    if s not in sizes: sizes.append(s)
    d[(a,s)]=(float(r['latency_us_median']),float(r['latency_us_min']))
print('size | '+' | '.join(a.replace('allreduce.','') for a in algs))
for s in sizes:
    print(str(s)+' | '+' | '.join(('%.3g / %.3g'%d[(a,s)]) if (a,s) in d else '-' for a in algs))
