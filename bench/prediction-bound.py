#!/usr/bin/env python3
"""What any deterministic model can reach on a set of runs of the same placement (issue 9's simulator target).

A model predicts one time per point (collective, algorithm, size); the target is a prediction within 25% of the time
measured in the run. Across several runs of the same code and placement a point's measurement moves; a prediction p
is within 25% of a run's time t when |p - t| <= 0.25 t, so one prediction can serve every run only if the slowest
run's time is at most (1 + 0.25) / (1 - 0.25) = 1.67 x the fastest run's. This prints, for the points of at least
--from bytes, how far each point's runs spread (max / min of the per-run statistic) and how many points no model can
predict within 25% in every run; and, per run, how many points the best single prediction per point (chosen knowing
every run: an upper bound for any model) gets within 25%.

usage: bench/prediction-bound.py [--statistic median|min] [--tolerance 0.25] [--from 4096] FILE...
  FILE: a `tune --regret` sweep (collective,algorithm,size,ns per line; `auto:` lines are skipped).
"""
import argparse
import collections
import csv
import statistics


def read(path):
    """{(collective, algorithm, size): [samples]} of one run."""
    times = collections.defaultdict(list)
    for row in csv.reader(open(path)):
        if len(row) != 4 or row[1].startswith('auto:') or not row[2].isdigit():
            continue
        times[(row[0], row[1], int(row[2]))].append(float(row[3]))
    return times


def best_prediction(values, tol):
    """The prediction within tol of the most values (ties: the one with the smallest worst relative error)."""
    candidates = [v * (1 + tol) for v in values] + [v * (1 - tol) for v in values] + values
    def score(p):
        return (sum(abs(p - v) <= tol * v * (1 + 1e-12) for v in values), -max(abs(p - v) / v for v in values))
    return max(candidates, key=score)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--statistic', choices=['median', 'min'], default='median')
    parser.add_argument('--tolerance', type=float, default=0.25)
    parser.add_argument('--from', dest='start', type=int, default=4096)
    parser.add_argument('files', nargs='+')
    args = parser.parse_args()
    stat = statistics.median if args.statistic == 'median' else min
    tol = args.tolerance
    runs = [read(f) for f in args.files]
    points = sorted(k for k in set().union(*runs) if k[2] >= args.start and all(k in r for r in runs))
    spread_limit = (1 + tol) / (1 - tol)
    within = [0] * len(runs)
    unpredictable = []
    spreads = []
    for key in points:
        values = [stat(r[key]) for r in runs]
        spread = max(values) / min(values)
        spreads.append(spread)
        if spread > spread_limit:
            unpredictable.append((key, spread))
        p = best_prediction(values, tol)
        for i, v in enumerate(values):
            within[i] += abs(p - v) <= tol * v * (1 + 1e-12)
    print(f"{len(runs)} runs, {len(points)} points of {args.start} B and up measured in all of them, statistic "
          f"{args.statistic}")
    print(f"Spread of a point over the runs (max / min): median {statistics.median(spreads):.2f}, "
          f"largest {max(spreads):.2f}")
    print(f"Points no model can predict within {tol:.0%} in every run (spread over {spread_limit:.2f}): "
          f"{len(unpredictable)}" + ("" if not unpredictable else ": " + "; ".join(
              f"{k[1]} {k[2]} B {s:.2f}" for k, s in sorted(unpredictable, key=lambda x: -x[1]))))
    print(f"Best single prediction per point, within {tol:.0%}: " + ", ".join(
        f"{w} of {len(points)}" for w in within) + " points of the runs, in the order given.")


if __name__ == '__main__':
    main()
