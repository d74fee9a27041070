package io.railcoll.schedule;

/**
 * What a reduction leaves in RECV, for the checker: byte {@code x} of a result rank's {@code RECV[0, lengthBytes)}
 * holds the combination of byte {@code x} (or, {@link Span#SCATTERED}, byte {@code r*lengthBytes + x}) of the SEND of
 * the ranks the {@link Span} names, each contribution exactly once; with {@code rankOrder}, in rank order
 * ({@code s0 op s1 op ...}, the order a non-commutative operator needs), otherwise in any order. The bracketing is
 * free: operators are associative. {@link ScheduleChecker#check} derives it from a reduction collective's shape
 * ({@link #of}); hand-built programs pass it to {@link ScheduleChecker#checkReduction}.
 *
 * @param root   the one rank holding the result (reduce), or -1: every rank the span gives one
 * @param counts per-rank block sizes of a {@link Span#SCATTERED} result with per-rank counts (reduce-scatterv): rank
 *               r's result is {@code counts.of(r)} bytes combining every SEND's block r at {@code counts.offset(r)};
 *               null otherwise, when {@code lengthBytes} is every rank's
 */
public record ReductionResult(long lengthBytes, boolean rankOrder, int root, Span span, BlockCounts counts) {

    /** Whose contributions rank r's result combines, and where they sit in SEND. */
    public enum Span {
        /** Every rank's SEND[0, length) (all-reduce, reduce). */
        ALL,
        /** Every rank's SEND block r, {@code SEND[r*length, (r+1)*length)} (reduce-scatter). */
        SCATTERED,
        /** Ranks 0..r, SEND[0, length) (inclusive scan). */
        PREFIX,
        /** Ranks 0..r-1, SEND[0, length); rank 0 has no result (exclusive scan). */
        EXCLUSIVE_PREFIX
    }

    public ReductionResult {
        if (lengthBytes < 0) {
            throw new IllegalArgumentException("negative result length " + lengthBytes);
        }
        if (root < -1) {
            throw new IllegalArgumentException("root must be a rank or -1 (every rank), got " + root);
        }
        if (span == null) {
            throw new IllegalArgumentException("span must not be null");
        }
        if (counts != null && (span != Span.SCATTERED || counts.isMatrix())) {
            throw new IllegalArgumentException("per-rank counts belong to a scattered result only");
        }
    }

    public ReductionResult(long lengthBytes, boolean rankOrder, int root, Span span) {
        this(lengthBytes, rankOrder, root, span, null);
    }

    /** Reduce-scatter with per-rank counts: rank r's result is SEND block r of every rank, {@code counts.of(r)} bytes. */
    public static ReductionResult scattered(BlockCounts counts, boolean rankOrder) {
        return new ReductionResult(counts.largest(), rankOrder, -1, Span.SCATTERED, counts);
    }

    public ReductionResult(long lengthBytes, boolean rankOrder, int root) {
        this(lengthBytes, rankOrder, root, Span.ALL);
    }

    /** All-reduce: every rank's RECV holds the result. */
    public static ReductionResult everyRank(long lengthBytes, boolean rankOrder) {
        return new ReductionResult(lengthBytes, rankOrder, -1);
    }

    /** Reduce to a root: only {@code root}'s RECV holds the result. */
    public static ReductionResult atRoot(long lengthBytes, boolean rankOrder, int root) {
        return new ReductionResult(lengthBytes, rankOrder, root);
    }

    /** What a reduction collective's shape prescribes; null for a collective that does not combine. */
    public static ReductionResult of(Shape shape) {
        long b = shape.blockBytes();
        boolean order = !shape.commutative();
        return switch (shape.collective()) {
            case ALLREDUCE -> everyRank(b, order);
            case REDUCE -> atRoot(b, order, shape.root());
            case REDUCE_SCATTER -> new ReductionResult(b, order, -1, Span.SCATTERED);
            case SCAN -> new ReductionResult(b, order, -1, Span.PREFIX);
            case EXSCAN -> new ReductionResult(b, order, -1, Span.EXCLUSIVE_PREFIX);
            case REDUCE_SCATTERV -> scattered(shape.counts(), order);
            case BARRIER, BROADCAST, GATHER, ALLGATHER, ALLTOALL, SCATTER, GATHERV, SCATTERV, ALLGATHERV, ALLTOALLV -> null;
        };
    }

    /** Bytes of {@code rank}'s result. */
    long lengthBytes(int rank) {
        return counts == null ? lengthBytes : counts.of(rank);
    }

    boolean holdsResult(int rank) {
        return (root < 0 || root == rank) && !(span == Span.EXCLUSIVE_PREFIX && rank == 0);
    }

    /** One past the last rank whose contribution {@code rank}'s result holds. */
    int contributorsEnd(int rank, int n) {
        return switch (span) {
            case ALL, SCATTERED -> n;
            case PREFIX -> rank + 1;
            case EXCLUSIVE_PREFIX -> rank;
        };
    }

    /** Where in SEND the contributions to {@code rank}'s result start. */
    long sendOffset(int rank) {
        if (counts != null) {
            return counts.offset(rank);
        }
        return span == Span.SCATTERED ? rank * lengthBytes : 0;
    }
}
