import json,sys,re,collections
# stream multiple concatenated JSON docs
txt=open(sys.argv[1]).read()
dec=json.JSONDecoder(); i=0; evs=[]
while i<len(txt):
    while i<len(txt) and txt[i].isspace(): i+=1
    if i>=len(txt): break
    o,i=dec.raw_decode(txt,i); evs+=o['recording']['events']
top=collections.Counter(); incl=collections.Counter(); thr=collections.Counter()
for e in evs:
    fr=e['values']['stackTrace']['frames'] if e['values'].get('stackTrace') else []
    names=[f['method']['type']['name'].split('.')[-1]+'.'+f['method']['name'] for f in fr]
    thr[e['values']['sampledThread']['javaName'] if e['values'].get('sampledThread') else '?']+=1
    if names: top[names[0]]+=1
    for n in set(names): incl[n]+=1
N=len(evs); print('samples',N)
print('-- threads'); [print(f'{c*100/N:5.1f}% {n}') for n,c in thr.most_common(8)]
print('-- top frames'); [print(f'{c*100/N:5.1f}% {n}') for n,c in top.most_common(25)]
print('-- inclusive'); [print(f'{c*100/N:5.1f}% {n}') for n,c in incl.most_common(45)]
