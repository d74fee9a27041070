package io.railcoll;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The non-blocking reductions and scatter (decision 0090) on real communicators (TCP over loopback, a thread per
 * rank): ireduce, ireduceScatterBlock, iscan, iexscan, iscatter and the typed-array iallreduce forms, several in
 * flight at once, completed in an order other than the one they were started in, each checked against a sequential
 * reference computed here. Values are small integers, so every order of combining gives the same result exactly.
 */
class NonBlockingReductionsTest {
    private static final Config CONFIG = Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(60));
    private static final int COUNT = 37;

    @Test
    void severalInFlightCompletedOutOfOrderMatchTheSequentialReference() throws Exception {
        for (int n : new int[] {3, 4}) {
            try (InProcessRanks ranks = InProcessRanks.start(n, CONFIG); Arena arena = Arena.ofShared()) {
                ranks.onEveryRank(c -> {
                    for (int round = 0; round < 3; round++) {
                        checkOneRound(c, arena, round);
                    }
                });
            }
        }
    }

    private static void checkOneRound(Communicator c, Arena arena, int round) {
        int n = c.size();
        int me = c.rank();
        int root = (round + 1) % n;
        double[] dSend = doubles(me, round, COUNT);
        double[] dReduced = new double[COUNT];
        int[] iScanned = new int[COUNT];
        long[] lExscanned = new long[COUNT];
        Arrays.fill(lExscanned, -7); // rank 0's is not written
        float[] fBlocks = floats(me, round, COUNT * n);
        float[] fMine = new float[COUNT];
        byte[] scatterAll = new byte[COUNT * n];
        if (me == root) {
            for (int i = 0; i < scatterAll.length; i++) {
                scatterAll[i] = (byte) (i * 7 + round);
            }
        }
        byte[] scattered = new byte[COUNT];
        double[] dAll = new double[COUNT];
        int[] iInPlace = ints(me, round, COUNT);
        MemorySegment nativeInPlace = arena.allocate(8L * COUNT, 8);
        for (int i = 0; i < COUNT; i++) {
            nativeInPlace.setAtIndex(ValueLayout.JAVA_LONG, i, value(me, round, i));
        }

        Request[] started = {
            c.ireduce(dSend, me == root ? dReduced : null, PredefinedOperator.SUM, root),
            c.iscan(ints(me, round, COUNT), iScanned, PredefinedOperator.SUM),
            c.iexscan(longs(me, round, COUNT), lExscanned, PredefinedOperator.MAX),
            c.ireduceScatterBlock(fBlocks, fMine, PredefinedOperator.SUM),
            c.iscatter(me == root ? scatterAll : null, me == root ? null : scattered, root),
            c.iallreduce(dSend, dAll, PredefinedOperator.SUM),
            c.iallreduce(iInPlace, iInPlace, PredefinedOperator.SUM),
            c.ireduce(nativeInPlace, ElementType.LONG, COUNT, PredefinedOperator.SUM, root),
        };
        // Completed last-started first: each await drives the others, which finish whenever their data arrives.
        for (int i = started.length - 1; i >= 0; i--) {
            started[i].await();
        }

        for (int i = 0; i < COUNT; i++) {
            long sum = 0;
            long prefix = 0;
            long exMax = Long.MIN_VALUE;
            for (int r = 0; r < n; r++) {
                sum += value(r, round, i);
                if (r <= me) {
                    prefix += value(r, round, i);
                }
                if (r < me) {
                    exMax = Math.max(exMax, value(r, round, i));
                }
            }
            if (me == root) {
                assertEquals((double) sum, dReduced[i], "ireduce element " + i);
                assertEquals(sum, nativeInPlace.getAtIndex(ValueLayout.JAVA_LONG, i), "in-place ireduce element " + i);
            }
            assertEquals((int) prefix, iScanned[i], "iscan element " + i + " on rank " + me);
            assertEquals(me == 0 ? -7 : exMax, lExscanned[i], "iexscan element " + i + " on rank " + me);
            assertEquals((double) sum, dAll[i], "iallreduce(double[]) element " + i);
            assertEquals((int) sum, iInPlace[i], "in-place iallreduce(int[]) element " + i);
            float blockSum = 0;
            for (int r = 0; r < n; r++) {
                blockSum += floats(r, round, COUNT * n)[me * COUNT + i];
            }
            assertEquals(blockSum, fMine[i], "ireduceScatterBlock element " + i + " on rank " + me);
            if (me != root) {
                assertEquals((byte) ((me * COUNT + i) * 7 + round), scattered[i], "iscatter byte " + i);
            }
        }
    }

    /** More typed-array all-reduces in flight than the engine's window: each keeps staging of its own. */
    @Test
    void moreTypedArrayAllreducesThanTheWindowEachGetTheirOwnResult() throws Exception {
        int calls = 20;
        try (InProcessRanks ranks = InProcessRanks.start(3, CONFIG)) {
            ranks.onEveryRank(c -> {
                long[][] send = new long[calls][];
                long[][] recv = new long[calls][];
                Request[] started = new Request[calls];
                for (int k = 0; k < calls; k++) {
                    send[k] = longs(c.rank(), k, COUNT + k);
                    recv[k] = new long[COUNT + k];
                    started[k] = c.iallreduce(send[k], recv[k], PredefinedOperator.SUM);
                    // The caller may reuse its send array at once: the call copied it when it started.
                    Arrays.fill(send[k], -1);
                }
                for (int k = calls - 1; k >= 0; k--) {
                    started[k].await();
                    long[] expected = new long[COUNT + k];
                    for (int i = 0; i < expected.length; i++) {
                        for (int r = 0; r < c.size(); r++) {
                            expected[i] += value(r, k, i);
                        }
                    }
                    assertArrayEquals(expected, recv[k], "call " + k + " on rank " + c.rank());
                }
            });
        }
    }

    @Test
    void badArgumentsAreRefusedBeforeAnythingIsSent() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(2, CONFIG)) {
            Communicator c = ranks.rank(0);
            assertRefusal(() -> c.ireduce(new int[4], new int[4], PredefinedOperator.SUM, 2), "root 2");
            assertRefusal(() -> c.iscan((int[]) null, new int[4], PredefinedOperator.SUM), "iscan: send");
            assertRefusal(() -> c.iallreduce(new double[8], new double[4], PredefinedOperator.SUM), "recv holds");
            assertRefusal(() -> c.ireduceScatterBlock(new int[4], new int[4], PredefinedOperator.SUM), "send holds");
            assertRefusal(() -> c.iexscan(new float[2], new float[2], PredefinedOperator.BAND), "band");
            assertRefusal(() -> c.iscatter(new byte[7], null, 0), "equal block");
            // Nothing was sent: a correct pair of calls on both ranks still matches.
            ranks.onEveryRank(comm -> {
                int[] out = new int[1];
                comm.iallreduce(new int[] {comm.rank() + 1}, out, PredefinedOperator.SUM).await();
                assertEquals(3, out[0]);
            });
        }
    }

    private static void assertRefusal(org.junit.jupiter.api.function.Executable call, String named) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().toLowerCase().contains(named.toLowerCase()),
                () -> "expected '" + named + "' in: " + e.getMessage());
    }

    /** Rank r's element i in round k: small, distinct per rank, exact in every type used. */
    private static long value(int r, int k, int i) {
        return (r + 1) * 31L + i * 3L + k * 5L - (r * i) % 11;
    }

    private static double[] doubles(int r, int k, int count) {
        double[] a = new double[count];
        Arrays.setAll(a, i -> value(r, k, i));
        return a;
    }

    private static float[] floats(int r, int k, int count) {
        float[] a = new float[count];
        for (int i = 0; i < count; i++) {
            a[i] = value(r, k, i);
        }
        return a;
    }

    private static int[] ints(int r, int k, int count) {
        int[] a = new int[count];
        Arrays.setAll(a, i -> (int) value(r, k, i));
        return a;
    }

    private static long[] longs(int r, int k, int count) {
        long[] a = new long[count];
        Arrays.setAll(a, i -> value(r, k, i));
        return a;
    }
}
