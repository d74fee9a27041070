package io.railcoll.bench;

import io.railcoll.Communicator;
import io.railcoll.bench.rails.InterfaceCounters;
import io.railcoll.bench.rails.RailLedger;
import io.railcoll.launcher.RankApp;
import io.railcoll.schedule.Collective;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The in-rank side of {@code railcoll bench}: times one collective for every (algorithm, size), the way the OSU
 * micro-benchmarks do. A sample is {@code iterations} calls, each timed alone with an untimed barrier before it;
 * each rank averages its own calls, and the sample's latency is the maximum of those averages over ranks. Rank 0 appends one line per
 * sample to the raw file: {@code algorithm,size_bytes,sample_us} ({@code auto:<id>} when selection picked it).
 * With {@code check=true} every result of the warm-up calls is verified byte for byte first. A point an algorithm
 * refuses ({@link SweepPoints}: e.g. a size too large for its slots in the node buffer) is skipped everywhere, by
 * every rank alike, and has no line in the raw file; an algorithm that refuses every size is a bad option.
 *
 * <p>Arguments (key=value): collective, algorithms (ids, all, auto), sizes, warmup, iterations, samples,
 * root, check, out, budget-ms (target time per sample, caps iterations for large messages), jit-warmup-ms (time
 * spent running every algorithm before anything is timed), rail-interfaces (the rail interfaces whose kernel counters
 * the first rank of each node reads around every sample, in its node's namespace; none by default) and rail-out (their
 * {@link RailLedger} lines go to this path with {@code .n<node>} appended, one file per node) and auto-samples-ms (with
 * more than 0: after the passes, more samples of widely spread points within that time, {@link SampleSeries}),
 * added-below (sizes below this also measure what one call adds to a loop of barriers, decision 0232: after the
 * sample's timed calls, {@code iterations} barrier + call pairs and as many barriers alone, in rounds of alternating
 * order; 0, the default, for none) and added-out (rank 0's lines of that figure, {@code algorithm,size_bytes,added_us},
 * one per sample, beside the raw file's).
 */
public final class BenchApp implements RankApp {
    /** The settling passes' time budget: at least one pass, more while the compilers are busy (up to 40x this). */
    private static final long SETTLE_NS = 250_000_000L;
    /** Rounds of the loops behind the figure added to a barrier loop; their order alternates round by round. */
    static final int ADDED_ROUNDS = 4;

    @Override
    public void run(Communicator comm, List<String> args) throws IOException {
        Options o = Options.parse(args);
        int n = comm.size();
        int rank = comm.rank();
        Raw raw = rank == 0 ? new Raw(new PrintWriter(Files.newBufferedWriter(o.out)),
                new PrintWriter(Files.newBufferedWriter(o.addedOut))) : null;
        PrintWriter counters = null;
        SampleFigures figures = new SampleFigures(n);
        try (Arena arena = Arena.ofShared()) {
            long maxSize = Arrays.stream(o.sizes).max().orElse(0);
            MemorySegment send = arena.allocate(Math.max(1, o.collective.sendBytes(maxSize, n)), 64);
            MemorySegment recv = arena.allocate(Math.max(1, Math.max(maxSize, maxSize * n)), 64);
            SweepPoints points = SweepPoints.of(o.collective, comm.placement(), comm.rails(), o.root, o.algorithms,
                    o.sizes, System.getenv());
            List<String> algs = points.algorithms();
            warmUpJit(comm, o, points, send, recv, figures);
            int[][] iterations = new int[algs.size()][o.sizes.length];
            SampleSeries[][] samplesSoFar = new SampleSeries[algs.size()][o.sizes.length];
            for (SampleSeries[] row : samplesSoFar) {
                java.util.Arrays.setAll(row, i -> new SampleSeries());
            }
            // Rail accounting: the first rank of each node reads its node's rail counters around every point.
            boolean leader = comm.placement().localRankOf(rank) == 0;
            counters = !o.railInterfaces.isEmpty() && leader
                    ? new PrintWriter(Files.newBufferedWriter(o.railOut.resolveSibling(o.railOut.getFileName() + ".n"
                    + comm.placement().nodeOf(rank)))) : null;
            // Each point's preparation, once: the check, untimed calls, and how many calls a sample makes.
            for (int a = 0; a < algs.size(); a++) {
                select(comm, o, algs.get(a));
                for (int z = 0; z < o.sizes.length; z++) {
                    if (!points.runs(a, z)) {
                        continue;
                    }
                    MemorySegment s = sendOf(o, send, o.sizes[z], n);
                    MemorySegment r = recvOf(o, recv, o.sizes[z], n, rank);
                    if (o.check) {
                        check(comm, o, o.sizes[z], s, r);
                    }
                    warmUp(comm, o, s, r);
                    iterations[a][z] = iterationsFor(comm, o, s, r);
                }
            }
            settle(comm, o, points, send, recv, iterations, figures);
            // Samples are taken in passes over every (algorithm, size), not one point after another: what slows a
            // stretch of the run (the JIT compiling on a busy machine, another job) then spreads over every point
            // instead of landing on whichever came first.
            for (int pass = 0; pass < o.samples; pass++) {
                pass(comm, o, points, send, recv, iterations, samplesSoFar, raw, counters, figures);
            }
            if (o.autoSamplesNs > 0) {
                sampleUntilSteady(comm, o, points, send, recv, iterations, samplesSoFar, raw, counters, figures);
            }
        } finally {
            comm.clearForcedAlgorithm(o.collective);
            if (raw != null) {
                raw.osu().close();
                raw.added().close();
            }
            if (counters != null) {
                counters.close();
            }
        }
    }

    /**
     * Runs one sample; with rail accounting on ({@code counters} is this node leader's file, or null on other ranks
     * while accounting is on), barriers bracket it so that every rank has finished the calls before its node's rail
     * counters are read again, and the leader writes one {@link RailLedger} line per rail interface.
     */
    private static void accounted(Communicator comm, Options o, String label, long size, int iterations,
                                  PrintWriter counters, Runnable sample) {
        if (o.railInterfaces.isEmpty()) {
            sample.run();
            return;
        }
        comm.barrier();
        List<InterfaceCounters.Reading> before = counters == null ? null : InterfaceCounters.read(o.railInterfaces);
        long t0 = System.nanoTime();
        sample.run();
        comm.barrier();
        long elapsed = System.nanoTime() - t0;
        if (counters != null) {
            List<InterfaceCounters.Reading> after = InterfaceCounters.read(o.railInterfaces);
            long calls = iterations + Math.min(o.warmup, iterations) + (measuresAdded(o, size) ? iterations : 0);
            for (int i = 0; i < after.size(); i++) {
                counters.println(RailLedger.line(label, size, comm.rank(), calls, elapsed, after.get(i).iface(),
                        after.get(i).rxBytes() - before.get(i).rxBytes(), after.get(i).txBytes() - before.get(i).txBytes()));
            }
            counters.flush();
        }
    }

    /** Rank 0's two files: the OSU figure's samples and those of the figure added to a barrier loop. */
    private record Raw(PrintWriter osu, PrintWriter added) {
        /** One sample of one point, in each file that has a figure for it. */
        void record(String label, long size, SampleFigures figures) {
            osu.printf(java.util.Locale.ROOT, "%s,%d,%.3f%n", label, size, figures.osuNs() / 1000.0);
            osu.flush();
            if (figures.added()) {
                added.printf(java.util.Locale.ROOT, "%s,%d,%.3f%n", label, size, figures.addedNs() / 1000.0);
                added.flush();
            }
        }
    }

    /** Whether a sample of {@code size} also measures what a call adds to a loop of barriers (decision 0232). */
    private static boolean measuresAdded(Options o, long size) {
        return o.collective != Collective.BARRIER && size < o.addedBelowBytes;
    }

    /**
     * {@code --samples auto}: after the passes, more passes over the points whose samples spread more than
     * {@link SampleSeries#SPREAD_LIMIT}x and whose median is not yet steady ({@link SampleSeries#needsMore}), until
     * none is left or the time budget is spent. Rank 0 decides and broadcasts one flag per point before each pass, so
     * every rank makes the same calls; it prints one line saying how it ended.
     */
    private static void sampleUntilSteady(Communicator comm, Options o, SweepPoints points, MemorySegment send,
                                          MemorySegment recv, int[][] iterations, SampleSeries[][] samplesSoFar,
                                          Raw raw, PrintWriter counters, SampleFigures figures) {
        int n = comm.size();
        List<String> algs = points.algorithms();
        int pointCount = algs.size() * o.sizes.length;
        MemorySegment flags = MemorySegment.ofArray(new byte[pointCount]);
        long start = System.nanoTime();
        int extraPasses = 0;
        while (true) {
            int wanted = 0;
            if (comm.rank() == 0) {
                boolean time = System.nanoTime() - start < o.autoSamplesNs;
                for (int a = 0; a < algs.size(); a++) {
                    for (int z = 0; z < o.sizes.length; z++) {
                        boolean more = time && points.runs(a, z) && samplesSoFar[a][z].needsMore();
                        flags.set(ValueLayout.JAVA_BYTE, a * o.sizes.length + z, (byte) (more ? 1 : 0));
                        wanted += more ? 1 : 0;
                    }
                }
            }
            comm.broadcast(flags, 0);
            boolean any = false;
            for (int i = 0; i < pointCount; i++) {
                any |= flags.get(ValueLayout.JAVA_BYTE, i) != 0;
            }
            if (!any) {
                break;
            }
            extraPasses++;
            for (int a = 0; a < algs.size(); a++) {
                String alg = algs.get(a);
                boolean auto = alg.equals("auto");
                select(comm, o, alg);
                for (int z = 0; z < o.sizes.length; z++) {
                    if (flags.get(ValueLayout.JAVA_BYTE, a * o.sizes.length + z) == 0) {
                        continue;
                    }
                    long size = o.sizes[z];
                    String label = auto ? "auto:" + comm.selectedAlgorithm(o.collective, size, o.root) : alg;
                    MemorySegment s = sendOf(o, send, size, n);
                    MemorySegment r = recvOf(o, recv, size, n, comm.rank());
                    int calls = iterations[a][z];
                    accounted(comm, o, label, size, calls, counters,
                            () -> samplePoint(comm, o, size, s, r, calls, figures));
                    if (comm.rank() == 0) {
                        samplesSoFar[a][z].add(figures.osuNs());
                        raw.record(label, size, figures);
                    }
                }
            }
        }
        if (comm.rank() == 0) {
            int unsteady = 0;
            for (int a = 0; a < algs.size(); a++) {
                for (int z = 0; z < o.sizes.length; z++) {
                    unsteady += points.runs(a, z) && samplesSoFar[a][z].needsMore() ? 1 : 0;
                }
            }
            System.out.printf(java.util.Locale.ROOT, "AUTO SAMPLES: %d extra passes in %.1f s; %d points still spread more than"
                    + " %.0fx with an unsteady median%s%n", extraPasses, (System.nanoTime() - start) / 1e9, unsteady,
                    SampleSeries.SPREAD_LIMIT, unsteady > 0 ? " (time budget spent)" : "");
        }
    }

    private static void select(Communicator comm, Options o, String alg) {
        if (alg.equals("auto")) {
            comm.clearForcedAlgorithm(o.collective);
        } else {
            comm.forceAlgorithm(alg);
        }
    }

    private static MemorySegment sendOf(Options o, MemorySegment send, long size, int n) {
        return send.asSlice(0, o.collective.sendBytes(size, n));
    }

    private static MemorySegment recvOf(Options o, MemorySegment recv, long size, int n, int rank) {
        return recv.asSlice(0, o.collective == Collective.BROADCAST ? size : o.collective.recvBytes(size, n, rank, o.root));
    }

    /**
     * Untimed passes exactly like the timed ones (every point, its own number of calls per sample), until the
     * compilers are quiet in every rank ({@link JitWarmup}, at least one pass). The warm-up's rounds make 4-32 calls
     * per point; a sample makes up to {@code iterations}, and its loop is compiled anew (on-stack replacement, the
     * collective inlined into it) during the first samples: on this host the first two passes of a 1x2 8-byte
     * all-reduce measured 14-48 us per call, the next ones 0.7-1.1 us, after a warm-up that had reached quiet compilers.
     */
    private static void settle(Communicator comm, Options o, SweepPoints points, MemorySegment send, MemorySegment recv,
                               int[][] iterations, SampleFigures figures) {
        if (o.jitWarmupNs <= 0) {
            return;
        }
        JitWarmup.run(comm, "Settling passes", SETTLE_NS, () -> pass(comm, o, points, send, recv, iterations, null, null,
                null, figures));
    }

    /**
     * One pass over every point an algorithm runs (the refused ones skipped alike on every rank), each sampled as {@code iterations} says; recorded into {@code samplesSoFar} and
     * {@code raw} (rank 0) unless those are null (a settling pass). Returns the calls it made. Settling and timed
     * passes run this one method, so the code the samples run is the code the settling passes compiled.
     */
    private static long pass(Communicator comm, Options o, SweepPoints points, MemorySegment send, MemorySegment recv,
                             int[][] iterations, SampleSeries[][] samplesSoFar, Raw raw, PrintWriter counters,
                             SampleFigures figures) {
        int n = comm.size();
        int rank = comm.rank();
        List<String> algs = points.algorithms();
        long made = 0;
        for (int a = 0; a < algs.size(); a++) {
            String alg = algs.get(a);
            boolean auto = alg.equals("auto");
            select(comm, o, alg);
            for (int z = 0; z < o.sizes.length; z++) {
                if (!points.runs(a, z)) {
                    continue;
                }
                long size = o.sizes[z];
                MemorySegment s = sendOf(o, send, size, n);
                MemorySegment r = recvOf(o, recv, size, n, rank);
                int calls = iterations[a][z];
                made += calls;
                if (samplesSoFar == null) {
                    samplePoint(comm, o, size, s, r, calls, figures);
                    continue;
                }
                String label = auto ? "auto:" + comm.selectedAlgorithm(o.collective, size, o.root) : alg;
                accounted(comm, o, label, size, calls, counters, () -> samplePoint(comm, o, size, s, r, calls, figures));
                if (rank == 0) {
                    samplesSoFar[a][z].add(figures.osuNs());
                    raw.record(label, size, figures);
                    System.out.println("PROGRESS " + label + " " + size);
                }
            }
        }
        return made;
    }

    /**
     * Before anything is timed, {@link JitWarmup} with rounds over every algorithm of the sweep, for about
     * {@code jitWarmupNs}: each algorithm at the warm-up's sizes for the span of sweep sizes it runs, less any it
     * refuses (a size cap leaves none out; a restriction of another form may).
     */
    private static void warmUpJit(Communicator comm, Options o, SweepPoints points, MemorySegment send,
                                  MemorySegment recv, SampleFigures figures) {
        int n = comm.size();
        List<String> algs = points.algorithms();
        long[][] sizes = new long[algs.size()][];
        for (int a = 0; a < algs.size(); a++) {
            long[] run = points.sizesRun(a);
            int alg = a;
            sizes[a] = Arrays.stream(JitWarmup.sizes(Arrays.stream(run).min().orElse(0), Arrays.stream(run).max().orElse(0)))
                    .map(size -> points.runsAt(alg, size) ? size : -1).toArray();
        }
        JitWarmup.run(comm, o.jitWarmupNs, () -> {
            long calls = 0;
            for (int a = 0; a < algs.size(); a++) {
                select(comm, o, algs.get(a));
                for (int i = 0; i < sizes[a].length; i++) {
                    long size = sizes[a][i];
                    if (size < 0) {
                        continue; // refused: the index still says how many calls the others make
                    }
                    MemorySegment s = sendOf(o, send, size, n);
                    MemorySegment r = recvOf(o, recv, size, n, comm.rank());
                    // Through the very code that samples (a barrier before each timed call, then the gather of
                    // the times): it must be compiled too, and see every collective a sample makes, not only the
                    // one measured, or the first samples run part-interpreted or deoptimized. Warmed with its own
                    // loop, the first 6000 timed calls of a 1-byte node all-gather with 4 ranks measured 10-140 us,
                    // the steady state 5.5 us.
                    samplePoint(comm, o, size, s, r, JitWarmup.callsAt(i), figures);
                    // And pass 0's sizing, with its 8-byte broadcast: left out, that broadcast's first call in pass 0
                    // deoptimized the broadcast path the control flags share, and C2 recompiled it inside samples.
                    iterationsFor(comm, o, s, r);
                    calls += JitWarmup.callsAt(i) + 4;
                }
            }
            return calls;
        });
    }

    /**
     * One sample and its gather to rank 0, into {@code figures}: there, the slowest rank's mean time per call and,
     * below added-below, what a call adds to a loop of barriers; elsewhere 0.
     */
    private static void samplePoint(Communicator comm, Options o, long size, MemorySegment s, MemorySegment r,
                                    int iterations, SampleFigures figures) {
        boolean added = measuresAdded(o, size);
        long osuTotal = sample(comm, o, s, r, iterations);
        long pairs = 0;
        long barriers = 0;
        if (added) {
            // Rounds of alternating order (pairs first, then barriers first), as peer_bench does, so that both loops
            // see the same load on a shared machine; every rank splits the calls alike.
            for (int round = 0; round < ADDED_ROUNDS; round++) {
                int calls = roundCalls(iterations, round);
                if (calls == 0) {
                    continue;
                }
                if (round % 2 == 0) {
                    pairs += timePairs(comm, o, s, r, calls);
                    barriers += timeBarriers(comm, calls);
                } else {
                    barriers += timeBarriers(comm, calls);
                    pairs += timePairs(comm, o, s, r, calls);
                }
            }
        }
        figures.record(osuTotal, pairs, barriers);
        figures.gather(comm, iterations, added);
    }

    /** The calls of round {@code round} of {@link #ADDED_ROUNDS}: {@code iterations} split as evenly as they go. */
    static int roundCalls(int iterations, int round) {
        return (int) ((long) iterations * (round + 1) / ADDED_ROUNDS - (long) iterations * round / ADDED_ROUNDS);
    }

    /** This rank's ns for {@code calls} x (barrier + call), after an untimed barrier. */
    private static long timePairs(Communicator comm, Options o, MemorySegment s, MemorySegment r, int calls) {
        comm.barrier();
        long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            comm.barrier();
            call(comm, o.collective, s, r, o.root);
        }
        return System.nanoTime() - t0;
    }

    /** This rank's ns for {@code calls} barriers (the barrier that separates the OSU figure's calls), after an untimed one. */
    private static long timeBarriers(Communicator comm, int calls) {
        comm.barrier();
        long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            comm.barrier();
        }
        return System.nanoTime() - t0;
    }

    /**
     * One sample, OSU style as peer_bench does: each call timed alone, a barrier between calls untimed; this rank's
     * total ns over the timed calls.
     */
    private static long sample(Communicator comm, Options o, MemorySegment s, MemorySegment r, int iterations) {
        // Untimed calls first, as peer_bench does before every sample: between samples the ranks gather times and
        // print, so they enter a sample out of step and some asleep; the first calls would time that, not the call.
        for (int i = Math.min(o.warmup, iterations); i > 0; i--) {
            comm.barrier();
            call(comm, o.collective, s, r, o.root);
        }
        long total = 0;
        for (int i = 0; i < iterations; i++) {
            comm.barrier();
            long t0 = System.nanoTime();
            call(comm, o.collective, s, r, o.root);
            total += System.nanoTime() - t0;
        }
        return total;
    }

    /**
     * Warm-up calls, at most {@code warmup} of them and about one sample's time budget: enough for the JIT at small
     * sizes (OSU uses 200 calls), few at large ones. Ranks must make the same number of calls, so they go in rounds
     * of eight and rank 0 decides after each round whether another one fits.
     */
    private static void warmUp(Communicator comm, Options o, MemorySegment s, MemorySegment r) {
        MemorySegment more = MemorySegment.ofArray(new byte[1]);
        long start = System.nanoTime();
        for (int done = 0; done < o.warmup; done += 8) {
            for (int i = 0; i < 8; i++) {
                call(comm, o.collective, s, r, o.root);
            }
            more.set(ValueLayout.JAVA_BYTE, 0, (byte) (System.nanoTime() - start < o.budgetNs ? 1 : 0));
            comm.broadcast(more, 0);
            if (more.get(ValueLayout.JAVA_BYTE, 0) == 0) {
                return;
            }
        }
    }

    /**
     * Iterations per sample: as many as fit the time budget, from the fastest of three warm calls on rank 0 (every
     * rank must run the same number of calls, so rank 0's estimate is broadcast).
     */
    private static int iterationsFor(Communicator comm, Options o, MemorySegment s, MemorySegment r) {
        long one = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            comm.barrier();
            long t0 = System.nanoTime();
            call(comm, o.collective, s, r, o.root);
            one = Math.min(one, Math.max(1, System.nanoTime() - t0));
        }
        MemorySegment est = MemorySegment.ofArray(new byte[Long.BYTES]);
        est.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, one);
        comm.broadcast(est, 0);
        long agreed = est.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        long fit = o.budgetNs / Math.max(1, agreed);
        return (int) Math.max(1, Math.min(o.iterations, fit));
    }

    private static void check(Communicator comm, Options o, long size, MemorySegment s, MemorySegment r) {
        int seed = (int) (size * 31 + 7);
        Patterns.fillSend(o.collective, seed, comm.rank(), comm.size(), size, o.collective == Collective.BROADCAST ? r : s);
        call(comm, o.collective, s, r, o.root);
        String bad = Patterns.verify(o.collective, seed, comm.rank(), comm.size(), size, o.root, r);
        if (bad != null) {
            throw new AssertionError("rank " + comm.rank() + ": --check failed for " + o.collective.id() + " at "
                    + size + " bytes: " + bad);
        }
    }

    private static long elements(long bytes) {
        return bytes / TimedReduction.TYPE.sizeBytes();
    }

    static void call(Communicator comm, Collective c, MemorySegment s, MemorySegment r, int root) {
        switch (c) {
            case BARRIER -> comm.barrier();
            case BROADCAST -> comm.broadcast(r, root);
            case GATHER -> comm.gather(s, comm.rank() == root ? r : null, root);
            case ALLGATHER -> comm.allgather(s, r);
            case ALLTOALL -> comm.alltoall(s, r);
            case ALLREDUCE -> comm.allreduce(s, r, TimedReduction.TYPE, elements(s.byteSize()), TimedReduction.OPERATOR);
            case SCATTER -> comm.scatter(s, r, root);
            case REDUCE -> comm.reduce(s, comm.rank() == root ? r : null, TimedReduction.TYPE, elements(s.byteSize()),
                    TimedReduction.OPERATOR, root);
            case REDUCE_SCATTER -> comm.reduceScatterBlock(s, r, TimedReduction.TYPE, elements(r.byteSize()),
                    TimedReduction.OPERATOR);
            case SCAN -> comm.scan(s, r, TimedReduction.TYPE, elements(s.byteSize()), TimedReduction.OPERATOR);
            case EXSCAN -> comm.exscan(s, r, TimedReduction.TYPE, elements(s.byteSize()), TimedReduction.OPERATOR);
            // The v-variants with every count the block size: the buffers of their uniform collective, and one
            // count array allocated per call (N longs), as a program that builds its counts each time would.
            case GATHERV -> comm.gatherv(s, comm.rank() == root ? r : null, same(comm, s.byteSize()), null, root);
            case SCATTERV -> comm.scatterv(comm.rank() == root ? s : null, same(comm, r.byteSize()), null, r, root);
            case ALLGATHERV -> comm.allgatherv(s, r, same(comm, s.byteSize()), null);
            case ALLTOALLV -> {
                long[] counts = same(comm, s.byteSize() / comm.size());
                comm.alltoallv(s, counts, null, r, counts, null);
            }
            case REDUCE_SCATTERV -> comm.reduceScatter(s, r, TimedReduction.TYPE, same(comm, elements(r.byteSize())),
                    TimedReduction.OPERATOR);
        }
    }

    /** One count per rank, all {@code count}. */
    private static long[] same(Communicator comm, long count) {
        long[] counts = new long[comm.size()];
        java.util.Arrays.fill(counts, count);
        return counts;
    }

    private record Options(Collective collective, List<String> algorithms, long[] sizes, int warmup, int iterations,
                           int samples, int root, boolean check, Path out, long budgetNs, long jitWarmupNs,
                           List<String> railInterfaces, Path railOut, long autoSamplesNs, long addedBelowBytes,
                           Path addedOut) {
        static Options parse(List<String> args) {
            Collective collective = Collective.ALLGATHER;
            List<String> algorithms = List.of("all");
            long[] sizes = {1, 1024, 1 << 20};
            int warmup = 5;
            int iterations = 50;
            int samples = 5;
            int root = 0;
            boolean check = false;
            Path out = Path.of("bench-raw.csv");
            long budgetNs = 200_000_000L;
            long jitWarmupNs = 3_000_000_000L;
            List<String> railInterfaces = List.of();
            Path railOut = Path.of("rail-counters.csv");
            long autoSamplesNs = 0;
            long addedBelowBytes = 0;
            Path addedOut = null;
            for (String a : args) {
                int eq = a.indexOf('=');
                if (eq < 0) {
                    throw new IllegalArgumentException("expected key=value, got " + a);
                }
                String k = a.substring(0, eq);
                String v = a.substring(eq + 1);
                switch (k) {
                    case "collective" -> collective = Collective.fromId(v);
                    case "algorithms" -> algorithms = List.of(v.split(","));
                    case "sizes" -> sizes = Arrays.stream(v.split(",")).mapToLong(Long::parseLong).toArray();
                    case "warmup" -> warmup = Integer.parseInt(v);
                    case "iterations" -> iterations = Integer.parseInt(v);
                    case "samples" -> samples = Integer.parseInt(v);
                    case "root" -> root = Integer.parseInt(v);
                    case "check" -> check = Boolean.parseBoolean(v);
                    case "out" -> out = Path.of(v);
                    case "budget-ms" -> budgetNs = Long.parseLong(v) * 1_000_000L;
                    case "jit-warmup-ms" -> jitWarmupNs = Long.parseLong(v) * 1_000_000L;
                    case "rail-interfaces" -> railInterfaces = v.isEmpty() ? List.of() : List.of(v.split(","));
                    case "rail-out" -> railOut = Path.of(v);
                    case "auto-samples-ms" -> autoSamplesNs = Long.parseLong(v) * 1_000_000L;
                    case "added-below" -> addedBelowBytes = Long.parseLong(v);
                    case "added-out" -> addedOut = Path.of(v);
                    default -> throw new IllegalArgumentException("unknown option " + k);
                }
            }
            if (addedBelowBytes < 0) {
                throw new IllegalArgumentException("added-below must be 0 or more bytes, got " + addedBelowBytes);
            }
            if (addedOut == null) {
                addedOut = out.resolveSibling(out.getFileName() + ".added");
            }
            return new Options(collective, algorithms, sizes, warmup, iterations, samples, root, check, out, budgetNs,
                    jitWarmupNs, railInterfaces, railOut, autoSamplesNs, addedBelowBytes, addedOut);
        }
    }
}
