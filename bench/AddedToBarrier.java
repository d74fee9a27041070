import io.railcoll.Communicator;
import io.railcoll.Railcoll;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;

/**
 * The bench's two small-message figures, measured by one program that compiles against any railcoll build's public
 * API (the current one and eecb4a6's alike), so that an old build and a new one are measured by the same code
 * (decision 0235; {@code bench/old-against-new.sh} runs it with each build's {@code bin/railcoll run}).
 *
 * <p>A sample is what the bench's is (decision 0232, {@code BenchApp.samplePoint}): untimed barrier + call pairs
 * (min(200, iterations)), then {@code iterations} calls each timed alone after a barrier (the OSU figure), then the
 * same number of barrier + call pairs and of barriers alone, each timed as a loop, in 4 rounds whose order
 * alternates (pairs first in rounds 0 and 2), an untimed barrier before each timed loop. Per rank: the OSU total /
 * iterations, and (pairs - barriers) / iterations; the sample is the largest over ranks of each. A point is the
 * median (the lower middle for an even count) of its samples. Passes go over every size, one sample per size, as
 * the bench's passes do; before them, untimed passes of the same code for {@code warmup-ms} and then until every
 * rank's compilers are quiet (the bench's rule, {@code JitWarmup}), so the samples time compiled loops. Buffers and
 * calls are the bench's: root 0, gather's receive buffer on the root only, all-reduce sums doubles.
 *
 * <pre>
 *   AddedToBarrier COLLECTIVE SIZES [SAMPLES [ITERATIONS [WARMUP_MS]]]
 *   e.g. AddedToBarrier broadcast 1,1024 5 1000 2000   (the defaults: 5 samples, 1000 iterations, 2000 ms)
 * </pre>
 * COLLECTIVE is broadcast, gather, allgather or allreduce; SIZES are bytes per rank (all-reduce: multiples of 8).
 * Rank 0 prints one line per size: {@code added <collective> <size> osu_us=.. added_us=.. added_min_us=..
 * added_max_us=.. added_samples_ns=..}.
 */
public final class AddedToBarrier {
    private static final int UNTIMED_CALLS = 200;
    private static final int ROUNDS = 4;
    /** The bench's JitWarmup: quiet compilers are busy at most 50 per mille of a window of at least 250 ms. */
    private static final long QUIET_PER_MILLE = 50;
    private static final long WINDOW_NS = 250_000_000L;
    /** The warm-up waits for quiet compilers for at most this many times its time. */
    private static final long QUIET_CAP_FACTOR = 40;

    /** The collectives measured; a switch on it is what the bench's call is. */
    private enum Kind { BROADCAST, GATHER, ALLGATHER, ALLREDUCE }

    private final Communicator comm;
    private final Kind collective;
    private final long[] sizes;
    private final int iterations;
    private final MemorySegment sendAll;
    private final MemorySegment recvAll;
    private final MemorySegment mine = Arena.global().allocate(2 * Long.BYTES, Long.BYTES);
    private final MemorySegment all;
    /** The current size's slices of sendAll and recvAll, as the bench's calls take them. */
    private MemorySegment send;
    private MemorySegment recv;

    private AddedToBarrier(Communicator comm, Kind collective, long[] sizes, int iterations) {
        this.comm = comm;
        this.collective = collective;
        this.sizes = sizes;
        this.iterations = iterations;
        long largest = Arrays.stream(sizes).max().orElseThrow();
        sendAll = Arena.global().allocate(largest, 64);
        recvAll = Arena.global().allocate(largest * comm.size(), 64);
        all = Arena.global().allocate(2L * Long.BYTES * comm.size(), Long.BYTES);
    }

