package io.railcoll;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.schedule.Collective;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link Communicator#selectedAlgorithm} is a question: asked on one rank between calls, for any collective, it
 * changes nothing of the calls that follow (the communicator keeps the last shape per collective, and the question
 * once left its plain shape where a v-variant's or a reduction's call took it for its own). Two ranks in one JVM.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SelectedAlgorithmQueryTest {
    private static InProcessRanks ranks;

    @BeforeAll
    static void start() throws Exception {
        // Two master groups: a plain shape then differs from a v-variant's and a reduction's (one group each).
        ranks = InProcessRanks.start(2, Config.fromEnvironment(java.util.Map.of("RAILCOLL_GROUPS", "2"))
                .withTimeoutNs(TimeUnit.SECONDS.toNanos(20)));
    }

    @AfterAll
    static void stop() throws Exception {
        if (ranks != null) {
            ranks.close();
        }
    }

    @Test
    void aQueryOnOneRankLeavesTheVariantsAndReductionsThatFollowAlone() throws Exception {
        for (Collective asked : Collective.values()) {
            ranks.onEveryRank(c -> {
                if (c.rank() == 0) {
                    c.selectedAlgorithm(asked, 4, 0);
                }
                callEveryVariantAndReduction(c);
            });
        }
    }

    @Test
    void theAnswerDoesNotDependOnTheCallsBeforeIt() throws Exception {
        ranks.onEveryRank(c -> {
            String[] before = new String[Collective.values().length];
            for (Collective asked : Collective.values()) {
                before[asked.ordinal()] = c.selectedAlgorithm(asked, 4, 0);
            }
            callEveryVariantAndReduction(c);
            for (Collective asked : Collective.values()) {
                assertEquals(before[asked.ordinal()], c.selectedAlgorithm(asked, 4, 0), asked + " after calls of it");
            }
        });
    }

    /** Every v-variant and a reduction, with 4-byte blocks, checked byte for byte. */
    private static void callEveryVariantAndReduction(Communicator c) {
        int n = c.size();
        int me = c.rank();
        long[] counts = new long[n];
        long[] displs = new long[n];
        for (int r = 0; r < n; r++) {
            counts[r] = 4;
            displs[r] = 4L * r;
        }
        try (Arena arena = Arena.ofShared()) {
            MemorySegment send = arena.allocate(4L * n);
            MemorySegment recv = arena.allocate(4L * n);
            for (int r = 0; r < n; r++) {
                send.set(JAVA_INT_UNALIGNED, 4L * r, 100 * me + r);
            }
            c.gatherv(send.asSlice(0, 4), recv, counts, displs, 0);
            if (me == 0) {
                for (int r = 0; r < n; r++) {
                    assertEquals(100 * r, recv.get(JAVA_INT_UNALIGNED, 4L * r), "gatherv block " + r);
                }
            }
            recv.fill((byte) 0);
            c.allgatherv(send.asSlice(0, 4), recv, counts, displs);
            for (int r = 0; r < n; r++) {
                assertEquals(100 * r, recv.get(JAVA_INT_UNALIGNED, 4L * r), "allgatherv block " + r);
            }
            recv.fill((byte) 0);
            c.alltoallv(send, counts, displs, recv, counts, displs);
            for (int r = 0; r < n; r++) {
                assertEquals(100 * r + me, recv.get(JAVA_INT_UNALIGNED, 4L * r), "alltoallv block " + r);
            }
            MemorySegment mine = arena.allocate(4);
            c.reduceScatter(send, mine, ElementType.INT, new long[] {1, 1}, PredefinedOperator.SUM);
            int sum = 0;
            for (int r = 0; r < n; r++) {
                sum += 100 * r + me;
            }
            assertEquals(sum, mine.get(JAVA_INT_UNALIGNED, 0), "reduce-scatter");
            MemorySegment bytes = arena.allocate(4);
            bytes.fill((byte) (me + 1));
            c.allreduce(bytes, bytes, ElementType.BYTE, 4, PredefinedOperator.SUM);
            assertEquals((byte) 3, bytes.get(JAVA_BYTE, 3), "all-reduce");
        }
    }
}
