package io.railcoll.schedule;

import io.railcoll.topology.Placement;

/**
 * Everything an algorithm may depend on: the collective, who is where, how many ports (rails) each rank drives
 * at once, the block size in bytes (see {@link Collective} for its meaning per collective), and the root
 * (ignored by rootless collectives, where it is 0). {@code groups} is the number of master groups per node for
 * the multi-connection all-gathers of paper 002 (1 elsewhere).
 */
public record Shape(Collective collective, Placement placement, int ports, long blockBytes, int root, int groups) {

    public Shape {
        if (ports < 1) {
            throw new IllegalArgumentException("ports must be >= 1, got " + ports);
        }
        if (blockBytes < 0) {
            throw new IllegalArgumentException("block size must be >= 0, got " + blockBytes);
        }
        if (root < 0 || root >= placement.size()) {
            throw new IllegalArgumentException("root " + root + " out of range for " + placement.size() + " ranks");
        }
        if (groups < 1) {
            throw new IllegalArgumentException("groups must be >= 1, got " + groups);
        }
    }

    public Shape(Collective collective, Placement placement, int ports, long blockBytes, int root) {
        this(collective, placement, ports, blockBytes, root, 1);
    }

    public int size() {
        return placement.size();
    }
}
