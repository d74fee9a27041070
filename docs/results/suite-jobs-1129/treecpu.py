#!/usr/bin/env python3
"""Samples the CPU seconds (user+sys, live + reaped) of the process tree under every surefire fork
whose ancestor is the given root pid. Prints 't_wall cpu_s' lines each interval and a final line."""
import os, sys, time
root = int(sys.argv[1]); out = open(sys.argv[2], 'w'); hz = os.sysconf('SC_CLK_TCK')
def stat(pid):
    try:
        s = open(f'/proc/{pid}/stat').read()
    except OSError:
        return None
    r = s.rsplit(')', 1)[1].split()
    # fields after ')' start at index 3 (state); utime=14,stime=15,cutime=16,cstime=17 -> r[11..14]
    return int(r[1]), sum(int(x) for x in r[11:15])
def tree():
    kids = {}; cpu = {}
    for d in os.listdir('/proc'):
        if d.isdigit():
            st = stat(int(d))
            if st: kids.setdefault(st[0], []).append(int(d)); cpu[int(d)] = st[1]
    return kids, cpu
def cmd(pid):
    try: return open(f'/proc/{pid}/cmdline','rb').read()
    except OSError: return b''
t0 = time.time(); best = 0.0
while os.path.exists(f'/proc/{root}'):
    kids, cpu = tree()
    stack = [root]; forks = []
    while stack:
        p = stack.pop()
        if b'surefirebooter' in cmd(p) or b'surefire' in cmd(p) and p != root and b'ForkedBooter' in cmd(p):
            forks.append(p); continue
        stack.extend(kids.get(p, []))
    total = 0
    for f in forks:
        st = [f]
        while st:
            p = st.pop(); total += cpu.get(p, 0); st.extend(kids.get(p, []))
    c = total / hz
    best = max(best, c) if forks else best
    out.write(f'{time.time()-t0:.1f} {c:.1f} {time.time():.1f}\n'); out.flush()
    time.sleep(0.5)
out.write(f'FINAL {best:.1f}\n'); out.close()
