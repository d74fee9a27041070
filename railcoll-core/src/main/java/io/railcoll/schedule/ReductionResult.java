package io.railcoll.schedule;

/**
 * What a reduction leaves in RECV, for the checker: on every rank ({@code root == -1}) or on {@code root} alone,
 * byte {@code x} of {@code RECV[0, lengthBytes)} holds the combination of byte {@code x} of every rank's SEND, each
 * rank's contribution exactly once; with {@code rankOrder}, in rank order ({@code s0 op s1 op ... op s(N-1)}, the
 * order a non-commutative operator needs), otherwise in any order. The bracketing is free: operators are
 * associative. {@link ScheduleChecker#check} derives it from a reduction collective's shape (all-reduce: every rank,
 * in rank order unless the shape is commutative); hand-built programs pass it to {@link ScheduleChecker#checkReduction}.
 */
public record ReductionResult(long lengthBytes, boolean rankOrder, int root) {
    public ReductionResult {
        if (lengthBytes < 0) {
            throw new IllegalArgumentException("negative result length " + lengthBytes);
        }
        if (root < -1) {
            throw new IllegalArgumentException("root must be a rank or -1 (every rank), got " + root);
        }
    }

    /** All-reduce: every rank's RECV holds the result. */
    public static ReductionResult everyRank(long lengthBytes, boolean rankOrder) {
        return new ReductionResult(lengthBytes, rankOrder, -1);
    }

    /** Reduce to a root: only {@code root}'s RECV holds the result. */
    public static ReductionResult atRoot(long lengthBytes, boolean rankOrder, int root) {
        return new ReductionResult(lengthBytes, rankOrder, root);
    }

    boolean holdsResult(int rank) {
        return root < 0 || root == rank;
    }
}
