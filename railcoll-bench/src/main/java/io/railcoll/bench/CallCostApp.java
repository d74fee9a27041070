package io.railcoll.bench;

import io.railcoll.Communicator;
import io.railcoll.bench.apps.AppArgs;
import io.railcoll.launcher.RankApp;
import io.railcoll.schedule.Collective;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What one collective call costs the machine, beside how long it takes: rounds of {@code calls} calls, each timed
 * alone after an untimed barrier as {@link BenchApp} times them, and around each round the whole machine's
 * processor time and context switches ({@link ProcStat}). Rank 0 prints one line per round:
 *
 * <pre>
 * CALLCOST allgather allgather.smp-direct-shm 1048576 round=2 call_us=... period_us=... cpu_ms_per_call=... busy=... ctxt_per_call=...
 * </pre>
 *
 * {@code call_us} is the slowest rank's mean call (the benchmark's statistic), {@code period_us} the wall time per
 * barrier and call, {@code cpu_ms_per_call} the processor time the whole machine spent per period (every rank, the
 * kernel's network stacks, everything else running), {@code busy} the share of the processors that was busy.
 * With every processor busy a call cannot get faster than the work it needs: that is how issue 5's ceiling and
 * issue 3's floors are argued in {@code docs/results/}.
 *
 * <p>Arguments (key=value): collective (default allgather), algorithm (an id, or auto; default auto), size (bytes
 * per rank, default 1), calls per round (default 100), rounds (default 3), warmup (untimed calls first, default
 * 100), root (default 0). Run it with {@code bin/railcoll run ... io.railcoll.bench.CallCostApp key=value...}.
 */
public final class CallCostApp implements RankApp {
    @Override
    public void run(Communicator comm, List<String> args) {
        AppArgs a = AppArgs.parse("CallCostApp", args,
                Set.of("collective", "algorithm", "size", "calls", "rounds", "warmup", "root"));
        Collective collective = Collective.fromId(a.string("collective", Collective.ALLGATHER.id()));
        String algorithm = a.string("algorithm", "auto");
        long size = a.longValue("size", 1, 0);
        int calls = a.intValue("calls", 100, 1);
        int rounds = a.intValue("rounds", 3, 1);
        int warmup = a.intValue("warmup", 100, 0);
        int root = a.intValue("root", 0, 0);
        if (!algorithm.equals("auto")) {
            comm.forceAlgorithm(algorithm);
        }
        int n = comm.size();
        boolean rank0 = comm.rank() == 0;
        String ran = algorithm.equals("auto") ? "auto:" + comm.selectedAlgorithm(collective, size, root) : algorithm;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment send = arena.allocate(Math.max(1, collective.sendBytes(size, n)), 64);
            MemorySegment recv = arena.allocate(Math.max(1, collective == Collective.BROADCAST ? size
                    : collective.recvBytes(size, n, comm.rank(), root)), 64);
            MemorySegment s = send.asSlice(0, collective.sendBytes(size, n));
            MemorySegment r = recv.asSlice(0, collective == Collective.BROADCAST ? size
                    : collective.recvBytes(size, n, comm.rank(), root));
            MemorySegment mean = arena.allocate(Long.BYTES, 8);
            MemorySegment means = arena.allocate((long) Long.BYTES * n, 8);
            // The loops live in a method called many times, so the JIT compiles them as it compiles BenchApp's
            // (a loop in a method entered once runs interpreted until on-stack replacement).
            for (int i = 0; i < warmup; i += 100) {
                timedCalls(comm, collective, s, r, root, Math.min(100, warmup - i));
            }
            for (int round = 1; round <= rounds; round++) {
                comm.barrier();
                ProcStat before = rank0 ? ProcStat.read() : null;
                long start = System.nanoTime();
                long timed = 0;
                for (int i = 0; i < calls; i += 100) {
                    timed += timedCalls(comm, collective, s, r, root, Math.min(100, calls - i));
                }
                comm.barrier();
                long wallNs = System.nanoTime() - start;
                ProcStat spent = rank0 ? ProcStat.read().since(before) : null;
                mean.set(ValueLayout.JAVA_LONG, 0, timed / calls);
                comm.gather(mean, rank0 ? means : null, 0);
                if (rank0) {
                    long slowest = 0;
                    for (int k = 0; k < n; k++) {
                        slowest = Math.max(slowest, means.getAtIndex(ValueLayout.JAVA_LONG, k));
                    }
                    System.out.printf(Locale.ROOT, "CALLCOST %s %s %d round=%d call_us=%.3f period_us=%.3f"
                                    + " cpu_ms_per_call=%.3f busy=%.3f ctxt_per_call=%.1f%n",
                            collective.id(), ran, size, round, slowest / 1e3, wallNs / 1e3 / calls,
                            spent.busyTicks() * (double) ProcStat.TICK_NS / 1e6 / calls, spent.busyShare(),
                            spent.contextSwitches() / (double) calls);
                }
            }
        } finally {
            comm.clearForcedAlgorithm(collective);
        }
    }

    /** {@code calls} calls, each after an untimed barrier; returns their summed time. */
    private static long timedCalls(Communicator comm, Collective collective, MemorySegment s, MemorySegment r, int root,
                                   int calls) {
        long timed = 0;
        for (int i = 0; i < calls; i++) {
            comm.barrier();
            long t0 = System.nanoTime();
            BenchApp.call(comm, collective, s, r, root);
            timed += System.nanoTime() - t0;
        }
        return timed;
    }
}
