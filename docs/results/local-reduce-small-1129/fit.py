# Least-squares fit of thread-CPU ns per call = fixed + per_kib * KiB over the sweep's sizes (sweep.sh output).
import sys, statistics
rows = {}
cur = None
for line in open(sys.argv[1]):
    if line.startswith('## '):
        v, t, _, r = line.split()[1:5]
        cur = (v, t, r)
    elif line.startswith('LOCALREDUCE'):
        f = dict(x.split('=') for x in line.split()[1:])
        rows.setdefault(cur, []).append((int(f['bytes']) / 1024, float(f['copy_cpu_ns']), float(f['reduce_cpu_ns'])))
def fit(xs, ys):
    mx, my = statistics.mean(xs), statistics.mean(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return my - b * mx, b
print('| combiners | type | round | copy: fixed ns + ns/KiB | reduce: fixed ns + ns/KiB | reduce ns at 1 KiB / 8 KiB | cpu ratio at 1 KiB / 8 KiB |')
print('|---|---|---|---|---|---|---|')
for (v, t, r), pts in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][0])):
    xs = [p[0] for p in pts]
    ca, cb = fit(xs, [p[1] for p in pts])
    ra, rb = fit(xs, [p[2] for p in pts])
    at = {p[0]: p for p in pts}
    name = 'one body (before)' if v == 'bench' else 'per pair (after)'
    print(f'| {name} | {t} | {r} | {ca:.1f} + {cb:.2f} | {ra:.1f} + {rb:.2f} | {at[1][2]:.1f} / {at[8][2]:.1f} |'
          f' {at[1][1] / at[1][2]:.2f} / {at[8][1] / at[8][2]:.2f} |')
