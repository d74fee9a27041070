package io.railcoll.select;

import io.railcoll.schedule.Shape;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.MulticastTime;

import java.util.OptionalDouble;

/**
 * The predicted time of one multicast delivery ({@link MulticastTime}, paper 003's model), or none when the tuning
 * has no {@code model.mcast.*} parameters: then an algorithm with Multicast ops is not costed (only forced or chosen
 * by a rule). The simulator prices a program's Multicast ops with the same formula. Stateless.
 */
final class MulticastCost {
    static final int CHANNELS = MulticastTime.CHANNELS;
    static final long BUFFERED_LIMIT = MulticastTime.BUFFERED_LIMIT;
    static final int SYNC_RADIX = MulticastTime.SYNC_RADIX;

    private MulticastCost() {
    }

    /** The prediction for a broadcast of the shape's block, or empty when the model has no multicast parameters. */
    static OptionalDouble predictNs(Shape shape, CostModel model) {
        return predictNs(shape.blockBytes(), shape.size(), model);
    }

    /** The prediction for a multicast broadcast of {@code bytes} to {@code members}, or empty without parameters. */
    static OptionalDouble predictNs(long bytes, int members, CostModel model) {
        if (model.multicast().isEmpty()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(MulticastTime.ns(bytes, members, model));
    }

    static int ceilLog(int n, int radix) {
        return MulticastTime.ceilLog(n, radix);
    }
}
