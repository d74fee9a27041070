package io.railcoll.schedule;

import io.railcoll.topology.Placement;

/**
 * Everything an algorithm may depend on: the collective, who is where, how many ports (rails) each rank drives
 * at once, the block size in bytes (see {@link Collective} for its meaning per collective), and the root
 * (ignored by rootless collectives, where it is 0). {@code groups} is the number of master groups per node for
 * the multi-connection all-gathers of paper 002 (1 elsewhere).
 *
 * <p>For a reduction ({@link Collective#reduces()}) {@code blockBytes} is the vector's size in bytes,
 * {@code elementBytes} the size of one element (an algorithm splits the vector only between elements), and
 * {@code commutative} whether the operator may combine contributions out of rank order (false for a
 * non-commutative user operator: only the algorithms that combine in rank order run such a shape). Elsewhere they
 * are 1 and true. The element type and operator themselves are the call's, not the shape's: one program serves
 * every type of the same size.
 */
public record Shape(Collective collective, Placement placement, int ports, long blockBytes, int root, int groups,
                    int elementBytes, boolean commutative) {

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
        if (elementBytes < 1 || blockBytes % elementBytes != 0) {
            throw new IllegalArgumentException("block size " + blockBytes + " is not a whole number of "
                    + elementBytes + "-byte elements");
        }
    }

    public Shape(Collective collective, Placement placement, int ports, long blockBytes, int root, int groups) {
        this(collective, placement, ports, blockBytes, root, groups, 1, true);
    }

    /** A reduction's shape: a vector of {@code blockBytes} bytes in elements of {@code elementBytes}. */
    public static Shape reduction(Collective collective, Placement placement, int ports, long blockBytes, int root,
                                  int elementBytes, boolean commutative) {
        return new Shape(collective, placement, ports, blockBytes, root, 1, elementBytes, commutative);
    }

    /** Elements in the vector of a reduction ({@code blockBytes / elementBytes}). */
    public long elements() {
        return blockBytes / elementBytes;
    }

    public Shape(Collective collective, Placement placement, int ports, long blockBytes, int root) {
        this(collective, placement, ports, blockBytes, root, 1);
    }

    public int size() {
        return placement.size();
    }

    /** The record's form, without the reduction fields where they are 1 and true (as before they existed). */
    @Override
    public String toString() {
        String s = "Shape[collective=" + collective + ", placement=" + placement + ", ports=" + ports + ", blockBytes="
                + blockBytes + ", root=" + root + ", groups=" + groups;
        return elementBytes == 1 && commutative ? s + "]"
                : s + ", elementBytes=" + elementBytes + ", commutative=" + commutative + "]";
    }
}
