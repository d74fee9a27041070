package io.railcoll.algorithm.allreduce;

import io.railcoll.algorithm.ElementBoundaries;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.ScheduleChecker;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SMP-aware all-reduces on the placements they exist for (several ranks per node, uneven and scattered nodes),
 * which the catalog-wide tests cover only as N x 1 and 1 x N: every rank's result checked by the schedule checker
 * (every contribution combined once, same bits everywhere), and the bytes each phase puts on the rails.
 */
class SmpAllreduceTest {
    private static final List<SmpAllreduce> ALGORITHMS = List.of(SmpAllreduce.oneLeader(),
            SmpAllreduce.everyRankLeads());

    private static List<Placement> placements() {
        return List.of(Placement.uniform(1, 1), Placement.uniform(2, 3), Placement.ofCounts(3, 4, 2),
                Placement.uniform(4, 4), Placement.uniform(5, 2), Placement.ofCounts(1, 5), Placement.ofCounts(2, 1, 3),
                Placement.uniform(3, 1), Placement.ofNodeIds(0, 1, 0, 1, 2, 0),
                Placement.ofNodeIds(1, 0, 0, 2, 1, 2, 2, 1, 0));
    }

    @Test
    void everyPlacementCountAndElementSizeIsCombinedOnceOnEveryRank() {
        int checked = 0;
        for (SmpAllreduce a : ALGORITHMS) {
            for (Placement p : placements()) {
                for (int e : new int[] {1, 4, 8}) {
                    for (long count : new long[] {0, 1, 2, 3, 7, 16, 61}) {
                        for (int ports = 1; ports <= 2; ports++) {
                            Shape shape = Shape.reduction(Collective.ALLREDUCE, p, ports, count * e, 0, e, true);
                            ScheduleChecker.Report report = ScheduleChecker.check(a, shape);
                            assertTrue(report.ok(), () -> a.id() + " " + p + " count " + count + " e " + e + ":\n"
                                    + report.describe());
                            ElementBoundaries.assertWholeElements(a, shape);
                            checked++;
                        }
                    }
                }
            }
        }
        assertEquals(2 * 10 * 3 * 7 * 2, checked);
    }

    /** Seeded random placements: up to 6 nodes of 1..5 ranks, in scattered order. */
    @Test
    void randomScatteredPlacementsAreCombinedOnceOnEveryRank() {
        Random random = new Random(20261127);
        for (int trial = 0; trial < 40; trial++) {
            int nodes = 1 + random.nextInt(6);
            int[] counts = new int[nodes];
            int n = 0;
            for (int m = 0; m < nodes; m++) {
                counts[m] = 1 + random.nextInt(5);
                n += counts[m];
            }
            int[] ids = new int[n];
            int at = 0;
            for (int m = 0; m < nodes; m++) {
                for (int i = 0; i < counts[m]; i++) {
                    ids[at++] = m;
                }
            }
            for (int i = n - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = ids[i];
                ids[i] = ids[j];
                ids[j] = t;
            }
            Placement p = Placement.ofNodeIds(renumbered(ids));
            long count = random.nextInt(40);
            for (SmpAllreduce a : ALGORITHMS) {
                Shape shape = Shape.reduction(Collective.ALLREDUCE, p, 1 + random.nextInt(2), count * 4, 0, 4, true);
                ScheduleChecker.Report report = ScheduleChecker.check(a, shape);
                assertTrue(report.ok(), () -> a.id() + " " + p + ":\n" + report.describe());
            }
        }
    }

    /** Node ids in order of first appearance, as a placement names them. */
    private static int[] renumbered(int[] ids) {
        int[] map = new int[ids.length + 1];
        java.util.Arrays.fill(map, -1);
        int next = 0;
        int[] out = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            if (map[ids[i]] < 0) {
                map[ids[i]] = next++;
            }
            out[i] = map[ids[i]];
        }
        return out;
    }

    /**
     * 4 nodes x 4 ranks, 4 KiB: one leader sends the whole vector over the rails in each of log2 4 = 2 steps; with
     * four leaders each sends a quarter, so the busiest rank's rail bytes drop fourfold, while the flat recursive
     * doubling sends the whole vector log2 16 = 4 times, 2 of them across nodes (rank 0 to partners 4 and 8).
     */
    @Test
    void moreLeadersPutLessOnEachRanksRails() {
        Shape shape = Shape.reduction(Collective.ALLREDUCE, Placement.uniform(4, 4), 1, 4096, 0, 8, true);
        CostTerms one = SmpAllreduce.oneLeader().cost(shape);
        CostTerms every = SmpAllreduce.everyRankLeads().cost(shape);
        assertEquals(2 * 4096, one.interNodeSentBytes());
        assertEquals(2 * 1024, every.interNodeSentBytes());
        assertEquals(2 * 4096, new RecursiveDoublingAllreduce().cost(shape).interNodeSentBytes());
        assertEquals(3 * 4096, one.intraNodeReceivedBytes(), "the master takes 3 vectors in and nothing else");
    }

    @Test
    void nonCommutativeOperatorsAreRefusedNamingWhy() {
        Shape shape = Shape.reduction(Collective.ALLREDUCE, Placement.uniform(2, 2), 1, 64, 0, 8, false);
        for (SmpAllreduce a : ALGORITHMS) {
            assertTrue(a.unsupportedReason(shape).orElseThrow().contains("rank order"));
        }
    }

    @Test
    void leadersNeverOutnumberTheSmallestNode() {
        assertEquals(2, SmpAllreduce.everyRankLeads().leaders(Placement.ofCounts(3, 4, 2)));
        assertEquals(1, SmpAllreduce.oneLeader().leaders(Placement.ofCounts(3, 4, 2)));
        assertEquals(4, SmpAllreduce.everyRankLeads().leaders(Placement.uniform(4, 4)));
    }
}
