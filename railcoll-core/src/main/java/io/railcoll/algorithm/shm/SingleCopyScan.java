package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.NodeBuffer;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * {@code scan.shm-single-copy} and {@code exscan.shm-single-copy}: a one-node prefix for large vectors by single copy
 * (decision 0227), a chain along the ranks pulled straight between their own buffers, with no node buffer in between.
 * Every rank publishes {@link SingleCopy#READY} (its SEND and RECV are announced then); then, piece by piece (at most
 * {@link #PIECE_BYTES}, whole elements), so that rank r works on piece i while rank r-1 works on piece i+1:
 * <table>
 *   <caption>what rank r pulls and combines per piece (P(k) = c0 op ... op ck)</caption>
 *   <tr><th>rank</th><th>inclusive scan</th><th>exclusive scan</th></tr>
 *   <tr><td>0</td><td>copies its SEND into RECV</td><td>nothing (MPI leaves its RECV undefined; it is untouched)</td></tr>
 *   <tr><td>1</td><td>pulls c0 from rank 0's SEND, combines its own c1</td><td>pulls c0 from rank 0's SEND into RECV</td></tr>
 *   <tr><td>2</td><td>pulls P(1) from rank 1's RECV, combines c2</td><td>pulls c0 from rank 0's SEND and c1 from rank
 *       1's SEND, combines them</td></tr>
 *   <tr><td>r</td><td>pulls P(r-1) from rank r-1's RECV, combines cr</td><td>pulls P(r-2) from rank r-1's RECV and
 *       c(r-1) from its SEND, combines them</td></tr>
 * </table>
 * A rank whose RECV the next one pulls raises {@link #PREFIX} once per piece written; the next awaits the raise of
 * that piece. Then the single-copy ending ({@link SingleCopy#finish}): nobody returns while a node-mate may still read
 * its buffers.
 *
 * <p>Per rank: b pulled and b combined (exclusive: 2b pulled from rank 2 on), whatever L, where {@code scan.shm} has
 * rank r read r vectors through the node buffer; L-1 pieces of delay down the chain, one system call and flag raise
 * per piece. Each prefix is {@code P(r-1) op cr} in rank order, a left fold, so any operator; with a commutative one
 * the inclusive scan pulls P(r-1) straight into RECV and combines its own vector on top (which saves a copy of b), the
 * same bits as IEEE addition and the order-free operators give either way. The bits are those of a sequential
 * {@code ((c0 op c1) op c2) ...}, not {@code scan.shm}'s fold from the right. Nodes = 1, at least two ranks; only
 * where the node agreed on cross-memory attach. Stateless.
 */
public final class SingleCopyScan extends SingleCopyAlgorithm {
    /** Raised by rank r once per piece of its RECV that holds its prefix, where rank r+1 pulls it. */
    static final int PREFIX = 2;
    /**
     * The most bytes of a vector per piece: the unit of the chain's pipeline and of a pulled piece that is combined
     * while it is still in cache; larger only where a vector would be more pieces than a flag counts in one call.
     */
    static final long PIECE_BYTES = 64 * 1024;
    private final boolean exclusive;

    private SingleCopyScan(Collective collective, String copies) {
        super(collective.id() + ".shm-single-copy", collective, copies);
        this.exclusive = collective == Collective.EXSCAN;
    }

    /** {@code scan.shm-single-copy}: rank r gets {@code c0 op ... op cr}. */
    public static SingleCopyScan inclusive() {
        return new SingleCopyScan(Collective.SCAN, "b pulled and b combined per rank, down a chain of L-1 pieces");
    }

    /** {@code exscan.shm-single-copy}: rank r gets {@code c0 op ... op c(r-1)}. */
    public static SingleCopyScan exclusive() {
        return new SingleCopyScan(Collective.EXSCAN, "2b pulled and b combined per rank from rank 2 on, down a chain"
                + " of L-1 pieces");
    }

    /** Bytes per piece: whole elements, at most {@link #PIECE_BYTES} unless the vector has too many of those. */
    static long pieceBytes(Shape shape) {
        long e = shape.elementBytes();
        long fewest = (shape.blockBytes() + NodeBuffer.MAX_COUNT - 1) / NodeBuffer.MAX_COUNT;
        long piece = Math.max(PIECE_BYTES, fewest);
        return Math.max(e, (piece + e - 1) / e * e);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int l = shape.size();
        long b = shape.blockBytes();
        ProgramBuilder p = new ProgramBuilder(rank);
        p.publish(SingleCopy.READY);
        if (b == 0) {
            // Nothing to combine, but one crossing all the same, so that a node-mate that called with another count
            // sees this call's digest at its await and fails with a mismatch rather than at its deadline.
            for (int d = 1; d < l; d++) {
                p.awaitFlag((rank + d) % l, SingleCopy.READY, 1);
            }
            return p.build();
        }
        if (exclusive) {
            exclusive(p, shape, rank);
        } else {
            inclusive(p, shape, rank);
        }
        return SingleCopy.finish(p, rank, l).build();
    }

    private static void inclusive(ProgramBuilder p, Shape shape, int rank) {
        long b = shape.blockBytes();
        if (rank == 0) {
            p.copy(Buffer.SEND, 0, Buffer.RECV, 0, b);
            return;
        }
        long piece = pieceBytes(shape);
        boolean commutative = shape.commutative();
        boolean raises = rank < shape.size() - 1;
        // Rank 1 pulls P(0) = c0 from rank 0's SEND, ready once announced; the others their predecessor's RECV.
        Buffer from = rank == 1 ? Buffer.SEND : Buffer.RECV;
        long temp = commutative ? 0 : p.allocateTemp(Math.min(piece, b));
        if (rank == 1) {
            p.awaitFlag(0, SingleCopy.READY, 1);
        }
        int i = 0;
        for (long at = 0; at < b; at += piece, i++) {
            long n = Math.min(piece, b - at);
            if (rank > 1) {
                p.awaitFlag(rank - 1, PREFIX, i + 1);
            }
            if (commutative) {
                p.peerRead(rank - 1, from, at, Buffer.RECV, at, n);
                p.reduce(Buffer.SEND, at, Buffer.RECV, at, n);
            } else {
                // P(r-1) op cr: the left operand is the pulled prefix.
                p.peerRead(rank - 1, from, at, Buffer.TEMP, temp, n);
                p.copy(Buffer.SEND, at, Buffer.RECV, at, n);
                p.reduce(Buffer.TEMP, temp, Buffer.RECV, at, n);
            }
            if (raises) {
                p.publish(PREFIX);
            }
        }
    }

    private static void exclusive(ProgramBuilder p, Shape shape, int rank) {
        if (rank == 0) {
            return;
        }
        long b = shape.blockBytes();
        long piece = pieceBytes(shape);
        // Rank r's RECV is pulled by rank r+1 from rank 3 on (rank 2 pulls c0 from rank 0's SEND, not rank 1's RECV).
        boolean raises = rank >= 2 && rank < shape.size() - 1;
        long temp = rank >= 2 ? p.allocateTemp(Math.min(piece, b)) : 0;
        p.awaitFlag(rank - 1, SingleCopy.READY, 1);
        if (rank == 2) {
            p.awaitFlag(0, SingleCopy.READY, 1);
        }
        int i = 0;
        for (long at = 0; at < b; at += piece, i++) {
            long n = Math.min(piece, b - at);
            if (rank == 1) {
                p.peerRead(0, Buffer.SEND, at, Buffer.RECV, at, n);
                continue;
            }
            // P(r-2) op c(r-1): the prefix, pulled into TEMP, is the left operand.
            if (rank == 2) {
                p.peerRead(0, Buffer.SEND, at, Buffer.TEMP, temp, n);
            } else {
                p.awaitFlag(rank - 1, PREFIX, i + 1);
                p.peerRead(rank - 1, Buffer.RECV, at, Buffer.TEMP, temp, n);
            }
            p.peerRead(rank - 1, Buffer.SEND, at, Buffer.RECV, at, n);
            p.reduce(Buffer.TEMP, temp, Buffer.RECV, at, n);
            if (raises) {
                p.publish(PREFIX);
            }
        }
    }

    @Override
    public CostTerms cost(Shape shape) {
        return noMessages(shape);
    }

    @Override
    public String summary() {
        return (exclusive ? "exclusive" : "inclusive") + " prefix on one node by single copy: rank r pulls its"
                + " predecessor's prefix (exclusive: and its vector) with cross-memory attach, piece by piece down a"
                + " chain, and combines in rank order (no node buffer); any operator; nodes = 1; only where the node"
                + " agreed on cross-memory attach; decision 0227";
    }
}
