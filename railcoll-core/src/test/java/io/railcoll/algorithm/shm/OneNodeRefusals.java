package io.railcoll.algorithm.shm;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every one-node reduction's refusals must say, shared by the tests of each family. */
final class OneNodeRefusals {
    private OneNodeRefusals() {
    }

    /**
     * {@code algorithm}, a one-node reduction that runs on a node's ranks only, refuses two nodes, naming them, and a
     * node of one rank (nothing to combine with).
     */
    static void refusesSeveralNodesAndOneRank(Algorithm algorithm) {
        String nodes = algorithm.unsupportedReason(Shape.reduction(algorithm.collective(), Placement.uniform(2, 2), 1,
                8, 0, 8, true)).orElseThrow(() -> new AssertionError(algorithm.id() + " accepted two nodes"));
        assertTrue(nodes.contains("2 nodes"), nodes);
        assertTrue(algorithm.unsupportedReason(Shape.reduction(algorithm.collective(), Placement.singleNode(1), 1, 8, 0,
                8, true)).isPresent(), algorithm.id() + " accepted one rank");
    }
}
