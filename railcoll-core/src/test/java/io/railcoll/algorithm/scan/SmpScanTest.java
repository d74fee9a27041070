package io.railcoll.algorithm.scan;

import io.railcoll.schedule.Collective;
import io.railcoll.schedule.ScheduleChecker;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SMP-aware scan on nodes of consecutive ranks, even and uneven, checked in rank order by the schedule checker
 * with non-commutative operators (every rank's prefix exactly ranks 0..r, in order), and its refusal of placements
 * whose nodes are not consecutive.
 */
class SmpScanTest {
    private final SmpScan scan = new SmpScan();

    @Test
    void seededRandomNodesOfConsecutiveRanksGiveEveryRankItsPrefixInRankOrder() {
        Random random = new Random(1127);
        int checked = 0;
        for (int trial = 0; trial < 60; trial++) {
            int nodes = 1 + random.nextInt(7);
            int[] counts = new int[nodes];
            for (int m = 0; m < nodes; m++) {
                counts[m] = 1 + random.nextInt(6);
            }
            Placement p = Placement.ofCounts(counts);
            for (long count : new long[] {0, 1, 1 + random.nextInt(50)}) {
                for (boolean commutative : new boolean[] {true, false}) {
                    Shape shape = Shape.reduction(Collective.SCAN, p, 1 + random.nextInt(2), count * 8, 0, 8,
                            commutative);
                    assertTrue(scan.unsupportedReason(shape).isEmpty(), p::toString);
                    ScheduleChecker.Report report = ScheduleChecker.check(scan, shape);
                    assertTrue(report.ok(), () -> p + " count " + count + ":\n" + report.describe());
                    checked++;
                }
            }
        }
        assertEquals(60 * 3 * 2, checked);
    }

    @Test
    void nodesThatDoNotHoldConsecutiveRanksAreRefusedNamingARank() {
        Shape shape = Shape.reduction(Collective.SCAN, Placement.ofNodeIds(0, 1, 0, 1), 1, 8, 0, 8, true);
        String reason = scan.unsupportedReason(shape).orElseThrow();
        assertTrue(reason.contains("consecutive") && reason.contains("rank 2"), reason);
    }

    /**
     * 4 nodes x 4 ranks: one rank per node crosses the rails, in ceil(log2 4) = 2 steps of b; in the flat scan every
     * rank does (partners r xor 4 and r xor 8 are on other nodes), so a node's rails carry four times the bytes.
     */
    @Test
    void onlyTheNodesLastRanksCrossTheRails() {
        Shape shape = Shape.reduction(Collective.SCAN, Placement.uniform(4, 4), 1, 1024, 0, 8, false);
        assertEquals(2 * 1024, scan.cost(shape).interNodeSentBytes());
        assertEquals(4 * 2 * 1024, bytesAcrossNodes(scan, shape));
        assertEquals(16 * 2 * 1024, bytesAcrossNodes(RecursiveDoublingScan.inclusive(), shape));
    }

    private static long bytesAcrossNodes(io.railcoll.schedule.Algorithm a, Shape shape) {
        long bytes = 0;
        for (int r = 0; r < shape.size(); r++) {
            for (io.railcoll.schedule.Op op : a.program(shape, r).ops()) {
                if (op instanceof io.railcoll.schedule.Op.Put put && !shape.placement().sameNode(r, put.peer())) {
                    bytes += put.length();
                }
            }
        }
        return bytes;
    }
}
