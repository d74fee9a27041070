package io.railcoll.algorithm.shm;

import io.railcoll.schedule.Shape;

import java.util.Optional;

/** The restriction of the one-node shared-memory algorithms: every rank on one node, and at least two of them. */
final class OneNode {
    private OneNode() {
    }

    /** Why {@code shape} is not one node of at least two ranks, or empty when it is. */
    static Optional<String> ofSeveralRanks(Shape shape) {
        if (shape.placement().nodeCount() != 1) {
            return Optional.of("the ranks span " + shape.placement().nodeCount() + " nodes: this one carries a"
                    + " collective only when every rank is on one node");
        }
        if (shape.size() < 2) {
            return Optional.of("a single rank has no node-mates to share memory with");
        }
        return Optional.empty();
    }
}
