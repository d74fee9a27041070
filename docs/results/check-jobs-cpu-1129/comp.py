import json,collections,re,sys
txt=open(sys.argv[1]).read()
dec=json.JSONDecoder(); i=0; evs=[]
while i<len(txt):
    while i<len(txt) and txt[i].isspace(): i+=1
    if i>=len(txt): break
    o,i=dec.raw_decode(txt,i); evs+=o['recording']['events']
def dur(s):
    m=re.match(r'PT(?:(\d+)M)?([\d.]+)S',s); return (int(m.group(1) or 0)*60+float(m.group(2))) if m else 0
byM=collections.Counter(); cnt=collections.Counter(); tot=0; app=0
for e in evs:
    v=e['values']; d=dur(v['duration']); tot+=d
    m=v['method']; name=m['type']['name']+'.'+m['name']
    if 'systemtest' in name: app+=d
    byM[(name,v['compileLevel'])]+=d; cnt[(name,v['compileLevel'])]+=1
print('compilations',len(evs),'total s',round(tot,1),'of which systemtest',round(app,1))
for k,x in byM.most_common(8): print(f'{x:7.1f}s n={cnt[k]} {k}')
