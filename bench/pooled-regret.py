#!/usr/bin/env python3
"""Per size bucket, how each algorithm fared over several runs: the geometric mean over runs of its time divided by
the fastest algorithm's time in the same run (1.00 = fastest in every run). The built-in rules of 2026-11-25 cite
these figures; one run alone is too noisy on this host to pick between algorithms that are 10-20% apart.

usage: bench/pooled-regret.py [--statistic median|min] FILE...
  FILE: a `tune --regret` sweep (collective,algorithm,size,ns per line; `auto:` lines give the choice that ran) or a
        `bench` raw-samples.csv of all-gathers (algorithm,size_bytes,sample_us).
"""
import argparse
import collections
import csv
import math
import statistics


def read(path):
    """{(collective, size): {algorithm: [samples]}} and {(collective, size): algorithm selection ran}."""
    times = collections.defaultdict(lambda: collections.defaultdict(list))
    chosen = {}
    for row in csv.reader(open(path)):
        if len(row) == 4:
            collective, algorithm, size, value = row
        else:
            algorithm, size, value = row
            collective = algorithm.split('.')[0]
        key = (collective, int(size))
        if algorithm.startswith('auto:'):
            chosen[key] = algorithm[len('auto:'):]
        else:
            times[key][algorithm].append(float(value))
    return times, chosen


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--statistic', choices=['median', 'min'], default='median')
    parser.add_argument('files', nargs='+')
    args = parser.parse_args()
    stat = statistics.median if args.statistic == 'median' else min
    runs = [read(f) for f in args.files]
    for key in sorted({k for times, _ in runs for k in times}):
        logs = collections.defaultdict(list)
        choices = set()
        for times, chosen in runs:
            if key not in times:
                continue
            if key in chosen:
                choices.add(chosen[key])
            summary = {a: stat(v) for a, v in times[key].items()}
            fastest = min(summary.values())
            for a, t in summary.items():
                logs[a].append(math.log(t / fastest))
        score = sorted(((math.exp(sum(v) / len(v)), a) for a, v in logs.items()))
        ran = ', '.join(sorted(choices)) or '-'
        print(f'{key[0]:9} {key[1]:8}  runs {max(len(v) for v in logs.values())}  '
              + ', '.join(f'{a.split(".", 1)[1]} {s:.2f}' for s, a in score[:4]) + f'  | selection ran: {ran}')


if __name__ == '__main__':
    main()
