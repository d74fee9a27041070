package io.railcoll.select;

import io.railcoll.algorithm.allreduce.RecursiveDoublingAllreduce;
import io.railcoll.algorithm.allreduce.RingAllreduce;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.LinkCost;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The model picks the ring for a large commutative all-reduce and recursive doubling for a small one, and never
 * the ring for a non-commutative operator: not on the first call, and not from a remembered choice for the same
 * size (the model's representative shape and its remembered choices keep the commutativity).
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
    void largeCommutativeVectorsTakeTheRingNonCommutativeOnesNever() {
        Placement p = Placement.uniform(8, 1);
        AlgorithmSelector selector = new AlgorithmSelector(Map.of(), BYTES_BOUND);
        // 3,000,008 bytes: not a power of two, so the model costs a rounded representative shape.
        long b = 8L * 375_001;
        assertEquals(RingAllreduce.ID,
                selector.select(Shape.reduction(Collective.ALLREDUCE, p, 1, b, 0, 8, true)).id());
        assertEquals(RecursiveDoublingAllreduce.ID,
                selector.select(Shape.reduction(Collective.ALLREDUCE, p, 1, b, 0, 8, false)).id());
        assertEquals(RecursiveDoublingAllreduce.ID,
                selector.select(Shape.reduction(Collective.ALLREDUCE, p, 1, 8, 0, 8, true)).id());
    }
}
