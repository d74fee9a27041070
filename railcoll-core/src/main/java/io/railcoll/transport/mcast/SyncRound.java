package io.railcoll.transport.mcast;

import io.railcoll.MismatchException;
import io.railcoll.RailcollException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One member's bookkeeping of the delayed synchronization (paper 003, sec. 4.3 and Fig. 6): whether it is in one,
 * up to which broadcast ({@code end}, exclusive), which of its children in the sync tree sent their final REPORT,
 * whether it sent its own, and the time-outs taken while waiting. Members agree on every synchronization's end
 * without talking (same broadcasts and flushes in the same order); a child that reports another end is a
 * {@link MismatchException}. A child may report before this member itself reaches the synchronization; its end is
 * then checked when this member enters. A child cannot report twice in one synchronization: it reports the next one
 * only after the manager released this one, and the manager releases after this member reported (or, on the
 * manager, released); a second report means someone moved on without that release, and its error names both
 * reports and this member's state. Owned by the protocol's thread.
 */
final class SyncRound {
    private final int myRank;
    private final int[] childRanks;
    private final boolean[] childFinal;
    /** The range [reportedStart, reportedEnd) each child reported in this synchronization, for error messages. */
    private final long[] reportedStart;
    private final long[] reportedEnd;
    private int childFinals;
    private long pendingChildEnd = -1;

    boolean active;
    /** First broadcast after the synchronized range. */
    long end;
    long startNs;
    /** This member sent its final REPORT (never set on the manager, which releases instead). */
    boolean reportedFinal;
    int senderTimeouts;
    int managerTimeouts;

    SyncRound(int myRank, int[] childRanks) {
        this.myRank = myRank;
        this.childRanks = childRanks.clone();
        this.childFinal = new boolean[childRanks.length];
        this.reportedStart = new long[childRanks.length];
        this.reportedEnd = new long[childRanks.length];
    }

    void enter(long syncEnd, long nowNs) {
        active = true;
        end = syncEnd;
        startNs = nowNs;
        senderTimeouts = 0;
        managerTimeouts = 0;
    }

    /**
     * True when a message about broadcast {@code seq} proves that the manager released this synchronization: this
     * member reported, and {@code seq >= end} is a broadcast only a member past this synchronization can have posted.
     * {@code seq} is a datagram's or tree chunk's broadcast, or the last one a control message names ({@code end - 1}
     * of its range), never the start of its range: an empty range names no broadcast, and the join's [0, 0) starts at
     * the join's own end (decision 0204).
     */
    boolean provenReleasedBy(long seq) {
        return active && reportedFinal && seq >= end;
    }

    /** Records a child's final report of {@code [start, childEnd)}; {@code epochStart} is this member's. */
    void childReported(int fromRank, long start, long childEnd, long epochStart, long nextSeq) {
        int child = -1;
        for (int i = 0; i < childRanks.length; i++) {
            if (childRanks[i] == fromRank) {
                child = i;
            }
        }
        if (child < 0) {
            throw new RailcollException("rank " + myRank + " got a synchronization report of " + range(start, childEnd)
                    + " from rank " + fromRank + ", which is not its child in the synchronization tree (children: "
                    + Arrays.toString(childRanks) + ")");
        }
        if (childFinal[child]) {
            throw new RailcollException("rank " + myRank + " got a second synchronization report from rank " + fromRank
                    + " before its synchronization ended: " + range(start, childEnd) + " after " + range(reportedStart[child], reportedEnd[child])
                    + "; rank " + myRank + " is " + state(epochStart, nextSeq) + ": rank " + fromRank
                    + " went on without the release rank " + myRank + " waits for");
        }
        if (start != epochStart || (active && childEnd != end) || (!active && pendingChildEnd >= 0 && childEnd != pendingChildEnd)) {
            throw new MismatchException("rank " + fromRank + " synchronizes broadcasts #" + start + "..#" + (childEnd - 1)
                    + " while rank " + myRank + " synchronizes #" + epochStart + "..#" + (active ? end - 1 : nextSeq - 1)
                    + ": the ranks called different sequences of broadcasts or flushes");
        }
        pendingChildEnd = active ? -1 : childEnd;
        childFinal[child] = true;
        reportedStart[child] = start;
        reportedEnd[child] = childEnd;
        childFinals++;
    }

    /** Whether every child reported; checks the ends reported before this member entered. */
    boolean subtreeDone() {
        if (childFinals < childRanks.length) {
            return false;
        }
        if (pendingChildEnd >= 0 && pendingChildEnd != end) {
            throw new MismatchException("a child of rank " + myRank + " synchronizes broadcasts up to #" + (pendingChildEnd - 1)
                    + ", this rank up to #" + (end - 1) + ": the ranks called different sequences of broadcasts or flushes");
        }
        pendingChildEnd = -1;
        return true;
    }

    /** The synchronization is over (released): ready for the next. */
    void reset() {
        active = false;
        reportedFinal = false;
        childFinals = 0;
        Arrays.fill(childFinal, false);
    }

    /** A synchronized range, for messages: the join synchronizes nothing. */
    static String range(long start, long end) {
        if (end == start) {
            return start == 0 ? "the join" : "nothing (at #" + start + ")";
        }
        return "broadcasts #" + start + "..#" + (end - 1);
    }

    private String state(long epochStart, long nextSeq) {
        if (!active) {
            return "between synchronizations (broadcasts from #" + epochStart + " on, next #" + nextSeq + ")";
        }
        List<Integer> reported = new ArrayList<>();
        for (int i = 0; i < childRanks.length; i++) {
            if (childFinal[i]) {
                reported.add(childRanks[i]);
            }
        }
        return "in the synchronization of " + range(epochStart, end) + " with reports from ranks " + reported + " of "
                + Arrays.toString(childRanks) + (reportedFinal ? ", its own report sent" : ", its own report or release not sent yet");
    }

    /** Children whose final report is still missing, for time-out messages. */
    List<Integer> missingChildren() {
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < childRanks.length; i++) {
            if (!childFinal[i]) {
                missing.add(childRanks[i]);
            }
        }
        return missing;
    }
}
