package io.railcoll.bench;

import io.railcoll.Communicator;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * The warm-up every timing app runs before it times anything: rounds over every algorithm at a small, a medium and
 * (when the sweep goes that far) a large size, until the JIT has compiled what the samples will run. A JVM runs the
 * engine interpreted, then compiled twice, over its first thousands of calls (measured here: 193 us per 1-byte
 * all-gather after 300 calls, 4 us after 3000), and from 64 KiB the calls take paths of their own (single copy,
 * overlapped node steps, striped frames), which otherwise compile during the first samples: a 1 MiB all-gather of 16
 * ranks was timed 15-20% slower over its first 25 samples than after, with the compiler threads taking 14-16% of the
 * processors meanwhile.
 *
 * <p>Then it goes on until the compilers are quiet in every rank: sixteen JVMs on two processors compile for minutes
 * (in a main job of 2026-11-26 the C1 and C2 threads took 45-60% of the machine over its first 140 s, some 420 C2
 * compilations per rank), and samples taken meanwhile time the compilers as much as the collectives. A round ends the
 * warm-up only when no rank's compilers were busy for more than {@value #QUIET_PER_MILLE} per mille of it, or when
 * {@link #QUIET_CAP_FACTOR} times the budget has passed.
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
    /** The compilers' busiest share of a round, per mille of its time, that still counts as quiet. */
    private static final long QUIET_PER_MILLE = 50;
    /** A warm-up waits for quiet compilers for at most this many times its time budget. */
    private static final long QUIET_CAP_FACTOR = 40;
    /**
     * The shortest stretch over which a rank judges its compilers. The JVM counts compilation time in whole
     * milliseconds, and on 16 processors a round takes a few of them: judged round by round, a compilation that
     * straddled two rounds read as 0 in one and as hundreds of per mille in the other, and the warm-up ended while C2
     * was still recompiling the engine (that recompilation then landed in the samples and tripled some medians).
     */
    static final long WINDOW_NS = 250_000_000L;

    private JitWarmup() {
    }

    /** The block sizes of a round for a sweep from {@code smallest} to {@code largest} bytes. */
    public static long[] sizes(long smallest, long largest) {
        // The sweep's own smallest size, not 1 byte: an all-reduce of doubles from 8 B warmed at 1 B reduced nothing,
        // and its first 8-byte samples ran 13 us where steady ones take 1 (1x2, this host).
        long small = Math.min(smallest, MEDIUM_BYTES);
        return largest >= LARGE_BYTES
                ? new long[] {small, MEDIUM_BYTES, LARGE_BYTES}
                : new long[] {small, Math.min(MEDIUM_BYTES, largest)};
    }

    /** Calls per round at {@code sizes(...)[index]}. */
    public static int callsAt(int index) {
        return index < 2 ? SMALL_CALLS : LARGE_CALLS;
    }

    /**
     * Runs {@code round} (which returns the calls it made) again and again until {@code budgetNs} have passed and, within
     * {@link #CAP_FACTOR} times that, {@link #CALLS} calls were made (on a slow machine the time alone covers too few
     * calls), and then until the compilers are quiet in every rank, within {@link #QUIET_CAP_FACTOR} times the budget.
     * Rank 0 decides after each round, so every rank makes the same calls; it prints how long the warm-up took.
     */
    public static void run(Communicator comm, long budgetNs, LongSupplier round) {
        run(comm, "JIT warm-up", budgetNs, round);
    }

    /** {@link #run(Communicator, long, LongSupplier)}, its closing line starting with {@code label}. */
    public static void run(Communicator comm, String label, long budgetNs, LongSupplier round) {
        if (budgetNs <= 0) {
            return;
        }
        boolean rank0 = comm.rank() == 0;
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        MemorySegment more = MemorySegment.ofArray(new byte[1]);
        MemorySegment busy = MemorySegment.ofArray(new byte[Long.BYTES]);
        MemorySegment busies = rank0 ? MemorySegment.ofArray(new byte[Long.BYTES * comm.size()]) : null;
        long start = System.nanoTime();
        long calls = 0;
        long rounds = 0;
        long busiest;
        CompilerWindow window = new CompilerWindow(start, compilationMs(jit));
        while (true) {
            calls += round.getAsLong();
            rounds++;
            busy.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, window.perMille(System.nanoTime(), compilationMs(jit)));
            comm.gather(busy, busies, 0);
            busiest = 0;
            boolean again = false;
            if (rank0) {
                for (int r = 0; r < comm.size(); r++) {
                    busiest = Math.max(busiest, busies.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, r));
                }
                again = goOn(System.nanoTime() - start, budgetNs, calls, busiest);
            }
            more.set(ValueLayout.JAVA_BYTE, 0, (byte) (again ? 1 : 0));
            comm.broadcast(more, 0);
            if (more.get(ValueLayout.JAVA_BYTE, 0) == 0) {
                break;
            }
        }
        if (rank0) {
            // Say how it ended: a reader must know whether the samples ran beside busy compilers.
            String ending = busiest <= QUIET_PER_MILLE ? "reached quiet compilers"
                    : String.format(java.util.Locale.ROOT, "STOPPED AT ITS CAP (%d x %.1f s) with compilers still busy",
                    QUIET_CAP_FACTOR, budgetNs / 1e9);
            System.out.printf(java.util.Locale.ROOT, "%s: %.1f s, %d rounds, %d calls; compilers busy %d per mille"
                    + " of the last round at most: %s%n", label, (System.nanoTime() - start) / 1e9, rounds, calls, busiest, ending);
        }
    }

    /**
     * Whether a warm-up that has run {@code elapsedNs} and made {@code calls} calls, whose last round kept some rank's
     * compilers busy for {@code busiestPerMille} per mille of it, runs another round.
     */
    static boolean goOn(long elapsedNs, long budgetNs, long calls, long busiestPerMille) {
        return elapsedNs < budgetNs || calls < CALLS && elapsedNs < CAP_FACTOR * budgetNs
                || busiestPerMille > QUIET_PER_MILLE && elapsedNs < QUIET_CAP_FACTOR * budgetNs;
    }

    /**
     * A rank's compilers judged over stretches of at least {@link #WINDOW_NS}: {@link #perMille} answers the busy share
     * of the last whole stretch, and {@link Long#MAX_VALUE} (busy) until the first one has passed.
     */
    static final class CompilerWindow {
        private long windowStartNs;
        private long windowStartMs;
        private long lastPerMille = Long.MAX_VALUE;

        CompilerWindow(long nowNs, long compiledMs) {
            windowStartNs = nowNs;
            windowStartMs = compiledMs;
        }

        long perMille(long nowNs, long compiledMs) {
            long elapsed = nowNs - windowStartNs;
            if (elapsed >= WINDOW_NS) {
                lastPerMille = (compiledMs - windowStartMs) * 1_000_000_000L / elapsed;
                windowStartNs = nowNs;
                windowStartMs = compiledMs;
            }
            return lastPerMille;
        }
    }

    /** Milliseconds this JVM's compilers have spent so far, or 0 where the JVM does not say. */
    private static long compilationMs(CompilationMXBean jit) {
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }
}
