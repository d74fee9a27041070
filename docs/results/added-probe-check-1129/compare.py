import glob, re, sys, collections
d = sys.argv[1]
unit = {'B': 1, 'K': 1024, 'M': 1 << 20}
res = collections.defaultdict(dict)
for f in sorted(glob.glob(d + '/*-bench-r*.txt')):
    c, p, r = re.match(r'.*/([a-z]+)-(\d+x\d+)-bench-r(\d+)\.txt', f).groups()
    header = None
    for line in open(f):
        if line.startswith('size  '):
            header = re.split(r'\s{2,}', line.strip())
        m = re.match(r'^(\d+)([BKM])\s', line)
        if m and header:
            cells = line.split()
            osu = [v for h, v in zip(header, cells) if h.startswith('auto:') and not h.endswith(' added') and v != '-']
            add = [v for h, v in zip(header, cells) if h.startswith('auto:') and h.endswith(' added') and v != '-']
            size = int(m.group(1)) * unit[m.group(2)]
            res[(c, p, size, r)]['bench'] = (osu[0].rstrip('*~'), add[0] if add else '-')
for f in sorted(glob.glob(d + '/*-probe-r*.txt')):
    c, p, r = re.match(r'.*/([a-z]+)-(\d+x\d+)-probe-r(\d+)\.txt', f).groups()
    for line in open(f):
        m = re.search(r'added ([a-z]+) (\d+) osu_us=(\S+) added_us=(\S+) added_min_us=(\S+) added_max_us=(\S+)', line)
        if m:
            res[(c, p, int(m.group(2)), r)]['probe'] = (m.group(3), m.group(4), m.group(5), m.group(6))
print("| collective | placement | size | round | bench OSU | probe OSU | bench added | probe added (min-max) | probe/bench added |")
print("|---|---|---|---|---|---|---|---|---|")
for k in sorted(res):
    b = res[k].get('bench', ('-', '-')); q = res[k].get('probe', ('-', '-', '-', '-'))
    try: ratio = '%.2f' % (float(q[1]) / float(b[1]))
    except Exception: ratio = '-'
    print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {b[0]} | {q[0]} | {b[1]} | {q[1]} ({q[2]}-{q[3]}) | {ratio} |")
