#!/usr/bin/env python3
"""Splits a class's CPU timeline (treecpu.py output) into its test cases by their loaded surefire times, counted back
from the fork's end, and sets each against the CI run's quiet wall time of the same case.
usage: split-by-test.py <loaded TEST-*.xml> <CI TEST-*.xml> <timeline .cpu>"""
import re, sys
x = open(sys.argv[1]).read()
cases = re.findall(r'testcase name="([^"]*)"[^>]*time="([^"]*)"', x)
ci = dict(re.findall(r'testcase name="([^"]*)"[^>]*time="([^"]*)"', open(sys.argv[2]).read()))
tl = [tuple(map(float, l.split()[:2])) for l in open(sys.argv[3]) if not l.startswith('FINAL')]
def cpu(t):
    best = 0
    for a, c in tl:
        if a <= t:
            best = c
    return best
t = tl[-1][0] - 1.0
bounds = []
for n, s in reversed(cases):
    bounds.append((n, t - float(s), t))
    t -= float(s)
for n, a, b in reversed(bounds):
    c = cpu(b) - cpu(a)
    w = float(ci[n])
    print(f'{n:60s} loaded {b - a:7.1f} s  cpu {c:6.1f} s  CI {w:6.1f} s  cpu/(2 x CI) {c / (2 * w):.0%}')
