package io.railcoll.bench;

import io.railcoll.Communicator;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.LongSupplier;

/**
 * The warm-up every timing app runs before it times anything: rounds over every algorithm at a small, a medium and
 * (when the sweep goes that far) a large size, until the JIT has compiled what the samples will run. A JVM runs the
 * engine interpreted, then compiled twice, over its first thousands of calls (measured here: 193 us per 1-byte
 * all-gather after 300 calls, 4 us after 3000), and from 64 KiB the calls take paths of their own (single copy,
 * overlapped node steps, striped frames), which otherwise compile during the first samples: a 1 MiB all-gather of 16
 * ranks was timed 15-20% slower over its first 25 samples than after, with the compiler threads taking 14-16% of the
 * processors meanwhile.
 */
public final class JitWarmup {
    /** Collective calls after which the engine runs compiled. */
    public static final long CALLS = 6000;
    /** The large size of a round, and its calls (few: each takes milliseconds on the testbed). */
    public static final long LARGE_BYTES = 65536;
    private static final int LARGE_CALLS = 4;
    private static final int SMALL_CALLS = 32;
    private static final long MEDIUM_BYTES = 4096;
    /** A warm-up lasts at most this many times its time budget while it has not made {@link #CALLS} calls. */
    private static final long CAP_FACTOR = 5;

    private JitWarmup() {
    }

    /** The block sizes of a round for a sweep from {@code smallest} to {@code largest} bytes. */
    public static long[] sizes(long smallest, long largest) {
        return largest >= LARGE_BYTES
                ? new long[] {Math.min(1, smallest), MEDIUM_BYTES, LARGE_BYTES}
                : new long[] {Math.min(1, smallest), Math.min(MEDIUM_BYTES, largest)};
    }

    /** Calls per round at {@code sizes(...)[index]}. */
    public static int callsAt(int index) {
        return index < 2 ? SMALL_CALLS : LARGE_CALLS;
    }

    /**
     * Runs {@code round} (which returns the calls it made) again and again until {@code budgetNs} have passed and, within
     * {@link #CAP_FACTOR} times that, {@link #CALLS} calls were made: on a slow machine the time alone covers too few
     * calls. Rank 0 decides after each round, so every rank makes the same calls.
     */
    public static void run(Communicator comm, long budgetNs, LongSupplier round) {
        if (budgetNs <= 0) {
            return;
        }
        MemorySegment more = MemorySegment.ofArray(new byte[1]);
        long start = System.nanoTime();
        long calls = 0;
        while (true) {
            calls += round.getAsLong();
            long elapsed = System.nanoTime() - start;
            boolean again = elapsed < budgetNs || calls < CALLS && elapsed < CAP_FACTOR * budgetNs;
            more.set(ValueLayout.JAVA_BYTE, 0, (byte) (again ? 1 : 0));
            comm.broadcast(more, 0);
            if (more.get(ValueLayout.JAVA_BYTE, 0) == 0) {
                return;
            }
        }
    }
}
