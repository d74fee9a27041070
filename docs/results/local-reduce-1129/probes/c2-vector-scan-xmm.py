#!/usr/bin/env python3
"""Which of the methods that C2 compiled use packed vector instructions. LOG is the output of a JVM run with
-XX:+UnlockDiagnosticVMOptions -XX:CompileCommand=print,PATTERN (no hsdis needed: without it the JVM prints the
machine code as hex, which objdump disassembles here). Usage: c2-vector-scan.py LOG METHOD-SUBSTRING"""
import re, subprocess, sys, tempfile, collections
log, wanted = sys.argv[1], sys.argv[2]
blocks, cur, take = [], None, False
for line in open(log, errors='replace'):
    if line.startswith('Compiled method (c2)'):
        take = wanted in line and ' % ' not in line
        cur = bytearray() if take else None
        if take: blocks.append((line.strip(), cur))
        continue
    if line.startswith('====='):
        take = False
    if take and re.match(r'\s+0x[0-9a-f]+: [0-9a-f]{2,4}( |$)', line):
        hexpart = line.split(': ', 1)[1]
        for g in re.findall(r'\b[0-9a-f]{2,4}\b', hexpart.replace('|', ' ')):
            cur.extend(bytes.fromhex(g))
for title, code in blocks:
    with tempfile.NamedTemporaryFile(suffix='.bin') as f:
        f.write(code); f.flush()
        out = subprocess.run(['objdump', '-D', '-b', 'binary', '-m', 'i386:x86-64', f.name], capture_output=True, text=True).stdout
    ops = collections.Counter()
    for l in out.splitlines():
        m = re.match(r'\s*[0-9a-f]+:\s+(?:[0-9a-f]{2} )+\s*(\S+)\s+(.*)', l)
        if m and ("%ymm" in m.group(2) or "%zmm" in m.group(2) or (m.group(1).endswith(("ps","pd")) and m.group(1).startswith(("vadd","add","vmov","movu")))):
            ops[m.group(1)] += 1
    print(title, '->', dict(ops) if ops else 'no ymm/zmm instructions (not vectorised)')
