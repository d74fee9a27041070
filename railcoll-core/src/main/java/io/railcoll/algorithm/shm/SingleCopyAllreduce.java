package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.EvenSplit;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * {@code allreduce.shm-single-copy}: a one-node all-reduce for large vectors by single copy (decisions 0143, 0171): a
 * reduce-scatter and an all-gather straight between the ranks' own buffers, with no node buffer in between.
 * <ol>
 *   <li>Every rank publishes {@link SingleCopy#READY} (its SEND and RECV are announced then).</li>
 *   <li>Rank j combines slice j (1/L of the vector, whole elements) of every node-mate's SEND into its own RECV,
 *       pulling each with cross-memory attach, piece by piece through a TEMP of at most {@link #PIECE_BYTES} (so the
 *       pulled piece is still in cache when it is combined), in rank order {@code c0 op (c1 op (... op cL-1))}, and
 *       publishes {@link #REDUCED}.</li>
 *   <li>Every rank pulls every other slice from its combiner's RECV once that one's REDUCED is seen, then the
 *       single-copy ending ({@link SingleCopy#finish}): nobody returns while a node-mate may still read its buffers.</li>
 * </ol>
 * Per rank {@code 2 (L-1)/L b} pulled and {@code (L-1)/L b} combined, against {@code allreduce.shm}'s write of b and
 * about 2b read through the node buffer; three flag crossings and {@code 2 (L-1)} system calls, so it pays from
 * vectors of a few hundred KiB. Every element is combined once, by one rank, in rank order, then copied: the same
 * bits on every rank, and the same as {@code allreduce.shm}'s; any operator. Nodes = 1, at least two ranks; only where
 * the node agreed on cross-memory attach. Stateless.
 */
public final class SingleCopyAllreduce extends SingleCopyAlgorithm {
    public static final String ID = "allreduce.shm-single-copy";
    /** Raised by rank j once slice j of its RECV holds the node's combined result. */
    static final int REDUCED = 2;
    /** The most bytes of one node-mate's slice pulled before they are combined. */
    static final long PIECE_BYTES = 256 * 1024;

    public SingleCopyAllreduce() {
        super(ID, Collective.ALLREDUCE, "2 (L-1)/L b pulled and (L-1)/L b combined per rank");
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int l = shape.size();
        long e = shape.elementBytes();
        long elements = shape.blockBytes() / e;
        ProgramBuilder p = new ProgramBuilder(rank);
        if (elements == 0) {
            // Nothing to combine, but one crossing all the same, so that a node-mate that called with another count
            // sees this call's digest at its await and fails with a mismatch rather than at its deadline.
            p.publish(SingleCopy.READY);
            for (int d = 1; d < l; d++) {
                p.awaitFlag((rank + d) % l, SingleCopy.READY, 1);
            }
            return p.build();
        }
        p.publish(SingleCopy.READY);
        long off = EvenSplit.first(elements, l, rank) * e;
        long len = EvenSplit.first(elements, l, rank + 1) * e - off;
        long piece = Math.max(e, PIECE_BYTES - PIECE_BYTES % e);
        long temp = p.allocateTemp(Math.min(piece, len));
        boolean[] seen = new boolean[l];
        for (long at = off; at < off + len; at += piece) {
            long n = Math.min(piece, off + len - at);
            // c0 op (c1 op (... op cL-1)): the last rank's piece first, straight into RECV.
            pull(p, seen, l - 1, rank, at, Buffer.RECV, at, n);
            for (int q = l - 2; q >= 0; q--) {
                if (q == rank) {
                    p.reduce(Buffer.SEND, at, Buffer.RECV, at, n);
                } else {
                    pull(p, seen, q, rank, at, Buffer.TEMP, temp, n);
                    p.reduce(Buffer.TEMP, temp, Buffer.RECV, at, n);
                }
            }
        }
        p.publish(REDUCED);
        for (int d = 1; d < l; d++) {
            int q = (rank + d) % l;
            long qOff = EvenSplit.first(elements, l, q) * e;
            long qLen = EvenSplit.first(elements, l, q + 1) * e - qOff;
            p.awaitFlag(q, REDUCED, 1);
            if (qLen > 0) {
                p.peerRead(q, Buffer.RECV, qOff, Buffer.RECV, qOff, qLen);
            }
        }
        return SingleCopy.finish(p, rank, l).build();
    }

    /** Node-mate {@code q}'s SEND range into {@code dst} (this rank's own by a local copy), awaiting its READY once. */
    private static void pull(ProgramBuilder p, boolean[] seen, int q, int rank, long at, Buffer dst, long dstOff,
                             long n) {
        if (q == rank) {
            p.copy(Buffer.SEND, at, dst, dstOff, n);
            return;
        }
        if (!seen[q]) {
            p.awaitFlag(q, SingleCopy.READY, 1);
            seen[q] = true;
        }
        p.peerRead(q, Buffer.SEND, at, dst, dstOff, n);
    }

    @Override
    public CostTerms cost(Shape shape) {
        return noMessages(shape);
    }

    @Override
    public String summary() {
        return "shared-memory all-reduce on one node by single copy: rank j pulls slice j of every node-mate's SEND"
                + " and combines it in rank order, then every rank pulls the other slices from their combiners' RECV"
                + " (reduce-scatter + all-gather, one copy per byte, no node buffer); any operator; nodes = 1; only"
                + " where the node agreed on cross-memory attach; decision 0171";
    }
}
