package io.railcoll.algorithm.reduction;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.algorithm.ElementBoundaries;
import io.railcoll.algorithm.allreduce.RabenseifnerAllreduce;
import io.railcoll.algorithm.reduce.BinomialReduce;
import io.railcoll.algorithm.reduce.RabenseifnerReduce;
import io.railcoll.algorithm.reducescatter.RecursiveHalvingReduceScatter;
import io.railcoll.algorithm.reducescatter.RingReduceScatter;
import io.railcoll.algorithm.scatter.BinomialScatter;
import io.railcoll.algorithm.scatter.DirectScatter;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.NodeRegionUser;
import io.railcoll.schedule.ScheduleChecker;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The schedules of reduce, Rabenseifner's all-reduce, reduce-scatter, scan, exscan and scatter with what the
 * catalog-wide property tests do not vary: element sizes above one byte (a vector is cut only between elements),
 * non-commutative operators (the checker then demands rank order; the algorithms that cannot give it must refuse),
 * and every root on uneven placements.
 */
class ReductionAlgorithmsTest {
    private static final int[] ELEMENT_BYTES = {1, 4, 8, 16};
    private static final List<Collective> COLLECTIVES = List.of(Collective.REDUCE, Collective.ALLREDUCE,
            Collective.REDUCE_SCATTER, Collective.SCAN, Collective.EXSCAN, Collective.SCATTER);

    private static List<Placement> placements(int n) {
        return n == 9 ? List.of(Placement.uniform(9, 1), Placement.ofCounts(3, 4, 2), Placement.uniform(1, 9))
                : List.of(Placement.uniform(n, 1), Placement.uniform(1, n));
    }

    private static List<Integer> roots(Collective c, int n) {
        if (!c.hasRoot()) {
            return List.of(0);
        }
        List<Integer> roots = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            roots.add(r);
        }
        return roots;
    }

    @Test
    void theCatalogHoldsTheNewAlgorithms() {
        AlgorithmCatalog catalog = AlgorithmCatalog.standard();
        assertEquals(List.of(BinomialReduce.ID, RabenseifnerReduce.ID, "reduce.deterministic"), ids(catalog.forCollective(Collective.REDUCE)));
        assertTrue(ids(catalog.forCollective(Collective.ALLREDUCE)).contains(RabenseifnerAllreduce.ID));
        assertEquals(List.of(RingReduceScatter.ID, RecursiveHalvingReduceScatter.ID, "reduce-scatter.shm",
                "reduce-scatter.deterministic"),
                ids(catalog.forCollective(Collective.REDUCE_SCATTER)));
        assertEquals(List.of("scan.recursive-doubling", "scan.smp", "scan.shm", "scan.shm-single-copy",
                        "scan.deterministic"),
                ids(catalog.forCollective(Collective.SCAN)));
        assertEquals(List.of("exscan.recursive-doubling", "exscan.shm", "exscan.shm-single-copy",
                        "exscan.deterministic"),
                ids(catalog.forCollective(Collective.EXSCAN)));
        assertEquals(List.of(BinomialScatter.ID, DirectScatter.ID), ids(catalog.forCollective(Collective.SCATTER)));
    }

    @Test
    void everyAlgorithmGivesEveryRankItsResultInRankOrderWhereNeeded() {
        int checked = 0;
        for (Collective c : COLLECTIVES) {
            for (Algorithm a : AlgorithmCatalog.standard().forCollective(c)) {
                for (int n = 1; n <= 17; n++) {
                    for (Placement p : placements(n)) {
                        for (int e : c.reduces() ? ELEMENT_BYTES : new int[] {1}) {
                            for (long count : new long[] {0, 1, n - 1, n, n + 1, 3L * n + 2}) {
                                for (boolean commutative : c.reduces() ? new boolean[] {true, false} : new boolean[] {true}) {
                                    for (int ports = 1; ports <= 2; ports++) {
                                        for (int root : roots(c, n)) {
                                            Shape shape = Shape.reduction(c, p, ports, count * e, root, e, commutative);
                                            if (a.unsupportedReason(shape).isPresent()) {
                                                // Only the operator's order, or a one-node algorithm's placement.
                                                assertFalse(commutative && !(a instanceof NodeRegionUser
                                                                && !oneNodeOfSeveral(p)),
                                                        () -> a.id() + " refuses " + shape);
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
            }
        }
        assertTrue(checked > 5000, "checked " + checked);
    }

    @Test
    void onlyTheRingsAndTheSmpAllreducesRefuseNonCommutativeOperators() {
        Placement p = Placement.ofCounts(3, 4, 2);
        List<String> refusing = new ArrayList<>();
        for (Collective c : COLLECTIVES) {
            if (!c.reduces()) {
                continue;
            }
            for (Algorithm a : AlgorithmCatalog.standard().forCollective(c)) {
                if (a instanceof NodeRegionUser) {
                    continue; // one node only (allreduce.shm*): refuses 3,4,2 for that, and runs in rank order
                }
                Shape shape = Shape.reduction(c, p, 1, 64, c.hasRoot() ? 5 : 0, 8, false);
                a.unsupportedReason(shape).ifPresent(reason -> {
                    assertTrue(reason.contains("rank order"), reason);
                    refusing.add(a.id());
                });
            }
        }
        assertEquals(List.of("allreduce.ring", "allreduce.smp", "allreduce.multi-leader",
                        "allreduce.multi-leader-rabenseifner", "allreduce.multi-leader-direct", RingReduceScatter.ID),
                refusing);
    }

    @Test
    void theCheckerCatchesAScanThatLeavesOutARank() {
        // A "scan" whose rank r returns only its own vector: right for rank 0, wrong for every other.
        Shape shape = Shape.reduction(Collective.SCAN, Placement.uniform(3, 1), 1, 8, 0, 4, true);
        ScheduleChecker.Report report = ScheduleChecker.check("own-only", shape,
                r -> new io.railcoll.algorithm.ProgramBuilder(r).copy(io.railcoll.schedule.Buffer.SEND, 0,
                        io.railcoll.schedule.Buffer.RECV, 0, 8).build(), null);
        assertTrue(report.violates(ScheduleChecker.Rule.RESULT), report::describe);
    }

    @Test
    void rabenseifnerMovesTwoPthsOfTheVectorPerRank() {
        Shape shape = Shape.reduction(Collective.ALLREDUCE, Placement.uniform(8, 1), 1, 8 * 1024, 0, 8, true);
        var cost = new RabenseifnerAllreduce().cost(shape);
        assertEquals(6, cost.steps());
        // 2 (p-1)/p b out of each rank (one per node), the ring's amount in log steps.
        assertEquals(2 * 7 * 1024, cost.interNodeSentBytes());
    }

    private static List<String> ids(List<Algorithm> algorithms) {
        return algorithms.stream().map(Algorithm::id).toList();
    }

    private static boolean oneNodeOfSeveral(Placement p) {
        return p.nodeCount() == 1 && p.size() > 1;
    }
}
