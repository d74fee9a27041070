package io.railcoll.algorithm;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;

import java.util.Optional;

/**
 * What every catalog algorithm shares: its id and collective, and the checks every shape must pass (the right
 * collective; buffers whose sizes fit in a long, however much TEMP the algorithm needs). An algorithm with further
 * restrictions overrides {@link #restriction}. Subclasses are stateless and thread-safe.
 */
public abstract class AlgorithmBase implements Algorithm {
    private final String id;
    private final Collective collective;

    protected AlgorithmBase(String id, Collective collective) {
        this.id = id;
        this.collective = collective;
    }

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final Collective collective() {
        return collective;
    }

    @Override
    public final Optional<String> unsupportedReason(Shape shape) {
        if (shape.collective() != collective) {
            return Optional.of(id + " runs " + collective.id() + ", but the shape is a " + shape.collective().id());
        }
        long n = shape.size();
        // The most any algorithm here holds: N*N blocks per level of an all-to-all exchange, plus the buffers.
        long blocks = n * n * (Radix.ceilLog(n, 2) + 3L);
        if (shape.blockBytes() > 0 && shape.blockBytes() > Long.MAX_VALUE / blocks) {
            return Optional.of("block size " + shape.blockBytes() + " with N=" + n
                    + " makes buffer sizes overflow 64 bits");
        }
        return restriction(shape);
    }

    /** Further reasons this algorithm cannot run {@code shape}; none by default. */
    protected Optional<String> restriction(Shape shape) {
        return Optional.empty();
    }

    @Override
    public String toString() {
        return id;
    }
}
