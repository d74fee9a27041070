#!/usr/bin/env python3
"""Summarises LatencyBreakdownApp output (docs/latency-breakdown.md): per-call counts averaged over the ranks with
rail data (masters) and over the others, rails summed; and the median phase times of the masters.

usage: bench/latency-breakdown-summary.py OUTPUT.txt [OUTPUT.txt ...]
"""
import re
import statistics
import sys

KEYS = [
    ("rail DATA frames sent", "rail_data_sent"),
    ("rail DATA frames received", "rail_data_received"),
    ("ACK frames sent alone", "rail_ack_sent"),
    ("ACK frames received (alone or carried)", "rail_ack_received"),
    ("ACKs carried in front of DATA", "rail_ack_piggybacked"),
    ("rail bytes sent (headers included)", "rail_bytes_sent"),
    ("rail bytes received", "rail_bytes_received"),
    ("rail write calls", "rail_write_calls"),
    ("rail read calls", "rail_read_calls"),
    ("selector: blocking select returns", "select_blocking"),
    ("selector: selectNow polls", "select_now"),
    ("selector wakeup() calls", "selector_wakeup"),
    ("futex waits", "futex_wait"),
    ("futex wakes", "futex_wake"),
    ("doorbell rings that woke a sleeper", "doorbell_ring_wake"),
    ("doorbell rings, nobody asleep", "doorbell_ring_quiet"),
    ("hand-offs to a rail thread", "handoff"),
    ("node-step ops in the engine", "node_step_op"),
    ("engine sleeps", "engine_sleep"),
    ("engine yields", "engine_yield"),
    ("shared-memory frames sent", "shm_frame_sent"),
    ("shared-memory frames received", "shm_frame_received"),
    ("voluntary context switches", "ctxt_voluntary"),
    ("involuntary context switches", "ctxt_involuntary"),
]


def parse(path):
    ranks = {}
    phases = {}
    alg = load = None
    for line in open(path, errors="replace"):
        m = re.search(r"BREAKDOWN rank=(\d+) alg=(\S+) calls=\d+ per_call:(.*)", line)
        if m:
            alg = m.group(2)
            counts = {}
            for k, v in re.findall(r" (\w+)=([\d.]+)", m.group(3)):
                base = re.sub(r"_r\d+$", "", k)
                counts[base] = counts.get(base, 0.0) + float(v)
            ranks[int(m.group(1))] = counts
        m = re.search(r"PHASES rank=(\d+) .*total_us=([\d.]+) gather_us=([\d.]+) exchange_us=([\d.]+) broadcast_us=([\d.]+)", line)
        if m:
            phases[int(m.group(1))] = tuple(float(x) for x in m.group(2, 3, 4, 5))
        m = re.search(r"LOAD (\S+ \S+ \S+)", line)
        if m:
            load = m.group(1)
    return alg, ranks, phases, load


def main():
    for path in sys.argv[1:]:
        alg, ranks, phases, load = parse(path)
        masters = [r for r, c in ranks.items() if c.get("rail_data_sent", 0) > 0]
        others = [r for r in ranks if r not in masters]
        print(f"## {path}: {alg}, {len(ranks)} ranks, load {load}")
        print("| per call | ranks with rail data (mean) | other ranks (mean) |")
        print("|---|---|---|")
        for label, key in KEYS:
            a = statistics.mean(ranks[r].get(key, 0.0) for r in masters) if masters else 0.0
            b = statistics.mean(ranks[r].get(key, 0.0) for r in others) if others else 0.0
            print(f"| {label} | {a:.2f} | {b:.2f} |")
        if phases:
            ms = [phases[r] for r in masters if r in phases] or list(phases.values())
            med = [statistics.median(p[i] for p in ms) for i in range(4)]
            print(f"phases (median over ranks with rail data of per-rank medians), us: total {med[0]:.1f}, node gather"
                  f" {med[1]:.1f}, inter-node exchange {med[2]:.1f}, node broadcast {med[3]:.1f}")
        print()


if __name__ == "__main__":
    main()
