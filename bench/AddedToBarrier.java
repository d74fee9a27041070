import io.railcoll.Communicator;
import io.railcoll.Railcoll;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 * the bench's passes do; before them, untimed passes of the same code for {@code warmup-ms}, so the loops are
 * compiled. Buffers and calls are the bench's: root 0, gather's receive buffer on the root only, all-reduce sums
 * doubles.
 *
 * <pre>
 *   AddedToBarrier COLLECTIVE SIZES [SAMPLES [ITERATIONS [WARMUP_MS]]]   e.g. AddedToBarrier broadcast 1,1024 5 1000 2000
 * </pre>
 * COLLECTIVE is broadcast, gather, allgather or allreduce; SIZES are bytes per rank (all-reduce: multiples of 8).
 * Rank 0 prints one line per size: {@code added <collective> <size> osu_us=.. added_us=.. added_min_us=..
 * added_max_us=.. added_samples_ns=..}.
 */
public final class AddedToBarrier {
    private static final int UNTIMED_CALLS = 200;
    private static final int ROUNDS = 4;

    /** The collectives measured; a switch on it is what the bench's call is. */
    private enum Kind { BROADCAST, GATHER, ALLGATHER, ALLREDUCE }

    private final Communicator comm;
    private final Kind collective;
    private final int iterations;
    private final MemorySegment mine = Arena.global().allocate(2 * Long.BYTES, Long.BYTES);
    private final MemorySegment all;
    private MemorySegment send;
    private MemorySegment recv;

    private AddedToBarrier(Communicator comm, Kind collective, int iterations) {
        this.comm = comm;
        this.collective = collective;
        this.iterations = iterations;
        all = Arena.global().allocate(2L * Long.BYTES * comm.size(), Long.BYTES);
    }

    public static void main(String[] args) {
        if (args.length < 2 || args.length > 5) {
            throw new IllegalArgumentException("usage: AddedToBarrier COLLECTIVE SIZES [SAMPLES [ITERATIONS [WARMUP_MS]]]"
                    + ", got " + args.length + " arguments: " + Arrays.toString(args));
        }
        Kind collective = Arrays.stream(Kind.values()).filter(k -> k.name().equalsIgnoreCase(args[0])).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("collective '" + args[0] + "' is not one of broadcast,"
                        + " gather, allgather, allreduce (a barrier added to a loop of barriers is that loop again)"));
        long[] sizes = Arrays.stream(args[1].split(",")).mapToLong(Long::parseLong).toArray();
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
            new AddedToBarrier(comm, collective, iterations).run(sizes, samples, warmupNs);
        }
    }

    private void run(long[] sizes, int samples, long warmupNs) {
        long largest = Arrays.stream(sizes).max().orElseThrow();
        MemorySegment sendAll = Arena.global().allocate(largest, 64);
        MemorySegment recvAll = Arena.global().allocate(largest * comm.size(), 64);
        long[][] osuNs = new long[sizes.length][samples];
        long[][] addedNs = new long[sizes.length][samples];
        // Warm-up: the very passes that sample, untimed, until rank 0 has spent warmupNs (every rank must make the
        // same calls, so rank 0's decision is broadcast after each pass).
        MemorySegment more = Arena.global().allocate(1);
        long start = System.nanoTime();
        do {
            for (long size : sizes) {
                use(sendAll, recvAll, size);
                samplePoint();
            }
            more.set(ValueLayout.JAVA_BYTE, 0, (byte) (System.nanoTime() - start < warmupNs ? 1 : 0));
            comm.broadcast(more, 0);
        } while (more.get(ValueLayout.JAVA_BYTE, 0) == 1);
        for (int pass = 0; pass < samples; pass++) {
            for (int z = 0; z < sizes.length; z++) {
                use(sendAll, recvAll, sizes[z]);
                long[] figures = samplePoint();
                osuNs[z][pass] = figures[0];
                addedNs[z][pass] = figures[1];
            }
        }
        if (comm.rank() == 0) {
            for (int z = 0; z < sizes.length; z++) {
                long[] added = addedNs[z].clone();
                Arrays.sort(added);
                System.out.printf(Locale.ROOT, "added %s %d osu_us=%.3f added_us=%.3f added_min_us=%.3f added_max_us=%.3f"
                                + " added_samples_ns=%s iterations=%d ranks=%d%n", collective.name().toLowerCase(Locale.ROOT), sizes[z],
                        median(osuNs[z]) / 1e3, median(addedNs[z]) / 1e3, added[0] / 1e3, added[added.length - 1] / 1e3,
                        Arrays.toString(addedNs[z]).replace(" ", ""), iterations, comm.size());
            }
        }
    }

    /** The bench's buffers for one size: a block per rank to send, the whole result to receive. */
    private void use(MemorySegment sendAll, MemorySegment recvAll, long size) {
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

    /** The lower middle for an even count, as the bench's medians. */
    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(sorted.length - 1) / 2];
    }
}
