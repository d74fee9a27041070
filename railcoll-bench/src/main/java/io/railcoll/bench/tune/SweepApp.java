package io.railcoll.bench.tune;

import io.railcoll.Communicator;
import io.railcoll.bench.JitWarmup;
import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.launcher.RankApp;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Times collectives for the tuning experiments: {@code samples} rounds, and in each round one sample of every size
 * of every collective's every algorithm in turn (and of {@code auto}, whatever selection picks). Interleaving them
 * within a round, rather than sweeping one after the other, spreads the changing load of a shared machine over all
 * of them alike, which is what comparing algorithms (the regret of a choice) and fitting one model to all sizes and
 * collectives need. Rank 0 flushes its file after every round, so a job stopped from outside keeps its complete
 * rounds.
 *
 * <p>A sample is measured the OSU way, as {@code railcoll bench} does: calls timed one by one with an untimed barrier
 * before each, every rank's mean, then the maximum over ranks. Rank 0 appends
 * {@code collective,algorithm,size_bytes,sample_ns} per sample to {@code out}; {@code auto} is written
 * {@code auto:<id>}. Barriers have one size, 0. Rank 0 prints {@code PROGRESS round i of n} after each round. Arguments (key=value): collectives, algorithms, sizes, samples,
 * warmup, budget-ms, out (see {@link TuneArgs}); root 0.
 */
public final class SweepApp implements RankApp {
    /** How long the JIT warm-up runs at least (see {@link JitWarmup}), as {@code railcoll bench} does by default. */
    private static final long JIT_WARMUP_NS = 3_000_000_000L;

