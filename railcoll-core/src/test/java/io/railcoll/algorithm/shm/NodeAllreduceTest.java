package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.algorithm.ElementBoundaries;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.NodeBuffer;
import io.railcoll.schedule.NodeRegionUser;
import io.railcoll.schedule.Op;
import io.railcoll.schedule.PeerAccessUser;
import io.railcoll.schedule.ScheduleChecker;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code allreduce.shm} and {@code allreduce.shm-single-copy} (decisions 0170, 0171): the checker finds no violation (every rank's result is every contribution
 * combined once, in rank order where the operator is not commutative; no node-buffer race; no deadlock) for 2..17
 * ranks on one node, element sizes 1..16, counts 0, 1, around N, odd, at the small form's edge, and vectors several
 * times the node buffer (chunked); it refuses what it cannot run, saying why.
 */
class NodeAllreduceTest {
    private static final Algorithm ALGORITHM = AlgorithmCatalog.standard().byId(NodeAllreduce.ID);
    private static final Algorithm SINGLE_COPY = AlgorithmCatalog.standard().byId(SingleCopyAllreduce.ID);
    private static final Algorithm DOUBLING = AlgorithmCatalog.standard().byId(NodeDoublingAllreduce.ID);

    @Test
    void everyOneNodeShapeChecks() {
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (int n = 2; n <= 17; n++) {
            for (int e : new int[] {1, 4, 8, 16}) {
                long edge = NodeAllreduce.READ_ALL_BYTES / n / e;
                for (long count : new long[] {0, 1, n - 1, n, n + 1, 3L * n + 2, edge, edge + 1, 1001}) {
                    for (boolean commutative : new boolean[] {true, false}) {
                        Shape shape = Shape.reduction(Collective.ALLREDUCE, Placement.singleNode(n), 1, count * e, 0, e,
                                commutative);
                        checked += check(ALGORITHM, shape, failures);
                        checked += check(SINGLE_COPY, shape, failures);
                        if (DOUBLING.unsupportedReason(shape).isEmpty()) {
                            checked += check(DOUBLING, shape, failures);
                        }
                    }
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        assertTrue(checked > 1000, "checked " + checked);
    }

    @Test
    void vectorsLargerThanTheNodeBufferGoThroughItInChunks() {
        List<String> failures = new ArrayList<>();
        for (int n : new int[] {2, 3, 5}) {
            for (int e : new int[] {1, 8}) {
                Placement placement = Placement.singleNode(n);
                long chunk = NodeAllreduce.chunkBytes(Shape.reduction(Collective.ALLREDUCE, placement, 1, e, 0, e,
                        true), n);
                assertTrue(chunk % e == 0 && chunk * (n + 1) <= NodeBuffer.BYTES, "chunk " + chunk);
                for (long bytes : new long[] {chunk, chunk + e, 2 * chunk - e, 3 * chunk + 7L * e,
                        NodeBuffer.BYTES + 3L * e}) {
                    for (boolean commutative : new boolean[] {true, false}) {
                        Shape shape = Shape.reduction(Collective.ALLREDUCE, placement, 1, bytes - bytes % e, 0, e,
                                commutative);
                        check(ALGORITHM, shape, failures);
                        check(SINGLE_COPY, shape, failures);
                    }
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
    }

    @Test
    void smallVectorsTakeOneFlagCrossingLargerOnesTwoPerChunk() {
        Placement p = Placement.singleNode(4);
        Shape small = Shape.reduction(Collective.ALLREDUCE, p, 1, 8, 0, 8, true);
        Shape large = Shape.reduction(Collective.ALLREDUCE, p, 1, 64 * 1024, 0, 8, true);
        assertEquals(1, publishes(ALGORITHM.program(small, 1).ops()));
        assertEquals(2, publishes(ALGORITHM.program(large, 1).ops()));
        // Zero elements: one crossing still, so that a node-mate with another count meets this call's digest.
        List<Op> empty = ALGORITHM.program(Shape.reduction(Collective.ALLREDUCE, p, 1, 0, 0, 8, true), 1).ops();
        assertEquals(1, publishes(empty));
        assertEquals(3, empty.stream().filter(o -> o instanceof Op.AwaitFlag).count());
    }

    @Test
    void theSingleCopyFormPullsEachSliceOnceAndSaysWhenItsResultIsReady() {
        Placement p = Placement.singleNode(4);
        List<Op> ops = SINGLE_COPY.program(Shape.reduction(Collective.ALLREDUCE, p, 1, 4096 * 8, 0, 8, true), 2).ops();
        // 3 node-mates' slice 2 (one piece each), then the 3 other slices.
        assertEquals(6, ops.stream().filter(o -> o instanceof Op.PeerRead).count());
        assertEquals(3, publishes(ops)); // READY, REDUCED, DONE
        assertTrue(SINGLE_COPY instanceof PeerAccessUser);
    }

    /**
     * {@code allreduce.shm-doubling} (decision 0201): one slot read per round, log2 P rounds (two more where L is not a
     * power of two), and it refuses vectors whose slots outgrow the node buffer, saying so.
     */
    @Test
    void theDoublingFormReadsOneSlotPerRoundAndRefusesLargeVectors() {
        for (int n : new int[] {2, 4, 5, 8, 12, 16, 17}) {
            int rounds = 31 - Integer.numberOfLeadingZeros(n);
            for (int r = 0; r < n; r++) {
                List<Op> ops = DOUBLING.program(Shape.reduction(Collective.ALLREDUCE, Placement.singleNode(n), 1, 64, 0,
                        8, true), r).ops();
                long reads = ops.stream().filter(o -> o instanceof Op.NodeRead).count();
                int extra = n - (1 << rounds);
                long expected = r < 2 * extra ? (r % 2 == 0 ? 1 : rounds + 1) : rounds;
                assertEquals(expected, reads, "1x" + n + " rank " + r);
            }
        }
        // Up to 24 bytes on up to 16 ranks each round's partial result rides in a raise of its own flag (decision
        // 0202): the same waits, no slot; 17 ranks would need five flags and keep the slots.
        for (int n : new int[] {2, 3, 5, 8, 12, 16, 17}) {
            int rounds = 31 - Integer.numberOfLeadingZeros(n);
            int extra = n - (1 << rounds);
            for (int r = 0; r < n; r++) {
                List<Op> ops = DOUBLING.program(Shape.reduction(Collective.ALLREDUCE, Placement.singleNode(n), 1, 24, 0,
                        8, true), r).ops();
                long inLine = ops.stream().filter(o -> o instanceof Op.AwaitFlag a && a.length() == 24).count();
                long slots = ops.stream().filter(o -> o instanceof Op.NodeRead || o instanceof Op.NodeWrite).count();
                long expected = r < 2 * extra ? (r % 2 == 0 ? 1 : rounds + 1) : rounds;
                assertEquals(n <= 16 ? expected : 0, inLine, "1x" + n + " rank " + r);
                assertEquals(n <= 16, slots == 0, "1x" + n + " rank " + r + ": " + ops);
            }
        }
        String why = DOUBLING.unsupportedReason(Shape.reduction(Collective.ALLREDUCE, Placement.singleNode(16), 1,
                1 << 20, 0, 8, true)).orElseThrow();
        assertTrue(why.contains("node buffer"), why);
    }

    @Test
    void refusesSeveralNodesAndOneRank() {
        assertTrue(ALGORITHM instanceof NodeRegionUser);
        String nodes = ALGORITHM.unsupportedReason(Shape.reduction(Collective.ALLREDUCE, Placement.uniform(2, 2), 1, 8,
                0, 8, true)).orElseThrow();
        assertTrue(nodes.contains("2 nodes"), nodes);
        assertTrue(ALGORITHM.unsupportedReason(Shape.reduction(Collective.ALLREDUCE, Placement.singleNode(1), 1, 8, 0,
                8, true)).isPresent());
    }

    private static int publishes(List<Op> ops) {
        return (int) ops.stream().filter(o -> o instanceof Op.Publish).count();
    }

    private static int check(Algorithm algorithm, Shape shape, List<String> failures) {
        assertTrue(algorithm.unsupportedReason(shape).isEmpty(), () -> shape + ": "
                + algorithm.unsupportedReason(shape).orElseThrow());
        ScheduleChecker.Report report = ScheduleChecker.check(algorithm, shape);
        if (!report.ok() && failures.size() < 5) {
            failures.add(shape + ": " + report.describe());
        }
        ElementBoundaries.assertWholeElements(algorithm, shape);
        return 1;
    }
}
