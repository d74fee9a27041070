package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Buffer;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code gather.shm} and {@code allgather.shm} in node steps (decision 0190): the checker finds no violation (every
 * block lands where it belongs, no node-buffer race, every await matched, no deadlock) for 2, 3, 5, 8, 16 and 17 ranks
 * on one node, every root, blocks of 0, 1, odd sizes and past the node buffer (chunked through double-buffered
 * slots); the programs are what runs (no stand-in), and they refuse what they cannot run, saying why.
 */
class NodeGatherAllgatherTest {
    private static final Algorithm GATHER = AlgorithmCatalog.standard().byId(NodeGather.ID);
    private static final Algorithm ALLGATHER = AlgorithmCatalog.standard().byId(NodeAllgather.ID);
    private static final int[] SIZES = {2, 3, 5, 8, 16, 17};

    @Test
    void everyOneNodeShapeChecks() {
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (int n : SIZES) {
            for (long b : new long[] {0, 1, 3, 127, 128, 129, 1001, 65_537}) {
                checked += checkEveryRoot(n, b, failures);
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        assertTrue(checked > 400, "checked " + checked);
    }

    @Test
    void blocksPastTheNodeBufferGoThroughItInChunks() {
        List<String> failures = new ArrayList<>();
        for (int n : SIZES) {
            for (int writers : new int[] {n - 1, n}) {
                NodeBlockSlots one = NodeBlockSlots.of(NodeBuffer.BYTES / writers / NodeBlockSlots.LINE
                        * NodeBlockSlots.LINE, writers);
                assertEquals(1, one.chunks(), "the largest block that fits whole, " + writers + " writers");
                long chunk = NodeBlockSlots.of(NodeBuffer.BYTES + 1, writers).chunkBytes();
                assertTrue(chunk % NodeBlockSlots.LINE == 0 && writers * NodeBlockSlots.DEPTH * chunk
                        <= NodeBuffer.BYTES, writers + " writers, chunk " + chunk);
            }
            long chunk = NodeBlockSlots.of(NodeBuffer.BYTES + 1, n).chunkBytes();
            // Just past a whole fit; 2 chunks (no slot reused); 3 (one reused); several, the last short.
            for (long b : new long[] {NodeBuffer.BYTES / n + 1, 2 * chunk, 2 * chunk + 1, 5 * chunk - 7,
                    NodeBuffer.BYTES + 3}) {
                checkEveryRoot(n, b, failures);
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
    }

    @Test
    void smallBlocksTakeOneRaiseLargeOnesOneRaiseAndOneDrainPerChunk() {
        Placement p = Placement.singleNode(4);
        // Up to PAYLOAD_BYTES the block rides in the raise and every await reads it (decision 0202): no slot.
        List<Op> tiny = ALLGATHER.program(new Shape(Collective.ALLGATHER, p, 1, 8, 0), 1).ops();
        assertEquals(1, count(tiny, Op.Publish.class));
        assertEquals(3, count(tiny, Op.AwaitFlag.class));
        assertEquals(0, count(tiny, Op.NodeWrite.class));
        assertEquals(0, count(tiny, Op.NodeRead.class));
        assertTrue(tiny.stream().allMatch(op -> !(op instanceof Op.AwaitFlag a) || a.length() == 8), tiny.toString());
        List<Op> small = ALLGATHER.program(new Shape(Collective.ALLGATHER, p, 1, NodeBuffer.PAYLOAD_BYTES + 1, 0), 1)
                .ops();
        assertEquals(1, count(small, Op.Publish.class));
        assertEquals(3, count(small, Op.AwaitFlag.class));
        assertEquals(1, count(small, Op.NodeWrite.class));
        assertEquals(3, count(small, Op.NodeRead.class));
        NodeBlockSlots slots = NodeBlockSlots.of(NodeBuffer.BYTES, 4);
        assertTrue(slots.chunks() > NodeBlockSlots.DEPTH, "chunks " + slots.chunks());
        List<Op> large = ALLGATHER.program(new Shape(Collective.ALLGATHER, p, 1, NodeBuffer.BYTES, 0), 1).ops();
        // WRITTEN per chunk, DRAINED per chunk whose slot a later one reuses.
        assertEquals(slots.chunks() + slots.chunks() - NodeBlockSlots.DEPTH, count(large, Op.Publish.class));
        // A gather's non-root writes and raises, and only waits for the root's drains of a reused slot.
        List<Op> nonRoot = GATHER.program(new Shape(Collective.GATHER, p, 1, 100, 2), 1).ops();
        assertEquals(List.of(Op.NodeWrite.class, Op.Publish.class), nonRoot.stream().map(Object::getClass).toList());
        assertEquals(List.of(new Op.Publish(0, Buffer.SEND, 0, 8)),
                GATHER.program(new Shape(Collective.GATHER, p, 1, 8, 2), 1).ops());
    }

    /** Zero bytes: still one crossing, so that a node-mate running another call meets this call's digest. */
    @Test
    void zeroByteCallsStillCrossOnce() {
        Placement p = Placement.singleNode(5);
        List<Op> all = ALLGATHER.program(new Shape(Collective.ALLGATHER, p, 1, 0, 0), 3).ops();
        assertEquals(1, count(all, Op.Publish.class));
        assertEquals(4, count(all, Op.AwaitFlag.class));
        assertEquals(4, count(GATHER.program(new Shape(Collective.GATHER, p, 1, 0, 2), 2).ops(), Op.AwaitFlag.class));
        assertEquals(1, count(GATHER.program(new Shape(Collective.GATHER, p, 1, 0, 2), 4).ops(), Op.Publish.class));
    }

    @Test
    void theyAreNodeStepProgramsNotStandIns() {
        for (Algorithm a : new Algorithm[] {GATHER, ALLGATHER}) {
            assertTrue(a instanceof NodeRegionUser, a.id());
        }
    }

    @Test
    void refusesSeveralNodesAndOneRank() {
        for (Algorithm a : new Algorithm[] {GATHER, ALLGATHER}) {
            String nodes = a.unsupportedReason(new Shape(a.collective(), Placement.uniform(2, 2), 1, 8, 0))
                    .orElseThrow();
            assertTrue(nodes.contains("2 nodes"), nodes);
            assertTrue(a.unsupportedReason(new Shape(a.collective(), Placement.singleNode(1), 1, 8, 0)).isPresent());
        }
    }

    private static int checkEveryRoot(int n, long b, List<String> failures) {
        int checked = check(ALLGATHER, new Shape(Collective.ALLGATHER, Placement.singleNode(n), 1, b, 0), failures);
        for (int root = 0; root < n; root++) {
            checked += check(GATHER, new Shape(Collective.GATHER, Placement.singleNode(n), 1, b, root), failures);
        }
        return checked;
    }

    private static long count(List<Op> ops, Class<? extends Op> kind) {
        return ops.stream().filter(kind::isInstance).count();
    }

    private static int check(Algorithm algorithm, Shape shape, List<String> failures) {
        assertTrue(algorithm.unsupportedReason(shape).isEmpty(), () -> shape + ": "
                + algorithm.unsupportedReason(shape).orElseThrow());
        ScheduleChecker.Report report = ScheduleChecker.check(algorithm, shape);
        if (!report.ok() && failures.size() < 5) {
            failures.add(shape + ": " + report.describe());
        }
        return 1;
    }
}
