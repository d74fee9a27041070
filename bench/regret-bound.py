#!/usr/bin/env python3
"""What any fixed selection table can reach on a set of runs of the same placement (issue 9's regret target).

A table names one algorithm per (collective, size) bucket. In a run, it is within 10% in a bucket when its
algorithm's time is at most 1.10 x the fastest algorithm's time in that run. Given several runs, this prints per
bucket the choice whose worst run is best (min over algorithms of max over runs of time / run's fastest) and, for
the table made of those choices, in how many buckets it is within 10% in each run. Buckets whose best worst-case
exceeds 1.10 cannot be within 10% in every run whatever a table says: the algorithms trade places from run to run
by more than that. The result is in-sample (the table is picked knowing the runs), so it bounds any table from
above on these runs.

usage: bench/regret-bound.py [--statistic median|min] [--threshold 1.10] FILE...
  FILE: a `tune --regret` sweep (collective,algorithm,size,ns per line; `auto:` lines are skipped) or a `bench`
        raw-samples.csv of all-gathers (algorithm,size_bytes,sample_us).
"""
import argparse
import collections
import csv
import statistics


def read(path):
    """{(collective, size): {algorithm: [samples]}} of one run."""
    times = collections.defaultdict(lambda: collections.defaultdict(list))
    for row in csv.reader(open(path)):
        if len(row) == 4:
            collective, algorithm, size, value = row
        elif len(row) == 3:
            algorithm, size, value = row
            collective = algorithm.split('.')[0]
        else:
            continue
        if algorithm.startswith('auto:') or not size.isdigit():
            continue
        times[(collective, int(size))][algorithm].append(float(value))
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--statistic', choices=['median', 'min'], default='median')
    parser.add_argument('--threshold', type=float, default=1.10)
    parser.add_argument('files', nargs='+')
    args = parser.parse_args()
    stat = statistics.median if args.statistic == 'median' else min
    runs = [read(f) for f in args.files]
    buckets = sorted({k for run in runs for k in run})
    within = [0] * len(runs)
    counted = [0] * len(runs)
    infeasible = []
    print(f"{len(runs)} runs, statistic {args.statistic}, threshold {args.threshold:.2f}\n")
    print("| collective | size | runs | best fixed choice | its worst run | its runs within | runner-up, worst run |")
    print("|---|---:|---:|---|---:|---:|---|")
    for key in buckets:
        ratios = collections.defaultdict(dict)  # algorithm -> run index -> time / fastest
        present = [i for i, run in enumerate(runs) if key in run]
        for i in present:
            summary = {a: stat(v) for a, v in runs[i][key].items()}
            fastest = min(summary.values())
            for a, t in summary.items():
                ratios[a][i] = t / fastest
        # Only algorithms measured in every run that has the bucket can be a fixed choice for all of them.
        complete = {a: r for a, r in ratios.items() if len(r) == len(present)}
        if not complete:
            continue
        ranked = sorted((max(r.values()), a) for a, r in complete.items())
        worst, choice = ranked[0]
        ok = sum(1 for v in complete[choice].values() if v <= args.threshold)
        for i, v in complete[choice].items():
            counted[i] += 1
            within[i] += v <= args.threshold
        if worst > args.threshold:
            infeasible.append((key, worst, choice))
        runner = f"{ranked[1][1].split('.', 1)[1]} {ranked[1][0]:.2f}" if len(ranked) > 1 else '-'
        print(f"| {key[0]} | {key[1]} | {len(present)} | {choice.split('.', 1)[1]} | {worst:.2f} "
              f"| {ok} of {len(present)} | {runner} |")
    print(f"\nThe table of best fixed choices is within {args.threshold - 1:.0%} in "
          + ", ".join(f"{w} of {c}" for w, c in zip(within, counted)) + " buckets of the runs, in the order given.")
    print(f"Buckets where no fixed choice is within {args.threshold - 1:.0%} in every run: {len(infeasible)} of "
          f"{len(buckets)}" + ("" if not infeasible else ": " + "; ".join(
              f"{k[0]} {k[1]} B (best {c.split('.', 1)[1]}, worst run {w:.2f})" for k, w, c in infeasible)))


if __name__ == '__main__':
    main()
