package io.railcoll.algorithm.allreduce;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.algorithm.ElementBoundaries;
import io.railcoll.algorithm.shm.NodeAllreduce;
import io.railcoll.algorithm.shm.NodeDoublingAllreduce;
import io.railcoll.algorithm.shm.SingleCopyAllreduce;
import io.railcoll.algorithm.shm.SingleCopyMultiLeaderAllreduce;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.ScheduleChecker;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The all-reduce schedules with what the catalog-wide property tests do not vary: element sizes above one byte
 * (the ring cuts only between elements) and non-commutative operators (the checker then demands rank order).
 */
class AllreduceAlgorithmsTest {
    private static final int[] ELEMENT_BYTES = {1, 4, 8, 16};

    private static List<Placement> placements(int n) {
        return n == 9 ? List.of(Placement.uniform(9, 1), Placement.ofCounts(3, 4, 2), Placement.uniform(1, 9))
                : n == 16 ? List.of(Placement.uniform(16, 1), Placement.uniform(1, 16), Placement.uniform(4, 4))
                : n == 10 ? List.of(Placement.uniform(10, 1), Placement.uniform(1, 10), Placement.uniform(5, 2))
                : n == 4 ? List.of(Placement.uniform(4, 1), Placement.uniform(1, 4), Placement.uniform(2, 2))
                : List.of(Placement.uniform(n, 1), Placement.uniform(1, n));
    }

    @Test
    void everyAlgorithmCombinesEveryContributionOnceOnEveryRank() {
        List<Algorithm> algorithms = AlgorithmCatalog.standard().forCollective(Collective.ALLREDUCE);
        assertEquals(List.of(RecursiveDoublingAllreduce.ID, RingAllreduce.ID, RabenseifnerAllreduce.ID,
                        KportAllreduce.ID, SmpAllreduce.ONE_LEADER_ID, SmpAllreduce.MULTI_LEADER_ID,
                        SmpAllreduce.MULTI_LEADER_RABENSEIFNER_ID, SmpAllreduce.MULTI_LEADER_DIRECT_ID,
                        NodeAllreduce.ID, NodeDoublingAllreduce.ID, SingleCopyAllreduce.ID,
                        SingleCopyMultiLeaderAllreduce.ID, "allreduce.deterministic"),
                algorithms.stream().map(Algorithm::id).toList());
        int checked = 0;
        for (Algorithm a : algorithms) {
            for (int n = 1; n <= 17; n++) {
                for (Placement p : placements(n)) {
                    for (int e : ELEMENT_BYTES) {
                        for (long count : new long[] {0, 1, n - 1, n, n + 1, 3L * n + 2}) {
                            for (boolean commutative : new boolean[] {true, false}) {
                                for (int ports = 1; ports <= 2; ports++) {
                                    Shape shape = Shape.reduction(Collective.ALLREDUCE, p, ports, count * e, 0, e,
                                            commutative);
                                    if (a.unsupportedReason(shape).isPresent()) {
                                        continue;
                                    }
                                    ScheduleChecker.Report report = ScheduleChecker.check(a, shape);
                                    assertTrue(report.ok(), report::describe);
                                    ElementBoundaries.assertWholeElements(a, shape);
                                    checked++;
                                }
                            }
                        }
                    }
                }
            }
        }
        assertTrue(checked > 1000, "checked " + checked);
    }

    @Test
    void recursiveDoublingCombinesInRankOrderSoNonCommutativeOperatorsRunIt() {
        RecursiveDoublingAllreduce rd = new RecursiveDoublingAllreduce();
        for (int n : new int[] {2, 3, 5, 6, 7, 8, 12, 13, 16, 31}) {
            Shape shape = Shape.reduction(Collective.ALLREDUCE, Placement.uniform(n, 1), 1, 40, 0, 4, false);
            assertTrue(rd.unsupportedReason(shape).isEmpty());
            assertTrue(ScheduleChecker.check(rd, shape).ok(), () -> ScheduleChecker.check(rd, shape).describe());
        }
    }

    @Test
    void theRingRefusesNonCommutativeOperatorsNamingWhy() {
        Shape shape = Shape.reduction(Collective.ALLREDUCE, Placement.uniform(4, 1), 1, 64, 0, 8, false);
        String reason = new RingAllreduce().unsupportedReason(shape).orElseThrow();
        assertTrue(reason.contains("rank order"), reason);
        assertFalse(new RingAllreduce().unsupportedReason(
                Shape.reduction(Collective.ALLREDUCE, Placement.uniform(4, 1), 1, 64, 0, 8, true)).isPresent());
    }

    @Test
    void theRingSendsTwoNthsOfTheVectorPerRank() {
        // 2(N-1)/N of b each way, per rank: the bandwidth-optimal amount.
        Shape shape = Shape.reduction(Collective.ALLREDUCE, Placement.uniform(8, 1), 1, 8 * 1024, 0, 8, true);
        var cost = new RingAllreduce().cost(shape);
        assertEquals(2 * 7 * 1024, cost.interNodeSentBytes());
        assertEquals(14, cost.steps());
    }

    @Test
    void rabenseifnerAmongTheLeadersCarriesTheBoundOverTheRails() {
        // 4 nodes of 4 ranks, 4 leaders per node, each leading a quarter of 4096 doubles (8 KiB): recursive doubling
        // moves log2 4 = 2 slices per leader over the rails, Rabenseifner 2 (4-1)/4 = 1.5.
        Shape shape = Shape.reduction(Collective.ALLREDUCE, Placement.uniform(4, 4), 1, 4096 * 8, 0, 8, true);
        assertEquals(2 * 8192, SmpAllreduce.everyRankLeads().cost(shape).interNodeSentBytes());
        assertEquals(3 * 8192 / 2, SmpAllreduce.everyRankLeadsRabenseifner().cost(shape).interNodeSentBytes());
        assertEquals(3 * 8192 / 2, SmpAllreduce.everyRankLeadsRabenseifner().cost(shape).interNodeReceivedBytes());
    }

    @Test
    void directAmongTheLeadersCarriesTheSameBytesInFewerSteps() {
        // The same 1.5 slices per leader as Rabenseifner, but the rail phase is 2 waits (reduce-scatter, all-gather)
        // instead of 2 log2 4 = 4 (decision 0176): with a port per peer (k = 3) that is fewer steps; with one port
        // its 3 puts per wait count as 3 steps.
        for (int k : new int[] {1, 3}) {
            Shape shape = Shape.reduction(Collective.ALLREDUCE, Placement.uniform(4, 4), k, 4096 * 8, 0, 8, true);
            var direct = SmpAllreduce.everyRankLeadsDirect().cost(shape);
            assertEquals(3 * 8192 / 2, direct.interNodeSentBytes());
            assertEquals(3 * 8192 / 2, direct.interNodeReceivedBytes());
            if (k == 3) {
                var rabenseifner = SmpAllreduce.everyRankLeadsRabenseifner().cost(shape);
                assertTrue(direct.steps() < rabenseifner.steps(), direct.steps() + " steps against "
                        + rabenseifner.steps());
            }
        }
    }
}
