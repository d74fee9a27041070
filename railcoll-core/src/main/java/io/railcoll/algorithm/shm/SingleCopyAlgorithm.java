package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.PeerAccessUser;
import io.railcoll.schedule.Shape;

import java.util.Optional;

/**
 * What the single-copy algorithms share (decision 0143): one node of at least two ranks, and no message (the bytes
 * move in single-copy steps, which the simulator prices), so their cost terms count none. Stateless.
 */
abstract class SingleCopyAlgorithm extends AlgorithmBase implements PeerAccessUser {
    private final String copies;

    /** {@code copies} says, for the cost terms' note, what each rank copies. */
    SingleCopyAlgorithm(String id, Collective collective, String copies) {
        super(id, collective);
        this.copies = copies;
    }

    @Override
    protected final Optional<String> restriction(Shape shape) {
        return OneNode.ofSeveralRanks(shape);
    }

    /** No message: what each subclass states as its own cost (every algorithm declares its cost itself). */
    final CostTerms noMessages(Shape shape) {
        return new LinkTally(shape.placement()).toCost(0, 0, "single-copy steps: " + copies);
    }
}
