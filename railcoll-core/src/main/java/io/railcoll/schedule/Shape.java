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
 *
 * <p>A v-variant ({@link Collective#variable()}) has {@code counts}, every rank's block in bytes (all-to-allv: the
 * matrix), and {@code blockBytes} is the largest of them; built without counts, every count is {@code blockBytes}
 * (what catalog-wide tests and tools that know one size get). Other collectives have null counts.
 */
public record Shape(Collective collective, Placement placement, int ports, long blockBytes, int root, int groups,
                    int elementBytes, boolean commutative, BlockCounts counts) {

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
        if (!collective.variable()) {
            if (counts != null) {
                throw new IllegalArgumentException(collective.id() + " has one block size, not per-rank counts");
            }
        } else {
            if (counts == null) {
                counts = BlockCounts.uniform(placement.size(), blockBytes, collective == Collective.ALLTOALLV);
            }
            if (counts.ranks() != placement.size() || counts.isMatrix() != (collective == Collective.ALLTOALLV)) {
                throw new IllegalArgumentException(collective.id() + " on " + placement.size() + " ranks needs "
                        + (collective == Collective.ALLTOALLV ? "a " + placement.size() + "x" + placement.size()
                        + " count matrix" : placement.size() + " counts") + ", got " + counts.ranks()
                        + (counts.isMatrix() ? " ranks' matrix" : " counts"));
            }
            if (counts.largest() != blockBytes) {
                throw new IllegalArgumentException("the block size of a " + collective.id() + " shape is its largest"
                        + " count, " + counts.largest() + ", not " + blockBytes);
            }
            if (elementBytes > 1) {
                long[] all = counts.toArray();
                for (int i = 0; i < all.length; i++) {
                    if (all[i] % elementBytes != 0) {
                        throw new IllegalArgumentException("count " + all[i] + " of rank " + i + " is not a whole"
                                + " number of " + elementBytes + "-byte elements");
                    }
                }
            }
        }
    }

    public Shape(Collective collective, Placement placement, int ports, long blockBytes, int root, int groups,
                 int elementBytes, boolean commutative) {
        this(collective, placement, ports, blockBytes, root, groups, elementBytes, commutative, null);
    }

    /** A v-variant's shape: per-rank {@code counts} in bytes, elements of {@code elementBytes} (1 for bytes). */
    public static Shape variable(Collective collective, Placement placement, int ports, int root, BlockCounts counts,
                                 int elementBytes, boolean commutative) {
        return new Shape(collective, placement, ports, counts.largest(), root, 1, elementBytes, commutative, counts);
    }

    /**
     * Bytes of {@code rank}'s SEND buffer: {@link Collective#sendBytes(long, int, int, int)}, or from the counts of
     * a v-variant.
     */
    public long sendBytes(int rank) {
        if (counts == null) {
            return collective.sendBytes(blockBytes, size(), rank, root);
        }
        return switch (collective) {
            case GATHERV, ALLGATHERV -> counts.of(rank);
            case SCATTERV -> rank == root ? counts.total() : 0;
            case ALLTOALLV -> counts.rowTotal(rank);
            case REDUCE_SCATTERV -> counts.total();
            default -> throw new AssertionError(collective);
        };
    }

    /** Bytes of {@code rank}'s RECV buffer, as {@link #sendBytes}. */
    public long recvBytes(int rank) {
        if (counts == null) {
            return collective.recvBytes(blockBytes, size(), rank, root);
        }
        return switch (collective) {
            case GATHERV -> rank == root ? counts.total() : 0;
            case ALLGATHERV -> counts.total();
            case SCATTERV, REDUCE_SCATTERV -> counts.of(rank);
            case ALLTOALLV -> counts.columnTotal(rank);
            default -> throw new AssertionError(collective);
        };
    }

    /**
     * What frame headers carry for ranks to compare (decision 0085): the block size, or a v-variant's
     * {@link BlockCounts#digest}.
     */
    public long wireBlockBytes() {
        return counts == null ? blockBytes : counts.digest();
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
        String c = counts == null ? "" : ", counts=" + counts;
        return elementBytes == 1 && commutative ? s + c + "]"
                : s + ", elementBytes=" + elementBytes + ", commutative=" + commutative + c + "]";
    }
}
