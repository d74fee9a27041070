package io.railcoll.schedule;

import java.util.List;

public final class ResourceTable {
    /**
     * An algorithm whose ops fall into named phases (paper 002's "Phase 1: per-node shared memory gather", ...).
     * The resource table reports each phase separately; other algorithms are one phase.
     */
    public interface Phased {
        /** The phase names in order; {@link #phaseOfOps} indexes this list. */
        List<String> phaseNames();

        /** The phase of every op of {@code program(shape, rank)}, in op order. */
        int[] phaseOfOps(Shape shape, int rank);
    }
}
