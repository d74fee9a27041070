package io.railcoll.algorithm.allreduce;

import io.railcoll.algorithm.ElementBoundaries;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.ScheduleChecker;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The k-port all-reduce beyond what the catalog-wide tests vary: three and four ports (radix 4 and 5, mixed top
 * digits), rank counts of the form {@code m (k+1)^D} and beside them, a non-commutative operator; its cost against
 * equation (3) doubled, and against Rabenseifner's with one port.
 */
class KportAllreduceTest {
    private final KportAllreduce kport = new KportAllreduce();

    @Test
    void everyRankGetsTheRankOrderResultForAnyPortsAndRankCount() {
        int checked = 0;
        for (int n : new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 25, 26, 27, 28}) {
            for (Placement p : new Placement[] {Placement.uniform(n, 1), Placement.uniform(1, n)}) {
                for (int ports = 1; ports <= 4; ports++) {
                    for (long count : new long[] {0, 1, n - 1, n + 1, 3L * n + 2}) {
                        for (boolean commutative : new boolean[] {true, false}) {
                            Shape shape = Shape.reduction(Collective.ALLREDUCE, p, ports, count * 8, 0, 8, commutative);
                            assertTrue(kport.unsupportedReason(shape).isEmpty());
                            ScheduleChecker.Report report = ScheduleChecker.check(kport, shape);
                            assertTrue(report.ok(), report::describe);
                            ElementBoundaries.assertWholeElements(kport, shape);
                            checked++;
                        }
                    }
                }
            }
        }
        assertEquals(20 * 2 * 4 * 5 * 2, checked);
    }

    @Test
    void nineRanksOnTwoPortsMoveTwiceEquationThree() {
        long b = 81 * 8;
        CostTerms cost = kport.cost(Shape.reduction(Collective.ALLREDUCE, Placement.uniform(9, 1), 2, b, 0, 8, true));
        // 2 log3 9 steps; per step the largest part, k of them at once: 27 + 9 elements each way.
        assertEquals(4, cost.steps());
        assertEquals(2 * (9 - 1) * b / (9 * 2), cost.betaBytes());
        // Each rank sends and receives 2 (N-1)/N b, over its two ports.
        assertEquals(2 * 8 * b / 9, cost.interNodeSentBytes());
        assertEquals(2 * 8 * b / 9, cost.interNodeReceivedBytes());
    }

    @Test
    void withOnePortItCostsWhatRabenseifnerCosts() {
        RabenseifnerAllreduce rabenseifner = new RabenseifnerAllreduce();
        for (int n = 1; n <= 17; n++) {
            for (long count : new long[] {0, 1, 5, 1001}) {
                Shape shape = Shape.reduction(Collective.ALLREDUCE, Placement.uniform(n, 1), 1, count * 4, 0, 4, true);
                CostTerms mine = kport.cost(shape);
                CostTerms theirs = rabenseifner.cost(shape);
                assertTrue(mine.sameNumbers(theirs), () -> shape + ": " + mine.numbers() + " vs " + theirs.numbers());
            }
        }
    }
}