    public static void main(String[] args) {
        if (args.length < 2 || args.length > 5) {
            throw new IllegalArgumentException("usage: AddedToBarrier COLLECTIVE SIZES"
                    + " [SAMPLES [ITERATIONS [WARMUP_MS]]], got " + args.length + " arguments: "
                    + Arrays.toString(args));
        }
        Kind collective = Arrays.stream(Kind.values()).filter(k -> k.name().equalsIgnoreCase(args[0])).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("collective '" + args[0] + "' is not one of broadcast,"
                        + " gather, allgather, allreduce (a barrier added to a loop of barriers is that loop again)"));
        long[] sizes;
        try {
            sizes = Arrays.stream(args[1].split(",")).mapToLong(Long::parseLong).toArray();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("SIZES must be bytes separated by commas (e.g. 1,1024), got '" + args[1]
                    + "'", e);
        }
        for (long size : sizes) {
            boolean sums = collective == Kind.ALLREDUCE;
            if (size < 1 || (sums && size % Double.BYTES != 0)) {
                throw new IllegalArgumentException("size " + size + " bytes: sizes must be 1 or more"
                        + (sums ? " and multiples of 8 (all-reduce sums doubles)" : ""));
            }
        }
        int samples = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int iterations = args.length > 3 ? Integer.parseInt(args[3]) : 1000;
        long warmupNs = (args.length > 4 ? Long.parseLong(args[4]) : 2000) * 1_000_000L;
        if (samples < 1 || iterations < ROUNDS || warmupNs < 0) {
            throw new IllegalArgumentException("need 1 sample or more, " + ROUNDS + " iterations or more and a warm-up"
                    + " of 0 ms or more, got " + samples + ", " + iterations + ", " + warmupNs / 1_000_000 + " ms");
        }
        try (Communicator comm = Railcoll.init()) {
            new AddedToBarrier(comm, collective, sizes, iterations).run(samples, warmupNs);
        }
    }

    private void run(int samples, long warmupNs) {
        warmUp(warmupNs);
        long[][] osuNs = new long[sizes.length][samples];
        long[][] addedNs = new long[sizes.length][samples];
        for (int pass = 0; pass < samples; pass++) {
            for (int z = 0; z < sizes.length; z++) {
                use(sizes[z]);
                long[] figures = samplePoint();
                osuNs[z][pass] = figures[0];
                addedNs[z][pass] = figures[1];
            }
        }
        if (comm.rank() == 0) {
            for (int z = 0; z < sizes.length; z++) {
                long[] added = addedNs[z].clone();
                Arrays.sort(added);
                System.out.printf(Locale.ROOT, "added %s %d osu_us=%.3f added_us=%.3f added_min_us=%.3f"
                                + " added_max_us=%.3f added_samples_ns=%s iterations=%d ranks=%d%n",
                        collective.name().toLowerCase(Locale.ROOT), sizes[z], median(osuNs[z]) / 1e3,
                        median(addedNs[z]) / 1e3, added[0] / 1e3, added[added.length - 1] / 1e3,
                        Arrays.toString(addedNs[z]).replace(" ", ""), iterations, comm.size());
            }
        }
    }

    /**
     * The very passes that sample, untimed, for {@code warmupNs} and then until every rank's compilers are quiet, as
     * the bench's JitWarmup does (samples taken beside busy compilers time them too). Rank 0 decides after each pass,
     * so every rank makes the same calls, and says how the warm-up ended.
     */
    private void warmUp(long warmupNs) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        MemorySegment more = Arena.global().allocate(1);
        MemorySegment busy = Arena.global().allocate(Long.BYTES, Long.BYTES);
        MemorySegment busies = Arena.global().allocate((long) Long.BYTES * comm.size(), Long.BYTES);
        long start = System.nanoTime();
        long windowStartNs = start;
        long windowStartMs = compilationMs(jit);
        long busyPerMille = Long.MAX_VALUE; // busy until a first window has passed
        long busiest;
        int passes = 0;
        do {
            for (long size : sizes) {
                use(size);
                samplePoint();
            }
            passes++;
            long now = System.nanoTime();
            if (now - windowStartNs >= WINDOW_NS) {
                long ms = compilationMs(jit);
                busyPerMille = (ms - windowStartMs) * 1_000_000_000L / (now - windowStartNs);
                windowStartNs = now;
                windowStartMs = ms;
            }
            busy.set(ValueLayout.JAVA_LONG, 0, busyPerMille);
            comm.gather(busy, comm.rank() == 0 ? busies : null, 0);
            busiest = 0;
            for (int r = 0; comm.rank() == 0 && r < comm.size(); r++) {
                busiest = Math.max(busiest, busies.getAtIndex(ValueLayout.JAVA_LONG, r));
            }
            long elapsed = now - start;
            boolean again = elapsed < warmupNs || busiest > QUIET_PER_MILLE && elapsed < QUIET_CAP_FACTOR * warmupNs;
            more.set(ValueLayout.JAVA_BYTE, 0, (byte) (again ? 1 : 0));
            comm.broadcast(more, 0);
        } while (more.get(ValueLayout.JAVA_BYTE, 0) == 1);
        if (comm.rank() == 0) {
            System.out.printf(Locale.ROOT, "warm-up: %.1f s, %d passes; compilers busy %d per mille at most"
                            + " over the last window: %s%n", (System.nanoTime() - start) / 1e9, passes, busiest,
                    busiest <= QUIET_PER_MILLE ? "reached quiet compilers" : "STOPPED AT ITS CAP with compilers busy");
        }
    }

    /** The bench's buffers for one size: a block per rank to send, the whole result to receive. */
    private void use(long size) {
        send = sendAll.asSlice(0, size);
        recv = switch (collective) {
            case BROADCAST, ALLREDUCE -> recvAll.asSlice(0, size);
            case GATHER -> comm.rank() == 0 ? recvAll.asSlice(0, size * comm.size()) : null;
            case ALLGATHER -> recvAll.asSlice(0, size * comm.size());
        };
    }

    private void call() {
        switch (collective) {
            case BROADCAST -> comm.broadcast(recv, 0);
            case GATHER -> comm.gather(send, recv, 0);
            case ALLGATHER -> comm.allgather(send, recv);
            case ALLREDUCE -> comm.allreduce(send, recv, ElementType.DOUBLE, send.byteSize() / Double.BYTES,
                    PredefinedOperator.SUM);
        }
    }

    /** One sample on every rank; on rank 0 its OSU figure and its added figure in ns (the largest over ranks). */
    private long[] samplePoint() {
        for (int i = Math.min(UNTIMED_CALLS, iterations); i > 0; i--) {
            comm.barrier();
            call();
        }
        long osu = 0;
        for (int i = 0; i < iterations; i++) {
            comm.barrier();
            long t0 = System.nanoTime();
            call();
            osu += System.nanoTime() - t0;
        }
        long pairs = 0;
        long barriers = 0;
        for (int round = 0; round < ROUNDS; round++) {
            int calls = (int) ((long) iterations * (round + 1) / ROUNDS - (long) iterations * round / ROUNDS);
            if (round % 2 == 0) {
                pairs += timePairs(calls);
                barriers += timeBarriers(calls);
            } else {
                barriers += timeBarriers(calls);
                pairs += timePairs(calls);
            }
        }
        mine.setAtIndex(ValueLayout.JAVA_LONG, 0, osu / iterations);
        mine.setAtIndex(ValueLayout.JAVA_LONG, 1, (pairs - barriers) / iterations);
        comm.gather(mine, comm.rank() == 0 ? all : null, 0);
        long maxOsu = Long.MIN_VALUE;
        long maxAdded = Long.MIN_VALUE;
        for (int r = 0; comm.rank() == 0 && r < comm.size(); r++) {
            maxOsu = Math.max(maxOsu, all.getAtIndex(ValueLayout.JAVA_LONG, 2L * r));
            maxAdded = Math.max(maxAdded, all.getAtIndex(ValueLayout.JAVA_LONG, 2L * r + 1));
        }
        return new long[] {maxOsu, maxAdded};
    }

    private long timePairs(int calls) {
        comm.barrier();
        long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            comm.barrier();
            call();
        }
        return System.nanoTime() - t0;
    }

    private long timeBarriers(int calls) {
        comm.barrier();
        long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            comm.barrier();
        }
        return System.nanoTime() - t0;
    }

    /** Milliseconds this JVM's compilers have spent so far, or 0 where the JVM does not say. */
    private static long compilationMs(CompilationMXBean jit) {
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    /** The lower middle for an even count, as the bench's medians. */
    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(sorted.length - 1) / 2];
    }
}
