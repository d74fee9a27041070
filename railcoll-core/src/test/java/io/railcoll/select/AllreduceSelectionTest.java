package io.railcoll.select;

import io.railcoll.algorithm.allreduce.KportAllreduce;
import io.railcoll.algorithm.allreduce.RabenseifnerAllreduce;
import io.railcoll.algorithm.allreduce.RecursiveDoublingAllreduce;
import io.railcoll.algorithm.allreduce.RingAllreduce;
import io.railcoll.algorithm.reduce.BinomialReduce;
import io.railcoll.algorithm.reduce.RabenseifnerReduce;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.LinkCost;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The model picks a bandwidth-optimal algorithm (Rabenseifner's, which moves the ring's bytes in log2 N steps) for a
 * large all-reduce and recursive doubling for a small one, and never the ring for a non-commutative operator: not
 * on the first call, and not from a remembered choice for the same size (the model's representative shape and its
 * remembered choices keep the commutativity). Likewise the k-port form where the rank count suits k+1 and more
 * than one rail, and Rabenseifner's reduce for a large reduce.
 */
class AllreduceSelectionTest {
    private static final Tuning BYTES_BOUND = TuningFile.parse("""
            railcoll.tuning.version = 1
            model.shm.alpha-ns = 2000
            model.shm.ns-per-byte = 0.25
            model.rail.alpha-ns = 30000
            model.rail.ns-per-byte = 0.5
            """, "t")
            .withModel(CostModel.hockney(new LinkCost(1000, 1, 0), new LinkCost(1000, 1, 0)));

    @Test
    void largeVectorsTakeRabenseifnerNonCommutativeOnesNeverTheRing() {
        Placement p = Placement.uniform(8, 1);
        AlgorithmSelector selector = new AlgorithmSelector(Map.of(), BYTES_BOUND);
        // 3,000,008 bytes: not a power of two, so the model costs a rounded representative shape.
        long b = 8L * 375_001;
        assertEquals(RabenseifnerAllreduce.ID,
                selector.select(Shape.reduction(Collective.ALLREDUCE, p, 1, b, 0, 8, true)).id());
        assertEquals(RabenseifnerAllreduce.ID,
                selector.select(Shape.reduction(Collective.ALLREDUCE, p, 1, b, 0, 8, false)).id());
        selector.force(RingAllreduce.ID);
        assertEquals(RingAllreduce.ID, selector.select(Shape.reduction(Collective.ALLREDUCE, p, 1, b, 0, 8, true)).id());
        selector.clear(Collective.ALLREDUCE);
        assertEquals(RecursiveDoublingAllreduce.ID,
                selector.select(Shape.reduction(Collective.ALLREDUCE, p, 1, 8, 0, 8, true)).id());
    }

    @Test
    void aNonCommutativeReduceScatterTakesTheRecursiveHalvingNeverTheRing() {
        Placement p = Placement.uniform(8, 1);
        AlgorithmSelector selector = new AlgorithmSelector(Map.of(), BYTES_BOUND);
        for (long b : new long[] {8, 8L * 375_001}) {
            assertEquals("reduce-scatter.recursive-halving",
                    selector.select(Shape.reduction(Collective.REDUCE_SCATTER, p, 1, b, 0, 8, false)).id());
        }
        // Forcing the ring for a non-commutative operator is refused with the ring's reason, not run out of order.
        selector.force("reduce-scatter.ring");
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> selector.select(Shape.reduction(Collective.REDUCE_SCATTER, p, 1, 64, 0, 8, false)));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("rank order"), e.getMessage());
    }

    @Test
    void largeVectorsOnNineRanksAndTwoRailsTakeTheKportForm() {
        // 9 = (k+1)^2 for k = 2: two levels each way, no fold; Rabenseifner folds one pair and halves three times.
        Placement p = Placement.uniform(9, 1);
        AlgorithmSelector selector = new AlgorithmSelector(Map.of(), BYTES_BOUND);
        long b = 8L * 375_001;
        assertEquals(KportAllreduce.ID, selector.select(Shape.reduction(Collective.ALLREDUCE, p, 2, b, 0, 8, false)).id());
        // With one rail the k-port form costs what Rabenseifner's schedule costs, and the catalog's first of equals
        // is kept (a non-commutative operator, so that the ring, cheaper on 9 ranks, is out).
        assertEquals(RabenseifnerAllreduce.ID,
                selector.select(Shape.reduction(Collective.ALLREDUCE, p, 1, b, 0, 8, false)).id());
    }

    @Test
    void largeReducesTakeRabenseifnerSmallOnesTheTree() {
        Placement p = Placement.uniform(8, 1);
        AlgorithmSelector selector = new AlgorithmSelector(Map.of(), BYTES_BOUND);
        assertEquals(RabenseifnerReduce.ID,
                selector.select(Shape.reduction(Collective.REDUCE, p, 1, 8L * 375_001, 3, 8, false)).id());
        assertEquals(BinomialReduce.ID, selector.select(Shape.reduction(Collective.REDUCE, p, 1, 8, 3, 8, false)).id());
    }
}
