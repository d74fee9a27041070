#!/usr/bin/env python3
"""The shortest 4x4 all-gather call this machine's processors allow, from a bench/cpu-ceiling.sh run (issue 5).

Per size B (bytes per rank): the rails' limit (12*B into every node over 2 rails at 2 Gbit/s), the processor work no
implementation avoids (the kernels' TCP work for 48*B bytes at the measured cost per MB, plus the copies into the 16
receive buffers at Java's best), that work spread over both processors as a time, and what railcoll measured in the
same run: the inter-node exchange alone (4x1) and the whole call (4x4), with the processor time each used.
usage: bench/cpu-ceiling.py ceiling.csv"""
import collections
import statistics
import sys

tcp_ms_per_mb = {}
copy_ms = {}
calls = collections.defaultdict(list)
for line in open(sys.argv[1]):
    line = line.strip()
    if line.startswith('tcp-floor,'):
        f = line.split(',')
        tcp_ms_per_mb[f[1]] = float(f[4])
    elif line.startswith('copy-floor,'):
        f = line.split(',')
        copy_ms[int(f[2])] = float(f[3])
    elif line.startswith('CALLCOST'):
        f = line.split()
        fields = dict(kv.split('=') for kv in f[4:])
        calls[(f[2], int(f[3]))].append({k: float(v) for k, v in fields.items() if k != 'round'})
if set(tcp_ms_per_mb) != {'shaped', 'unshaped'}:
    sys.exit('cpu-ceiling.py: needs a shaped and an unshaped tcp-floor line')


def med(rows, key):
    return statistics.median(r[key] for r in rows)


print(f"Kernel TCP through a rail of the testbed's kind: {tcp_ms_per_mb['shaped']:.3f} ms of processor time per MB "
      f"moved at 2 Gbit/s, {tcp_ms_per_mb['unshaped']:.3f} ms unshaped (the least it costs here).\n")
print("| B | rails' limit | TCP work (48*B), shaped / unshaped | copies (16 x 16*B) | work / 2 processors "
      "| best share of the limit | 4x1 exchange alone: period, CPU, busy | 4x4 call: time, period, CPU, busy "
      "| 4x4 time / limit |")
print("|---:|---:|---|---:|---|---|---|---|---:|")
for b in sorted({size for (alg, size) in calls if alg.endswith('smp-direct-shm')}):
    limit = 12 * b * 8 / 4e9 * 1e3
    tcp = tcp_ms_per_mb['shaped'] * 48 * b / 1e6
    tcp_low = tcp_ms_per_mb['unshaped'] * 48 * b / 1e6
    copy = copy_ms.get(16 * b)
    if copy is None:
        continue
    floor = (tcp + copy) / 2
    floor_low = (tcp_low + copy) / 2
    x1 = calls.get(('allgather.direct', 4 * b), [])
    x4 = calls[('allgather.smp-direct-shm', b)]
    x1_cell = (f"{med(x1, 'period_us') / 1e3:.1f} ms, {med(x1, 'cpu_ms_per_call'):.1f} ms, {med(x1, 'busy'):.2f}"
               if x1 else "-")
    print(f"| {b // 1024} KiB | {limit:.2f} ms | {tcp:.1f} / {tcp_low:.1f} ms | {copy:.1f} ms "
          f"| {floor:.1f} / {floor_low:.1f} ms | {limit / floor:.0%} / {limit / floor_low:.0%} "
          f"| {x1_cell} | {med(x4, 'call_us') / 1e3:.1f} ms, {med(x4, 'period_us') / 1e3:.1f} ms, "
          f"{med(x4, 'cpu_ms_per_call'):.1f} ms, {med(x4, 'busy'):.2f} | {limit / (med(x4, 'call_us') / 1e3):.0%} |")
