package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.algorithm.ElementBoundaries;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.NodeBuffer;
import io.railcoll.schedule.NodeRegionUser;
import io.railcoll.schedule.Op;
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
 * {@code reduce-scatter.shm}, {@code scan.shm} and {@code exscan.shm} (decision 0222): the checker finds no violation
 * (every result combined once from the right contributions, in rank order where the operator is not commutative; no
 * node-buffer race between chunks; no deadlock) for 2..9 ranks on one node, element sizes 1..16, counts 0, 1, odd,
 * in and just past a flag's line, just past the reduce-scatter's pipeline threshold and a few chunks of it, and blocks
 * several times the node buffer (chunked through the sets); they refuse what they cannot run, saying why.
 */
class NodeReduceScatterScanTest {
    private static final AlgorithmCatalog CATALOG = AlgorithmCatalog.standard();
    private static final List<Algorithm> ALGORITHMS = List.of(CATALOG.byId(NodeReduceScatter.ID),
            CATALOG.byId("scan.shm"), CATALOG.byId("exscan.shm"));

    @Test
    void everyOneNodeShapeChecks() {
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (Algorithm a : ALGORITHMS) {
            for (int n = 2; n <= 9; n++) {
                for (int e : new int[] {1, 4, 8, 16}) {
                    for (long count : new long[] {0, 1, 2, 3, n + 1, NodeBuffer.PAYLOAD_BYTES / e,
                            NodeBuffer.PAYLOAD_BYTES / e + 1, 1001, NodeReduceScatter.PIPELINE_BYTES / e + 1,
                            3 * NodeReduceScatter.PIPELINE_BYTES / e + 7}) {
                        for (boolean commutative : new boolean[] {true, false}) {
                            checked += check(a, Shape.reduction(a.collective(), Placement.singleNode(n), 1, count * e,
                                    0, e, commutative), failures);
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
    void blocksLargerThanTheNodeBufferGoThroughItInChunks() {
        List<String> failures = new ArrayList<>();
        for (Algorithm a : ALGORITHMS) {
            for (int n : new int[] {2, 3, 5}) {
                for (int e : new int[] {1, 8, 12}) {
                    Placement placement = Placement.singleNode(n);
                    Shape one = Shape.reduction(a.collective(), placement, 1, 100_000L * e, 0, e, true);
                    long chunk = a instanceof NodeScan ? NodeScan.chunkBytes(one) : NodeReduceScatter.chunkBytes(one);
                    assertTrue(chunk % e == 0, "chunk " + chunk);
                    for (long bytes : new long[] {chunk + e, 2 * chunk - e, 3 * chunk, 5 * chunk + 7L * e,
                            NodeBuffer.BYTES + 3L * e}) {
                        for (boolean commutative : new boolean[] {true, false}) {
                            check(a, Shape.reduction(a.collective(), placement, 1, bytes - bytes % e, 0, e,
                                    commutative), failures);
                        }
                    }
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
    }

    /**
     * One crossing of the node where the blocks fit and are too short to pipeline: each rank raises one flag, and
     * only their small form.
     */
    @Test
    void blocksThatFitTakeOneCrossingAndTinyOnesNoSlot() {
        Placement p = Placement.singleNode(4);
        for (Algorithm a : ALGORITHMS) {
            // Reduce-scatter: all 4 blocks of 4 bytes in one raise; scan: one vector of 8 bytes.
            long tiny = a instanceof NodeScan ? 8 : 4;
            long once = a instanceof NodeScan ? NodeScan.PIPELINE_BYTES : NodeReduceScatter.PIPELINE_BYTES;
            for (long b : new long[] {tiny, 1024, once}) {
                for (int r = 0; r < 4; r++) {
                    List<Op> ops = a.program(Shape.reduction(a.collective(), p, 1, b, 0, 4, false), r).ops();
                    long raises = ops.stream().filter(o -> o instanceof Op.Publish).count();
                    boolean scanLast = a instanceof NodeScan && r == 3;
                    assertEquals(scanLast ? 0 : 1, raises, a.id() + " " + b + " B rank " + r);
                    long slots = ops.stream().filter(o -> o instanceof Op.NodeRead || o instanceof Op.NodeWrite)
                            .count();
                    assertEquals(b == tiny, slots == 0, a.id() + " " + b + " B rank " + r + ": " + ops);
                }
            }
        }
    }

    /**
     * Past {@link NodeReduceScatter#PIPELINE_BYTES} the reduce-scatter goes in chunks although the blocks fit, and
     * every rank writes (and raises) chunk c+1 before it reads chunk c: the pipeline is in the program, not hoped for.
     */
    @Test
    void theReduceScatterWritesTheNextChunkBeforeItCombinesOne() {
        Algorithm rs = CATALOG.byId(NodeReduceScatter.ID);
        for (int n : new int[] {2, 3, 4}) {
            for (boolean commutative : new boolean[] {true, false}) {
                Shape shape = Shape.reduction(Collective.REDUCE_SCATTER, Placement.singleNode(n), 1,
                        4 * NodeReduceScatter.PIPELINE_BYTES + 8, 0, 8, commutative);
                assertTrue(NodeReduceScatter.lookahead(shape, NodeReduceScatter.chunkBytes(shape)) >= 1);
                for (int r = 0; r < n; r++) {
                    List<Op> ops = rs.program(shape, r).ops();
                    List<Integer> raises = new ArrayList<>();
                    List<Integer> reads = new ArrayList<>();
                    for (int i = 0; i < ops.size(); i++) {
                        if (ops.get(i) instanceof Op.Publish) {
                            raises.add(i);
                        } else if (ops.get(i) instanceof Op.NodeRead) {
                            reads.add(i);
                        }
                    }
                    assertEquals(5, raises.size(), "five chunks, one raise each: " + ops);
                    assertEquals(5 * (n - 1), reads.size(), "every node-mate's piece of every chunk read once");
                    for (int c = 0; c + 1 < 5; c++) {
                        // Chunk c + 1 raised before the first read of chunk c.
                        assertTrue(raises.get(c + 1) < reads.get(c * (n - 1)), "rank " + r + " chunk " + c + ": "
                                + ops);
                    }
                }
            }
        }
    }

    /** A commutative operator saves the last rank the copy of its own block: one fewer op, the same checked result. */
    @Test
    void theLastRankCombinesItsOwnBlockOnTopWhereTheOperatorCommutes() {
        Algorithm rs = CATALOG.byId(NodeReduceScatter.ID);
        for (int n : new int[] {2, 3, 5}) {
            Shape commuting = Shape.reduction(Collective.REDUCE_SCATTER, Placement.singleNode(n), 1, 4096, 0, 8, true);
            Shape ordered = Shape.reduction(Collective.REDUCE_SCATTER, Placement.singleNode(n), 1, 4096, 0, 8, false);
            assertTrue(rs.program(commuting, n - 1).ops().stream().noneMatch(o -> o instanceof Op.Copy));
            assertEquals(1, rs.program(ordered, n - 1).ops().stream().filter(o -> o instanceof Op.Copy).count());
        }
    }

    /**
     * The lookahead is what the sets of the node buffer allow (S >= 2d + 2) up to {@link NodeReduceScatter#AHEAD_BYTES}
     * written ahead: 15 chunks on 1x2, 6 on 1x3, 3 on 1x4, none on 9 ranks (two sets); the checker passes blocks of
     * more chunks than sets, so that every set is reused, in rank order.
     */
    @Test
    void theLookaheadIsWhatTheSetsAllowAndTheReuseChecks() {
        Algorithm rs = CATALOG.byId(NodeReduceScatter.ID);
        List<String> failures = new ArrayList<>();
        int[] ranks = {2, 3, 4, 9};
        int[] expected = {15, 6, 3, 0};
        for (int i = 0; i < ranks.length; i++) {
            Shape mib = Shape.reduction(Collective.REDUCE_SCATTER, Placement.singleNode(ranks[i]), 1, 1 << 20, 0, 8,
                    false);
            long chunk = NodeReduceScatter.chunkBytes(mib);
            assertEquals(expected[i], NodeReduceScatter.lookahead(mib, chunk), ranks[i] + " ranks");
            long sets = NodeBuffer.BYTES / ((long) ranks[i] * ranks[i] * chunk);
            check(rs, Shape.reduction(Collective.REDUCE_SCATTER, Placement.singleNode(ranks[i]), 1,
                    (sets + 3) * chunk + 8, 0, 8, false), failures);
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
    }

    @Test
    void refusesSeveralNodesOneRankAndNodesWhoseSlotsCannotFit() {
        for (Algorithm a : ALGORITHMS) {
            assertTrue(a instanceof NodeRegionUser, a.id());
            OneNodeRefusals.refusesSeveralNodesAndOneRank(a);
        }
        // 96 ranks: two sets of 96 x 96 pieces of one 128-byte line are 2.25 MiB, more than the node buffer.
        Algorithm rs = CATALOG.byId(NodeReduceScatter.ID);
        String why = rs.unsupportedReason(Shape.reduction(Collective.REDUCE_SCATTER, Placement.singleNode(96), 1,
                1 << 20, 0, 8, true)).orElseThrow();
        assertTrue(why.contains("node buffer"), why);
        assertTrue(rs.unsupportedReason(Shape.reduction(Collective.REDUCE_SCATTER, Placement.singleNode(96), 1, 64, 0,
                8, true)).isEmpty(), "one set of whole blocks fits");
    }

    private static int check(Algorithm algorithm, Shape shape, List<String> failures) {
        assertTrue(algorithm.unsupportedReason(shape).isEmpty(), () -> shape + ": "
                + algorithm.unsupportedReason(shape).orElseThrow());
        ScheduleChecker.Report report = ScheduleChecker.check(algorithm, shape);
        if (!report.ok() && failures.size() < 5) {
            failures.add(algorithm.id() + " " + shape + ": " + report.describe());
        }
        ElementBoundaries.assertWholeElements(algorithm, shape);
        return 1;
    }
}
