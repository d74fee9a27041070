package io.railcoll.engine;

import io.railcoll.reduce.Reduction;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.transport.FrameHeader;

/**
 * Whether a frame's call (its header: sequence number, collective with type and operator, root, block size or
 * counts digest, algorithm) disagrees with this rank's call of the same number, and how to say so. The engine throws
 * the mismatch; this class only compares and words it. Every data frame is compared on arrival, so the comparisons
 * come first and a message is built only when they fail. Stateless.
 */
final class CallDisagreement {
    private CallDisagreement() {
    }

    /**
     * How the call in {@code h} disagrees with {@code posting}, this rank's ({@code rank}) call of that number in
     * flight; null when it agrees.
     */
    static String withPosted(Posting posting, FrameHeader h, int rank) {
        Shape shape = posting.shape;
        Collective mine = posting.collective;
        if ((h.collective & 0xff) != mine.wireCode()) {
            return "rank " + h.sourceRank + " called " + name(h.collective & 0xff) + " as collective #" + h.seq
                    + " while rank " + rank + " called " + mine.id();
        }
        if (h.collective >>> 8 != posting.operands) {
            return "operator or type mismatch in " + mine.id() + " #" + h.seq + ": rank " + h.sourceRank
                    + " combines with " + Reduction.describeWireCode(h.collective >>> 8) + ", rank " + rank + " with "
                    + Reduction.describeWireCode(posting.operands);
        }
        if (h.root != shape.root()) {
            return "rank " + h.sourceRank + " runs " + mine.id() + " #" + h.seq + " with root " + h.root + ", rank "
                    + rank + " with root " + shape.root();
        }
        if (shape.counts() != null && h.blockBytes != shape.wireBlockBytes()) {
            return "count mismatch in " + mine.id() + " #" + h.seq + ": rank " + h.sourceRank + " passed other per-rank"
                    + " counts than rank " + rank + " (digest " + Long.toHexString(h.blockBytes) + " against "
                    + Long.toHexString(shape.wireBlockBytes()) + "; rank " + rank + "'s: " + shape.counts()
                    + "): every rank must pass the same counts";
        }
        if (shape.counts() == null && h.blockBytes != shape.blockBytes()) {
            return "size mismatch in " + mine.id() + " #" + h.seq + ": rank " + h.sourceRank + " passed "
                    + h.blockBytes + "-byte blocks, rank " + rank + " " + shape.blockBytes() + "-byte blocks";
        }
        if (h.algorithm != posting.program.algorithmCode) {
            return "rank " + h.sourceRank + " runs a different algorithm for " + mine.id() + " #" + h.seq + " than rank "
                    + rank + " (" + posting.program.algorithmId + "): force the same algorithm, and set"
                    + " RAILCOLL_DETERMINISTIC alike, on every rank";
        }
        return null;
    }

    /**
     * How the call in {@code h} (a probe) disagrees with {@code r}, the record of this rank's ({@code rank}) finished
     * call of that number; null when it agrees.
     */
    static String withRecord(CallHistory.Call r, FrameHeader h, int rank) {
        if (h.collective == r.wireCollective() && h.root == r.root() && h.blockBytes == r.blockBytes()
                && h.algorithm == r.algorithm()) {
            return null;
        }
        boolean sameCollective = (h.collective & 0xff) == r.collective().wireCode();
        boolean counts = r.collective().variable() && sameCollective;
        return (counts && h.blockBytes != r.blockBytes() ? "count mismatch: " : "") + "rank " + h.sourceRank + " is in "
                + name(h.collective & 0xff) + " #" + h.seq + " (root " + h.root + ", " + sizes(counts, h.blockBytes)
                + ") where rank " + rank + " called " + r.collective().id() + " (" + r.algorithmId() + ", root "
                + r.root() + ", " + sizes(counts, r.blockBytes()) + ")"
                + (h.collective >>> 8 != r.operands() && sameCollective ? " with another type or operator" : "")
                + (h.algorithm != r.algorithm() && h.collective == r.wireCollective() ? " with another algorithm" : "");
    }

    /** For data of call {@code h.seq}, which this rank has finished: the ranks disagree on what was called. */
    static String dataForFinished(FrameHeader h) {
        return "rank " + h.sourceRank + " sent data for " + name(h.collective & 0xff) + " #" + h.seq + ", a collective"
                + " this rank has already finished: the ranks disagree on what was called";
    }

    /** The collective of wire code {@code code}, by name where there is one (a peer's frame may carry anything). */
    private static String name(int code) {
        try {
            return Collective.fromWireCode(code).id();
        } catch (IllegalArgumentException e) {
            return "collective code " + code;
        }
    }

    private static String sizes(boolean counts, long wireBlockBytes) {
        return counts ? "counts digest " + Long.toHexString(wireBlockBytes) : wireBlockBytes + "-byte blocks";
    }
}
