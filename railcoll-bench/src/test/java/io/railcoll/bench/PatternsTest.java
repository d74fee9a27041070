package io.railcoll.bench;

import io.railcoll.schedule.Collective;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The all-reduce pattern bench checks with: the sum it expects is the sum of what every rank sent, and only that. */
class PatternsTest {

    @Test
    void anAllreduceOfThePatternsIsAcceptedAndAnyMissingOrDoubledTermIsCaught() {
        int ranks = 5;
        int seed = 77;
        long bytes = 8 * 37;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sum = arena.allocate(bytes);
            MemorySegment one = arena.allocate(bytes);
            for (int r = 0; r < ranks; r++) {
                Patterns.fillSend(Collective.ALLREDUCE, seed, r, ranks, bytes, one);
                for (long i = 0; i < bytes / 8; i++) {
                    double s = sum.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
                    sum.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, s + one.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i));
                }
            }
            assertNull(Patterns.verify(Collective.ALLREDUCE, seed, 0, ranks, bytes, 0, sum));
            assertNotNull(Patterns.verify(Collective.ALLREDUCE, seed, 0, ranks + 1, bytes, 0, sum), "a rank missing");
            assertNotNull(Patterns.verify(Collective.ALLREDUCE, seed + 1, 0, ranks, bytes, 0, sum), "another case's data");
            // the last rank's terms added twice at one element
            long i = 36;
            double v = sum.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
            sum.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, v + one.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i));
            String bad = Patterns.verify(Collective.ALLREDUCE, seed, 0, ranks, bytes, 0, sum);
            assertTrue(bad != null && bad.contains("element 36"), bad);
        }
    }

    /**
     * Reduce, reduce-scatter, scan and exscan: what a sequential reference computes from every rank's pattern is
     * accepted on every rank, and a result shifted to another rank's block or prefix is caught.
     */
    @ParameterizedTest
    @EnumSource(value = Collective.class, names = {"REDUCE", "REDUCE_SCATTER", "SCAN", "EXSCAN"})
    void theOtherReductionsAcceptTheReferenceAndCatchAShiftedResult(Collective c) {
        int ranks = 5;
        int seed = 91;
        int root = 3;
        long b = 8 * 13;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment[] sends = new MemorySegment[ranks];
            for (int r = 0; r < ranks; r++) {
                sends[r] = arena.allocate(c.sendBytes(b, ranks));
                Patterns.fillSend(c, seed, r, ranks, b, sends[r]);
            }
            for (int rank = 0; rank < ranks; rank++) {
                MemorySegment expected = reference(c, sends, rank, b, arena);
                if (expected == null) {
                    continue;
                }
                assertNull(Patterns.verify(c, seed, rank, ranks, b, root, expected), c + " rank " + rank);
                if ((c == Collective.EXSCAN && rank == 0) || (c == Collective.REDUCE && rank != root)) {
                    continue;
                }
                // Another rank's block or prefix; for reduce, whose result is one, the sum without the last rank.
                int other = rank == ranks - 1 ? 1 : rank + 1;
                MemorySegment wrong = c == Collective.REDUCE
                        ? reference(c, java.util.Arrays.copyOf(sends, ranks - 1), rank, b, arena)
                        : reference(c, sends, other, b, arena);
                assertNotNull(Patterns.verify(c, seed, rank, ranks, b, root, wrong), c + " rank " + rank
                        + " given a wrong result");
            }
            assertNull(Patterns.verify(Collective.REDUCE, seed, 0, ranks, b, root, arena.allocate(1)),
                    "a reduce's non-root has no result to check");
        }
    }

    /** The sum {@code rank} must hold, element by element in rank order; null where MPI defines none. */
    private static MemorySegment reference(Collective c, MemorySegment[] sends, int rank, long b, Arena arena) {
        int ranks = sends.length;
        long first = c == Collective.REDUCE_SCATTER ? rank * (b / 8) : 0;
        int upTo = switch (c) {
            case SCAN -> rank + 1;
            case EXSCAN -> rank;
            default -> ranks;
        };
        MemorySegment out = arena.allocate(b);
        for (long i = 0; i < b / 8; i++) {
            double sum = 0;
            for (int src = 0; src < upTo; src++) {
                sum += sends[src].getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, first + i);
            }
            out.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, sum);
        }
        return out;
    }

    @Test
    void reductionSizesMustBeWholeDoubles() {
        assertNull(TimedReduction.sizeProblem(Collective.ALLREDUCE, List.of(0L, 8L, 1048576L)));
        assertTrue(TimedReduction.sizeProblem(Collective.ALLREDUCE, List.of(8L, 12L)).contains("12 is not"));
        assertNull(TimedReduction.sizeProblem(Collective.ALLGATHER, List.of(1L, 3L)));
    }
}
