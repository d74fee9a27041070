package io.railcoll.algorithm.reduce;

import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Rabenseifner's reduce: the root receives {@code (p-1)/p b} twice (halving and gather) in {@code 2 log2 p} steps
 * whatever it is, one more step when it sits out of the fold. (Results, rank order and every root are checked by
 * {@code ReductionAlgorithmsTest} with the rest of the catalog.)
 */
class RabenseifnerReduceTest {
    private final RabenseifnerReduce reduce = new RabenseifnerReduce();

    @Test
    void eightRanksTakeSixStepsAndTheRootReceivesTwiceSevenEighths() {
        long b = 8 * 1024;
        for (int root = 0; root < 8; root++) {
            CostTerms cost = reduce.cost(Shape.reduction(Collective.REDUCE, Placement.uniform(8, 1), 1, b, root, 8, true));
            assertEquals(6, cost.steps());
            assertEquals(2 * 7 * b / 8, cost.interNodeReceivedBytes());
            // The most a rank sends: its halving's 7/8 b, then the half it gathered (the collector's partner in the
            // first gather step).
            assertEquals(7 * b / 8 + b / 2, cost.interNodeSentBytes());
        }
    }

    @Test
    void aRootThatSitsOutGetsTheVectorFromItsNeighbourInOneMoreStep() {
        long b = 8 * 600;
        Placement six = Placement.uniform(6, 1); // p = 4, ranks 1 and 3 fold into 0 and 2
        CostTerms sitsOut = reduce.cost(Shape.reduction(Collective.REDUCE, six, 1, b, 3, 8, true));
        CostTerms remains = reduce.cost(Shape.reduction(Collective.REDUCE, six, 1, b, 2, 8, true));
        assertEquals(remains.steps() + 1, sitsOut.steps());
        assertEquals(remains.betaBytes() + b, sitsOut.betaBytes());
    }
}
