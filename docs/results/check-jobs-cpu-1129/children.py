import json,sys,collections
txt=open(sys.argv[1]).read(); target=sys.argv[2]
dec=json.JSONDecoder(); i=0; evs=[]
while i<len(txt):
    while i<len(txt) and txt[i].isspace(): i+=1
    if i>=len(txt): break
    o,i=dec.raw_decode(txt,i); evs+=o['recording']['events']
ch=collections.Counter(); N=len(evs)
for e in evs:
    fr=e['values']['stackTrace']['frames'] if e['values'].get('stackTrace') else []
    names=[f['method']['type']['name'].split('/')[-1]+'.'+f['method']['name']+':'+str(f.get('lineNumber')) for f in fr]
    for k,n in enumerate(names):
        if n.split(':')[0]==target:
            ch[names[k-1] if k>0 else '(self)']+=1; break
[print(f'{c*100/N:5.1f}% {n}') for n,c in ch.most_common(30)]
