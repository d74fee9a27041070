package io.railcoll.bench;

import io.railcoll.schedule.Collective;
import org.junit.jupiter.api.Test;

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

    @Test
    void reductionSizesMustBeWholeDoubles() {
        assertNull(TimedReduction.sizeProblem(Collective.ALLREDUCE, List.of(0L, 8L, 1048576L)));
        assertTrue(TimedReduction.sizeProblem(Collective.ALLREDUCE, List.of(8L, 12L)).contains("12 is not"));
        assertNull(TimedReduction.sizeProblem(Collective.ALLGATHER, List.of(1L, 3L)));
    }
}