    @Override
    public void run(Communicator comm, List<String> args) throws IOException {
        TuneArgs o = TuneArgs.parse(args);
        int n = comm.size();
        PrintWriter out = comm.rank() == 0 ? new PrintWriter(Files.newBufferedWriter(o.out())) : null;
        MemorySegment mine = MemorySegment.ofArray(new byte[Long.BYTES]);
        MemorySegment all = MemorySegment.ofArray(new byte[Long.BYTES * n]);
        try (Arena arena = Arena.ofShared()) {
            long max = Math.max(1, o.maxSize());
            MemorySegment send = arena.allocate(max * n, 64);
            MemorySegment recv = arena.allocate(max * n, 64);
            warmUp(comm, o, send, recv);
            List<Point> points = points(comm, o, send, recv);
            int[] iterations = new int[points.size()];
            for (int i = 0; i < points.size(); i++) {
                Point p = points.get(i);
                choose(comm, p.collective, p.algorithm, p.size);
                for (int w = 0; w < o.warmup(); w++) {
                    call(comm, p.collective, p.send, p.recv);
                }
                iterations[i] = Timing.agreedRepetitions(comm, o.budgetNs(), () -> call(comm, p.collective, p.send, p.recv));
            }
            for (int round = 0; round < o.samples(); round++) {
                for (int i = 0; i < points.size(); i++) {
                    Point p = points.get(i);
                    String label = choose(comm, p.collective, p.algorithm, p.size);
                    long total = 0;
                    for (int k = 0; k < iterations[i]; k++) {
                        comm.barrier();
                        long t0 = System.nanoTime();
                        call(comm, p.collective, p.send, p.recv);
                        total += System.nanoTime() - t0;
                    }
                    mine.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, total / iterations[i]);
                    comm.gather(mine, comm.rank() == 0 ? all : null, 0);
                    if (out != null) {
                        long slowest = 0;
                        for (int k = 0; k < n; k++) {
                            slowest = Math.max(slowest, all.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, k));
                        }
                        out.printf(Locale.ROOT, "%s,%s,%d,%d%n", p.collective.id(), label, p.size, slowest);
                    }
                }
                if (out != null) {
                    out.flush();
                    System.out.println("PROGRESS round " + (round + 1) + " of " + o.samples());
                }
            }
            for (String c : o.collectives()) {
                comm.clearForcedAlgorithm(Collective.fromId(c));
            }
        } finally {
            if (out != null) {
                out.close();
            }
        }
    }

    /**
     * Runs every algorithm of every collective before anything is timed ({@link JitWarmup}): sixteen JVMs compiling the
     * engine on two cores slow the first seconds of a job several-fold, which would fall on whatever is measured first,
     * and the paths of large blocks compile only when large blocks run. Each call is preceded by a barrier, as in a
     * sample.
     */
    private static void warmUp(Communicator comm, TuneArgs o, MemorySegment send, MemorySegment recv) {
        int n = comm.size();
        long[] sizes = JitWarmup.sizes(java.util.Arrays.stream(o.sizes()).min().orElse(0), o.maxSize());
        JitWarmup.run(comm, JIT_WARMUP_NS, () -> {
            long calls = 0;
            for (String name : o.collectives()) {
                Collective c = Collective.fromId(name);
                for (String a : algorithms(comm, c, o.algorithms())) {
                    for (int i = 0; i < sizes.length; i++) {
                        long size = c == Collective.BARRIER ? 0 : sizes[i];
                        choose(comm, c, a, size);
                        MemorySegment s = send.asSlice(0, c.sendBytes(size, n));
                        MemorySegment r = recv.asSlice(0, c.recvBytes(size, n, comm.rank(), 0));
                        for (int k = 0; k < JitWarmup.callsAt(i); k++) {
                            comm.barrier();
                            call(comm, c, s, r);
                        }
                        calls += JitWarmup.callsAt(i);
                    }
                }
                comm.clearForcedAlgorithm(c);
            }
            return calls;
        });
    }

    /** Every (size, collective, algorithm) to time, in the order a round visits them; one barrier point (size 0). */
    private static List<Point> points(Communicator comm, TuneArgs o, MemorySegment send, MemorySegment recv) {
        int n = comm.size();
        List<Point> points = new ArrayList<>();
        boolean barrierDone = false;
        for (long size : o.sizes()) {
            for (String name : o.collectives()) {
                Collective c = Collective.fromId(name);
                if (c == Collective.BARRIER && barrierDone) {
                    continue;
                }
                barrierDone |= c == Collective.BARRIER;
                long b = c == Collective.BARRIER ? 0 : size;
                for (String a : algorithms(comm, c, o.algorithms())) {
                    points.add(new Point(c, a, b, send.asSlice(0, c.sendBytes(b, n)),
                            recv.asSlice(0, c.recvBytes(b, n, comm.rank(), 0))));
                }
            }
        }
        return points;
    }

    /** One (collective, algorithm, size) timed in every round, with its buffers. */
    private record Point(Collective collective, String algorithm, long size, MemorySegment send, MemorySegment recv) {
    }

    /** Forces {@code algorithm} (or clears, for auto) and returns the label its samples get. */
    private static String choose(Communicator comm, Collective c, String algorithm, long size) {
        if (algorithm.equals("auto")) {
            comm.clearForcedAlgorithm(c);
            return "auto:" + comm.selectedAlgorithm(c, size, 0);
        }
        comm.forceAlgorithm(algorithm);
        return algorithm;
    }

    /** The ids of {@code c} that {@code requested} names, expanding {@code all}; ids of other collectives are skipped. */
    private static List<String> algorithms(Communicator comm, Collective c, List<String> requested) {
        List<String> out = new ArrayList<>();
        for (String a : requested) {
            if (a.equals("all")) {
                for (Algorithm alg : AlgorithmCatalog.standard().forCollective(c)) {
                    Shape probe = new Shape(c, comm.placement(), comm.rails(), 1, 0);
                    if (io.railcoll.bench.Candidates.runnable(alg, probe, System.getenv()) && !out.contains(alg.id())) {
                        out.add(alg.id());
                    }
                }
            } else if (a.equals("auto") || a.startsWith(c.id() + ".")) {
                out.add(a);
            }
        }
        return out;
    }

    static void call(Communicator comm, Collective c, MemorySegment s, MemorySegment r) {
        switch (c) {
            case BARRIER -> comm.barrier();
            case BROADCAST -> comm.broadcast(r, 0);
            case GATHER -> comm.gather(s, comm.rank() == 0 ? r : null, 0);
            case ALLGATHER -> comm.allgather(s, r);
            case ALLTOALL -> comm.alltoall(s, r);
            case SCATTER -> comm.scatter(s, r, 0);
            case ALLREDUCE, REDUCE, REDUCE_SCATTER, SCAN, EXSCAN ->
                    throw new IllegalArgumentException("tune does not time reductions yet: " + c.id());
            case GATHERV, SCATTERV, ALLGATHERV, ALLTOALLV, REDUCE_SCATTERV ->
                    throw new IllegalArgumentException("tune does not time the v-variants yet: " + c.id());
        }
    }
}
