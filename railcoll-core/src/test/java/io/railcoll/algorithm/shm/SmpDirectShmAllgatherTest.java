package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmCatalog;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code allgather.smp-direct-shm} as one program of node steps and puts (decisions 0156, 0157): the checker finds no
 * violation (byte-exact result, no node-buffer race, matched puts, no deadlock, claimed cost = measured) on even and
 * uneven placements, k = 1..4, and sizes from 0 to results several times the node buffer, through its three ways
 * (one hand-off each way; pieces overlapped with the exchange; chunks round the node buffer's slots).
 */
class SmpDirectShmAllgatherTest {
    private static final Algorithm ALGORITHM = AlgorithmCatalog.standard().byId(SmpDirectShmAllgather.ID);

    private static final List<Placement> PLACEMENTS = List.of(
            Placement.uniform(2, 2), Placement.ofCounts(3, 4, 2), Placement.uniform(5, 1), Placement.uniform(4, 4),
            Placement.uniform(2, 3), Placement.ofCounts(1, 5, 1, 3), Placement.uniform(8, 2), Placement.uniform(2, 4));

    /** 65537 x 4 ranks passes the overlap threshold; 300001 and 1 MiB + 3 exceed the node buffer on most shapes. */
    private static final long[] SIZES = {0, 1, 3, 1000, 65537, 131072, 300001, (1 << 20) + 3};

    @Test
    void everyShapeChecks() {
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (Placement placement : PLACEMENTS) {
            for (int k = 1; k <= 4; k++) {
                for (long b : SIZES) {
                    Shape shape = new Shape(Collective.ALLGATHER, placement, k, b, 0);
                    assertTrue(ALGORITHM.unsupportedReason(shape).isEmpty(), () -> shape + ": "
                            + ALGORITHM.unsupportedReason(shape).orElseThrow());
                    ScheduleChecker.Report report = ScheduleChecker.check(ALGORITHM, shape);
                    checked++;
                    if (!report.ok() && failures.size() < 5) {
                        failures.add(report.describe());
                    }
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        assertEquals(PLACEMENTS.size() * 4 * SIZES.length, checked);
    }

    /** Many nodes of small blocks: a result over the node buffer without overlap (one message per node). */
    @Test
    void aResultOverTheNodeBufferWithoutOverlapChecks() {
        Shape shape = new Shape(Collective.ALLGATHER, Placement.uniform(16, 2), 3, 70_000, 0);
        assertFalse(SmpDirectPlan.overlaps(shape));
        assertTrue(shape.size() * shape.blockBytes() > NodeBuffer.BYTES);
        ScheduleChecker.Report report = ScheduleChecker.check(ALGORITHM, shape);
        assertTrue(report.ok(), report.describe());
    }

    /** What runs is the program: no stand-in, node steps in it, and node-mates put nothing on the wire. */
    @Test
    void itIsAProgramOfNodeStepsNotAStandIn() {
        assertTrue(ALGORITHM instanceof NodeRegionUser);
        Shape shape = new Shape(Collective.ALLGATHER, Placement.uniform(2, 2), 1, 1, 0);
        List<Op> master = ALGORITHM.program(shape, 0).ops();
        List<Op> mate = ALGORITHM.program(shape, 1).ops();
        assertTrue(master.stream().anyMatch(op -> op instanceof Op.Put), master.toString());
        assertTrue(master.stream().anyMatch(op -> op instanceof Op.NodeRead), master.toString());
        assertEquals(List.of(new Op.NodeWrite(io.railcoll.schedule.Buffer.SEND, 0, 1, 1), new Op.Publish(0),
                new Op.AwaitFlag(0, 0, 1), new Op.NodeRead(0, io.railcoll.schedule.Buffer.RECV, 0, 4)), mate);
    }

    /** Large blocks stream through the node buffer's slots, with drain flags, and every offset stays inside it. */
    @Test
    void largeBlocksGoRoundTheSlots() {
        Shape shape = new Shape(Collective.ALLGATHER, Placement.uniform(4, 4), 2, 1 << 20, 0);
        List<Op> mate = ALGORITHM.program(shape, 1).ops();
        assertTrue(mate.contains(new Op.Publish(SmpDirectShmAllgather.DRAINED)), "no drain raise");
        for (Op op : mate) {
            if (op instanceof Op.NodeRead r) {
                assertTrue(r.nodeOffset() + r.length() <= NodeBuffer.BYTES, r.toString());
                assertTrue(r.length() <= SmpDirectPlan.CHUNK_BYTES, r.toString());
            }
        }
    }

    @Test
    void refusesOneNodeAndScatteredRanks() {
        assertFalse(ALGORITHM.unsupportedReason(new Shape(Collective.ALLGATHER, Placement.singleNode(5), 1, 8, 0))
                .isEmpty());
        assertFalse(ALGORITHM.unsupportedReason(new Shape(Collective.ALLGATHER, Placement.ofNodeIds(0, 1, 0, 1), 1,
                8, 0)).isEmpty());
    }
}
